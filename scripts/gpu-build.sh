#!/usr/bin/env bash
# Compiles every kernel of tests/gpu/kernels.list with tlec and nvcc into one shared library,
# build-gpu/libtle_gpu_kernels.so, for tests/gpu and bench/. Needs a built tlec (scripts/
# test.sh or cmake) and nvcc; no GPU. Usage: scripts/gpu-build.sh [BUILD_DIR] [ARCH]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
arch=${2:-sm_90a}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
out=build-gpu
mkdir -p "$out/gen"
objects=()
# shellcheck source=lib/kernels-list.sh
. scripts/lib/kernels-list.sh
while IFS='|' read -r symbol file kernel warps signature flags; do
  # shellcheck disable=SC2086  # the extra options are words
  "$build/bin/tlec" "tests/corpus/$file" --kernel "$kernel" --signature "$signature" --out-name "$symbol" \
    --num-warps "$warps" --target "cuda:$arch" $flags -o "$out/gen/$symbol.new.cu"
  # Keep the old file (and its object) when the generated code did not change.
  sed -i "s/$symbol\.new\.h/$symbol.h/" "$out/gen/$symbol.new.cu"
  for ext in cu h; do
    if cmp -s "$out/gen/$symbol.new.$ext" "$out/gen/$symbol.$ext"; then rm "$out/gen/$symbol.new.$ext"
    else mv "$out/gen/$symbol.new.$ext" "$out/gen/$symbol.$ext"; fi
  done
  objects+=("$out/gen/$symbol.o")
  echo "$symbol"
done < <(kernel_list_entries tests/gpu/kernels.list) > "$out/kernels.txt"
# nvcc, two at a time, for objects older than their source or the device library.
newest_header=$(ls -t stdlib/include/tle/cuda/*.cuh runtime/include/tle/*.h | head -1)
stale=()
for o in "${objects[@]}"; do
  src=${o%.o}.cu
  if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ "$newest_header" -nt "$o" ]; then stale+=("$o"); fi
done
if [ ${#stale[@]} -gt 0 ]; then
  printf '%s\n' "${stale[@]}" | xargs -P 2 -I{} sh -c \
    'src=$(echo {} | sed "s/\.o$/.cu/"); '"$nvcc"' -std=c++17 -O3 -arch='"$arch"' -Xcompiler -fPIC -Werror all-warnings \
       -Istdlib/include -Iruntime/include -c "$src" -o {}'
fi
"$nvcc" -shared -arch="$arch" -o "$out/libtle_gpu_kernels.so" "${objects[@]}"
# The driver-API loader (tle/module.h) on tlec's NVRTC output.
add_sig="*fp32:16, *fp32:16, *fp32:16, i32, 1024"
"$build/bin/tlec" tests/corpus/triton/01_vector_add.tle --kernel add_kernel --signature "$add_sig" --target "cuda:$arch" -o "$out/add.cubin"
"$build/bin/tlec" tests/corpus/triton/01_vector_add.tle --kernel add_kernel --signature "$add_sig" --target "cuda:$arch" -o "$out/add.ptx"
# ... and its variants (--specialize=auto, unhinted pointers): tle/module.h picks among them.
"$build/bin/tlec" tests/corpus/triton/01_vector_add.tle --kernel add_kernel --signature "*fp32, *fp32, *fp32, i32, 1024" \
  --target "cuda:$arch" -o "$out/add_auto.cubin"
# ... and a cluster of 16 blocks (beyond the portable 8: tle/module.h opts the kernel in).
"$build/bin/tlec" tests/gpu/kernels/clusters.tle --kernel cluster_ring16 --signature "*fp32, *fp32, 128" --target "cuda:$arch" \
  -o "$out/ring16.cubin"
# ... and tutorial 09's descriptor matmul, whose aligned variants take TMA tensor maps that
# tle/module.h encodes from the arguments (NAME_tle_tensor_maps).
"$build/bin/tlec" tests/corpus/triton/09_persistent_matmul.tle --kernel matmul_kernel_descriptor_persistent --num-warps 8 --num-stages 3 --tma=auto \
  --signature "*fp16, *fp16, *fp16, i32, i32, i32, 128, 128, 64, 8, 0, 132, 0" --target "cuda:$arch" -o "$out/desc_mm.cubin" 2>/dev/null
cc -std=c11 -O2 -shared -fPIC -Wall -Werror -Iruntime/include tests/gpu/module_shim.c -o "$out/libtle_module_shim.so" -ldl -lpthread
echo "gpu-build: $(wc -l < "$out/kernels.txt") kernels in $out/libtle_gpu_kernels.so"
