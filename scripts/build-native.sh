#!/usr/bin/env bash
# Configures (once) and builds the native targets: build/native/seq2seq and
# build/native/seq2seq_tests. Incremental: only what changed is rebuilt.
#   bash scripts/build-native.sh              the native preset (-march=native)
#   bash scripts/build-native.sh native-sse   build/native-sse/seq2seq: the CLI
#                                             at WebAssembly's vector width
#                                             (SSE4.2), for npm run bench
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-native}
case "$preset" in
  native|native-sse) ;;
  *) echo "build-native: unknown preset '$preset'; use native or native-sse" >&2; exit 2 ;;
esac
# One build at a time in a build folder (two makes in one tree corrupt it).
mkdir -p build
exec 9>"build/.$preset.lock"
flock 9
if [[ ! -f build/$preset/CMakeCache.txt ]]; then
  cmake --preset "$preset" >/dev/null
fi
cmake --build --preset "$preset"
