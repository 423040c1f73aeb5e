#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (the fuzz preset: clang,
# AddressSanitizer, UndefinedBehaviorSanitizer, LeakSanitizer) and runs them.
# Fails if any input crashes, trips a sanitizer, leaks, hangs or runs out of
# memory.
#
#   scripts/fuzz.sh replay [TARGET...]       every committed input once, in a
#                                            fixed order: the gate (npm test)
#   scripts/fuzz.sh [SECONDS] [TARGET...]    random search, SECONDS per target
#                                            (default 60): npm run fuzz
#
# Committed inputs: the seeds, tests/fuzz/corpus/TARGET/, and every input that
# once found a bug, tests/fuzz/crashes/TARGET/ (what a search finds goes
# there once fixed, so the gate replays it from then on). Replay decides the
# same way every run; the search does not, so it stays outside the gate.
# The inputs a search adds go to build/fuzz/corpus/TARGET/, so later searches
# start where earlier ones stopped (delete the folder to start from the
# seeds again). A failing input is saved in build/fuzz/artifacts/TARGET/;
# rerun it with build/fuzz/TARGET FILE. Logs: build/fuzz/logs/TARGET.log.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=search
seconds=${1:-60}
if [[ $seconds == replay ]]; then
  mode=replay
fi
shift || true
targets=("$@")
((${#targets[@]})) || targets=(fuzz_model_file fuzz_translate)
if [[ $mode == search ]] && { ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); }; then
  echo "fuzz: give 'replay' or SECONDS (a whole number of seconds), got '$seconds'" >&2
  exit 2
fi

# One build at a time in build/fuzz.
mkdir -p build
exec 9>build/.fuzz.lock
flock 9
if [[ ! -f build/fuzz/CMakeCache.txt ]]; then
  cmake --preset fuzz >/dev/null
fi
cmake --build --preset fuzz >/dev/null

# Per target: the largest input worth trying (model seeds are about 5 KB;
# 512 bytes of text already reach the 200-token cut), and the time one input
# may take before it counts as a hang. The worst translation (200 source
# tokens, beam 16, 512 output tokens) takes a fraction of a second natively
# but several seconds with ASan, UBSan and Eigen's asserts on a busy core.
declare -A max_len=([fuzz_model_file]=16384 [fuzz_translate]=512)
declare -A timeout=([fuzz_model_file]=10 [fuzz_translate]=60)

# One run of the target's binary with the sanitizers' options and the limits
# every run shares, its output in $log: -timeout, one input taking longer is
# a hang (see above); -rss_limit_mb and -malloc_limit_mb, a huge allocation
# (a length field trusted) is a failure, not a slow run. Leak detection is on
# (libFuzzer's default).
run_fuzzer() {
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$binary" -timeout="${timeout[$target]:-10}" -rss_limit_mb=2048 -malloc_limit_mb=1024 "$@" >"$log" 2>&1
}

failed=()
for target in "${targets[@]}"; do
  binary=build/fuzz/$target
  if [[ ! -x $binary ]]; then
    echo "fuzz: no target '$target' (known: fuzz_model_file, fuzz_translate)" >&2
    exit 2
  fi
  seeds=tests/fuzz/corpus/$target
  crashes=tests/fuzz/crashes/$target
  corpus=build/fuzz/corpus/$target
  artifacts=build/fuzz/artifacts/$target
  log=build/fuzz/logs/$target.log
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  dictionary=()
  [[ -f tests/fuzz/$target.dict ]] && dictionary=(-dict="tests/fuzz/$target.dict")
  status=0
  if [[ $mode == replay ]]; then
    # Each committed input once, sorted by name: libFuzzer given files (not
    # folders) runs exactly those and nothing random.
    inputs=()
    while IFS= read -r -d '' file; do inputs+=("$file"); done \
      < <(find "$seeds" "$crashes" -maxdepth 1 -type f ! -name 'README*' -print0 2>/dev/null | sort -z)
    if ((${#inputs[@]} == 0)); then
      echo "fuzz: no committed inputs for $target in $seeds or $crashes" >&2
      exit 2
    fi
    echo "== fuzz replay: $target, ${#inputs[@]} committed inputs"
    run_fuzzer "${inputs[@]}" || status=$?
    executed=$(grep -c '^Executed ' "$log" || true)
    if ((status == 0 && executed == ${#inputs[@]})); then
      echo "   ok: ${executed} inputs replayed"
    else
      echo "   FAILED (exit $status, ${executed} of ${#inputs[@]} inputs ran): see $log" >&2
      grep -E 'ERROR: |SUMMARY: |invariant broken|runtime error|deadly signal|Running: ' "$log" | tail -20 >&2 || true
      failed+=("$target")
    fi
    continue
  fi
  echo "== fuzz: $target for ${seconds}s"
  run_fuzzer "$corpus" "$seeds" "${dictionary[@]}" -max_total_time="$seconds" -max_len="${max_len[$target]:-8192}" \
    -print_final_stats=1 -artifact_prefix="$artifacts/" || status=$?
  # The last status line ("#N DONE cov: C ft: F corp: ...") and the stats.
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  if ((status == 0)); then
    echo "   ok: ${execs:-?} inputs, ${rate:-?}/s, peak RSS ${rss:-?} MB; ${done_line#*DONE   }"
  else
    echo "   FAILED (exit $status): see $log; the input is in $artifacts/" >&2
    grep -E 'ERROR: |SUMMARY: |invariant broken|runtime error|deadly signal|Test unit written' "$log" | head -20 >&2 || true
    failed+=("$target")
  fi
done

if ((${#failed[@]})); then
  echo "fuzz: failures in ${failed[*]}" >&2
  exit 1
fi
