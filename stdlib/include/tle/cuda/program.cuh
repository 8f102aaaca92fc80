// Program geometry: Triton's program instances are CUDA blocks.
#pragma once

#include "tle/cuda/config.cuh"

namespace tle {

template <int Axis>
TLE_DEVICE int32_t program_id() {
  if constexpr (Axis == 0) return static_cast<int32_t>(blockIdx.x);
  else if constexpr (Axis == 1) return static_cast<int32_t>(blockIdx.y);
  else return static_cast<int32_t>(blockIdx.z);
}

template <int Axis>
TLE_DEVICE int32_t num_programs() {
  if constexpr (Axis == 0) return static_cast<int32_t>(gridDim.x);
  else if constexpr (Axis == 1) return static_cast<int32_t>(gridDim.y);
  else return static_cast<int32_t>(gridDim.z);
}

// tl.debug_barrier().
TLE_DEVICE void barrier() { __syncthreads(); }
// The barrier of one partition of a warp-specialized kernel.
TLE_DEVICE void barrier(Group group) { group.sync(); }

}  // namespace tle
