#!/usr/bin/env bash
# The fuzz campaign: each libFuzzer target (tests/fuzz) for SECONDS (default 600) on the
# seeds (tests/corpus, tests/lit, tests/fuzz/findings) with the dictionary; what a target
# finds interesting accumulates in build-fuzz/campaign/<target>/, crashes as
# build-fuzz/campaign/<target>/crash-*. Prints each target's executions and coverage.
# Needs the clang sanitizer build (scripts/test.sh makes it: build-fuzz).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz-frontend fuzz-signature fuzz-sema fuzz-cuda fuzz-ascend)
export ASAN_OPTIONS=detect_leaks=1:allow_user_poisoning=0
status=0
for t in "${targets[@]}"; do
  bin=build-fuzz/bin/$t
  [ -x "$bin" ] || { echo "fuzz.sh: $bin is not built (scripts/test.sh builds build-fuzz)" >&2; exit 2; }
  dir=build-fuzz/campaign/$t
  mkdir -p "$dir"
  seeds=(tests/corpus tests/lit tests/fuzz/findings)
  [ "$t" = fuzz-signature ] && seeds=(tests/fuzz/signatures)
  log=$dir/log.txt
  "$bin" -max_total_time="$seconds" -max_len=8192 -timeout=20 -rss_limit_mb=3072 -dict=tests/fuzz/tle.dict \
    -print_final_stats=1 -artifact_prefix="$dir/" "$dir" "${seeds[@]}" > "$log" 2>&1 || status=1
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}')
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
  echo "$t: ${runs:-?} executions in ${seconds}s, $cov, corpus $(ls "$dir" | wc -l) files$(ls "$dir"/crash-* "$dir"/timeout-* "$dir"/leak-* "$dir"/oom-* 2>/dev/null | sed 's/^/, FINDING /' | tr '\n' ' ')"
done
exit $status
