// Scans along one axis of a tile (tl.cumsum, tl.cumprod, tl.associative_scan, and TLE's
// exclusive cumsum), through shared memory: the tile is stored row-major, each line along
// the axis is cut into as many chunks as there are threads to spare, every thread scans its
// chunk, the chunk totals of each line are scanned (shuffles within a warp, then the totals
// of earlier warps), each chunk folds in the totals before it, and the tiles are read back
// in the result's layout. The combine function only needs to be associative; it is
// always applied as combine(earlier, later).
#pragma once

#include "tle/cuda/reduce.cuh"

namespace tle {

template <class TileT>
TLE_CONSTEXPR int block_threads() {
  return 32 << TileT::linear.numWarpBits;
}

// How a scan of Src along Axis splits its work.
template <int Axis, class Src>
struct scan_plan {
  static constexpr int length = Src::linear.shape[Axis];
  static constexpr int lines = Src::kElements / length;
  static constexpr int inner = [] {
    int n = 1;
    for (int d = Axis + 1; d < Src::rank; ++d) n *= Src::linear.shape[d];
    return n;
  }();
  static constexpr int parts = [] {
    int p = 1;
    while (p * 2 <= length && lines * p * 2 <= block_threads<Src>() && length / (p * 2) >= 2) p *= 2;
    return p;
  }();
  static constexpr int chunk = length / parts;
  // Position in the row-major buffer of element i of a line (counted from the end for a
  // reverse scan).
  template <bool Reverse>
  TLE_DEVICE static int at(int line, int i) {
    const int pos = Reverse ? length - 1 - i : i;
    return (line / inner) * length * inner + line % inner + pos * inner;
  }
};

// Chunk totals of one line sit in consecutive threads (one job per thread), so a warp scans
// up to 32 of them with shuffles; longer lines add the totals of their earlier warps.
template <int Axis, class Src>
TLE_CONSTEXPR int scan_warp_totals() {
  using Plan = scan_plan<Axis, Src>;
  return Plan::parts > 32 ? Plan::lines * (Plan::parts / 32) : 0;
}

template <int Axis, class Src, class T = typename Src::value_type>
TLE_CONSTEXPR int scan_scratch_bytes() {
  using Plan = scan_plan<Axis, Src>;
  return (Src::kElements + Plan::lines * Plan::parts + scan_warp_totals<Axis, Src>()) * static_cast<int>(sizeof(T));
}

template <class T>
TLE_DEVICE T shfl_up(T v, int delta, int width) {
  return shuffle_value(v, [&](auto x) { return __shfl_up_sync(0xffffffffu, x, delta, width); });
}

// Scans `buffer` (row-major, Src's shape) in place, between two barriers. Every thread of the
// group must call it (it synchronizes the block and shuffles within warps).
template <int Axis, bool Reverse, class Src, class T, class F>
TLE_DEVICE void scan_in_shared(T *buffer, F combine, Group group) {
  using Plan = scan_plan<Axis, Src>;
  T *totals = buffer + Src::kElements;
  const int tid = group.rank();
  for (int job = tid; job < Plan::lines * Plan::parts; job += block_threads<Src>()) {
    const int line = job / Plan::parts, first = (job % Plan::parts) * Plan::chunk;
    T acc = buffer[Plan::template at<Reverse>(line, first)];
    TLE_UNROLL for (int i = 1; i < Plan::chunk; ++i) {
      T &x = buffer[Plan::template at<Reverse>(line, first + i)];
      acc = combine(acc, x);
      x = acc;
    }
    totals[job] = acc;
  }
  group.sync();
  if constexpr (Plan::parts > 1) {
    // The chunk totals of each line, scanned: within a warp by shuffles (lines of fewer
    // than 32 parts are segments of the warp), then across the warps of a line. Jobs are
    // threads here (lines * parts <= block threads), and every thread shuffles.
    constexpr int segment = Plan::parts < 32 ? Plan::parts : 32;
    const int job = tid, part = job % Plan::parts, line = job / Plan::parts;
    const bool active = job < Plan::lines * Plan::parts;
    T mine = active ? totals[job] : T();
    TLE_UNROLL for (int d = 1; d < segment; d *= 2) {
      const T earlier = shfl_up(mine, d, segment);
      if (part % segment >= d) mine = combine(earlier, mine);
    }
    if constexpr (Plan::parts > 32) {
      constexpr int warps = Plan::parts / 32;
      T *warp_totals = totals + Plan::lines * Plan::parts;
      if (active && part % 32 == 31) warp_totals[line * warps + part / 32] = mine;
      group.sync();
      if (active && part >= 32) {
        T before = warp_totals[line * warps];
        TLE_UNROLL for (int w = 1; w < warps; ++w)
          if (w < part / 32) before = combine(before, warp_totals[line * warps + w]);
        mine = combine(before, mine);
      }
    }
    if (active) totals[job] = mine;  // the inclusive scan of the chunk totals
    group.sync();
    if (active && part > 0) {
      const T prefix = totals[job - 1];
      TLE_UNROLL for (int i = 0; i < Plan::chunk; ++i) {
        T &x = buffer[Plan::template at<Reverse>(line, part * Plan::chunk + i)];
        x = combine(prefix, x);
      }
    }
    group.sync();
  }
}

// Inclusive scan: element i combines elements 0..i along Axis (i..end when Reverse).
template <class Dst, int Axis, bool Reverse, class Src, class F>
TLE_DEVICE Dst scan(const Src &src, F combine, Scratch scratch) {
  auto *buffer = share_row_major(src, scratch);
  scan_in_shared<Axis, Reverse, Src>(buffer, combine, scratch.group);
  const Dst t = load_row_major<Dst>(buffer);
  scratch.group.sync();
  return t;
}

// TLE's cumsum: the exclusive prefix sums along Axis and each line's total (a tile without
// Axis, or a scalar for a 1-D source).
template <class Dst, class Total, int Axis, bool Reverse, class Src>
TLE_DEVICE pair<Dst, Total> exclusive_cumsum(const Src &src, Scratch scratch) {
  using T = typename Src::value_type;
  using Plan = scan_plan<Axis, Src>;
  auto *buffer = share_row_major(src, scratch);
  scan_in_shared<Axis, Reverse, Src>(buffer, [](T a, T b) { return add(a, b); }, scratch.group);
  Dst t;
  static_for<Dst::kRegs>([&](auto r) {
    // The inclusive sum one step back along the axis (zero at the line's start).
    const int index = linear_index<Dst, decltype(r)::value>();
    const int pos = (index / Plan::inner) % Plan::length;
    const int back = Reverse ? (pos + 1 < Plan::length ? index + Plan::inner : -1) : (pos > 0 ? index - Plan::inner : -1);
    t.v[decltype(r)::value] = back >= 0 ? buffer[back] : T(0);
  });
  Total total;
  if constexpr (is_tile<Total>::value) {
    static_for<Total::kRegs>([&](auto r) {
      // The line of the total's element: its row-major index with Axis removed.
      const int line = linear_index<Total, decltype(r)::value>();
      total.v[decltype(r)::value] = buffer[Plan::template at<Reverse>(line, Plan::length - 1)];
    });
  } else {
    total = buffer[Plan::template at<Reverse>(0, Plan::length - 1)];
  }
  scratch.group.sync();
  return {t, total};
}

}  // namespace tle
