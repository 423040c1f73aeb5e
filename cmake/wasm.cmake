# The WebAssembly modules (included by CMakeLists.txt when EMSCRIPTEN):
#   dist/s2s-core.js, dist/s2s-core.wasm    the translator: emscripten's glue and module
#   dist/s2s-train.js, dist/s2s-train.wasm  the trainer, for train() and the page's Train view
#   dist/index.js, dist/index.d.ts          the hand-written wrapper (src/wasm/), with its plain
#   dist/options.js, dist/word-attention.js   modules (no WebAssembly), which the page imports too
#
# s2s-core is inference only: the tokenizer, the model, the decoder and the
# bindings. src/train and src/eval are left out (translating never trains or
# scores), and so is the corpus reader: the page's first download stays
# small. s2s-train adds src/train and is fetched only when someone trains.
file(GLOB S2S_WASM_INFERENCE_SOURCES CONFIGURE_DEPENDS src/model/*.cpp src/decode/*.cpp)
list(APPEND S2S_WASM_INFERENCE_SOURCES
  src/text/bpe.cpp           # subword pieces: every tokenizer call of a BPE model needs it
  src/text/tokenizer.cpp
  src/text/utf8.cpp
  src/text/vocabulary.cpp
)
file(GLOB S2S_WASM_TRAIN_SOURCES CONFIGURE_DEPENDS src/train/*.cpp)
list(APPEND S2S_WASM_TRAIN_SOURCES src/wasm/train_bindings.cpp)

set(S2S_DIST_DIR ${CMAKE_SOURCE_DIR}/dist)

# The native libraries are defined for every toolchain; here only the two
# modules are built (the native CLI and tests are not).
set_target_properties(s2s_inference s2s_train PROPERTIES EXCLUDE_FROM_ALL ON)

set(S2S_WASM_COMPILE_OPTIONS
  ${S2S_WARNINGS}
  -O3                        # speed: the decoder is GEMV-bound
  -msimd128                  # WASM SIMD: Eigen's scalar loops auto-vectorize (~4.7x on GEMV here)
  -fwasm-exceptions          # C++ exceptions become catchable; every one is caught in bindings.cpp
)

set(S2S_WASM_LINK_OPTIONS
  -O3
  -msimd128
  -fwasm-exceptions          # must match the compile flag, or a throw aborts the runtime
  --bind                     # Embind: Session (bindings.cpp), TrainingRun (train_bindings.cpp)
  -sMODULARIZE=1             # a factory function instead of a global Module ...
  -sEXPORT_ES6=1             # ... exported as the default export of an ES module
  # web,worker and not node: emscripten 3.1.6's Node path uses __dirname (absent
  # in ES modules) and Node 20's fetch cannot read file paths. The wrapper
  # reads the .wasm with fs in Node and passes it as wasmBinary instead.
  -sENVIRONMENT=web,worker
  -sFILESYSTEM=0             # no file system: models arrive as bytes from the wrapper
  -sALLOW_MEMORY_GROWTH=1    # models and long inputs need more than the initial 16 MiB
  -sINITIAL_MEMORY=16777216 # emscripten's default, stated: the heap starts small and grows on demand
)

# The shared code is compiled once and linked into both modules.
add_library(s2s_wasm_inference OBJECT ${S2S_WASM_INFERENCE_SOURCES})
add_executable(s2s_core src/wasm/bindings.cpp $<TARGET_OBJECTS:s2s_wasm_inference>)
add_executable(s2s_train_module ${S2S_WASM_TRAIN_SOURCES} $<TARGET_OBJECTS:s2s_wasm_inference>)
foreach(target s2s_wasm_inference s2s_core s2s_train_module)
  target_include_directories(${target} PRIVATE ${S2S_INCLUDES})
  target_compile_definitions(${target} PRIVATE EIGEN_MPL2_ONLY)
  target_compile_options(${target} PRIVATE ${S2S_WASM_COMPILE_OPTIONS})
endforeach()
target_link_options(s2s_core PRIVATE ${S2S_WASM_LINK_OPTIONS} -sEXPORT_NAME=createS2sCore)
target_link_options(s2s_train_module PRIVATE ${S2S_WASM_LINK_OPTIONS} -sEXPORT_NAME=createS2sTrain)
set_target_properties(s2s_core PROPERTIES OUTPUT_NAME s2s-core SUFFIX .js RUNTIME_OUTPUT_DIRECTORY ${S2S_DIST_DIR})
set_target_properties(s2s_train_module PROPERTIES OUTPUT_NAME s2s-train SUFFIX .js RUNTIME_OUTPUT_DIRECTORY ${S2S_DIST_DIR})

# The wrapper is copied, not generated: dist/ mirrors src/wasm/ so that the
# page (web/) and the npm package import the same files.
set(S2S_WRAPPER_FILES index.js index.d.ts options.js word-attention.js)
set(S2S_WRAPPER_OUTPUTS)
foreach(file ${S2S_WRAPPER_FILES})
  add_custom_command(
    OUTPUT ${S2S_DIST_DIR}/${file}
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/src/wasm/${file} ${S2S_DIST_DIR}/${file}
    DEPENDS ${CMAKE_SOURCE_DIR}/src/wasm/${file}
    COMMENT "Copying src/wasm/${file} to dist/"
  )
  list(APPEND S2S_WRAPPER_OUTPUTS ${S2S_DIST_DIR}/${file})
endforeach()
add_custom_target(s2s_wrapper ALL DEPENDS ${S2S_WRAPPER_OUTPUTS})
add_dependencies(s2s_core s2s_wrapper)
add_dependencies(s2s_train_module s2s_wrapper)
