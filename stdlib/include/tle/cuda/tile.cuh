// Register tiles: a Tile<T, Layout, Shape...> is the part of a block-wide tensor that one
// thread holds, `kRegs` values of type T. Which elements those are is the layout's business
// (layout.cuh); everything here is written against the linear form.
#pragma once

#include "tle/cuda/layout.cuh"

namespace tle {

template <class T, class Layout, int... Shape>
struct Tile {
  using value_type = T;
  using layout_type = Layout;
  static constexpr int rank = sizeof...(Shape);
  static constexpr LinearLayout linear = Layout::template linear<Shape...>();
  static constexpr int kRegs = linear.numRegs();
  static constexpr int kElements = linear.numElements();
  T v[kRegs];
};

// The same layout and shape with another element type.
template <class U, class TileT>
struct retile;
template <class U, class T, class L, int... S>
struct retile<U, Tile<T, L, S...>> {
  using type = Tile<U, L, S...>;
};
template <class U, class TileT>
using retile_t = typename retile<U, TileT>::type;

template <class X>
struct is_tile {
  static constexpr bool value = false;
};
template <class T, class L, int... S>
struct is_tile<Tile<T, L, S...>> {
  static constexpr bool value = true;
};

template <int I>
struct index_c {
  static constexpr int value = I;
};
template <class F, int... I>
TLE_DEVICE void static_for_impl(F &&f, seq<I...>) {
  (f(index_c<I>{}), ...);
}
// Calls f(index_c<0>{}) ... f(index_c<N-1>{}): the index is a compile-time constant, so
// the layout tables can be read with it.
template <int N, class F>
TLE_DEVICE void static_for(F &&f) {
  static_for_impl(f, make_seq<N>{});
}

// ---- coordinates --------------------------------------------------------------------------

template <class TileT, int D, int... B>
TLE_DEVICE int lane_part(int lane, seq<B...>) {
  return (0 ^ ... ^ (((lane >> B) & 1) ? TLE_CONST(TileT::linear.lane[B][D]) : 0));
}
template <class TileT, int D, int... B>
TLE_DEVICE int warp_part(int warp, seq<B...>) {
  return (0 ^ ... ^ (((warp >> B) & 1) ? TLE_CONST(TileT::linear.warp[B][D]) : 0));
}
// The part of this thread's coordinates along D that comes from its lane and warp.
template <class TileT, int D>
TLE_DEVICE int thread_coord() {
  return lane_part<TileT, D>(lane_id(), make_seq<kLaneBits>{}) ^
         warp_part<TileT, D>(warp_id(), make_seq<TileT::linear.numWarpBits>{});
}

template <class TileT, int R, int... D>
TLE_DEVICE int linear_index_impl(seq<D...>) {
  constexpr LinearLayout L = TileT::linear;
  int index = 0;
  ((index = index * TLE_CONST(L.shape[D]) + (thread_coord<TileT, D>() ^ TLE_CONST(L.regCoord(R, D)))), ...);
  return index;
}
// Row-major position in the whole tensor of this thread's register R.
template <class TileT, int R>
TLE_DEVICE int linear_index() {
  return linear_index_impl<TileT, R>(make_seq<TileT::rank>{});
}

// True for exactly one of the threads that hold copies of the same elements: the one whose
// replicated lane and warp bits are all zero. Side effects (atomics) happen only there.
// The bits (of `count` lane or warp bits) whose basis is zero: threads differing only there
// hold copies.
TLE_CONSTEXPR int zero_basis_mask(const int (*bases)[kMaxRank], int count, int rank) {
  int mask = 0;
  for (int b = 0; b < count; ++b) {
    int any = 0;
    for (int d = 0; d < rank; ++d) any |= bases[b][d];
    if (!any) mask |= 1 << b;
  }
  return mask;
}
template <class TileT>
TLE_CONSTEXPR int replicated_lane_mask() {
  return zero_basis_mask(TileT::linear.lane, kLaneBits, TileT::linear.rank);
}
template <class TileT>
TLE_CONSTEXPR int replicated_warp_mask() {
  return zero_basis_mask(TileT::linear.warp, TileT::linear.numWarpBits, TileT::linear.rank);
}
template <class TileT>
TLE_DEVICE bool is_owner() {
  return (lane_id() & TLE_CONST(replicated_lane_mask<TileT>())) == 0 &&
         (warp_id() & TLE_CONST(replicated_warp_mask<TileT>())) == 0;
}

// ---- construction ---------------------------------------------------------------------------

template <class TileT>
TLE_DEVICE TileT full(typename TileT::value_type x) {
  TileT t;
  TLE_UNROLL for (int r = 0; r < TileT::kRegs; ++r) t.v[r] = x;
  return t;
}

// Whether no two of the layout's register, lane and warp bases along `dim` share a bit:
// then a coordinate, the XOR of its bases, is also their sum.
template <class TileT>
TLE_CONSTEXPR bool additive_coordinates(int dim) {
  constexpr LinearLayout L = TileT::linear;
  int seen = 0;
  bool ok = true;
  auto take = [&](int b) {
    if (b == 0) return;
    ok = ok && (b & (b - 1)) == 0 && (seen & b) == 0;
    seen |= b;
  };
  for (int i = 0; i < L.numRegBits; ++i) take(L.reg[i][dim]);
  for (int i = 0; i < kLaneBits; ++i) take(L.lane[i][dim]);
  for (int i = 0; i < L.numWarpBits; ++i) take(L.warp[i][dim]);
  return ok;
}

// tl.arange(start, end) laid out as TileT (1-D). Where the coordinates are additive, each
// register is the thread's first value plus a constant, which nvcc folds into the address
// arithmetic that uses it (an XOR it cannot).
template <class TileT>
TLE_DEVICE TileT make_range(int start) {
  static_assert(TileT::rank == 1, "make_range builds 1-D tiles");
  TileT t;
  const int base = thread_coord<TileT, 0>();
  static_for<TileT::kRegs>([&](auto r) {
    constexpr int own = TLE_CONST(TileT::linear.regCoord(decltype(r)::value, 0));
    if constexpr (additive_coordinates<TileT>(0)) t.v[decltype(r)::value] = start + base + own;
    else t.v[decltype(r)::value] = start + (base ^ own);
  });
  return t;
}

// ---- register remapping: broadcast and expand_dims -------------------------------------------

// The register of Src that holds the element register R of Dst needs, when Dst's
// dimension `dstDim[d]` feeds Src's dimension d and Src's unit dimensions are broadcast.
template <class Src, class Dst>
TLE_CONSTEXPR int source_register(int r, int inserted) {
  for (int s = 0; s < Src::kRegs; ++s) {
    bool match = true;
    for (int d = 0; d < Src::rank; ++d) {
      const int dd = inserted >= 0 && d >= inserted ? d + 1 : d;
      const int want = Src::linear.shape[d] == 1 ? 0 : Dst::linear.regCoord(r, dd);
      if (Src::linear.regCoord(s, d) != want) match = false;
    }
    if (match) return s;
  }
  return -1;
}
template <class Src, class Dst>
TLE_CONSTEXPR bool same_thread_bases(int inserted) {
  for (int d = 0; d < Src::rank; ++d) {
    if (Src::linear.shape[d] == 1) continue;
    const int dd = inserted >= 0 && d >= inserted ? d + 1 : d;
    for (int b = 0; b < kLaneBits; ++b)
      if (Src::linear.lane[b][d] != Dst::linear.lane[b][dd]) return false;
    for (int b = 0; b < Src::linear.numWarpBits; ++b)
      if (Src::linear.warp[b][d] != Dst::linear.warp[b][dd]) return false;
  }
  return Src::linear.numWarpBits == Dst::linear.numWarpBits;
}

template <class Dst, int Inserted, class Src>
TLE_DEVICE Dst remap(const Src &src) {
  static_assert(same_thread_bases<Src, Dst>(Inserted),
                "tlec bug: broadcast/expand_dims between layouts that place elements on different threads");
  Dst t;
  static_for<Dst::kRegs>([&](auto r) {
    constexpr int s = source_register<Src, Dst>(decltype(r)::value, Inserted);
    static_assert(s >= 0, "tlec bug: a broadcast element is not held by the same thread");
    t.v[decltype(r)::value] = src.v[s];
  });
  return t;
}

// x[:, None]: Src is laid out as Slice<Axis, P>, the result as P.
template <class Dst, int Axis, class Src>
TLE_DEVICE Dst expand_dims(const Src &src) {
  return remap<Dst, Axis>(src);
}

// Repeats the size-1 dimensions of src; both tiles have the same layout.
template <class Dst, class Src>
TLE_DEVICE Dst broadcast(const Src &src) {
  return remap<Dst, -1>(src);
}

// ---- layout conversion through shared memory --------------------------------------------------

template <class A, class B>
TLE_CONSTEXPR bool same_linear_layout() {
  // One flag, no early return: nvcc warns about loops after a constant-folded return.
  bool same = A::kRegs == B::kRegs && A::rank == B::rank && A::linear.numWarpBits == B::linear.numWarpBits;
  for (int d = 0; same && d < A::rank; ++d) {
    same = same && A::linear.shape[d] == B::linear.shape[d];
    for (int b = 0; b < A::linear.numRegBits; ++b) same = same && A::linear.reg[b][d] == B::linear.reg[b][d];
    for (int b = 0; b < kLaneBits; ++b) same = same && A::linear.lane[b][d] == B::linear.lane[b][d];
    for (int b = 0; b < A::linear.numWarpBits; ++b) same = same && A::linear.warp[b][d] == B::linear.warp[b][d];
  }
  return same;
}

// A tile through shared memory, at each element's row-major position in the tile's shape
// (times `scale`, plus `offset`: join's interleaving). Copies held by several threads are
// written by each, with the same value.
template <class Src>
TLE_DEVICE void store_row_major(const Src &src, typename Src::value_type *buffer, int scale = 1, int offset = 0) {
  static_for<Src::kRegs>([&](auto r) { buffer[linear_index<Src, decltype(r)::value>() * scale + offset] = src.v[decltype(r)::value]; });
}
// store_row_major into `scratch`, then a barrier: every thread can read any element.
template <class Src>
TLE_DEVICE typename Src::value_type *share_row_major(const Src &src, Scratch scratch) {
  auto *buffer = reinterpret_cast<typename Src::value_type *>(scratch.ptr);
  store_row_major(src, buffer);
  scratch.group.sync();
  return buffer;
}
template <class Dst>
TLE_DEVICE Dst load_row_major(const typename Dst::value_type *buffer) {
  Dst t;
  static_for<Dst::kRegs>([&](auto r) { t.v[decltype(r)::value] = buffer[linear_index<Dst, decltype(r)::value>()]; });
  return t;
}

// Every thread writes what it holds to shared memory at the element's row-major position,
// then reads what Dst gives it: a layout conversion, or a row-major reshape when the shapes
// differ.
template <class Dst, class Src>
TLE_DEVICE Dst through_shared(const Src &src, Scratch scratch) {
  static_assert(Src::kElements == Dst::kElements, "the same number of elements on both sides");
  auto *buffer = share_row_major(src, scratch);
  const Dst t = load_row_major<Dst>(buffer);
  scratch.group.sync();
  return t;
}

// Does every element stay on its thread, only in another register? (An mma accumulator
// read as the next dot's A operand, for one.) Then the conversion is a register copy.
template <class Src, class Dst>
TLE_CONSTEXPR bool same_threads_other_registers() {
  bool ok = Src::rank == Dst::rank && same_thread_bases<Src, Dst>(-1);
  for (int d = 0; ok && d < Src::rank; ++d) ok = Src::linear.shape[d] == Dst::linear.shape[d];
  for (int r = 0; ok && r < Dst::kRegs; ++r) ok = source_register<Src, Dst>(r, -1) >= 0;
  return ok;
}

template <class Dst, class Src>
TLE_CONSTEXPR int convert_scratch_bytes() {
  return same_threads_other_registers<Src, Dst>() ? 0 : Src::kElements * static_cast<int>(sizeof(typename Src::value_type));
}

// True for 16-bit mma.sync operand tiles, which dot.cuh converts with ldmatrix.
template <class Dst>
struct is_mma16_operand {
  static constexpr bool value = false;
};

// Redistributes a tile over the threads (through_shared), with three shortcuts: nothing to
// do for equal layouts, a register copy when no element changes thread, ldmatrix for 16-bit
// mma operands.
template <class Dst, class Src>
TLE_DEVICE Dst convert_layout(const Src &src, Scratch scratch) {
  static_assert(Src::kElements == Dst::kElements, "convert_layout keeps the shape");
  if constexpr (same_linear_layout<Src, Dst>()) {
    Dst t;
    TLE_UNROLL for (int r = 0; r < Dst::kRegs; ++r) t.v[r] = src.v[r];
    return t;
  } else if constexpr (same_threads_other_registers<Src, Dst>()) {
    return remap<Dst, -1>(src);
  } else if constexpr (is_mma16_operand<Dst>::value) {
    // 16-bit tensor-core operands: swizzled shared memory and ldmatrix (dot.cuh).
    Dst t;
    load_mma16_operand_into(t, src, scratch);
    return t;
  } else {
    return through_shared<Dst>(src, scratch);
  }
}

// ---- permutations through shared memory -----------------------------------------------------

template <class Src, int R, int... D>
TLE_DEVICE int permuted_index_impl(const int *order, seq<D...>) {
  // Dst coordinate i is Src coordinate order[i]; the index is row-major in Dst's shape.
  int coord[Src::rank] = {(thread_coord<Src, D>() ^ TLE_CONST(Src::linear.regCoord(R, D)))...};
  const int shape[Src::rank] = {TLE_CONST(Src::linear.shape[D])...};
  int index = 0;
  for (int i = 0; i < Src::rank; ++i) index = index * shape[order[i]] + coord[order[i]];
  return index;
}

// Does every thread hold, in each register of Dst, the element of src that its register of
// the same number holds (Dst's layout is Src's with the dimensions permuted)?
template <class Dst, class Src, int... Order>
TLE_CONSTEXPR bool permutes_in_registers() {
  constexpr LinearLayout S = Src::linear, D = Dst::linear;
  constexpr int order[] = {Order...};
  if (S.numRegBits != D.numRegBits || S.numWarpBits != D.numWarpBits) return false;
  for (int i = 0; i < Src::rank; ++i) {
    for (int b = 0; b < S.numRegBits; ++b)
      if (D.reg[b][i] != S.reg[b][order[i]]) return false;
    for (int b = 0; b < kLaneBits; ++b)
      if (D.lane[b][i] != S.lane[b][order[i]]) return false;
    for (int b = 0; b < S.numWarpBits; ++b)
      if (D.warp[b][i] != S.warp[b][order[i]]) return false;
  }
  return true;
}

// tl.trans / tl.permute between layouts that are each other's permutation (tle-assign-layouts
// makes them so where it can): the registers are relabelled, nothing moves.
template <class Dst, int... Order, class Src>
TLE_DEVICE Dst permute_in_registers(const Src &src) {
  static_assert(sizeof...(Order) == Src::rank && Src::rank == Dst::rank, "permute keeps the rank");
  static_assert(permutes_in_registers<Dst, Src, Order...>(), "tlec bug: the layouts are not each other's permutation");
  Dst t;
  static_for<Src::kRegs>([&](auto r) { t.v[decltype(r)::value] = src.v[decltype(r)::value]; });
  return t;
}

// For a Dst-shaped sub-tile of Src at Offsets (multiples of Dst's shape): which register of
// Src holds what each register of Dst holds, where Dst's lanes and warps are Src's (the same
// thread holds both). `fits` is false when some thread would need another's element.
template <int Regs>
struct SubtileRegisters {
  bool fits = false;
  int from[Regs] = {};
};
template <class Dst, class Src, int... Offsets>
TLE_CONSTEXPR SubtileRegisters<Dst::kRegs> subtile_registers() {
  constexpr LinearLayout S = Src::linear, D = Dst::linear;
  constexpr int offsets[] = {Offsets...};
  SubtileRegisters<Dst::kRegs> map;
  if (S.numWarpBits != D.numWarpBits) return map;
  for (int d = 0; d < Src::rank; ++d) {
    for (int b = 0; b < kLaneBits; ++b)
      if (D.lane[b][d] != S.lane[b][d]) return map;
    for (int b = 0; b < S.numWarpBits; ++b)
      if (D.warp[b][d] != S.warp[b][d]) return map;
  }
  // A thread's element is the XOR of its register's, lane's and warp's coordinates, and an
  // offset that is a multiple of Dst's power-of-two shape adds as an XOR.
  for (int r = 0; r < Dst::kRegs; ++r) {
    int found = -1;
    for (int s = 0; s < Src::kRegs && found < 0; ++s) {
      bool same = true;
      for (int d = 0; d < Src::rank; ++d) same = same && S.regCoord(s, d) == (D.regCoord(r, d) ^ offsets[d]);
      if (same) found = s;
    }
    if (found < 0) return map;
    map.from[r] = found;
  }
  map.fits = true;
  return map;
}

// TLE's extract_tile at compile-time Offsets where every thread holds its part of the
// sub-tile already (tle-assign-layouts gives an accumulator's sub-tiles its layout where
// that layout keeps their threads): registers are selected, nothing moves.
template <class Dst, int... Offsets, class Src>
TLE_DEVICE Dst extract_tile_in_registers(const Src &src) {
  static_assert(sizeof...(Offsets) == Src::rank && Src::rank == Dst::rank, "one offset per dimension");
  constexpr SubtileRegisters<Dst::kRegs> map = subtile_registers<Dst, Src, Offsets...>();
  static_assert(map.fits, "tlec bug: the sub-tile is not in the registers of the threads that hold it");
  Dst t;
  static_for<Dst::kRegs>([&](auto r) { t.v[decltype(r)::value] = src.v[map.from[decltype(r)::value]]; });
  return t;
}

// tl.trans / tl.permute: result dimension i is dimension Order[i] of src, through shared memory.
template <class Dst, int... Order, class Src>
TLE_DEVICE Dst permute(const Src &src, Scratch scratch) {
  static_assert(sizeof...(Order) == Src::rank && Src::rank == Dst::rank, "permute keeps the rank");
  using T = typename Src::value_type;
  T *buffer = reinterpret_cast<T *>(scratch.ptr);
  constexpr int order[] = {Order...};
  static_for<Src::kRegs>([&](auto r) {
    buffer[permuted_index_impl<Src, decltype(r)::value>(order, make_seq<Src::rank>{})] = src.v[decltype(r)::value];
  });
  scratch.group.sync();
  const Dst t = load_row_major<Dst>(buffer);
  scratch.group.sync();
  return t;
}

// tl.reshape: the same elements in row-major order, redistributed for the new shape.
template <class Dst, class Src>
TLE_DEVICE Dst reshape(const Src &src, Scratch scratch) {
  return through_shared<Dst>(src, scratch);
}

}  // namespace tle
