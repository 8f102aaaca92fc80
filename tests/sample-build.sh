#!/usr/bin/env bash
# Configures and builds samples/vector_add as an outside project would, against the
# package in the tlec build tree. Exit 77 (skipped) without nvcc. Usage: sample-build.sh BUILD_DIR SRC_DIR
set -euo pipefail
build=$1
src=$2
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "nvcc not found: skipped"; exit 77; }
# The sanitizer pass of scripts/test.sh skips it: the same nvcc work as the first pass.
[ "${TLE_LIT_NVCC:-1}" != 0 ] || { echo "TLE_LIT_NVCC=0: skipped"; exit 77; }
out="$build/tests/sample-vector-add"
rm -rf "$out"
cmake -S "$src/samples/vector_add" -B "$out" -G Ninja -DTLE_DIR="$build" -DCMAKE_CUDA_COMPILER="$nvcc" \
  -DCMAKE_BUILD_TYPE=Release > "$out.log" 2>&1 || { cat "$out.log"; exit 1; }
cmake --build "$out" || exit 1
test -x "$out/vector_add"
test -f "$out/tle/vector_add_kernels/vector_add_kernels.h"
echo "sample built: $out/vector_add"
