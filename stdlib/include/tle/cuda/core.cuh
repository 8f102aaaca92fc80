// The device library without atomics (atomic.cuh), which generated code includes only when a
// kernel needs them.
#pragma once

#include "tle/cuda/buffer.cuh"
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
