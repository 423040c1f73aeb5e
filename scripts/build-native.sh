#!/usr/bin/env bash
# Configures (once) and builds the native targets: build/native/seq2seq and
# build/native/seq2seq_tests. Incremental: only what changed is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f build/native/CMakeCache.txt ]]; then
  cmake --preset native >/dev/null
fi
cmake --build --preset native
