#!/usr/bin/env bash
# The native tests under AddressSanitizer, UndefinedBehaviorSanitizer and
# LeakSanitizer: the sanitize preset (-O1, Eigen's own asserts on), built in
# build/sanitize/. Any report fails the run: UBSan does not recover, ASan
# stops at the first error, and LeakSanitizer (on by default with ASan on
# Linux) fails the process at exit when anything leaked.
#
#   scripts/sanitize.sh          builds and runs the C++ tests (doctest)
#   scripts/sanitize.sh --cli    also builds the CLI and runs tests/js/cli.test.mjs against it
set -euo pipefail
cd "$(dirname "$0")/.."

with_cli=false
case "${1:-}" in
  "") ;;
  --cli) with_cli=true ;;
  *) echo "sanitize: unknown argument '$1' (the only option is --cli)" >&2; exit 2 ;;
esac

targets=(seq2seq_tests)
$with_cli && targets+=(seq2seq)
mkdir -p build
(
  # One build at a time in build/sanitize.
  flock 9
  if [[ ! -f build/sanitize/CMakeCache.txt ]]; then
    cmake --preset sanitize >/dev/null
  fi
  cmake --build --preset sanitize --target "${targets[@]}" >/dev/null
) 9>build/.sanitize.lock

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
./build/sanitize/seq2seq_tests

if $with_cli; then
  S2S_CLI=build/sanitize/seq2seq node --test tests/js/cli.test.mjs
fi
