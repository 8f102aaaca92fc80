// Barriers over every block of a launch (tle.distributed_barrier on a mesh of `block` axes).
// The kernel is launched cooperatively, so that all its blocks are resident; CUDA's
// cooperative groups provide the barrier. Generated code includes this header only for
// kernels that use it.
#pragma once

#include "tle/cuda/config.cuh"

#include <cooperative_groups.h>

namespace tle {

// Every thread of every block arrives; memory written before it is visible after it.
TLE_DEVICE void grid_barrier() { cooperative_groups::this_grid().sync(); }

}  // namespace tle
