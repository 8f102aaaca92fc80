#!/usr/bin/env bash
# tlec's compile time per kernel of tests/gpu/kernels.list: .tle -> .cu (parse, sema, passes,
# printing) and .tle -> cubin through NVRTC, best of 3 runs each, in milliseconds. Triton's
# cold JIT times come from `bench/bench_tutorials.py --compile-times` on the GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."
tlec=${1:-build}/bin/tlec
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
best() {  # best-of-3 wall time of "$@" in ms
  local b=999999
  for _ in 1 2 3; do
    local s=$(date +%s%N); "$@" > /dev/null; local e=$(date +%s%N)
    local ms=$(( (e - s) / 1000000 )); [ $ms -lt $b ] && b=$ms
  done
  echo $b
}
printf '%-22s %10s %12s\n' kernel "to .cu ms" "to cubin ms"
# shellcheck source=../scripts/lib/kernels-list.sh
. scripts/lib/kernels-list.sh
while IFS='|' read -r symbol file kernel warps signature flags; do
  args=("tests/corpus/$file" --kernel "$kernel" --signature "$signature" --num-warps "$warps")
  # shellcheck disable=SC2206  # the extra options are words
  [ -n "$flags" ] && args+=($flags)
  cu=$(best "$tlec" "${args[@]}" -o "$tmp/k.cu")
  cubin=$(best "$tlec" "${args[@]}" -o "$tmp/k.cubin")
  printf '%-22s %10s %12s\n' "$symbol" "$cu" "$cubin"
done < <(kernel_list_entries tests/gpu/kernels.list)
