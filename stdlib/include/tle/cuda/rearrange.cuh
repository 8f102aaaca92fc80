// tl.join, tl.split, tl.gather and TLE's extract_tile/insert_tile: element moves between threads, done through shared memory
// (each thread stores what it holds at the element's row-major position, then reads what
// the result gives it).
#pragma once

#include "tle/cuda/reduce.cuh"  // pair

namespace tle {

// The row-major position in a tile of shape Whole of element R of Part, shifted by
// `offsets` (extract_tile, insert_tile) and, when Axis >= 0, with the coordinate along Axis
// replaced by `along` (gather).
template <class Part, int R, class Whole, int Axis = -1>
TLE_DEVICE int position_in(const int *offsets, int along = 0) {
  int position = 0;
  static_for<Part::rank>([&](auto d) {
    constexpr int D = decltype(d)::value;
    const int coord = D == Axis ? along : (offsets ? offsets[D] : 0) + (thread_coord<Part, D>() ^ TLE_CONST(Part::linear.regCoord(R, D)));
    position = position * TLE_CONST(Whole::linear.shape[D]) + coord;
  });
  return position;
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
  const Dst t = load_row_major<Dst>(buffer);
  __syncthreads();
  return t;
}

// tl.split(x): the halves of a tile whose minor dimension has size 2.
template <class Dst, class Src>
TLE_DEVICE pair<Dst, Dst> split(const Src &src, unsigned char *scratch) {
  static_assert(Src::kElements == 2 * Dst::kElements, "split halves the elements");
  auto *buffer = share_row_major(src, scratch);
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
  auto *buffer = share_row_major(src, scratch);
  Dst t;
  static_for<Dst::kRegs>([&](auto r) {
    constexpr int R = decltype(r)::value;
    t.v[R] = buffer[position_in<Dst, R, Src, Axis>(nullptr, static_cast<int>(index.v[R]))];
  });
  __syncthreads();
  return t;
}

// TLE's extract_tile: the Dst-shaped block of src whose first element is at Offsets.
template <class Dst, int... Offsets, class Src>
TLE_DEVICE Dst extract_tile(const Src &src, unsigned char *scratch) {
  static_assert(sizeof...(Offsets) == Src::rank && Src::rank == Dst::rank, "one offset per dimension");
  auto *buffer = share_row_major(src, scratch);
  constexpr int offsets[] = {Offsets...};
  Dst t;
  static_for<Dst::kRegs>([&](auto r) { t.v[decltype(r)::value] = buffer[position_in<Dst, decltype(r)::value, Src>(offsets)]; });
  __syncthreads();
  return t;
}

// TLE's insert_tile: src with the block at Offsets replaced by `tile`.
template <int... Offsets, class Src, class Part>
TLE_DEVICE Src insert_tile(const Src &src, const Part &tile, unsigned char *scratch) {
  static_assert(sizeof...(Offsets) == Src::rank && Src::rank == Part::rank, "one offset per dimension");
  auto *buffer = share_row_major(src, scratch);
  constexpr int offsets[] = {Offsets...};
  static_for<Part::kRegs>([&](auto r) { buffer[position_in<Part, decltype(r)::value, Src>(offsets)] = tile.v[decltype(r)::value]; });
  __syncthreads();
  const Src t = load_row_major<Src>(buffer);
  __syncthreads();
  return t;
}

}  // namespace tle
