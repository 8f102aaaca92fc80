#!/usr/bin/env bash
# Generates the CUDA C++ of every kernel in bench/sweep.list with tlec into
# build-gpu/sweep/gen/ (no nvcc here: bench/bench_sweep.py builds them on the GPU machine,
# where 16 cores compile them in parallel). Usage: bench/gen_sweep.sh [BUILD_DIR] [ARCH]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
arch=${2:-sm_90a}
out=build-gpu/sweep
rm -rf "$out" && mkdir -p "$out/gen"
# shellcheck source=../scripts/lib/kernels-list.sh
. scripts/lib/kernels-list.sh
count=0
while IFS='|' read -r symbol file kernel warps signature flags; do
  # shellcheck disable=SC2086  # the extra options are words
  "$build/bin/tlec" "tests/corpus/$file" --kernel "$kernel" --signature "$signature" --out-name "$symbol" \
    --num-warps "$warps" --target "cuda:$arch" $flags -o "$out/gen/$symbol.cu"
  count=$((count + 1))
done < <(kernel_list_entries bench/sweep.list)
echo "gen_sweep: $count kernels in $out/gen"
