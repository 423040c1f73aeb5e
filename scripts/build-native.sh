#!/usr/bin/env bash
# Configures (once) and builds the native targets: build/native/seq2seq and
# build/native/seq2seq_tests. Incremental: only what changed is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
# One build at a time in build/native (two makes in one tree corrupt it).
mkdir -p build
exec 9>build/.native.lock
flock 9
if [[ ! -f build/native/CMakeCache.txt ]]; then
  cmake --preset native >/dev/null
fi
cmake --build --preset native
