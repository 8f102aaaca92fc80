// tl.join, tl.split, tl.gather and TLE's extract_tile/insert_tile: element moves between threads, done through shared memory
// (each thread stores what it holds at the element's row-major position, then reads what
// the result gives it).
#pragma once

#include "tle/cuda/reduce.cuh"  // pair

namespace tle {

template <class Src>
TLE_DEVICE void store_row_major(const Src &src, typename Src::value_type *buffer, int scale = 1, int offset = 0) {
  static_for<Src::kRegs>([&](auto r) { buffer[linear_index<Src, decltype(r)::value>() * scale + offset] = src.v[decltype(r)::value]; });
}

// tl.join(a, b): a new minor dimension of size 2, a at index 0 and b at index 1.
template <class Dst, class Src>
TLE_DEVICE Dst join(const Src &a, const Src &b, unsigned char *scratch) {
  static_assert(Dst::kElements == 2 * Src::kElements, "join doubles the elements");
  using T = typename Src::value_type;
  T *buffer = reinterpret_cast<T *>(scratch);
  store_row_major(a, buffer, 2, 0);
  store_row_major(b, buffer, 2, 1);
  __syncthreads();
  Dst t;
  static_for<Dst::kRegs>([&](auto r) { t.v[decltype(r)::value] = buffer[linear_index<Dst, decltype(r)::value>()]; });
  __syncthreads();
  return t;
}

// tl.split(x): the halves of a tile whose minor dimension has size 2.
template <class Dst, class Src>
TLE_DEVICE pair<Dst, Dst> split(const Src &src, unsigned char *scratch) {
  static_assert(Src::kElements == 2 * Dst::kElements, "split halves the elements");
  using T = typename Src::value_type;
  T *buffer = reinterpret_cast<T *>(scratch);
  store_row_major(src, buffer);
  __syncthreads();
  pair<Dst, Dst> halves;
  static_for<Dst::kRegs>([&](auto r) {
    const int index = linear_index<Dst, decltype(r)::value>();
    halves.first.v[decltype(r)::value] = buffer[2 * index];
    halves.second.v[decltype(r)::value] = buffer[2 * index + 1];
  });
  __syncthreads();
  return halves;
}

// tl.gather(src, index, axis): result[i...] = src[i... with index[i...] along Axis]. The
// indices arrive in the result's layout.
template <class Dst, int Axis, class Src, class Index>
TLE_DEVICE Dst gather(const Src &src, const Index &index, unsigned char *scratch) {
  static_assert(Index::kRegs == Dst::kRegs && Index::rank == Dst::rank, "the indices are laid out like the result");
  using T = typename Src::value_type;
  T *buffer = reinterpret_cast<T *>(scratch);
  store_row_major(src, buffer);
  __syncthreads();
  Dst t;
  static_for<Dst::kRegs>([&](auto r) {
    constexpr int R = decltype(r)::value;
    int position = 0;
    static_for<Dst::rank>([&](auto d) {
      constexpr int D = decltype(d)::value;
      const int coord = D == Axis ? static_cast<int>(index.v[R]) : (thread_coord<Dst, D>() ^ TLE_CONST(Dst::linear.regCoord(R, D)));
      position = position * TLE_CONST(Src::linear.shape[D]) + coord;
    });
    t.v[R] = buffer[position];
  });
  __syncthreads();
  return t;
}

// TLE's extract_tile: the Dst-shaped block of src whose first element is at Offsets.
template <class Dst, int... Offsets, class Src>
TLE_DEVICE Dst extract_tile(const Src &src, unsigned char *scratch) {
  static_assert(sizeof...(Offsets) == Src::rank && Src::rank == Dst::rank, "one offset per dimension");
  using T = typename Src::value_type;
  T *buffer = reinterpret_cast<T *>(scratch);
  store_row_major(src, buffer);
  __syncthreads();
  constexpr int offsets[] = {Offsets...};
  Dst t;
  static_for<Dst::kRegs>([&](auto r) {
    constexpr int R = decltype(r)::value;
    int position = 0;
    static_for<Dst::rank>([&](auto d) {
      constexpr int D = decltype(d)::value;
      const int coord = offsets[D] + (thread_coord<Dst, D>() ^ TLE_CONST(Dst::linear.regCoord(R, D)));
      position = position * TLE_CONST(Src::linear.shape[D]) + coord;
    });
    t.v[R] = buffer[position];
  });
  __syncthreads();
  return t;
}

// TLE's insert_tile: src with the block at Offsets replaced by `tile`.
template <int... Offsets, class Src, class Part>
TLE_DEVICE Src insert_tile(const Src &src, const Part &tile, unsigned char *scratch) {
  static_assert(sizeof...(Offsets) == Src::rank && Src::rank == Part::rank, "one offset per dimension");
  using T = typename Src::value_type;
  T *buffer = reinterpret_cast<T *>(scratch);
  store_row_major(src, buffer);
  __syncthreads();
  constexpr int offsets[] = {Offsets...};
  static_for<Part::kRegs>([&](auto r) {
    constexpr int R = decltype(r)::value;
    int position = 0;
    static_for<Part::rank>([&](auto d) {
      constexpr int D = decltype(d)::value;
      const int coord = offsets[D] + (thread_coord<Part, D>() ^ TLE_CONST(Part::linear.regCoord(R, D)));
      position = position * TLE_CONST(Src::linear.shape[D]) + coord;
    });
    buffer[position] = tile.v[R];
  });
  __syncthreads();
  Src t;
  static_for<Src::kRegs>([&](auto r) { t.v[decltype(r)::value] = buffer[linear_index<Src, decltype(r)::value>()]; });
  __syncthreads();
  return t;
}

}  // namespace tle
