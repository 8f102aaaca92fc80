#!/usr/bin/env bash
# Builds the multi-GPU test and benchmark (tests/gpu/dist/test_distributed.cu) with the
# kernels of samples/distributed/collectives.tle and tlec's distributed runtime, against
# the CUDA toolkit's NCCL headers: build-gpu/dist/test_distributed. No GPU needed.
# Usage: scripts/gpu-dist-build.sh [BUILD_DIR] [ARCH]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
arch=${2:-sm_90a}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
out=build-gpu/dist
mkdir -p "$out/gen"
tlec="$build/bin/tlec"
src=samples/distributed/collectives.tle
gen() {  # symbol kernel warps signature [-D ...]
  local symbol=$1 kernel=$2 warps=$3 signature=$4
  shift 4
  "$tlec" "$src" --kernel "$kernel" --out-name "$symbol" --num-warps "$warps" --signature "$signature" --target "cuda:$arch" \
    "$@" -o "$out/gen/$symbol.cu"
  echo "$out/gen/$symbol.cu"
}
sources=()
for world in 1 2; do
  mesh="mesh=tle.device_mesh({\"device\": $world})"
  sources+=("$(gen ag_w${world}_n16 all_gather_kernel 16 "*fp32:16, *fp32:16, i32:16" -D "$mesh" -D BLOCK=4096)")
  sources+=("$(gen ag_w${world}_8w all_gather_kernel 8 "*fp32:16, *fp32:16, i32:16" -D "$mesh" -D BLOCK=2048)")
  sources+=("$(gen ag_w${world} all_gather_kernel 16 "*fp32, *fp32, i32" -D "$mesh" -D BLOCK=4096)")
  sources+=("$(gen barrier_w${world} barrier_loop_kernel 4 "i32" -D "$mesh")")
  sources+=("$(gen ring_nodes_w${world} node_signal_ring_kernel 4 "*i32, i32" -D "mesh=tle.device_mesh({\"node\": 1, \"device\": $world})")")
  sources+=("$(gen team_w${world} team_exchange_kernel 4 "*i32, *i32, i32" -D "mesh=tle.device_mesh({\"device\": [(\"x\", $world), (\"y\", 1)]})")")
done
sources+=("$(gen rs_ring reduce_scatter_ring_kernel 8 "*fp32, *fp32, *fp32, *i32, *i32, i32, i32, 2048")")
sources+=("$(gen rs_ring_n16 reduce_scatter_ring_kernel 8 "*fp32:16, *fp32:16, *fp32:16, *i32, *i32, i32:16, i32, 4096")")
agsig="*fp16:16, *fp16:16, *fp16:16, *fp16:16, *i32, i32, i32:16, i32:16, i32, i32, i32:16, i32:16, i32:16"
sources+=("$(gen ag_gemm_128x128 ag_gemm_kernel 8 "$agsig, 128, 128, 64, 4096")")
sources+=("$(gen ag_gemm_128x256 ag_gemm_kernel 8 "$agsig, 128, 256, 64, 4096")")
sources+=("$(gen ag_gemm_64x128 ag_gemm_kernel 4 "$agsig, 64, 128, 64, 2048")")
# The same tiles as a user who gives no hints would compile them.
plainsig="*fp16, *fp16, *fp16, *fp16, *i32, i32, i32, i32, i32, i32, i32, i32, i32"
sources+=("$(gen ag_gemm_128x256_plain ag_gemm_kernel 8 "$plainsig, 128, 256, 64, 4096")")
flags=(-std=c++17 -O3 -arch="$arch" -Werror all-warnings -Istdlib/include -Iruntime/include -I"$out/gen")
objects=()
for s in "${sources[@]}"; do objects+=("${s%.cu}.o"); done
printf '%s\n' "${sources[@]}" | xargs -P 2 -I{} sh -c "$nvcc ${flags[*]} -c {} -o \$(echo {} | sed 's/\\.cu\$/.o/')"
"$nvcc" "${flags[@]}" -c runtime/src/distributed.cpp -o "$out/distributed.o"
"$nvcc" "${flags[@]}" tests/gpu/dist/test_distributed.cu "${objects[@]}" "$out/distributed.o" -o "$out/test_distributed" \
  -lnccl -lcublas -lpthread
echo "gpu-dist-build: $out/test_distributed"
