// The device library that tlec's generated CUDA C++ calls. Header-only; include this one.
#pragma once

#include "tle/cuda/atomic.cuh"
#include "tle/cuda/core.cuh"
