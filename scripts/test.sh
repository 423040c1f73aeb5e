#!/usr/bin/env bash
# `npm test`: installs what is missing, builds, and runs every test tier:
#   1. C++ unit and golden tests (doctest, tests/cpp)
#   2. node:test (tests/js): the native CLI as users run it; the WASM build's
#      JavaScript API, its agreement with native, its memory; the packed npm
#      package installed into a fresh folder; the package in Chromium, plain
#      and bundled with esbuild
#   3. the demo page end to end (tests/e2e): web/ in Debian's Chromium, driven
#      by playwright-core; screenshots in tests/e2e/artifacts/
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-native.sh
bash scripts/build-wasm.sh

echo "== C++ tests (doctest)"
./build/native/seq2seq_tests

echo "== CLI, WASM, package and browser tests (node:test)"
node --test tests/js/

echo "== The demo page in Chromium (node:test, tests/e2e)"
node --test tests/e2e/
