#!/usr/bin/env bash
# The GPU tests under compute-sanitizer: memcheck, racecheck (shared-memory hazards: the
# barriers tle-insert-barriers places) and synccheck, on every test group but debug_ops
# (which ends in a device assert on purpose); any report fails it. Needs a GPU and what
# scripts/gpu-build.sh made in build-gpu/ (or $TLE_GPU_BUILD). Usage: scripts/gpu-sanitize.sh
# [GROUPS] (comma-separated test groups)
set -uo pipefail
cd "$(dirname "$0")/.."
groups=${1:-vector_add,softmax,layer_norm,matmul,attention,attention_descriptors,tma_copies,matmul_formulations,device_library,scans_and_rearrangement,gpu_buffers,core_functions,async_loads,seed_kernels,pipes,pipe_dots,branch_dots,clusters,raw_call,elementwise,module_loader,specialization}
sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
status=0
for tool in memcheck racecheck synccheck; do
  echo "== compute-sanitizer --tool $tool ($groups)"
  "$sanitizer" --tool "$tool" --error-exitcode 99 --target-processes all \
    python3 tests/gpu/test_tutorials.py --build "${TLE_GPU_BUILD:-build-gpu}" --only "$groups" || status=1
done
exit $status
