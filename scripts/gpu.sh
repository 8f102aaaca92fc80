#!/usr/bin/env bash
# The GPU suite in one command: correctness tests (tests/gpu) then benchmarks against
# Triton (bench/). Builds the kernel library first when tlec and nvcc are here (the device
# machine has neither tlec's MLIR nor a build; there, pass what scripts/gpu-build.sh made:
# build-gpu/). Usage: scripts/gpu.sh [--no-bench] [--compile-times]
set -uo pipefail
cd "$(dirname "$0")/.."
bench=1
extra=()
for a in "$@"; do
  case "$a" in
    --no-bench) bench=0 ;;
    --compile-times) extra+=(--compile-times) ;;
  esac
done
if [ -x build/bin/tlec ] && command -v "${NVCC:-/usr/local/cuda/bin/nvcc}" >/dev/null 2>&1 && [ ! -f build-gpu/libtle_gpu_kernels.so ]; then
  scripts/gpu-build.sh || exit 1
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
python3 tests/gpu/test_tutorials.py --build build-gpu
status=$?
if [ "$bench" = 1 ]; then
  python3 bench/bench_tutorials.py --build build-gpu "${extra[@]}" || status=1
fi
exit $status
