# The WebAssembly modules (included by CMakeLists.txt when EMSCRIPTEN):
#   dist/s2s-core.js, dist/s2s-core.wasm    the translator: emscripten's glue and module
#   dist/s2s-train.js, dist/s2s-train.wasm  the trainer, for train() and the page's Train view
#   dist/index.js, dist/index.d.ts          the hand-written wrapper (src/wasm/), with its plain
#   dist/options.js, dist/word-attention.js   modules (no WebAssembly), which the page imports too
#
# Both link the libraries CMakeLists.txt defines, compiled with its flags
# (s2s_settings); only the modules' own link flags are here. s2s-core is
# inference only: s2s_decode brings the model and the text code, and
# nothing of training, evaluation or the corpus reader, so the page's first
# download stays small. s2s-train adds s2s_train and is fetched only when
# someone trains.
set(S2S_DIST_DIR ${CMAKE_SOURCE_DIR}/dist)

set(S2S_WASM_LINK_OPTIONS
  --bind                     # Embind: Session (bindings.cpp), TrainingRun (train_bindings.cpp)
  -sMODULARIZE=1             # a factory function instead of a global Module ...
  -sEXPORT_ES6=1             # ... exported as the default export of an ES module
  # web,worker and not node: emscripten 3.1.6's Node path uses __dirname (absent
  # in ES modules) and Node 20's fetch cannot read file paths. The wrapper
  # reads the .wasm with fs in Node and passes it as wasmBinary instead.
  -sENVIRONMENT=web,worker
  -sFILESYSTEM=0             # no file system: models arrive as bytes from the wrapper
  -sALLOW_MEMORY_GROWTH=1    # models and long inputs need more than the initial 16 MiB
  -sINITIAL_MEMORY=16777216  # emscripten's default, stated: the heap starts small and grows on demand
)

add_executable(s2s_core src/wasm/bindings.cpp)
target_link_libraries(s2s_core PRIVATE s2s_decode)
add_executable(s2s_train_module src/wasm/train_bindings.cpp)
target_link_libraries(s2s_train_module PRIVATE s2s_train s2s_decode)
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
