// Layouts: how the elements of a register tile are spread over the threads of a block.
//
// Every layout is evaluated, at compile time, to a *linear layout*: for a tile of a given
// power-of-two shape, the coordinate of register slot `r` of lane `l` of warp `w` is the XOR
// of one basis vector per set bit of r, l and w. A zero basis means "replicated": the
// threads that differ only in that bit hold the same element. The named layouts below
// (Blocked, Slice, Mma accumulator) are what generated code spells; the algorithms in
// tile.cuh, reduce.cuh and memory.cuh work on the linear form only, so they are written once.
#pragma once

#include "tle/cuda/config.cuh"

namespace tle {

constexpr int kMaxRank = 4;
constexpr int kMaxRegBits = 16;
constexpr int kLaneBits = 5;
constexpr int kMaxWarpBits = 5;

template <int... V>
struct ints {
  static constexpr int size = sizeof...(V);
  static constexpr int values[sizeof...(V) + 1] = {V..., 0};
};

TLE_CONSTEXPR int log2_exact(int x) {
  int r = 0;
  while ((1 << r) < x) ++r;
  return r;
}

struct LinearLayout {
  int rank = 0;
  int shape[kMaxRank] = {};
  int numRegBits = 0;
  int numLaneBits = kLaneBits;
  int numWarpBits = 0;
  int reg[kMaxRegBits][kMaxRank] = {};
  int lane[kLaneBits][kMaxRank] = {};
  int warp[kMaxWarpBits][kMaxRank] = {};

  TLE_CONSTEXPR int numRegs() const { return 1 << numRegBits; }
  TLE_CONSTEXPR int numElements() const {
    int n = 1;
    for (int d = 0; d < rank; ++d) n *= shape[d];
    return n;
  }
  // Coordinate along `dim` contributed by register slot `r` alone.
  TLE_CONSTEXPR int regCoord(int r, int dim) const {
    int c = 0;
    for (int b = 0; b < numRegBits; ++b)
      if ((r >> b) & 1) c ^= reg[b][dim];
    return c;
  }
  TLE_CONSTEXPR void addReg(int dim, int value) {
    for (int d = 0; d < kMaxRank; ++d) reg[numRegBits][d] = 0;
    reg[numRegBits][dim] = value;
    ++numRegBits;
  }
  // True if register bit `b` (or lane bit, or warp bit) moves only along `dim` (or not at all).
  TLE_CONSTEXPR bool regOnlyAlong(int b, int dim) const {
    for (int d = 0; d < rank; ++d)
      if (d != dim && reg[b][d] != 0) return false;
    return true;
  }
  TLE_CONSTEXPR bool laneOnlyAlong(int b, int dim) const {
    for (int d = 0; d < rank; ++d)
      if (d != dim && lane[b][d] != 0) return false;
    return true;
  }
  TLE_CONSTEXPR bool warpOnlyAlong(int b, int dim) const {
    for (int d = 0; d < rank; ++d)
      if (d != dim && warp[b][d] != 0) return false;
    return true;
  }
};

// Basis `1 << bit` along a dimension of size `size`, or 0 once the bit is past the size
// (the tile is smaller than the layout's reach: those threads hold copies).
TLE_CONSTEXPR int basis_within(int bit, int size) { return (1 << bit) < size ? (1 << bit) : 0; }

// Triton's blocked layout: each thread holds SizePerThread contiguous elements, a warp's
// lanes tile ThreadsPerWarp of those, the warps tile WarpsPerCTA of the warp tiles, and the
// whole pattern repeats to cover larger shapes. Order lists dimensions fastest first.
template <class SizePerThread, class ThreadsPerWarp, class WarpsPerCTA, class Order>
struct Blocked {
  static constexpr int rank = Order::size;

  template <int... Shape>
  TLE_CONSTEXPR static LinearLayout linear() {
    static_assert(sizeof...(Shape) == rank, "the tile's rank differs from its layout's");
    LinearLayout L;
    L.rank = rank;
    const int shape[] = {Shape...};
    int used[kMaxRank] = {};
    for (int d = 0; d < rank; ++d) L.shape[d] = shape[d];
    for (int k = 0; k < rank; ++k) {
      const int d = Order::values[k];
      for (int b = 0; b < log2_exact(SizePerThread::values[d]); ++b) {
        const int v = basis_within(used[d]++, shape[d]);
        if (v) L.addReg(d, v);
      }
    }
    int laneBit = 0;
    for (int k = 0; k < rank; ++k) {
      const int d = Order::values[k];
      for (int b = 0; b < log2_exact(ThreadsPerWarp::values[d]); ++b) L.lane[laneBit++][d] = basis_within(used[d]++, shape[d]);
    }
    int warpBit = 0;
    for (int k = 0; k < rank; ++k) {
      const int d = Order::values[k];
      for (int b = 0; b < log2_exact(WarpsPerCTA::values[d]); ++b) L.warp[warpBit++][d] = basis_within(used[d]++, shape[d]);
    }
    L.numWarpBits = warpBit;
    for (int k = 0; k < rank; ++k) {
      const int d = Order::values[k];
      while ((1 << used[d]) < shape[d]) L.addReg(d, 1 << used[d]++);
    }
    return L;
  }
};

// The layout of a reduction's result: the parent's layout with dimension Dim removed.
// Threads that differed only along Dim now hold the same value.
template <int Dim, class Parent>
struct Slice {
  static constexpr int rank = Parent::rank - 1;

  template <int... Shape>
  TLE_CONSTEXPR static LinearLayout linear() {
    static_assert(sizeof...(Shape) == rank, "the tile's rank differs from its layout's");
    return drop(parentLinear(ints<Shape...>{}));
  }

 private:
  template <int... Shape>
  TLE_CONSTEXPR static LinearLayout parentLinear(ints<Shape...>) {
    return parentWithUnitDim(ints<>{}, ints<Shape...>{});
  }
  // Builds Parent::linear<S0..S(Dim-1), 1, S(Dim)..> by moving sizes one at a time.
  template <int... Before, int First, int... After>
  TLE_CONSTEXPR static LinearLayout parentWithUnitDim(ints<Before...>, ints<First, After...>) {
    if constexpr (sizeof...(Before) == Dim) return Parent::template linear<Before..., 1, First, After...>();
    else return parentWithUnitDim(ints<Before..., First>{}, ints<After...>{});
  }
  template <int... Before>
  TLE_CONSTEXPR static LinearLayout parentWithUnitDim(ints<Before...>, ints<>) {
    return Parent::template linear<Before..., 1>();
  }
  TLE_CONSTEXPR static LinearLayout drop(const LinearLayout &P) {
    LinearLayout L;
    L.rank = P.rank - 1;
    for (int d = 0, o = 0; d < P.rank; ++d)
      if (d != Dim) L.shape[o++] = P.shape[d];
    for (int b = 0; b < P.numRegBits; ++b) {
      bool any = false;
      for (int d = 0; d < P.rank; ++d)
        if (d != Dim && P.reg[b][d]) any = true;
      if (!any) continue;
      for (int d = 0, o = 0; d < P.rank; ++d)
        if (d != Dim) L.reg[L.numRegBits][o++] = P.reg[b][d];
      ++L.numRegBits;
    }
    for (int b = 0; b < kLaneBits; ++b)
      for (int d = 0, o = 0; d < P.rank; ++d)
        if (d != Dim) L.lane[b][o++] = P.lane[b][d];
    L.numWarpBits = P.numWarpBits;
    for (int b = 0; b < P.numWarpBits; ++b)
      for (int d = 0, o = 0; d < P.rank; ++d)
        if (d != Dim) L.warp[b][o++] = P.warp[b][d];
    return L;
  }
};

// Accumulator of mma.sync m16n8kK on sm_80+: per warp a 16x8 tile in which lane l holds
// rows l/4 and l/4+8, columns 2*(l%4) and 2*(l%4)+1. Warps tile WarpsPerCTA (M, N) of those
// and the pattern repeats over the tile. GroupN 0: the warps along N interleave 8-column
// tiles (mma.sync's choice). GroupN > 0 (wgmma with warpgroups along N): four consecutive
// warps run along M (a warpgroup), and each warpgroup along N owns blocks of GroupN
// consecutive columns, one wgmma instruction wide.
//
// The warp bases of such a layout and of its operands: along M over `rows` (0 for B, whose
// warps along M hold copies), along N over `cols` (0 for A).
template <int WarpsM, int WarpsN, int GroupN>
TLE_CONSTEXPR void add_mma_warps(LinearLayout &L, int rows, int cols) {
  const int firstN = GroupN == 0 ? 3 : log2_exact(GroupN);
  int warpBit = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const bool alongM = (pass == 0) == (GroupN != 0);  // GroupN 0: N first
    if (alongM)
      for (int b = 0; b < log2_exact(WarpsM); ++b) L.warp[warpBit++][0] = rows ? basis_within(4 + b, rows) : 0;
    else
      for (int b = 0; b < log2_exact(WarpsN); ++b) L.warp[warpBit++][1] = cols ? basis_within(firstN + b, cols) : 0;
  }
  L.numWarpBits = warpBit;
}
// The register bases along N beyond the first 8 columns: the rest of a warp's column block,
// then the repetitions past all warps' blocks.
template <int WarpsN, int GroupN>
TLE_CONSTEXPR void add_mma_columns(LinearLayout &L, int cols) {
  const int firstN = GroupN == 0 ? 3 : log2_exact(GroupN);
  for (int bit = 3; bit < firstN && (1 << bit) < cols; ++bit) L.addReg(1, 1 << bit);
  for (int bit = firstN + log2_exact(WarpsN); (1 << bit) < cols; ++bit) L.addReg(1, 1 << bit);
}

template <int WarpsM, int WarpsN, int GroupN = 0>
struct Mma {
  static constexpr int rank = 2;

  template <int M, int N>
  TLE_CONSTEXPR static LinearLayout linear() {
    LinearLayout L;
    L.rank = 2;
    L.shape[0] = M;
    L.shape[1] = N;
    L.addReg(1, 1);  // the column pair
    L.lane[0][1] = 2;
    L.lane[1][1] = 4;
    L.lane[2][0] = 1;
    L.lane[3][0] = 2;
    L.lane[4][0] = 4;
    L.addReg(0, 8);  // the lower half of the 16 rows
    add_mma_warps<WarpsM, WarpsN, GroupN>(L, M, N);
    add_mma_columns<WarpsN, GroupN>(L, N);
    for (int bit = 4 + log2_exact(WarpsM); (1 << bit) < M; ++bit) L.addReg(0, 1 << bit);
    return L;
  }
};

}  // namespace tle

namespace tle {

// An operand of mma.sync for an accumulator laid out as Mma<WarpsM, WarpsN>. OpIdx 0 is A
// (M x K), 1 is B (K x N). Bits is the element width: 16 (fp16/bf16, m16n8k16), 32 (tf32,
// m16n8k8) or 8 (int8, m16n8k32). Registers hold one instruction's fragment in PTX order,
// then the K repetitions, then the M (or N) repetitions.
template <int OpIdx, class Parent, int Bits>
struct DotOperand;

template <int OpIdx, int WarpsM, int WarpsN, int GroupN, int Bits>
struct DotOperand<OpIdx, Mma<WarpsM, WarpsN, GroupN>, Bits> {
  static constexpr int rank = 2;
  static constexpr int kOpIdx = OpIdx;
  // Elements of K one instruction takes, and K elements per "column step" of a lane.
  static constexpr int kInstrK = Bits == 16 ? 16 : Bits == 32 ? 8 : 32;

  template <int R, int C>
  TLE_CONSTEXPR static LinearLayout linear() {
    LinearLayout L;
    L.rank = 2;
    L.shape[0] = R;
    L.shape[1] = C;
    const int kDim = OpIdx == 0 ? 1 : 0;  // where K is
    const int mnDim = 1 - kDim;
    // Within one instruction fragment: K in registers and lanes (lane%4), M/N by lane/4.
    if (Bits == 8) {
      L.addReg(kDim, 1);
      L.addReg(kDim, 2);
      L.lane[0][kDim] = 4;
      L.lane[1][kDim] = 8;
    } else if (Bits == 16) {
      L.addReg(kDim, 1);
      L.lane[0][kDim] = 2;
      L.lane[1][kDim] = 4;
    } else {
      L.lane[0][kDim] = 1;
      L.lane[1][kDim] = 2;
    }
    L.lane[2][mnDim] = 1;
    L.lane[3][mnDim] = 2;
    L.lane[4][mnDim] = 4;
    const int kHalf = kInstrK / 2;
    if (OpIdx == 0) L.addReg(0, 8);  // A: the lower 8 rows of the 16
    L.addReg(kDim, kHalf);            // the upper half of the instruction's K
    for (int bit = log2_exact(kInstrK); (1 << bit) < (OpIdx == 0 ? C : R); ++bit) L.addReg(kDim, 1 << bit);
    // Warps: the accumulator's; the other operand's warps hold copies.
    add_mma_warps<WarpsM, WarpsN, GroupN>(L, OpIdx == 0 ? R : 0, OpIdx == 1 ? C : 0);
    if (OpIdx == 0)
      for (int bit = 4 + log2_exact(WarpsM); (1 << bit) < R; ++bit) L.addReg(0, 1 << bit);
    else
      add_mma_columns<WarpsN, GroupN>(L, C);
    return L;
  }
};

}  // namespace tle
