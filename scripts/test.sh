#!/usr/bin/env bash
# `npm test`: installs what is missing, builds, and runs every test tier:
#   1. C++ unit and golden tests (doctest, tests/cpp)
#   2. the native CLI as users run it (node:test, tests/js/cli.test.mjs)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-native.sh

echo "== C++ tests (doctest)"
./build/native/seq2seq_tests

echo "== CLI and JavaScript tests (node:test)"
node --test tests/js/
