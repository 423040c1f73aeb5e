#!/usr/bin/env bash
# `npm test`: installs what is missing, builds, and runs every test tier:
#   1. C++ unit and golden tests (doctest, tests/cpp), then the same tests
#      under ASan, UBSan and LeakSanitizer (scripts/sanitize.sh), then every
#      committed fuzz input (seeds and past crashes) replayed once through
#      each libFuzzer target (scripts/fuzz.sh replay): the same inputs every
#      run, so the gate decides the same way; random search is npm run fuzz
#   2. node:test (tests/js): the native CLI as users run it; the WASM build's
#      JavaScript API, its agreement with native, its memory; the packed npm
#      package installed into a fresh folder; the package in Chromium, plain
#      and built by Vite, webpack, Rollup and esbuild (and vitest under jsdom;
#      jest under node, jsdom and happy-dom)
#   3. the demo page end to end (tests/e2e): web/ in Debian's Chromium, driven
#      by playwright-core; screenshots in tests/e2e/artifacts/
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
bash scripts/build-native.sh
bash scripts/build-wasm.sh

echo "== C++ tests (doctest)"
./build/native/seq2seq_tests

echo "== C++ tests under AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer"
bash scripts/sanitize.sh

echo "== Fuzz inputs replayed (libFuzzer with ASan and UBSan): tests/fuzz/corpus and tests/fuzz/crashes"
bash scripts/fuzz.sh replay

echo "== CLI, WASM, package and browser tests (node:test)"
node --test tests/js/

echo "== The demo page in Chromium (node:test, tests/e2e)"
node --test tests/e2e/
