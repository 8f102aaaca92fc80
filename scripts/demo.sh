#!/usr/bin/env bash
# The main demo: install what is missing, build tlec, then build samples/vector_add the way
# a user's project would (find_package(TLE) + add_tle_kernel: tlec runs at build time and
# the host program includes the generated header), and run it when a GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
if [ ! -x "$nvcc" ]; then
  echo "demo: nvcc not found (CUDA toolkit expected under /usr/local/cuda); showing the generated code instead"
  build/bin/tlec samples/vector_add/vector_add.tle --kernel add_kernel \
    --signature "*fp32:16, *fp32:16, *fp32:16, i32, 1024" -o build/demo-add.cu
  cat build/demo-add.cu
  exit 0
fi
echo
echo "== samples/vector_add with add_tle_kernel (build dir: build/sample-vector-add)"
cmake -S samples/vector_add -B build/sample-vector-add -G Ninja -DTLE_DIR="$PWD/build" \
  -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_BUILD_TYPE=Release > build/sample-vector-add.log
cmake --build build/sample-vector-add
echo
echo "== generated: build/sample-vector-add/tle/vector_add_kernels/vector_add_kernels.{cu,h}"
sed -n '/__global__/,/^}/p' build/sample-vector-add/tle/vector_add_kernels/vector_add_kernels.cu
echo
if nvidia-smi > /dev/null 2>&1; then
  build/sample-vector-add/vector_add
else
  echo "demo: no GPU on this machine; build/sample-vector-add/vector_add runs where one is"
fi
