// Scans along one axis of a tile (tl.cumsum, tl.cumprod, tl.associative_scan, and TLE's
// exclusive cumsum), through shared memory: the tile is stored row-major, each line along
// the axis is cut into as many chunks as there are threads to spare, every thread scans its
// chunk, then folds the totals of the chunks before it into its own, and the tiles are read
// back in the result's layout. The combine function only needs to be associative; it is
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

template <int Axis, class Src, class T = typename Src::value_type>
TLE_CONSTEXPR int scan_scratch_bytes() {
  using Plan = scan_plan<Axis, Src>;
  return (Src::kElements + Plan::lines * Plan::parts) * static_cast<int>(sizeof(T));
}

// Scans `buffer` (row-major, Src's shape) in place, between two barriers.
template <int Axis, bool Reverse, class Src, class T, class F>
TLE_DEVICE void scan_in_shared(T *buffer, F combine) {
  using Plan = scan_plan<Axis, Src>;
  T *totals = buffer + Src::kElements;
  const int tid = static_cast<int>(threadIdx.x);
  for (int job = tid; job < Plan::lines * Plan::parts; job += block_threads<Src>()) {
    const int line = job / Plan::parts, first = (job % Plan::parts) * Plan::chunk;
    T acc = buffer[Plan::template at<Reverse>(line, first)];
    for (int i = 1; i < Plan::chunk; ++i) {
      T &x = buffer[Plan::template at<Reverse>(line, first + i)];
      acc = combine(acc, x);
      x = acc;
    }
    totals[job] = acc;
  }
  __syncthreads();
  if constexpr (Plan::parts > 1) {
    for (int job = tid; job < Plan::lines * Plan::parts; job += block_threads<Src>()) {
      const int line = job / Plan::parts, part = job % Plan::parts;
      if (part == 0) continue;
      T prefix = totals[line * Plan::parts];
      for (int p = 1; p < part; ++p) prefix = combine(prefix, totals[line * Plan::parts + p]);
      for (int i = 0; i < Plan::chunk; ++i) {
        T &x = buffer[Plan::template at<Reverse>(line, part * Plan::chunk + i)];
        x = combine(prefix, x);
      }
    }
    __syncthreads();
  }
}

// Inclusive scan: element i combines elements 0..i along Axis (i..end when Reverse).
template <class Dst, int Axis, bool Reverse, class Src, class F>
TLE_DEVICE Dst scan(const Src &src, F combine, unsigned char *scratch) {
  auto *buffer = share_row_major(src, scratch);
  scan_in_shared<Axis, Reverse, Src>(buffer, combine);
  const Dst t = load_row_major<Dst>(buffer);
  __syncthreads();
  return t;
}

// TLE's cumsum: the exclusive prefix sums along Axis and each line's total (a tile without
// Axis, or a scalar for a 1-D source).
template <class Dst, class Total, int Axis, bool Reverse, class Src>
TLE_DEVICE pair<Dst, Total> exclusive_cumsum(const Src &src, unsigned char *scratch) {
  using T = typename Src::value_type;
  using Plan = scan_plan<Axis, Src>;
  auto *buffer = share_row_major(src, scratch);
  scan_in_shared<Axis, Reverse, Src>(buffer, [](T a, T b) { return add(a, b); });
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
  __syncthreads();
  return {t, total};
}

}  // namespace tle
