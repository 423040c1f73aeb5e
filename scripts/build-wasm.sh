#!/usr/bin/env bash
# Configures (once) and builds dist/ (the wasm preset, cmake/wasm.cmake):
# the WebAssembly modules (s2s-core.js/.wasm, s2s-train.js/.wasm:
# emscripten), the hand-written wrapper copied from src/wasm/, and
# options.js generated from the C++ option table, and the translation
# worker bundled into one file (dist/model-worker.bundle.js, which the demo
# page starts; scripts/bundle-worker.mjs, a step of the CMake build). Incremental: with nothing
# changed it only checks timestamps. `npm run build:wasm` runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
# One build at a time in build/wasm (two makes in one tree corrupt it).
mkdir -p build
exec 9>build/.wasm.lock
flock 9

# Debian's emscripten needs Debian's Node modules (acorn, ...) because the
# `node` on PATH may be another Node.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

if ! command -v emcmake >/dev/null; then
  echo "build-wasm: emscripten is not installed; run \`bash scripts/setup.sh\` (or: sudo apt-get install -y emscripten)" >&2
  exit 1
fi
# Configure once, through emcmake (it supplies the Emscripten toolchain file);
# again if build/wasm was configured some other way.
if ! grep -qs 'CMAKE_TOOLCHAIN_FILE.*Emscripten.cmake' build/wasm/CMakeCache.txt; then
  rm -rf build/wasm
  emcmake cmake --preset wasm >/dev/null
fi
cmake --build --preset wasm
