# The WebAssembly modules (included by CMakeLists.txt when EMSCRIPTEN):
#   dist/s2s-core.js, dist/s2s-core.wasm    the translator: emscripten's glue and module
#   dist/s2s-train.js, dist/s2s-train.wasm  the trainer, for train() and the page's Train view
#   dist/*.js, dist/*.d.ts                  the hand-written wrapper: a copy of src/wasm/
#   dist/options.js                         translate's option ranges and defaults, generated
#                                           from the C++ option table (src/decode/option_ranges.h)
#   dist/trainer-options.js                 the trainer's option ranges and defaults, generated
#                                           from its table (src/wasm/run_options.h)
# The wrapper, options.js and trainer-options.js are target s2s_wrapper (built after the modules).
#
# Both link the libraries CMakeLists.txt defines, compiled with its flags
# (s2s_settings); only the modules' own link flags are here. s2s-core is
# inference only: s2s_decode brings the model and the text code, and
# nothing of training, evaluation or the corpus reader, so the page's first
# download stays small. s2s-train adds s2s_train and is fetched only when
# someone trains.
set(S2S_DIST_DIR ${CMAKE_SOURCE_DIR}/dist)

set(S2S_WASM_LINK_OPTIONS
  --bind                     # Embind: Session (bindings.cpp), BrowserTrainingRun (train_bindings.cpp)
  # No code generated at run time: Embind's invokers are otherwise built with
  # new Function, which a page's Content Security Policy allows only with
  # 'unsafe-eval'. Without it the element runs under script-src HOST blob:
  # 'wasm-unsafe-eval' (docs/page.md; tests/e2e/csp.test.mjs).
  -sDYNAMIC_EXECUTION=0
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

# The wrapper: every hand-written module of src/wasm/ (*.js, *.d.ts) is
# copied to dist/, so that the page (web/) and the npm package import the
# same files. This rule is the one that puts them there (scripts/build-wasm.sh
# only runs this build); the glob is checked again at each build
# (CONFIGURE_DEPENDS), so a new module needs no list.
file(GLOB S2S_WRAPPER_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/wasm/*.js ${CMAKE_SOURCE_DIR}/src/wasm/*.d.ts)
set(S2S_WRAPPER_OUTPUTS)
foreach(source ${S2S_WRAPPER_SOURCES})
  get_filename_component(file ${source} NAME)
  add_custom_command(
    OUTPUT ${S2S_DIST_DIR}/${file}
    COMMAND ${CMAKE_COMMAND} -E copy ${source} ${S2S_DIST_DIR}/${file}
    DEPENDS ${source}
    COMMENT "Copying src/wasm/${file} to dist/"
  )
  list(APPEND S2S_WRAPPER_OUTPUTS ${S2S_DIST_DIR}/${file})
endforeach()

# dist/options.js, the ranges and defaults of translate's options, is
# written from the C++ option table as the built s2s-core module reports it
# (limits()), so the JavaScript side never writes them (the reasons for a
# file at build time rather than a lookup at run time are in the script's
# header). It runs on the Node that emcc itself runs on: emcmake passes it
# as the emulator, followed by flags for emscripten's own use
# (--experimental-wasm-threads, which Node 20 refuses), so only the program
# is taken. The native build is not needed.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  message(FATAL_ERROR "No Node.js to run scripts/write-option-ranges.mjs: emscripten's toolchain found none "
                      "(CMAKE_CROSSCOMPILING_EMULATOR); install Node 20 (scripts/setup.sh) and configure again")
endif()
list(GET CMAKE_CROSSCOMPILING_EMULATOR 0 S2S_NODE)
add_custom_command(
  OUTPUT ${S2S_DIST_DIR}/options.js
  COMMAND ${S2S_NODE} ${CMAKE_SOURCE_DIR}/scripts/write-option-ranges.mjs ${S2S_DIST_DIR}
  DEPENDS s2s_core ${CMAKE_SOURCE_DIR}/scripts/write-option-ranges.mjs
  COMMENT "Writing dist/options.js from the C++ option table (s2s-core's limits())"
)
# dist/trainer-options.js, the ranges and defaults of the trainer's options,
# the same way from s2s-train's table (trainerLimits()).
add_custom_command(
  OUTPUT ${S2S_DIST_DIR}/trainer-options.js
  COMMAND ${S2S_NODE} ${CMAKE_SOURCE_DIR}/scripts/write-option-ranges.mjs ${S2S_DIST_DIR} trainer
  DEPENDS s2s_train_module ${CMAKE_SOURCE_DIR}/scripts/write-option-ranges.mjs
  COMMENT "Writing dist/trainer-options.js from the trainer's option table (s2s-train's trainerLimits())"
)
# dist/model-worker.bundle.js and dist/training-worker.bundle.js: the
# package's translation worker (model-worker.js, createTranslator's, which
# the demo page starts early) and training worker (training-worker.js,
# createTrainerWorker's), each bundled with what it imports into one module
# (scripts/bundle-worker.mjs, with the project's esbuild); rebuilt when the
# API's modules change.
add_custom_command(
  OUTPUT ${S2S_DIST_DIR}/model-worker.bundle.js ${S2S_DIST_DIR}/training-worker.bundle.js
  COMMAND ${S2S_NODE} ${CMAKE_SOURCE_DIR}/scripts/bundle-worker.mjs ${S2S_DIST_DIR}
  DEPENDS s2s_core s2s_train_module ${S2S_WRAPPER_OUTPUTS} ${S2S_DIST_DIR}/options.js ${S2S_DIST_DIR}/trainer-options.js
          ${CMAKE_SOURCE_DIR}/scripts/bundle-worker.mjs
  COMMENT "Bundling the workers into dist/model-worker.bundle.js and dist/training-worker.bundle.js (scripts/bundle-worker.mjs)"
)
# web/demo/page-boot.js (git-ignored): the demo page's start script
# (web/demo/boot.src.js) with the models it offers and its start-up modules
# filled in from their owners (scripts/write-page-boot.mjs), rebuilt when
# the page's modules change. A page file, so it is written beside the page,
# not into the package's dist/.
file(GLOB_RECURSE S2S_PAGE_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/web/*.js)
list(REMOVE_ITEM S2S_PAGE_SOURCES ${CMAKE_SOURCE_DIR}/web/demo/page-boot.js)
add_custom_command(
  OUTPUT ${CMAKE_SOURCE_DIR}/web/demo/page-boot.js
  COMMAND ${S2S_NODE} ${CMAKE_SOURCE_DIR}/scripts/write-page-boot.mjs ${S2S_DIST_DIR}
  DEPENDS ${S2S_WRAPPER_OUTPUTS} ${S2S_DIST_DIR}/options.js ${S2S_PAGE_SOURCES} ${CMAKE_SOURCE_DIR}/scripts/write-page-boot.mjs
  COMMENT "Writing the page's start script web/demo/page-boot.js (scripts/write-page-boot.mjs)"
)
add_custom_target(s2s_wrapper ALL DEPENDS ${S2S_WRAPPER_OUTPUTS} ${S2S_DIST_DIR}/options.js ${S2S_DIST_DIR}/trainer-options.js
  ${S2S_DIST_DIR}/model-worker.bundle.js ${S2S_DIST_DIR}/training-worker.bundle.js
  ${CMAKE_SOURCE_DIR}/web/demo/page-boot.js)

# The decoder step's kernels in WebAssembly (npm run bench:kernels), with
# the modules' compile settings: not built by default.
add_executable(bench_kernels EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/bench/kernels.cpp)
target_link_libraries(bench_kernels PRIVATE s2s_model)
target_link_options(bench_kernels PRIVATE -sENVIRONMENT=node -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1)
set_target_properties(bench_kernels PROPERTIES SUFFIX .cjs)
