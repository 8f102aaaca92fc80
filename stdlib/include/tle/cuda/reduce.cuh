// Reductions along one axis of a tile: first over the registers of a thread, then across
// the lanes of a warp with butterfly shuffles, then across warps through shared memory.
// Every thread that holds a result element ends with the same bits, because each step
// combines the same two partials on both sides of the exchange.
#pragma once

#include "tle/cuda/elementwise.cuh"

namespace tle {

// Two values reduced together (argmax/argmin and multi-operand tl.reduce).
template <class A, class B>
struct pair {
  A first;
  B second;
};

// A warp shuffle of any element: `shuffle` is one __shfl_*_sync on a 32-bit or wider value
// (or a half); narrower integers go through int, pairs member by member.
template <class T>
constexpr bool is_pair_v = false;
template <class A, class B>
constexpr bool is_pair_v<pair<A, B>> = true;
template <class T>
constexpr bool is_half_v = false;  // shuffled as they are
template <>
constexpr bool is_half_v<__half> = true;
template <>
constexpr bool is_half_v<__nv_bfloat16> = true;
template <class T, class Shuffle>
TLE_DEVICE T shuffle_value(T v, Shuffle shuffle) {
  if constexpr (is_pair_v<T>) return {shuffle_value(v.first, shuffle), shuffle_value(v.second, shuffle)};
  else if constexpr (is_half_v<T> || sizeof(T) >= 4) return shuffle(v);
  else return static_cast<T>(shuffle(static_cast<int>(v)));
}
template <class T>
TLE_DEVICE T shfl_xor(T v, int laneMask) {
  return shuffle_value(v, [&](auto x) { return __shfl_xor_sync(0xffffffffu, x, laneMask); });
}

// Does source register S feed result register O (same coordinates off the axis)?
template <int Axis, class Src, class Dst>
TLE_CONSTEXPR bool feeds(int s, int o) {
  for (int d = 0, k = 0; d < Src::rank; ++d) {
    if (d == Axis) continue;
    if (Src::linear.regCoord(s, d) != Dst::linear.regCoord(o, k)) return false;
    ++k;
  }
  return true;
}
template <int Axis, class Src, class Dst>
TLE_CONSTEXPR int first_feeder(int o) {
  for (int s = 0; s < Src::kRegs; ++s)
    if (feeds<Axis, Src, Dst>(s, o)) return s;
  return -1;
}
template <int Axis, class Src>
TLE_CONSTEXPR int warps_along() {
  int n = 1;
  for (int b = 0; b < Src::linear.numWarpBits; ++b)
    if (Src::linear.warp[b][Axis]) n *= 2;
  return n;
}

// The result of reducing Src along Axis: a tile laid out as Slice<Axis, layout of Src>.
template <int Axis, class Src>
struct reduced;
template <int Axis, class T, class L, int... S>
struct reduced<Axis, Tile<T, L, S...>> {
  template <int... Before, int First, int... After>
  static auto drop(ints<Before...>, ints<First, After...>) {
    if constexpr (sizeof...(Before) == Axis) return Tile<T, Slice<Axis, L>, Before..., After...>{};
    else return drop(ints<Before..., First>{}, ints<After...>{});
  }
  using type = decltype(drop(ints<>{}, ints<S...>{}));
};
template <int Axis, class Src>
using reduced_t = typename reduced<Axis, Src>::type;

template <int Axis, class Src>
TLE_CONSTEXPR int reduce_scratch_bytes() {
  return warps_along<Axis, Src>() == 1
             ? 0
             : reduced_t<Axis, Src>::kElements * warps_along<Axis, Src>() * static_cast<int>(sizeof(typename Src::value_type));
}

template <int Axis, class Src, int... B>
TLE_DEVICE int warp_index_along(int warp, seq<B...>) {
  int index = 0, bit = 0;
  // Every term assigns, so that no expansion is a statement without effect (nvcc warns).
  ((index |= TLE_CONST(Src::linear.warp[B][Axis]) != 0 ? ((warp >> B) & 1) << bit++ : 0), ...);
  return index;
}

template <int Axis, class Src, class Combine>
TLE_DEVICE reduced_t<Axis, Src> reduce(const Src &src, Combine combine, Scratch scratch) {
  using Dst = reduced_t<Axis, Src>;
  using T = typename Src::value_type;
  Dst out;
  // 1. Within the thread.
  static_for<Dst::kRegs>([&](auto o) {
    constexpr int first = first_feeder<Axis, Src, Dst>(decltype(o)::value);
    static_assert(first >= 0, "tlec bug: a reduction result has no source register");
    T acc = src.v[first];
    static_for<Src::kRegs>([&](auto s) {
      if constexpr (decltype(s)::value != first && feeds<Axis, Src, Dst>(decltype(s)::value, decltype(o)::value))
        acc = combine(acc, src.v[decltype(s)::value]);
    });
    out.v[decltype(o)::value] = acc;
  });
  // 2. Across lanes.
  static_for<kLaneBits>([&](auto b) {
    if constexpr (TLE_CONST(Src::linear.lane[decltype(b)::value][Axis]) != 0) {
      static_assert(Src::linear.laneOnlyAlong(decltype(b)::value, Axis), "tlec bug: a lane moves along two axes");
      TLE_UNROLL for (int o = 0; o < Dst::kRegs; ++o)
        out.v[o] = combine(out.v[o], shfl_xor(out.v[o], 1 << decltype(b)::value));
    }
  });
  // 3. Across warps.
  constexpr int nWarps = warps_along<Axis, Src>();
  if constexpr (nWarps > 1) {
    T *buffer = reinterpret_cast<T *>(scratch.ptr);
    const int w = warp_index_along<Axis, Src>(warp_id(), make_seq<Src::linear.numWarpBits>{});
    static_for<Dst::kRegs>([&](auto o) { buffer[linear_index<Dst, decltype(o)::value>() * nWarps + w] = out.v[decltype(o)::value]; });
    scratch.group.sync();
    static_for<Dst::kRegs>([&](auto o) {
      const int base = linear_index<Dst, decltype(o)::value>() * nWarps;
      T acc = buffer[base];
      TLE_UNROLL for (int k = 1; k < nWarps; ++k) acc = combine(acc, buffer[base + k]);
      out.v[decltype(o)::value] = acc;
    });
    scratch.group.sync();
  }
  return out;
}

// A whole boolean tile reduced by or (any) or and (all), where every thread of the block takes
// part (tle-block-votes): each thread folds its registers and the barrier's vote combines the
// threads (bar.red.or / bar.red.and): one barrier, no shuffles, no shared memory. Registers
// that hold copies of an element change neither result.
template <class Src>
TLE_DEVICE bool block_any(const Src &src) {
  bool any = false;
  TLE_UNROLL for (int r = 0; r < Src::kRegs; ++r) any = any || src.v[r];
  return __syncthreads_or(any) != 0;
}
template <class Src>
TLE_DEVICE bool block_all(const Src &src) {
  bool all = true;
  TLE_UNROLL for (int r = 0; r < Src::kRegs; ++r) all = all && src.v[r];
  return __syncthreads_and(all) != 0;
}

// ---- zipping tiles for two-operand reductions ---------------------------------------------------

template <class A, class B, class L, int... S>
TLE_DEVICE Tile<pair<A, B>, L, S...> zip(const Tile<A, L, S...> &a, const Tile<B, L, S...> &b) {
  Tile<pair<A, B>, L, S...> r;
  TLE_UNROLL for (int i = 0; i < r.kRegs; ++i) r.v[i] = {a.v[i], b.v[i]};
  return r;
}
template <class A, class B, class L, int... S>
TLE_DEVICE Tile<A, L, S...> first(const Tile<pair<A, B>, L, S...> &p) {
  Tile<A, L, S...> r;
  TLE_UNROLL for (int i = 0; i < r.kRegs; ++i) r.v[i] = p.v[i].first;
  return r;
}
template <class A, class B, class L, int... S>
TLE_DEVICE Tile<B, L, S...> second(const Tile<pair<A, B>, L, S...> &p) {
  Tile<B, L, S...> r;
  TLE_UNROLL for (int i = 0; i < r.kRegs; ++i) r.v[i] = p.v[i].second;
  return r;
}
template <class A, class B>
TLE_DEVICE A first(const pair<A, B> &p) { return p.first; }
template <class A, class B>
TLE_DEVICE B second(const pair<A, B> &p) { return p.second; }

// A reduction of a 1-D tile is a scalar.
template <class TileT>
TLE_DEVICE typename TileT::value_type scalar(const TileT &t) {
  static_assert(TileT::rank == 0, "only a rank-0 tile is a scalar");
  return t.v[0];
}

}  // namespace tle
