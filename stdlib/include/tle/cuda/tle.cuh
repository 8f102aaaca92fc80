// The device library that tlec's generated CUDA C++ calls. Header-only; include this one.
#pragma once

#include "tle/cuda/config.cuh"
#include "tle/cuda/debug.cuh"
#include "tle/cuda/dot.cuh"
#include "tle/cuda/elementwise.cuh"
#include "tle/cuda/layout.cuh"
#include "tle/cuda/memory.cuh"
#include "tle/cuda/program.cuh"
#include "tle/cuda/rearrange.cuh"
#include "tle/cuda/reduce.cuh"
#include "tle/cuda/scan.cuh"
#include "tle/cuda/tile.cuh"
