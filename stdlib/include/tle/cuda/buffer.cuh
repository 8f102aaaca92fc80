// TLE-Struct GPU buffers (tle.gpu.alloc): each buffer is a region of the kernel's dynamic
// shared memory for the whole kernel, reached through a plain pointer to its first element,
// row-major in its shape. Reads and writes of a buffer by different threads are ordered by
// barriers where a dependence needs one (tle-insert-barriers places them; tle.gpu.copy into
// a buffer has one on each side), or, between partitions of a warp-specialized kernel, by
// the mbarriers of a tle.pipe (pipe.cuh).
#pragma once

#include "tle/cuda/tile.cuh"

#include <cuda_pipeline_primitives.h>

namespace tle {

template <class X>
TLE_DEVICE int index_at(const X &index, int r) {
  if constexpr (is_tile<X>::value) return static_cast<int>(index.v[r]);
  else return static_cast<int>(index);
}

// A warp-specialized kernel's buffers start zeroed (every thread of the block takes part; a
// block barrier follows in the generated code).
TLE_DEVICE void zero_shared(unsigned char *base, int bytes) {
  const int tid = static_cast<int>(threadIdx.x), threads = static_cast<int>(blockDim.x);
  for (int i = tid; i < bytes / 16; i += threads) reinterpret_cast<uint4 *>(base)[i] = make_uint4(0, 0, 0, 0);
  for (int i = bytes / 16 * 16 + tid; i < bytes; i += threads) base[i] = 0;
}

// tle.gpu.local_ptr(buf, (i0, i1, ...)): pointers to buf[i0][i1]...; the indices are all
// scalars (one pointer) or all tiles laid out as Dst.
template <class Dst, int... Shape, class T, class... Index>
TLE_DEVICE Dst local_ptr(T *base, const Index &...index) {
  static_assert(sizeof...(Index) == sizeof...(Shape), "one index per buffer dimension");
  if constexpr (is_tile<Dst>::value) {
    Dst t;
    TLE_UNROLL for (int r = 0; r < Dst::kRegs; ++r) {
      int offset = 0;  // row-major: ((i0 * S1 + i1) * S2 + i2) ...
      ((offset = offset * Shape + index_at(index, r)), ...);
      t.v[r] = base + offset;
    }
    return t;
  } else {
    int offset = 0;
    ((offset = offset * Shape + index_at(index, 0)), ...);
    return base + offset;
  }
}

// tle.gpu.local_ptr(buf): a pointer to every element, laid out as Dst (the buffer's shape).
template <class Dst, class T>
TLE_DEVICE Dst local_ptr_all(T *base) {
  Dst t;
  static_for<Dst::kRegs>([&](auto r) { t.v[decltype(r)::value] = base + linear_index<Dst, decltype(r)::value>(); });
  return t;
}

// Whether each group of Vec registers of Ptrs lands on Vec consecutive elements of a
// row-major buffer, starting at a multiple of Vec (what one cp.async of Vec elements writes):
// the group runs along the last dimension from an aligned coordinate, and no lane or warp
// moves a thread by less than Vec along it.
template <class Ptrs, int Vec>
TLE_CONSTEXPR bool rows_of_vectors() {
  constexpr LinearLayout L = Ptrs::linear;
  constexpr int last = Ptrs::rank - 1;
  if (Ptrs::kRegs % Vec != 0) return false;
  for (int r = 0; r < Ptrs::kRegs; r += Vec) {
    if (L.regCoord(r, last) % Vec != 0) return false;
    for (int i = 1; i < Vec; ++i) {
      if (L.regCoord(r + i, last) != L.regCoord(r, last) + i) return false;
      for (int d = 0; d < last; ++d)
        if (L.regCoord(r + i, d) != L.regCoord(r, d)) return false;
    }
  }
  for (int b = 0; b < kLaneBits; ++b)
    if (L.lane[b][last] % Vec != 0) return false;
  for (int b = 0; b < L.numWarpBits; ++b)
    if (L.warp[b][last] % Vec != 0) return false;
  return true;
}

// tle.gpu.copy(global pointers -> buffer): every element once (its owner thread), Vec at a
// time by cp.async where tle-assign-layouts found Vec contiguous, aligned elements per thread
// (4, 8 or 16 bytes), else one by one; then a barrier so that all threads see the buffer.
template <int Vec = 1, class Ptrs, class T>
TLE_DEVICE void copy_to_buffer(const Ptrs &ptrs, T *base, Group group = Group{}) {
  group.sync();  // earlier readers of the buffer are done
  constexpr int bytes = Vec * static_cast<int>(sizeof(T));
  if constexpr (Vec > 1 && (bytes == 4 || bytes == 8 || bytes == 16) && rows_of_vectors<Ptrs, Vec>()) {
    if (is_owner<Ptrs>())
      static_for<Ptrs::kRegs / Vec>([&](auto g) {
        constexpr int r = decltype(g)::value * Vec;
        __pipeline_memcpy_async(base + linear_index<Ptrs, r>(), ptrs.v[r], bytes);
      });
    __pipeline_commit();
    __pipeline_wait_prior(0);
  } else {
    if (is_owner<Ptrs>()) static_for<Ptrs::kRegs>([&](auto r) { base[linear_index<Ptrs, decltype(r)::value>()] = *ptrs.v[decltype(r)::value]; });
  }
  group.sync();
}

// tle.gpu.copy(buffer -> global pointers).
template <class Ptrs, class T>
TLE_DEVICE void copy_from_buffer(const T *base, const Ptrs &ptrs) {
  if (is_owner<Ptrs>()) static_for<Ptrs::kRegs>([&](auto r) { *ptrs.v[decltype(r)::value] = base[linear_index<Ptrs, decltype(r)::value>()]; });
}

// tle.gpu.local_load(buf): the whole buffer as a tile.
template <class Dst, class T>
TLE_DEVICE Dst local_load(const T *base) {
  return load_row_major<Dst>(base);
}

}  // namespace tle
