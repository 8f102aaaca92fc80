// tl.join, tl.split, tl.gather, tl.sort, tl.histogram and TLE's extract_tile/insert_tile:
// element moves between threads, done through shared memory
// (each thread stores what it holds at the element's row-major position, then reads what
// the result gives it).
#pragma once

#include "tle/cuda/elementwise.cuh"  // lt, ltu
#include "tle/cuda/memory.cuh"       // NoOperand
#include "tle/cuda/reduce.cuh"       // pair

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
TLE_DEVICE Dst join(const Src &a, const Src &b, Scratch scratch) {
  static_assert(Dst::kElements == 2 * Src::kElements, "join doubles the elements");
  using T = typename Src::value_type;
  T *buffer = reinterpret_cast<T *>(scratch.ptr);
  store_row_major(a, buffer, 2, 0);
  store_row_major(b, buffer, 2, 1);
  scratch.group.sync();
  const Dst t = load_row_major<Dst>(buffer);
  scratch.group.sync();
  return t;
}

// tl.split(x): the halves of a tile whose minor dimension has size 2.
template <class Dst, class Src>
TLE_DEVICE pair<Dst, Dst> split(const Src &src, Scratch scratch) {
  static_assert(Src::kElements == 2 * Dst::kElements, "split halves the elements");
  auto *buffer = share_row_major(src, scratch);
  pair<Dst, Dst> halves;
  static_for<Dst::kRegs>([&](auto r) {
    const int index = linear_index<Dst, decltype(r)::value>();
    halves.first.v[decltype(r)::value] = buffer[2 * index];
    halves.second.v[decltype(r)::value] = buffer[2 * index + 1];
  });
  scratch.group.sync();
  return halves;
}

// tl.gather(src, index, axis): result[i...] = src[i... with index[i...] along Axis]. The
// indices arrive in the result's layout.
template <class Dst, int Axis, class Src, class Index>
TLE_DEVICE Dst gather(const Src &src, const Index &index, Scratch scratch) {
  static_assert(Index::kRegs == Dst::kRegs && Index::rank == Dst::rank, "the indices are laid out like the result");
  auto *buffer = share_row_major(src, scratch);
  Dst t;
  static_for<Dst::kRegs>([&](auto r) {
    constexpr int R = decltype(r)::value;
    t.v[R] = buffer[position_in<Dst, R, Src, Axis>(nullptr, static_cast<int>(index.v[R]))];
  });
  scratch.group.sync();
  return t;
}

// TLE's extract_tile and insert_tile: the Dst- (or tile-) shaped block of src whose first
// element is at `offsets`, known at run time.
template <class Dst, class Src, int Rank>
TLE_DEVICE Dst extract_tile_at(const Src &src, const int (&offsets)[Rank], Scratch scratch) {
  static_assert(Rank == Src::rank && Src::rank == Dst::rank, "one offset per dimension");
  auto *buffer = share_row_major(src, scratch);
  Dst t;
  static_for<Dst::kRegs>([&](auto r) { t.v[decltype(r)::value] = buffer[position_in<Dst, decltype(r)::value, Src>(offsets)]; });
  scratch.group.sync();
  return t;
}
template <class Src, class Part, int Rank>
TLE_DEVICE Src insert_tile_at(const Src &src, const Part &tile, const int (&offsets)[Rank], Scratch scratch) {
  static_assert(Rank == Src::rank && Src::rank == Part::rank, "one offset per dimension");
  auto *buffer = share_row_major(src, scratch);
  static_for<Part::kRegs>([&](auto r) { buffer[position_in<Part, decltype(r)::value, Src>(offsets)] = tile.v[decltype(r)::value]; });
  scratch.group.sync();
  const Src t = load_row_major<Src>(buffer);
  scratch.group.sync();
  return t;
}

// The same at compile-time Offsets.
template <class Dst, int... Offsets, class Src>
TLE_DEVICE Dst extract_tile(const Src &src, Scratch scratch) {
  return extract_tile_at<Dst>(src, {Offsets...}, scratch);
}
template <int... Offsets, class Src, class Part>
TLE_DEVICE Src insert_tile(const Src &src, const Part &tile, Scratch scratch) {
  return insert_tile_at(src, tile, {Offsets...}, scratch);
}

// tl.sort along the last dimension: a bitonic sorting network over each row, in shared
// memory. Every step compares N/2 disjoint pairs per row, spread over the block's threads;
// a barrier separates the steps. Unsigned compares integers as unsigned.
template <bool Descending, bool Unsigned, class Src>
TLE_DEVICE Src sort(const Src &src, Scratch scratch) {
  using T = typename Src::value_type;
  constexpr int kRow = TLE_CONST(Src::linear.shape[Src::rank - 1]);
  constexpr int kPairs = Src::kElements / 2;
  static_assert((kRow & (kRow - 1)) == 0, "rows of a power-of-two length");
  T *buffer = share_row_major(src, scratch);
  for (int k = 2; k <= kRow; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int p = scratch.group.rank(); p < kPairs; p += scratch.group.size()) {
        const int a = ((p & ~(j - 1)) << 1) | (p & (j - 1));  // p with a 0 inserted at j's bit
        const int b = a | j;
        // Ascending runs where bit k of the position in the row is clear (all of the row at the last merge).
        const bool ascending = ((a & (kRow - 1) & k) == 0) != Descending;
        const T x = buffer[a], y = buffer[b];
        bool less;
        if constexpr (Unsigned) less = ltu(y, x);
        else less = lt(y, x);
        if (less == ascending) {
          buffer[a] = y;
          buffer[b] = x;
        }
      }
      scratch.group.sync();
    }
  }
  const Src t = load_row_major<Src>(buffer);
  scratch.group.sync();
  return t;
}

template <class Mask>
TLE_DEVICE bool mask_at(const Mask *mask, int r) { return mask->v[r]; }
TLE_DEVICE bool mask_at(const NoOperand *, int) { return true; }

// tl.histogram: counts of the values 0 .. Dst::kElements - 1 in a 1-D tile, masked-off
// elements and values outside the bins left out; each element counted once (by its owner
// thread), with shared-memory atomics.
template <class Dst, class Src, class Mask>
TLE_DEVICE Dst histogram(const Src &src, const Mask *mask, Scratch scratch) {
  constexpr int kBins = Dst::kElements;
  int32_t *counts = reinterpret_cast<int32_t *>(scratch.ptr);
  for (int i = scratch.group.rank(); i < kBins; i += scratch.group.size()) counts[i] = 0;
  scratch.group.sync();
  if (is_owner<Src>()) {
    static_for<Src::kRegs>([&](auto r) {
      constexpr int R = decltype(r)::value;
      const int64_t v = static_cast<int64_t>(src.v[R]);
      if (mask_at(mask, R) && v >= 0 && v < kBins) atomicAdd(&counts[v], 1);
    });
  }
  scratch.group.sync();
  const Dst t = load_row_major<Dst>(counts);
  scratch.group.sync();
  return t;
}

}  // namespace tle
