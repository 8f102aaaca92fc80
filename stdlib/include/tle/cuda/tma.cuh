// Operand slots filled by the tensor memory accelerator (sm_90+): a ring loop whose dot
// operands are blocks of tensor descriptors (tle-lower-tma-copies). The launcher encodes a
// tensor map per descriptor (encode_tensor_map, host side) and passes it as a
// __grid_constant__ parameter; in the kernel, thread 0 copies each block as boxes of 128
// bytes of columns into the slot, in the swizzled arrangement the cp.async copies write
// (dot.cuh's Swizzle16: TMA's 128-, 64- and 32-byte swizzles are the same XOR of 16-byte
// chunks by row), and the slot's mbarrier completes a phase when the bytes have landed.
// Each thread waits on the barrier of its iteration's slot. Both the copies and wgmma's reads
// are the async proxy: no proxy fence between them, as cp.async needs.
#pragma once

#include "tle/cuda/config.cuh"

#include <cuda/ptx>

#ifndef __CUDACC_RTC__
#include <cuda.h>  // CUtensorMap and its enums (host only; NVRTC has no driver header)
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstring>
#include <type_traits>

#include "tle/runtime.h"
#endif

namespace tle {

// A CUtensorMap: 128 opaque bytes, 64-byte aligned. The kernel takes it by value.
struct alignas(64) TensorMap {
  unsigned long long opaque[16];
};

// Before the first copy (the kernel's entry): one barrier per slot, `Arrivals` arrivals a
// phase (one per operand copied into the slot, each expecting its own bytes: a count of
// one would let the first operand's arrival complete the phase, or underflow it). The
// block barrier before the loop's first copies publishes them.
template <int Slots, int Arrivals>
TLE_DEVICE void tma_init_barriers(uint64_t *barriers) {
  if (threadIdx.x == 0) {
    TLE_UNROLL for (int s = 0; s < Slots; ++s) cuda::ptx::mbarrier_init(&barriers[s], Arrivals);
    cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
  }
}

// The block [Rows x Cols] of T at (row, col) of `map`'s tensor into `slot`, by thread 0, if
// `valid`: boxes of BoxCols columns, one after the other (Rows * BoxCols elements each);
// `barrier` expects all of the block's bytes (out-of-bounds elements are zeros and count).
template <class T, int Rows, int Cols, int BoxCols>
TLE_DEVICE void tma_copy_block(const TensorMap *map, int32_t row, int32_t col, unsigned char *slot, uint64_t *barrier, bool valid) {
  static_assert(Cols % BoxCols == 0, "whole boxes of columns");
  constexpr uint32_t kBytes = Rows * Cols * static_cast<uint32_t>(sizeof(T));
  constexpr int kBoxBytes = Rows * BoxCols * static_cast<int>(sizeof(T));
  if (threadIdx.x != 0 || !valid) return;
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, barrier, kBytes);
  TLE_UNROLL for (int b = 0; b < Cols / BoxCols; ++b) {
    const int32_t coords[2] = {col + b * BoxCols, row};  // innermost dimension first
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, slot + b * kBoxBytes, map, coords, barrier);
  }
}

// Waits until slot `slot`'s copies have landed. `phases` holds, one bit a slot, the phase of
// each slot's barrier this thread waits for next; every copy into a slot is waited for once,
// so it carries over from one run of the loop to the next.
TLE_DEVICE void tma_wait_slot(uint64_t *barriers, int slot, uint32_t &phases) {
  const uint32_t parity = (phases >> slot) & 1u;
  while (!cuda::ptx::mbarrier_try_wait_parity(&barriers[slot], parity)) {
  }
  phases ^= 1u << slot;
}

#ifndef __CUDACC_RTC__
// The kernel's integer arithmetic on the host, wrapping as the kernel's does: the launcher
// computes a tensor map's parts with it.
template <class T>
inline T host_add(T a, T b) {
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b));
}
template <class T>
inline T host_sub(T a, T b) {
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) - static_cast<std::make_unsigned_t<T>>(b));
}
template <class T>
inline T host_mul(T a, T b) {
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) * static_cast<std::make_unsigned_t<T>>(b));
}

// Host side: the map of a row-major 2-D tensor (rows x cols elements, rows `rowStride`
// elements apart) read in boxes of boxRows x boxCols, swizzled by swizzleBytes (0, 32, 64,
// 128); out-of-bounds elements read zero. TLE_ERROR_TENSOR_MAP where the driver cannot
// encode it (an extent of 0 or above 2^32, a base or row stride not a multiple of 16
// bytes); the CUDA error where the driver's function cannot be found.
inline tleStatus encode_tensor_map(TensorMap *map, CUtensorMapDataType type, int elementBytes, const void *base, int64_t rows, int64_t cols,
                                   int64_t rowStride, int boxRows, int boxCols, int swizzleBytes) {
  static_assert(sizeof(TensorMap) == sizeof(CUtensorMap), "tle::TensorMap is a CUtensorMap");
  // Through the runtime, so that programs need not link the driver library themselves.
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  static cudaError_t found = [] {
    cudaDriverEntryPointQueryResult query{};
    void *fn = nullptr;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &query);
    if (e == cudaSuccess && query != cudaDriverEntryPointSuccess) e = cudaErrorSymbolNotFound;
    encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    return e;
  }();
  if (found != cudaSuccess) return found;
  if (rows <= 0 || cols <= 0 || rowStride < 0) return TLE_ERROR_TENSOR_MAP;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(rowStride) * static_cast<cuuint64_t>(elementBytes)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(boxCols), static_cast<cuuint32_t>(boxRows)};
  const cuuint32_t elementStrides[2] = {1, 1};
  const CUtensorMapSwizzle swizzle = swizzleBytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                     : swizzleBytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                     : swizzleBytes == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                          : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMap encoded;
  CUresult r = encode(&encoded, type, 2, const_cast<void *>(base), dims, strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                      swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) return TLE_ERROR_TENSOR_MAP;
  std::memcpy(map, &encoded, sizeof encoded);
  return TLE_SUCCESS;
}
#endif

}  // namespace tle
