#!/usr/bin/env bash
# Generates the CUDA C++ of every kernel of a sweep list (default bench/sweep.list) with tlec
# into OUT/gen/ (default build-gpu/sweep; no nvcc here: bench/bench_sweep.py and
# bench/bench_attn_sweep.py build them on the GPU machine, where 16 cores compile them in
# parallel). SOURCE_DIR (default tests/corpus) is where the list's files are.
# Usage: bench/gen_sweep.sh [LIST [OUT [BUILD_DIR [ARCH [SOURCE_DIR]]]]]
set -euo pipefail
cd "$(dirname "$0")/.."
list=${1:-bench/sweep.list}
out=${2:-build-gpu/sweep}
build=${3:-build}
arch=${4:-sm_90a}
sources=${5:-tests/corpus}
rm -rf "$out" && mkdir -p "$out/gen"
# shellcheck source=../scripts/lib/kernels-list.sh
. scripts/lib/kernels-list.sh
count=0
while IFS='|' read -r symbol file kernel warps signature flags; do
  # shellcheck disable=SC2086  # the extra options are words
  "$build/bin/tlec" "$sources/$file" --kernel "$kernel" --signature "$signature" --out-name "$symbol" \
    --num-warps "$warps" --target "cuda:$arch" $flags -o "$out/gen/$symbol.cu"
  count=$((count + 1))
done < <(kernel_list_entries "$list")
echo "gen_sweep: $count kernels in $out/gen"
