#!/usr/bin/env bash
# The GPU suite in one command: correctness tests (tests/gpu) then benchmarks against
# Triton (bench/). Builds the kernel library first when tlec and nvcc are here (the device
# machine has neither tlec's MLIR nor a build; there, pass what scripts/gpu-build.sh made:
# build-gpu/). Then every test group again under compute-sanitizer (scripts/gpu-sanitize.sh).
# Usage: scripts/gpu.sh [--no-bench] [--no-sanitize] [--compile-times]
set -uo pipefail
cd "$(dirname "$0")/.."
bench=1
sanitize=1
extra=()
for a in "$@"; do
  case "$a" in
    --no-bench) bench=0 ;;
    --no-sanitize) sanitize=0 ;;
    --compile-times) extra+=(--compile-times) ;;
  esac
done
if [ -x build/bin/tlec ] && command -v "${NVCC:-/usr/local/cuda/bin/nvcc}" >/dev/null 2>&1 && [ ! -f build-gpu/libtle_gpu_kernels.so ]; then
  scripts/gpu-build.sh || exit 1
  scripts/gpu-dist-build.sh || exit 1
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
python3 tests/gpu/test_tutorials.py --build build-gpu
status=$?
# The multi-GPU tests (scripts/gpu-dist-build.sh), with every GPU of the machine as a rank
# (one on a single-GPU machine): NCCL and cuBLAS from the device image's Python packages.
if [ -x build-gpu/dist/test_distributed ]; then
  for d in /opt/torch/.venv/lib/python3.12/site-packages/nvidia/*/lib /usr/local/cuda/lib64; do
    [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  done
  build-gpu/dist/test_distributed || status=1
  if [ "$bench" = 1 ]; then build-gpu/dist/test_distributed --bench || status=1; fi
fi
if [ "$sanitize" = 1 ]; then
  scripts/gpu-sanitize.sh || status=1
fi
if [ "$bench" = 1 ]; then
  python3 bench/bench_tutorials.py --build build-gpu "${extra[@]}" || status=1
fi
exit $status
