// tl.dot on tensor cores with mma.sync (sm_80+). Operands arrive in DotOperand layouts
// (registers already hold each instruction's fragment in PTX order), the accumulator in
// the Mma layout. CCCL has no mma.sync wrapper, hence the inline PTX.
#pragma once

#include "tle/cuda/memory.cuh"  // pointee_t
#include "tle/cuda/reduce.cuh"  // pair
#include "tle/cuda/tile.cuh"
#include "tle/cuda/wgmma.cuh"

#include <cuda_pipeline_primitives.h>

namespace tle {

enum class Precision { ieee, tf32, tf32x3 };

// ---- 16-bit operands into mma fragments through swizzled shared memory -------------------------
//
// The tile is stored row-major with 16-byte chunks XOR-swizzled by row, so that the eight
// row addresses one ldmatrix phase reads fall in distinct banks; ldmatrix (.trans for B,
// which is stored K-major) then hands every lane its fragment registers directly. A tile
// wider than 64 elements is stored as blocks of 64 columns, one after the other: each block
// (and a tile of exactly 64 columns) is then wgmma's 128-byte-swizzle layout as well.

template <int C, int Rows>
struct Swizzle16 {
  static constexpr int kBlockCols = C > 64 ? 64 : C;
  static_assert(C % kBlockCols == 0, "tiles wider than 64 elements come in whole blocks of 64");
  static constexpr int kChunks = kBlockCols / 8;                                        // 16-byte chunks per row
  static constexpr int kPerPhase = 128 / (kBlockCols * 2) > 1 ? 128 / (kBlockCols * 2) : 1;  // rows sharing a 128-byte line
  static constexpr int kMaxPhase = kChunks < 8 ? kChunks : 8;
  static constexpr int kBlockElements = Rows * kBlockCols;
  TLE_CONSTEXPR static int offset(int row, int col) {
    const int block = col / kBlockCols, c = col % kBlockCols;
    const int chunk = (c >> 3) ^ ((row / kPerPhase) % kMaxPhase);
    return block * kBlockElements + row * kBlockCols + chunk * 8 + (c & 7);
  }
};

// Elements of T in one 16-byte chunk: 8 of 16 bits, 16 of fp8. An fp8 operand sits in the
// slots as the 16-bit tile of half its extent along the chunks (byte for byte the same), so
// the swizzles, descriptors and ldmatrix addresses below count 16-bit units.
template <class T>
TLE_CONSTEXPR int chunk_elements() {
  return 16 / static_cast<int>(sizeof(T));
}
// Elements of T in one 16-bit unit of a slot (2 for fp8).
template <class T>
TLE_CONSTEXPR int elements_per_unit() {
  return sizeof(T) == 1 ? 2 : 1;
}

// Are the first registers of Src one chunk of consecutive elements along `dim`, starting at a
// multiple of the chunk on every thread? Then a thread can store them as one 16-byte chunk.
template <class Src, int Dim>
TLE_CONSTEXPR bool chunked_along() {
  constexpr int E = chunk_elements<typename Src::value_type>(), kBits = E == 16 ? 4 : 3;
  bool ok = Src::linear.numRegBits >= kBits;
  for (int b = 0; ok && b < kBits; ++b)
    for (int d = 0; d < Src::rank; ++d) ok = ok && Src::linear.reg[b][d] == (d == Dim ? (1 << b) : 0);
  for (int b = kBits; ok && b < Src::linear.numRegBits; ++b) ok = ok && (Src::linear.reg[b][Dim] % E) == 0;
  for (int b = 0; ok && b < kLaneBits; ++b) ok = ok && (Src::linear.lane[b][Dim] % E) == 0;
  for (int b = 0; ok && b < Src::linear.numWarpBits; ++b) ok = ok && (Src::linear.warp[b][Dim] % E) == 0;
  return ok;
}

// Where register R of Src goes in a swizzled [rows x Cols] buffer whose rows run along
// dimension RowDim of the tile (1 - RowDim runs along a row), in 16-bit units (an fp8 row of
// Cols elements is Cols / 2 of them).
template <class Src, int RowDim, int Cols, int R>
TLE_DEVICE int swizzled_index() {
  constexpr int ColDim = 1 - RowDim, kPack = elements_per_unit<typename Src::value_type>();
  const int row = thread_coord<Src, RowDim>() ^ TLE_CONST(Src::linear.regCoord(R, RowDim));
  const int col = thread_coord<Src, ColDim>() ^ TLE_CONST(Src::linear.regCoord(R, ColDim));
  return Swizzle16<Cols / kPack, Src::linear.shape[RowDim]>::offset(row, col / kPack);
}

// Stores src into such a buffer: the tile itself, or its transpose for RowDim 1.
template <class Src, int RowDim, int Cols>
TLE_DEVICE void store_swizzled(const Src &src, uint16_t *smem) {
  using T = typename Src::value_type;
  static_assert(sizeof(T) == 2, "16-bit elements");
  if constexpr (chunked_along<Src, 1 - RowDim>()) {
    static_for<Src::kRegs / 8>([&](auto g) {
      constexpr int r = decltype(g)::value * 8;
      uint4 chunk;
      memcpy(&chunk, &src.v[r], 16);
      *reinterpret_cast<uint4 *>(&smem[swizzled_index<Src, RowDim, Cols, r>()]) = chunk;
    });
  } else {
    static_for<Src::kRegs>([&](auto r) {
      memcpy(&smem[swizzled_index<Src, RowDim, Cols, decltype(r)::value>()], &src.v[decltype(r)::value], 2);
    });
  }
}

// A tle.gpu buffer whose dots read it in place (tle-read-buffer-operands): each 2-D tile
// (the buffer, or one pipe slot of it) sits as a swizzled [rows x Cols] operand with rows
// along dimension 0, and pointers into it and whole-tile loads of it follow that map.
template <class Dst, class T>
TLE_DEVICE Dst local_ptr_operand_buffer(T *base) {
  static_assert(Dst::rank == 2, "2-D tiles");
  constexpr int Rows = Dst::linear.shape[0], Cols = Dst::linear.shape[1];
  using S = Swizzle16<Cols, Rows>;
  Dst t;
  if constexpr ((Rows & (Rows - 1)) == 0 && (Cols & (Cols - 1)) == 0) {
    // With power-of-two sides the swizzle only moves and XORs coordinate bits, and a
    // register's coordinates are the thread's XOR the register's own: its offset is the
    // thread's offset XOR a constant (one instruction, instead of the whole map per register).
    const int mine = S::offset(thread_coord<Dst, 0>(), thread_coord<Dst, 1>());
    static_for<Dst::kRegs>([&](auto r) {
      constexpr int R = decltype(r)::value;
      t.v[R] = base + (mine ^ TLE_CONST(S::offset(Dst::linear.regCoord(R, 0), Dst::linear.regCoord(R, 1))));
    });
  } else {
    static_for<Dst::kRegs>([&](auto r) {
      constexpr int R = decltype(r)::value;
      t.v[R] = base + swizzled_index<Dst, 0, Cols, R>();
    });
  }
  return t;
}
template <class Dst>
TLE_DEVICE Dst local_load_operand_buffer(const typename Dst::value_type *base) {
  static_assert(Dst::rank == 2, "2-D tiles");
  Dst t;
  static_for<Dst::kRegs>([&](auto r) {
    constexpr int R = decltype(r)::value;
    t.v[R] = base[swizzled_index<Dst, 0, Dst::linear.shape[1], R>()];
  });
  return t;
}

TLE_DEVICE uint32_t smem_address(const void *p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// Warps along one dimension of a dot that a tile `Extent` wide gives work to, in instruction
// tiles of `Unit`: a tile narrower than the warps leaves the rest repeating the same tiles
// (the layouts' warp bases beyond the tile are 0), as a 16 x 16 dot on 4 warps does.
template <int Warps, int Extent, int Unit>
TLE_CONSTEXPR int working_warps() {
  return Warps < Extent / Unit ? Warps : Extent / Unit > 0 ? Extent / Unit : 1;
}

// Where a warp of an Mma<WM, WN, G> layout sits along M and N (layout.cuh: with G 0 the warps
// along N come first, else the four warps of a warpgroup run along M), and the first column
// of its 8-column instruction tile `tile` when kWN warps along N have work.
template <int WM, int WN, int G>
struct mma_warp {
  TLE_DEVICE static int m() { return G == 0 ? warp_id() / WN % WM : warp_id() % WM; }
  TLE_DEVICE static int n() { return G == 0 ? warp_id() % WN : warp_id() / WM % WN; }
  template <int kWN>
  TLE_DEVICE static int column(int warpN, int tile) {
    if constexpr (G == 0) return 8 * warpN + 8 * kWN * tile;
    else return 8 * (tile % (G / 8)) + G * warpN + G * WN * (tile / (G / 8));
  }
};
// The tile's columns give every warp along N whole instruction tiles (for G > 0, whole blocks).
template <int WN, int G, int C>
TLE_CONSTEXPR bool fills_mma_columns() {
  return G == 0 ? C % (8 * working_warps<WN, C, 8>()) == 0 : G % 8 == 0 && C % (G * WN) == 0;
}

template <class T, int Op, int WM, int WN, int G, int R, int C>
struct is_mma16_operand<Tile<T, DotOperand<Op, Mma<WM, WN, G>, 16>, R, C>> {
  static constexpr bool value = sizeof(T) == 2 && R % 16 == 0 && C % 16 == 0 && (Op == 0 ? R % (16 * working_warps<WM, R, 16>()) == 0 : fills_mma_columns<WN, G, C>());
};

// B arrives K-contiguous when it is a transposed view (attention's K^T): it is then kept
// N-major, and ldmatrix without .trans hands out the fragments.
template <int Op, class Src>
TLE_CONSTEXPR bool n_major_b() {
  return Op == 1 && chunked_along<Src, 0>() && !chunked_along<Src, 1>();
}
// A arrives M-contiguous when it is a transposed view (X^T of a backward pass): it is then
// kept K-major, as B usually is, and read with ldmatrix .trans (wgmma: transposed A).
template <int Op, class Src>
TLE_CONSTEXPR bool k_major_a() {
  return Op == 0 && chunked_along<Src, 0>() && !chunked_along<Src, 1>();
}

// How operand Op arriving as Src sits in shared memory: rows along kRowDim, kCols wide.
template <int Op, class Src>
struct operand_staging {
  static constexpr int kRowDim = n_major_b<Op, Src>() || k_major_a<Op, Src>() ? 1 : 0;
  static constexpr int kCols = Src::linear.shape[1 - kRowDim];
};

// A 16-bit mma operand goes in two steps with a barrier between: every thread stores its
// part of the tile (stage), then reads its fragments with ldmatrix (fetch).
template <class T, int Op, int WM, int WN, int G, int R, int C, class Src>
TLE_DEVICE void stage_mma16_operand(const Tile<T, DotOperand<Op, Mma<WM, WN, G>, 16>, R, C> &, const Src &src, Scratch scratch) {
  using Staging = operand_staging<Op, Src>;
  store_swizzled<Src, Staging::kRowDim, Staging::kCols>(src, reinterpret_cast<uint16_t *>(scratch.ptr));
}

// ldmatrix from a swizzled operand buffer: the fragment registers of one k16 step.
TLE_DEVICE void ldmatrix_x4(uint32_t *r, const uint16_t *p, bool trans) {
  if (trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_address(p)));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_address(p)));
}
TLE_DEVICE void ldmatrix_x2(uint32_t *r, const uint16_t *p, bool trans) {
  if (trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(smem_address(p)));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(smem_address(p)));
}

// Operand Op of a dot on Mma<WM, WN, G>, as Src left it in shared memory (operand_staging), R x C.
template <int Op, class Src, int WM, int WN, int G, int R, int C>
struct SharedMma16Operand {
  static constexpr bool kNMajorB = n_major_b<Op, Src>();
  static constexpr bool kKMajorA = k_major_a<Op, Src>();  // stored K x M
  static constexpr int kWM = working_warps<WM, Op == 0 ? R : 16 * WM, 16>(), kWN = working_warps<WN, Op == 1 ? C : 8 * WN, 8>();
  static constexpr int kTiles = Op == 0 ? R / (16 * kWM) : C / (8 * kWN);  // instruction tiles along M or N
  static constexpr int kSteps = Op == 0 ? C / 16 : R / 16;                  // k16 steps
  const uint16_t *smem;

  // A (M x K): tile mi of step ki, a0..a7 in order, by one ldmatrix.x4.
  TLE_DEVICE void fragment_a(uint32_t *r, int mi, int ki) const {
    const int lane = lane_id(), matrix = lane >> 3;
    const int warpM = mma_warp<WM, WN, G>::m() % kWM;
    if constexpr (kKMajorA) {  // matrix j: rows 8 (j & 1) on, k 8 (j >> 1) on; lanes address k rows
      const int row = 16 * warpM + 16 * kWM * mi + (matrix & 1) * 8;
      const int k = 16 * ki + (matrix >> 1) * 8 + (lane & 7);
      ldmatrix_x4(r, &smem[Swizzle16<R, C>::offset(k, row)], true);
    } else {
      const int row = 16 * warpM + 16 * kWM * mi + (matrix & 1) * 8 + (lane & 7);
      const int col = 16 * ki + (matrix >> 1) * 8;
      ldmatrix_x4(r, &smem[Swizzle16<C, R>::offset(row, col)], false);
    }
  }
  // B: tiles ni .. ni + Count - 1 (Count 1 or 2) of step ki, b0..b3 each. Stored K x N
  // (K-major: ldmatrix .trans) or N x K (N-major: without).
  template <int Count>
  TLE_DEVICE void fragments_b(uint32_t *r, int ni, int ki) const {
    const int lane = lane_id(), matrix = lane >> 3;
    const int warpN = mma_warp<WM, WN, G>::n() % kWN;
    const int column = mma_warp<WM, WN, G>::template column<kWN>(warpN, ni + (Count == 2 ? matrix >> 1 : 0));
    const uint16_t *p;
    if constexpr (kNMajorB)
      p = &smem[Swizzle16<R, C>::offset(column + (lane & 7), 16 * ki + (matrix & 1) * 8)];
    else
      p = &smem[Swizzle16<C, R>::offset(16 * ki + (matrix & 1) * 8 + (lane & 7), column)];
    if constexpr (Count == 2) ldmatrix_x4(r, p, !kNMajorB);
    else ldmatrix_x2(r, p, !kNMajorB);
  }

  // For wgmma: an operand stored K-major (A; B arriving K-contiguous) has rows of 64-element
  // blocks along K (the 128-byte swizzle) or of 32 elements (the 64-byte one; 16-element
  // rows would be the 32-byte one, not yet run on a GPU, so they stay on mma.sync). B stored
  // N-major must be 128-byte swizzled, rows of 64-element blocks along N, each warpgroup's
  // columns starting a block or its middle (32 columns: the swizzle applies to the address
  // bits, and a 1024-byte aligned atom makes the offset one of 64 bytes in every row).
  static constexpr int kASwizzleBytes = C % 64 == 0 ? 128 : C * 2;
  static constexpr int kBSwizzleBytes = R % 64 == 0 ? 128 : R * 2;  // B stored K-major (kNMajorB)
  static constexpr bool kWgmmaLayout = Op == 0 ? (kKMajorA ? R % 64 == 0 : C % 64 == 0 || C == 32)
                                               : kNMajorB ? R % 64 == 0 || R == 32 : C % 64 == 0 && G % 32 == 0;
  static constexpr bool kTransposedA = kKMajorA;              // M contiguous ("MN-major")
  static constexpr bool kTransposedB = Op == 1 && !kNMajorB;  // N contiguous ("MN-major")
  // A: the 64 rows of this warpgroup in instruction tile mi, k16 step ki; 8-row groups one
  // swizzle atom (8 rows) apart.
  TLE_DEVICE uint64_t descriptor_a(int mi, int ki) const {
    // The warpgroup within the tile's warps; the warpgroups past the tile's rows repeat it.
    const int row = 64 * (mma_warp<WM, WN, G>::m() % kWM / 4) + 16 * kWM * mi;
    // M-major (K x M, as an N-major B): the warpgroup's 64 rows are one 64-column block.
    if constexpr (kKMajorA)
      return wgmma::descriptor_at(wgmma::descriptor(smem_address(smem), C * 128, 1024), Swizzle16<R, C>::offset(16 * ki, row));
    else
      return wgmma::descriptor_at(wgmma::descriptor(smem_address(smem), 16, 8 * kASwizzleBytes, kASwizzleBytes),
                                  Swizzle16<C, R>::offset(row, 16 * ki));
  }
  // B: the columns from `column` on of k16 step ki (as many as the instruction is wide).
  // K-major: 8-row groups one swizzle atom apart, as A's; N-major: 8-row groups 1024 bytes
  // apart and 64-column blocks R * 128 bytes apart.
  TLE_DEVICE uint64_t descriptor_b(int ki, int column) const {
    if constexpr (kNMajorB)
      return wgmma::descriptor_at(wgmma::descriptor(smem_address(smem), 16, 8 * kBSwizzleBytes, kBSwizzleBytes),
                                  Swizzle16<R, C>::offset(column, 16 * ki));
    else return wgmma::descriptor_at(wgmma::descriptor(smem_address(smem), R * 128, 1024), Swizzle16<C, R>::offset(16 * ki, column));
  }
};

template <class Src, class T, int Op, int WM, int WN, int G, int R, int C>
TLE_DEVICE void fetch_mma16_operand(Tile<T, DotOperand<Op, Mma<WM, WN, G>, 16>, R, C> &dst, const unsigned char *scratch) {
  const SharedMma16Operand<Op, Src, WM, WN, G, R, C> operand{reinterpret_cast<const uint16_t *>(scratch)};
  constexpr int numTiles = operand.kTiles, numK = operand.kSteps;
  TLE_UNROLL for (int t = 0; t < numTiles; ++t) {
    TLE_UNROLL for (int ki = 0; ki < numK; ++ki) {
      uint32_t r[4];
      if constexpr (Op == 0) {
        operand.fragment_a(r, t, ki);
        memcpy(&dst.v[(ki + numK * t) * 8], r, 16);
      } else {
        operand.template fragments_b<1>(r, t, ki);
        memcpy(&dst.v[(ki + numK * t) * 4], r, 8);
      }
    }
  }
}

template <class T, int Op, int WM, int WN, int G, int R, int C, class Src>
TLE_DEVICE void load_mma16_operand_into(Tile<T, DotOperand<Op, Mma<WM, WN, G>, 16>, R, C> &dst, const Src &src,
                                        Scratch scratch) {
  stage_mma16_operand(dst, src, scratch);
  scratch.group.sync();
  fetch_mma16_operand<Src>(dst, scratch);
  scratch.group.sync();
}

// The operands of one tl.dot that go through ldmatrix are staged together in a region of
// their own, double-buffered: stage them, one barrier, ldmatrix, and no barrier after. The
// next staging (of any dot) goes to the other half, and the one after that comes back to
// this half only after its own barrier, which every thread reaches after finishing the
// reads here. `stage` is the kernel's half selector. Operands that need no shared memory
// (a register copy, the same layout) or another route (through_shared) convert as usual.
template <class D, class S>
TLE_CONSTEXPR bool needs_staging() {
  return is_mma16_operand<D>::value && !same_linear_layout<S, D>() && !same_threads_other_registers<S, D>();
}
template <class T>
TLE_CONSTEXPR int round_up16(T bytes) {
  return (static_cast<int>(bytes) + 15) / 16 * 16;
}
template <class T>
TLE_CONSTEXPR int round_up1024(T bytes) {
  return (static_cast<int>(bytes) + 1023) / 1024 * 1024;
}
template <class D, class S>
TLE_CONSTEXPR int staged_bytes() {
  return needs_staging<D, S>() ? round_up16(S::kElements * sizeof(typename S::value_type)) : 0;
}
template <class SA, class SB>
TLE_CONSTEXPR int operand_pair_bytes() {
  return round_up16(SA::kElements * sizeof(typename SA::value_type)) + round_up16(SB::kElements * sizeof(typename SB::value_type));
}
// The double-buffered staging region, and the shared scratch the other routes need.
template <class DA, class SA, class DB, class SB>
TLE_CONSTEXPR int dot_operands_staging_bytes() {
  return 2 * (staged_bytes<DA, SA>() + staged_bytes<DB, SB>());
}
template <class DA, class SA, class DB, class SB>
TLE_CONSTEXPR int dot_operands_scratch_bytes() {
  return max_bytes(needs_staging<DA, SA>() ? 0 : convert_scratch_bytes<DA, SA>(),
                   needs_staging<DB, SB>() ? 0 : convert_scratch_bytes<DB, SB>());
}
// The halves are at fixed places, `half` bytes apart (the largest staging of the kernel):
// halves sized per conversion would let a large one overlap the other half of a small one.
template <class DA, class DB, class SA, class SB>
TLE_DEVICE pair<DA, DB> convert_dot_operands(const SA &a, const SB &b, Scratch scratch, unsigned char *staging, int half,
                                             int &stage) {
  pair<DA, DB> out;
  constexpr int bytesA = staged_bytes<DA, SA>(), bytesB = staged_bytes<DB, SB>();
  if constexpr (bytesA + bytesB > 0) {
    unsigned char *region = staging + stage * half;
    stage ^= 1;
    if constexpr (bytesA > 0) stage_mma16_operand(out.first, a, region);
    if constexpr (bytesB > 0) stage_mma16_operand(out.second, b, region + bytesA);
    scratch.group.sync();
    if constexpr (bytesA > 0) fetch_mma16_operand<SA>(out.first, region);
    else out.first = convert_layout<DA>(a, scratch);
    if constexpr (bytesB > 0) fetch_mma16_operand<SB>(out.second, region + bytesA);
    else out.second = convert_layout<DB>(b, scratch);
  } else {
    (void)staging, (void)half, (void)stage;
    out.first = convert_layout<DA>(a, scratch);
    out.second = convert_layout<DB>(b, scratch);
  }
  return out;
}

// One operand of a tl.dot (the other is converted elsewhere, such as attention's
// loop-invariant Q), through the same staging.
template <class D, class S>
TLE_CONSTEXPR int dot_operand_staging_bytes() {
  return 2 * staged_bytes<D, S>();
}
template <class D, class S>
TLE_CONSTEXPR int dot_operand_scratch_bytes() {
  return needs_staging<D, S>() ? 0 : convert_scratch_bytes<D, S>();
}
template <class D, class S>
TLE_DEVICE D convert_dot_operand(const S &src, Scratch scratch, unsigned char *staging, int half, int &stage) {
  if constexpr (needs_staging<D, S>()) {
    unsigned char *region = staging + stage * half;
    stage ^= 1;
    D out;
    stage_mma16_operand(out, src, region);
    scratch.group.sync();
    fetch_mma16_operand<S>(out, region);
    return out;
  } else {
    (void)staging, (void)half, (void)stage;
    return convert_layout<D>(src, scratch);
  }
}

// A conversion outside every loop (attention's Q, once per kernel) takes one buffer, not
// two: barriers before (earlier readers of the region are done) and after (its own are).
template <class D, class S>
TLE_CONSTEXPR int dot_operand_once_staging_bytes() {
  return staged_bytes<D, S>();
}
template <class D, class S>
TLE_DEVICE D convert_dot_operand_once(const S &src, Scratch scratch, unsigned char *staging) {
  if constexpr (needs_staging<D, S>()) {
    D out;
    scratch.group.sync();
    stage_mma16_operand(out, src, staging);
    scratch.group.sync();
    fetch_mma16_operand<S>(out, staging);
    scratch.group.sync();
    return out;
  } else {
    (void)staging;
    return convert_layout<D>(src, scratch);
  }
}

// ---- operands copied asynchronously (cp.async) ---------------------------------------------
//
// In a loop whose dot operands come straight from 16-byte global loads, each thread copies
// its chunks from global memory to their swizzled place with cp.async (CUDA's pipeline
// primitives) `depth` iterations ahead, into a ring of depth + 1 slots per operand. Each
// copy is one commit group. An iteration starts with wait_async_operands: its own copies
// have landed (the `Pending` younger groups, of the iterations in between, may not have),
// and a barrier, after which every thread is done with the previous iteration's slot: the
// iteration's copies go there, and its dots read their own slot with ldmatrix.

// One operand's copy into `slot`; masked-off chunks are zero-filled. With a mask that may
// differ inside a chunk (Masking::element), a mixed chunk is read element by element with
// ordinary loads and stored to the slot directly: the barrier before the slot is read makes
// those stores visible as well. Unmasked (Masked false), the copies are CUDA's pipeline
// primitive, with no source size to compute.
template <class Dst, Masking Mk, bool Masked, class P, class M>
TLE_DEVICE void copy_async_operand_impl(const P &ptrs, const M *mask, unsigned char *slot) {
  using Src = retile_t<pointee_t<typename P::value_type>, P>;
  using Staging = operand_staging<Dst::layout_type::kOpIdx, Src>;
  using T = typename Src::value_type;
  constexpr int E = chunk_elements<T>();
  static_assert(chunked_along<Src, 1 - Staging::kRowDim>(), "tlec bug: an asynchronous operand copy needs 16-byte chunks");
  uint16_t *smem = reinterpret_cast<uint16_t *>(slot);
  static_for<Src::kRegs / E>([&](auto g) {
    constexpr int r = decltype(g)::value * E;
    uint16_t *chunk = &smem[swizzled_index<Src, Staging::kRowDim, Staging::kCols, r>()];
    if constexpr (!Masked) {
      __pipeline_memcpy_async(chunk, ptrs.v[r], 16);
    } else if constexpr (Mk == Masking::element) {
      if (!all_set<E>(*mask, r)) {
        if constexpr (sizeof(T) == 2) {
          TLE_UNROLL for (int i = 0; i < E; ++i)
            chunk[i] = mask->v[r + i] ? *reinterpret_cast<const uint16_t *>(ptrs.v[r + i]) : uint16_t(0);
        } else {
          uint8_t *bytes = reinterpret_cast<uint8_t *>(chunk);
          TLE_UNROLL for (int i = 0; i < E; ++i) bytes[i] = mask->v[r + i] ? *reinterpret_cast<const uint8_t *>(ptrs.v[r + i]) : uint8_t(0);
        }
        return;
      }
      __pipeline_memcpy_async(chunk, ptrs.v[r], 16);
    } else {
      copy_async_zero_fill<16>(chunk, ptrs.v[r], mask->v[r]);
    }
  });
  __pipeline_commit();
}
template <class Dst, Masking Mk = Masking::vector, class P, class M>
TLE_DEVICE void copy_async_operand(const P &ptrs, const M &mask, unsigned char *slot) {
  copy_async_operand_impl<Dst, Mk, true>(ptrs, &mask, slot);
}
template <class Dst, class P>
TLE_DEVICE void copy_async_operand(const P &ptrs, unsigned char *slot) {
  copy_async_operand_impl<Dst, Masking::vector, false>(ptrs, static_cast<const retile_t<bool, P> *>(nullptr), slot);
}
// The whole tile or none of it (a prefetch past the loop's end). A thread that copies 16
// or more chunks of the tile takes one branch: nvcc otherwise keeps every chunk's address
// live across the loop next to the zero-fill size (attention's 128 x 128 K and V tiles on 4
// warps spilled 2.5 KB: 91 TFLOP/s, 127 with the branch), and the zeros of an invalid tile
// are stored directly (wait_async_operands' fence and barrier come before any read). With
// fewer chunks the branch costs more than it saves (128-row tiles on 8 warps: 12% slower),
// and every chunk's copy takes the same source size.
template <class Dst, class P>
TLE_DEVICE void copy_async_operand(const P &ptrs, bool valid, unsigned char *slot) {
  using Src = retile_t<pointee_t<typename P::value_type>, P>;
  using Staging = operand_staging<Dst::layout_type::kOpIdx, Src>;
  constexpr int E = chunk_elements<typename Src::value_type>();
  uint16_t *smem = reinterpret_cast<uint16_t *>(slot);
  if constexpr (Src::kRegs / E >= 16) {
    if (valid) {
      copy_async_operand<Dst>(ptrs, slot);
      return;
    }
    static_for<Src::kRegs / E>([&](auto g) {
      *reinterpret_cast<uint4 *>(&smem[swizzled_index<Src, Staging::kRowDim, Staging::kCols, decltype(g)::value * E>()]) = uint4{0, 0, 0, 0};
    });
  } else {
    static_for<Src::kRegs / E>([&](auto g) {
      constexpr int r = decltype(g)::value * E;
      copy_async_zero_fill<16>(&smem[swizzled_index<Src, Staging::kRowDim, Staging::kCols, r>()], ptrs.v[r], valid);
    });
  }
  __pipeline_commit();
}

// Is every register's coordinate the thread's first coordinate plus the register's own? It
// is where no two bases of a dimension share a bit (their XOR is then a sum), as in every
// blocked layout.
template <class Src>
TLE_CONSTEXPR bool registers_offset_additively() {
  for (int d = 0; d < Src::rank; ++d) {
    int seen = 0;
    bool ok = true;
    auto take = [&](int basis) {
      ok = ok && (basis & (basis - 1)) == 0 && (basis & seen) == 0;
      seen |= basis;
    };
    for (int b = 0; b < Src::linear.numRegBits; ++b) take(Src::linear.reg[b][d]);
    for (int b = 0; b < kLaneBits; ++b) take(Src::linear.lane[b][d]);
    for (int b = 0; b < Src::linear.numWarpBits; ++b) take(Src::linear.warp[b][d]);
    if (!ok) return false;
  }
  return true;
}

// The copy of an operand whose pointers are affine in the element's coordinates (the
// compiler proved ptrs(i, j) = ptrs(0, 0) + i * stride0 + j * stride1, as block pointers
// are): each chunk's address is the thread's first pointer plus a uniform offset, so one
// address per thread stays live, not one per chunk, and no chunk's address waits for
// another's.
template <class P>
TLE_DEVICE P affine_chunk_pointers(const P &ptrs, int64_t stride0, int64_t stride1) {
  static_assert(P::rank == 2 && registers_offset_additively<P>(), "tlec bug: an affine operand copy needs a blocked 2-D layout");
  constexpr int E = chunk_elements<pointee_t<typename P::value_type>>();
  P chunks;
  static_for<P::kRegs / E>([&](auto g) {
    constexpr int r = decltype(g)::value * E;
    constexpr int64_t i = P::linear.regCoord(r, 0), j = P::linear.regCoord(r, 1);
    chunks.v[r] = ptrs.v[0] + (i * stride0 + j * stride1);
  });
  return chunks;
}
template <class Dst, class P>
TLE_DEVICE void copy_async_operand_affine(const P &ptrs, int64_t stride0, int64_t stride1, bool valid, unsigned char *slot) {
  copy_async_operand<Dst>(affine_chunk_pointers(ptrs, stride0, stride1), valid, slot);
}
template <class Dst, class P>
TLE_DEVICE void copy_async_operand_affine(const P &ptrs, int64_t stride0, int64_t stride1, unsigned char *slot) {
  copy_async_operand<Dst>(affine_chunk_pointers(ptrs, stride0, stride1), slot);
}

// The top of an iteration: its copies have landed and every thread reached this point.
template <int Pending>
TLE_DEVICE void wait_async_operands() {
  __pipeline_wait_prior(Pending);
  wgmma::fence_shared_writes();
  __syncthreads();
}

// This iteration's operand from its slot, whole (dots read B operands step by step:
// dot_from_slots, dot_from_slot_b).
template <class D, class S>
TLE_DEVICE D fetch_async_operand(const unsigned char *slot) {
  D out;
  fetch_mma16_operand<S>(out, slot);
  return out;
}
// Every copy this thread issued has landed (after a loop of asynchronous operands).
TLE_DEVICE void wait_async_copies() { __pipeline_wait_prior(0); }

TLE_DEVICE uint32_t pack2(__half lo, __half hi) {
  return static_cast<uint32_t>(__half_as_ushort(lo)) | (static_cast<uint32_t>(__half_as_ushort(hi)) << 16);
}
TLE_DEVICE uint32_t pack2(__nv_bfloat16 lo, __nv_bfloat16 hi) {
  return static_cast<uint32_t>(__bfloat16_as_ushort(lo)) | (static_cast<uint32_t>(__bfloat16_as_ushort(hi)) << 16);
}
TLE_DEVICE uint32_t pack4(int8_t a, int8_t b, int8_t c, int8_t d) {
  return static_cast<uint32_t>(static_cast<uint8_t>(a)) | (static_cast<uint32_t>(static_cast<uint8_t>(b)) << 8) |
         (static_cast<uint32_t>(static_cast<uint8_t>(c)) << 16) | (static_cast<uint32_t>(static_cast<uint8_t>(d)) << 24);
}
TLE_DEVICE uint32_t to_tf32(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return r;
}

TLE_DEVICE void mma_16816(float *d, const uint32_t *a, const uint32_t *b, __half) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
TLE_DEVICE void mma_16816(float *d, const uint32_t *a, const uint32_t *b, __nv_bfloat16) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
TLE_DEVICE void mma_1688_tf32(float *d, const uint32_t *a, const uint32_t *b) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
// fp32 with input_precision="ieee": the m16n8k8 step in exact fp32 FMAs on the tf32
// fragments. A lane fetches the A-row and B-column elements it needs from the lanes that
// hold them (a0..a3: A[g][t], A[g+8][t], A[g][t+4], A[g+8][t+4]; b0, b1: B[t][g], B[t+4][g];
// the accumulator: rows g, g+8, columns 2t, 2t+1; g = lane / 4, t = lane % 4).
TLE_DEVICE void fma_1688_f32(float *d, const float *a, const float *b) {
  const int lane = lane_id(), g = lane >> 2, t = lane & 3;
  TLE_UNROLL for (int k = 0; k < 8; ++k) {
    const int high = k >> 2, holder = k & 3;
    const float rowG = __shfl_sync(0xffffffffu, a[high ? 2 : 0], (g << 2) | holder);
    const float rowG8 = __shfl_sync(0xffffffffu, a[high ? 3 : 1], (g << 2) | holder);
    const float col0 = __shfl_sync(0xffffffffu, b[high], ((2 * t) << 2) | holder);
    const float col1 = __shfl_sync(0xffffffffu, b[high], ((2 * t + 1) << 2) | holder);
    d[0] = fmaf(rowG, col0, d[0]);
    d[1] = fmaf(rowG, col1, d[1]);
    d[2] = fmaf(rowG8, col0, d[2]);
    d[3] = fmaf(rowG8, col1, d[3]);
  }
}
TLE_DEVICE void mma_16832_s8(int32_t *d, const uint32_t *a, const uint32_t *b) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <class T>
struct is_fp8 {
  static constexpr bool value = false;
};
template <>
struct is_fp8<__nv_fp8_e4m3> {
  static constexpr bool value = true;
};
template <>
struct is_fp8<__nv_fp8_e5m2> {
  static constexpr bool value = true;
};

// fp8 operands (e4m3, e5m2, mixed as Triton allows) into an fp32 accumulator. The m16n8k32
// fragments are the int8 ones: a thread holds four consecutive k of a row (or column) per
// register.
template <class T>
TLE_DEVICE uint32_t pack4_fp8(const T *f) {
  uint32_t r;
  memcpy(&r, f, 4);  // __nv_fp8_* is one byte of storage
  return r;
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
// sm_89 and later: mma.sync takes fp8 directly.
#define TLE_MMA_FP8(TA, TB, PA, PB)                                                                            \
  TLE_DEVICE void mma_16832_fp8(float *d, const uint32_t *a, const uint32_t *b, TA, TB) {                      \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." PA "." PB ".f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                              \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));                          \
  }
TLE_MMA_FP8(__nv_fp8_e4m3, __nv_fp8_e4m3, "e4m3", "e4m3")
TLE_MMA_FP8(__nv_fp8_e4m3, __nv_fp8_e5m2, "e4m3", "e5m2")
TLE_MMA_FP8(__nv_fp8_e5m2, __nv_fp8_e4m3, "e5m2", "e4m3")
TLE_MMA_FP8(__nv_fp8_e5m2, __nv_fp8_e5m2, "e5m2", "e5m2")
#undef TLE_MMA_FP8
#else
// Older targets: f16 holds every e4m3 and e5m2 value exactly, so the step is two m16n8k16
// f16 instructions on the widened bytes. A k permutation shared by A and B leaves the sum
// alone: k16 positions 2t, 2t+1 of the first instruction take fp8 k 4t, 4t+1 and positions
// 8+2t, 9+2t take 4t+2, 4t+3 (t = lane % 4); the second instruction the same from k 16 on.
TLE_DEVICE __nv_fp8_interpretation_t fp8_kind(__nv_fp8_e4m3) { return __NV_E4M3; }
TLE_DEVICE __nv_fp8_interpretation_t fp8_kind(__nv_fp8_e5m2) { return __NV_E5M2; }
template <class T>
TLE_DEVICE uint32_t widen_fp8_pair(uint32_t four, int pair) {
  const __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(four >> (16 * pair)), fp8_kind(T()));
  return static_cast<uint32_t>(h.x) | (static_cast<uint32_t>(h.y) << 16);
}
template <class TA, class TB>
TLE_DEVICE void mma_16832_fp8(float *d, const uint32_t *a, const uint32_t *b, TA, TB) {
  TLE_UNROLL for (int half = 0; half < 2; ++half) {
    const uint32_t lowA = a[2 * half], highA = a[2 * half + 1];  // rows g and g + 8
    const uint32_t ra[4] = {widen_fp8_pair<TA>(lowA, 0), widen_fp8_pair<TA>(highA, 0), widen_fp8_pair<TA>(lowA, 1),
                            widen_fp8_pair<TA>(highA, 1)};
    const uint32_t rb[2] = {widen_fp8_pair<TB>(b[half], 0), widen_fp8_pair<TB>(b[half], 1)};
    mma_16816(d, ra, rb, __half());
  }
}
#endif

// 16-bit operands already in registers (DotOperand layouts), read like SharedMma16Operand.
template <class TileT>
struct RegisterMma16Operand {
  static constexpr int kSteps = TileT::layout_type::kOpIdx == 0 ? TileT::linear.shape[1] / 16 : TileT::linear.shape[0] / 16;
  const TileT &tile;
  TLE_DEVICE void fragment_a(uint32_t *r, int mi, int ki) const {
    const auto *f = &tile.v[(ki + kSteps * mi) * 8];
    TLE_UNROLL for (int i = 0; i < 4; ++i) r[i] = pack2(f[2 * i], f[2 * i + 1]);
  }
  template <int Count>
  TLE_DEVICE void fragments_b(uint32_t *r, int ni, int ki) const {
    TLE_UNROLL for (int c = 0; c < Count; ++c) {
      const auto *f = &tile.v[(ki + kSteps * (ni + c)) * 4];
      r[2 * c] = pack2(f[0], f[1]);
      r[2 * c + 1] = pack2(f[2], f[3]);
    }
  }
};

template <class T>
struct is_register_operand {
  static constexpr bool value = false;
};
template <class TileT>
struct is_register_operand<RegisterMma16Operand<TileT>> {
  static constexpr bool value = true;
};

// d += a @ b for 16-bit operands, k16 step by k16 step: each step's fragments (from
// registers or by ldmatrix) feed numM x numN independent mma instructions, so few fragment
// registers are live and no instruction waits on the one before it.
template <class TA, int NumM, int NumN, int NumK, class OA, class OB, class Acc>
TLE_DEVICE void mma16_steps(const OA &a, const OB &b, Acc &d) {
  TLE_UNROLL for (int ki = 0; ki < NumK; ++ki) {
    uint32_t ra[NumM][4], rb[NumN][2];
    TLE_UNROLL for (int mi = 0; mi < NumM; ++mi) a.fragment_a(ra[mi], mi, ki);
    TLE_UNROLL for (int ni = 0; ni + 1 < NumN; ni += 2) b.template fragments_b<2>(&rb[ni][0], ni, ki);
    if constexpr (NumN % 2 == 1) b.template fragments_b<1>(&rb[NumN - 1][0], NumN - 1, ki);
    TLE_UNROLL for (int mi = 0; mi < NumM; ++mi)
      TLE_UNROLL for (int ni = 0; ni < NumN; ++ni) mma_16816(&d.v[(ni + NumN * mi) * 4], ra[mi], rb[ni], TA());
  }
}

// c + a @ b. A: M x K, B: K x N, C: M x N (fp32, or int32 for int8 inputs).
// TB differs from TA only for fp8 (e4m3 with e5m2).
template <Precision P, class TA, class TB, int WM, int WN, int G, int Bits, class TC, int M, int N, int K>
TLE_DEVICE Tile<TC, Mma<WM, WN, G>, M, N> dot(const Tile<TA, DotOperand<0, Mma<WM, WN, G>, Bits>, M, K> &a,
                                             const Tile<TB, DotOperand<1, Mma<WM, WN, G>, Bits>, K, N> &b,
                                             const Tile<TC, Mma<WM, WN, G>, M, N> &c) {
  constexpr int kInstrK = DotOperand<0, Mma<WM, WN, G>, Bits>::kInstrK;
  constexpr int workM = working_warps<WM, M, 16>(), workN = working_warps<WN, N, 8>();
  static_assert(M % (16 * workM) == 0 && N % (8 * workN) == 0 && K % kInstrK == 0, "tile too small for mma.sync");
  constexpr int numM = M / (16 * workM), numN = N / (8 * workN), numK = K / kInstrK;
  constexpr int aRegs = 16 * kInstrK / 32, bRegs = 8 * kInstrK / 32;  // elements per lane per instruction
  Tile<TC, Mma<WM, WN, G>, M, N> d = c;
  if constexpr (Bits == 16) {
    using A = Tile<TA, DotOperand<0, Mma<WM, WN, G>, Bits>, M, K>;
    using B = Tile<TA, DotOperand<1, Mma<WM, WN, G>, Bits>, K, N>;
    mma16_steps<TA, numM, numN, numK>(RegisterMma16Operand<A>{a}, RegisterMma16Operand<B>{b}, d);
  } else {
    TLE_UNROLL for (int ki = 0; ki < numK; ++ki) {  // k outermost: independent instructions back to back
      TLE_UNROLL for (int mi = 0; mi < numM; ++mi) {
        TLE_UNROLL for (int ni = 0; ni < numN; ++ni) {
          const TA *fa = &a.v[(ki + numK * mi) * aRegs];
          const TB *fb = &b.v[(ki + numK * ni) * bRegs];
          TC *acc = &d.v[(ni + numN * mi) * 4];
          if constexpr (Bits == 32) {
            if constexpr (P == Precision::ieee) {
              fma_1688_f32(acc, fa, fb);
            } else {
              const uint32_t ra[4] = {to_tf32(fa[0]), to_tf32(fa[1]), to_tf32(fa[2]), to_tf32(fa[3])};
              const uint32_t rb[2] = {to_tf32(fb[0]), to_tf32(fb[1])};
              mma_1688_tf32(acc, ra, rb);
            }
          } else if constexpr (is_fp8<TA>::value) {
            const uint32_t ra[4] = {pack4_fp8(fa), pack4_fp8(fa + 4), pack4_fp8(fa + 8), pack4_fp8(fa + 12)};
            const uint32_t rb[2] = {pack4_fp8(fb), pack4_fp8(fb + 4)};
            mma_16832_fp8(acc, ra, rb, TA(), TB());
          } else {
            const uint32_t ra[4] = {pack4(fa[0], fa[1], fa[2], fa[3]), pack4(fa[4], fa[5], fa[6], fa[7]),
                                    pack4(fa[8], fa[9], fa[10], fa[11]), pack4(fa[12], fa[13], fa[14], fa[15])};
            const uint32_t rb[2] = {pack4(fb[0], fb[1], fb[2], fb[3]), pack4(fb[4], fb[5], fb[6], fb[7])};
            mma_16832_s8(acc, ra, rb);
          }
        }
      }
    }
  }
  return d;
}

// The same on Hopper with wgmma: one warpgroup per 64 rows, and along N either one
// warpgroup (instructions up to 256 wide, side by side) or, for G > 0, one per block of G
// columns. A from shared memory (a SharedMma16Operand) or registers (a
// RegisterMma16Operand), B from shared memory. The instructions of one dot are issued back
// to back and waited for together.
template <int N>
TLE_CONSTEXPR bool wgmma_width() {
  return N == 16 || N == 32 || N == 64 || N == 128 || N == 256;
}
// How wide each wgmma instruction of an M x N accumulator on Mma<WM, WN, G> is, and how many
// a warpgroup issues side by side for each 64 rows and k16 step.
template <int WN, int G, int N>
struct wgmma_columns {
  static constexpr int kWidth = G > 0 ? G : N < 256 ? N : 256;
  static constexpr int kCount = N / (kWidth * WN);
  static constexpr bool kValid = wgmma_width<kWidth>() && (G > 0 || WN == 1) && N % (kWidth * WN) == 0;
};
// InFlight: the group is left running (all older ones have finished); the accumulators are
// ready after wait_dots_in_flight.
template <class TA, int WM, int WN, int G, int NumM, int N, int NumK, bool InFlight = false, class OA, class OB, class Acc>
TLE_DEVICE void wgmma_steps(const OA &a, const OB &b, Acc &d) {
#if TLE_HAS_WGMMA
  using Columns = wgmma_columns<WN, G, N>;
  constexpr int kWidth = Columns::kWidth, kCount = Columns::kCount;
  constexpr int kRegsPerM = kCount * kWidth / 2;  // accumulator registers of one instruction row
  // Register fragments are packed before the fence: wgmma may not see registers written
  // after it.
  uint32_t ra[is_register_operand<OA>::value ? NumK : 1][NumM][4];
  if constexpr (is_register_operand<OA>::value)
    TLE_UNROLL for (int mi = 0; mi < NumM; ++mi) TLE_UNROLL for (int ki = 0; ki < NumK; ++ki) {
      a.fragment_a(ra[ki][mi], mi, ki);
      TLE_UNROLL for (int j = 0; j < 4; ++j) wgmma::pin(ra[ki][mi][j]);
    }
  TLE_UNROLL for (int i = 0; i < NumM * kRegsPerM; ++i) wgmma::pin(d.v[i]);
  wgmma::fence();
  const int firstColumn = G > 0 ? G * mma_warp<WM, WN, G>::n() : 0;
  // Each 64 rows' instructions in one run: where ptxas must wait for each instruction
  // (registers short) it can then finish one block of rows (attention: its softmax and P)
  // before the next block's accumulators are live. Interleaved by k step, attention's
  // 128 x 128 tiles on 4 warps (d = 128) spilled 1,520 bytes and ran at 0.45x the speed.
  TLE_UNROLL for (int mi = 0; mi < NumM; ++mi) {
    TLE_UNROLL for (int ki = 0; ki < NumK; ++ki) {
      TLE_UNROLL for (int ci = 0; ci < kCount; ++ci) {
        const uint64_t descB = b.descriptor_b(ki, firstColumn + kWidth * WN * ci);
        float *acc = &d.v[mi * kRegsPerM + ci * (kWidth / 2)];
        if constexpr (is_register_operand<OA>::value)
          wgmma::mma<kWidth, TA>::template register_a<OB::kTransposedB>(acc, ra[ki][mi], descB);
        else
          wgmma::mma<kWidth, TA>::template smem_a<OA::kTransposedA, OB::kTransposedB>(acc, a.descriptor_a(mi, ki), descB);
      }
    }
  }
  wgmma::commit();
  wgmma::wait<InFlight ? 1 : 0>();
  TLE_UNROLL for (int i = 0; i < NumM * kRegsPerM; ++i) wgmma::pin(d.v[i]);
#else
  (void)a, (void)b, (void)d;
#endif
}
template <class TA, class TC, int WM, int WN, int G, int N, bool ALayoutOk, bool BLayoutOk>
TLE_CONSTEXPR bool use_wgmma() {
  return TLE_HAS_WGMMA && WM % 4 == 0 && wgmma_columns<WN, G, N>::kValid && ALayoutOk && BLayoutOk &&
         static_cast<TC>(0.5f) != TC(0);  // a float accumulator
}

// An fp8 B copied N-contiguous (gpu::slotHoldsTranspose: `x @ W` with a row-major fp8 W):
// wgmma's fp8 forms read B K-major only, so the block writes the tile's transpose into the
// second half of its slot, arranged as a K-contiguous copy (KContiguousB) would have, and
// the dot reads that.
template <class Src>
TLE_CONSTEXPR bool fp8_b_transposed_in_slot() {
  return is_fp8<typename Src::value_type>::value && chunked_along<Src, 1>();
}
template <class T, int K, int N, int Warps>
using KContiguousB = Tile<T, Blocked<ints<16, 1>, ints<8, 4>, ints<1, Warps>, ints<0, 1>>, K, N>;

// The transpose of a K x N fp8 tile: byte (k, n) of the copy sits in Swizzle16<N / 2, K>
// (16-bit units, rows k), of the transpose in Swizzle16<K / 2, N> (rows n). A thread moves
// blocks of 4 x 4 bytes: four 32-bit reads (rows k..k+3, columns n..n+3), eight byte
// permutes, four 32-bit writes (rows n..n+3, columns k..k+3). Where K / 4 is a multiple of
// 32 and N / 4 of 16, lane l of a warp takes block (l ^ s, l) of a 32 x 32 square (or
// (l ^ s, l % 16) of a 32 x 16 one) for the warp's shifts s: with the 128-byte swizzle the
// 32 lanes then hit 32 banks on the write side, and on the read side too where N is 128
// bytes or more (two lanes a bank at 64).
template <int K, int N, int Threads>
TLE_DEVICE void transpose_fp8_slot(const unsigned char *slot, unsigned char *transposed) {
  constexpr int kBK = K / 4, kBN = N / 4, kBlocks = kBK * kBN;
  static_assert(K % 4 == 0 && N % 4 == 0 && Threads % 32 == 0, "tlec bug: an fp8 tile transposed in its slot");
  const uint16_t *src = reinterpret_cast<const uint16_t *>(slot);
  uint16_t *dst = reinterpret_cast<uint16_t *>(transposed);
  auto move = [&](int bk, int bn) {
    uint32_t w[4];
    TLE_UNROLL for (int i = 0; i < 4; ++i) w[i] = *reinterpret_cast<const uint32_t *>(&src[Swizzle16<N / 2, K>::offset(4 * bk + i, 2 * bn)]);
    // Bytes (w0.b0, w1.b0, w0.b1, w1.b1) and so on, then whole columns of the block.
    const uint32_t lo01 = __byte_perm(w[0], w[1], 0x5140), lo23 = __byte_perm(w[2], w[3], 0x5140);
    const uint32_t hi01 = __byte_perm(w[0], w[1], 0x7362), hi23 = __byte_perm(w[2], w[3], 0x7362);
    const uint32_t out[4] = {__byte_perm(lo01, lo23, 0x5410), __byte_perm(lo01, lo23, 0x7632), __byte_perm(hi01, hi23, 0x5410),
                             __byte_perm(hi01, hi23, 0x7632)};
    TLE_UNROLL for (int j = 0; j < 4; ++j) *reinterpret_cast<uint32_t *>(&dst[Swizzle16<K / 2, N>::offset(4 * bn + j, 2 * bk)]) = out[j];
  };
  const int tid = static_cast<int>(threadIdx.x);
  constexpr int kWarps = Threads / 32, kLanesN = kBN >= 32 ? 32 : 16;
  if constexpr (kBK % 32 == 0 && kBN % kLanesN == 0 && (kBlocks / 32) % kWarps == 0) {
    const int lane = tid & 31, warp = tid >> 5;
    TLE_UNROLL for (int u = 0; u < kBlocks / 32 / kWarps; ++u) {
      const int d = warp + kWarps * u;  // square d / kLanesN, shift d % kLanesN
      const int square = d / kLanesN, shift = d % kLanesN;
      const int sk = square / (kBN / kLanesN), sn = square % (kBN / kLanesN);
      move(32 * sk + (lane ^ shift), kLanesN * sn + (lane & (kLanesN - 1)));
    }
  } else {
    TLE_UNROLL for (int b0 = 0; b0 < kBlocks; b0 += Threads) {
      const int b = b0 + tid;
      if (kBlocks % Threads == 0 || b < kBlocks) move(b / kBN, b % kBN);
    }
  }
}

// c + a @ b with operands read from their cp.async slots step by step (SA, SB: the layouts
// the copies came from). InFlight (tle-keep-dots-in-flight): the dot must run on wgmma, and
// its group is left running; the next call, or wait_dots_in_flight after the loop, waits
// for it.
template <bool InFlight, class DA, class DB, class SA, class SB, class TC, int WM, int WN, int G, int M, int N>
TLE_DEVICE Tile<TC, Mma<WM, WN, G>, M, N> dot_from_slots_impl(const unsigned char *slotA, const unsigned char *slotB,
                                                             const Tile<TC, Mma<WM, WN, G>, M, N> &c) {
  using TA = typename DA::value_type;
  if constexpr (fp8_b_transposed_in_slot<SB>()) {
    // The whole block transposes (the slot loops of plain kernels run on every warp), then
    // every warp's writes are visible to wgmma's reads.
    constexpr int kBytesK = DA::linear.shape[1];
    unsigned char *transposed = const_cast<unsigned char *>(slotB) + round_up1024(kBytesK * N);
    transpose_fp8_slot<kBytesK, N, 32 * WM * WN>(slotB, transposed);
    wgmma::fence_shared_writes();
    __syncthreads();
    return dot_from_slots_impl<InFlight, DA, DB, SA, KContiguousB<typename SB::value_type, kBytesK, N, WM * WN>>(slotA, transposed, c);
  } else {
    // fp8 slots are read as 16-bit tiles of half the K extent (chunk_elements); a k16 step of
    // those is one fp8 k32 step.
    constexpr int K = DA::linear.shape[1] / elements_per_unit<TA>();
    using OA = SharedMma16Operand<0, SA, WM, WN, G, M, K>;
    using OB = SharedMma16Operand<1, SB, WM, WN, G, K, N>;
    constexpr bool kWgmma = use_wgmma<TA, TC, WM, WN, G, N, OA::kWgmmaLayout, OB::kWgmmaLayout>();
    static_assert(!InFlight || kWgmma || !TLE_HAS_WGMMA, "tlec bug: tle-keep-dots-in-flight chose a dot that does not run on wgmma");
    static_assert(sizeof(TA) == 2 || kWgmma || !TLE_HAS_WGMMA, "tlec bug: fp8 operands in slots are read by wgmma only");
    const OA a{reinterpret_cast<const uint16_t *>(slotA)};
    const OB b{reinterpret_cast<const uint16_t *>(slotB)};
    Tile<TC, Mma<WM, WN, G>, M, N> d = c;
    if constexpr (kWgmma)
      wgmma_steps<TA, WM, WN, G, M / (16 * working_warps<WM, M, 16>()), N, K / 16, InFlight>(a, b, d);
    else if constexpr (sizeof(TA) == 2)
      mma16_steps<TA, M / (16 * working_warps<WM, M, 16>()), N / (8 * working_warps<WN, N, 8>()), K / 16>(a, b, d);
    return d;
  }
}

template <class DA, class DB, class SA, class SB, class TC, int WM, int WN, int G, int M, int N>
TLE_DEVICE Tile<TC, Mma<WM, WN, G>, M, N> dot_from_slots(const unsigned char *slotA, const unsigned char *slotB,
                                                        const Tile<TC, Mma<WM, WN, G>, M, N> &c) {
  return dot_from_slots_impl<false, DA, DB, SA, SB>(slotA, slotB, c);
}
template <class DA, class DB, class SA, class SB, class TC, int WM, int WN, int G, int M, int N>
TLE_DEVICE Tile<TC, Mma<WM, WN, G>, M, N> dot_from_slots_in_flight(const unsigned char *slotA, const unsigned char *slotB,
                                                                  const Tile<TC, Mma<WM, WN, G>, M, N> &c) {
  return dot_from_slots_impl<true, DA, DB, SA, SB>(slotA, slotB, c);
}
// The accumulators of the dots left in flight, ready.
template <class... Tiles>
TLE_DEVICE void wait_dots_in_flight(Tiles &...accumulators) {
#if TLE_HAS_WGMMA
  wgmma::wait_all();
  auto pin_all = [](auto &tile) {
    TLE_UNROLL for (int i = 0; i < tile.kRegs; ++i) wgmma::pin(tile.v[i]);  // no <type_traits> under NVRTC
  };
  (pin_all(accumulators), ...);
#else
  ((void)accumulators, ...);
#endif
}

// c + a @ b with A already in registers and B read from its slot step by step. InFlight:
// as dot_from_slots_in_flight; the group also reads A's registers until it is waited for.
template <bool InFlight, class DB, class SB, class TA, class TC, int WM, int WN, int G, int M, int N, int K>
TLE_DEVICE Tile<TC, Mma<WM, WN, G>, M, N> dot_from_slot_b_impl(const Tile<TA, DotOperand<0, Mma<WM, WN, G>, 16>, M, K> &a,
                                                              const unsigned char *slotB, const Tile<TC, Mma<WM, WN, G>, M, N> &c) {
  using DA = Tile<TA, DotOperand<0, Mma<WM, WN, G>, 16>, M, K>;
  using OB = SharedMma16Operand<1, SB, WM, WN, G, K, N>;
  constexpr bool kWgmma = use_wgmma<TA, TC, WM, WN, G, N, true, OB::kWgmmaLayout>();
  static_assert(!InFlight || kWgmma || !TLE_HAS_WGMMA, "tlec bug: tle-keep-dots-in-flight chose a dot that does not run on wgmma");
  const OB b{reinterpret_cast<const uint16_t *>(slotB)};
  Tile<TC, Mma<WM, WN, G>, M, N> d = c;
  if constexpr (kWgmma)
    wgmma_steps<TA, WM, WN, G, M / (16 * working_warps<WM, M, 16>()), N, K / 16, InFlight>(RegisterMma16Operand<DA>{a}, b, d);
  else
    mma16_steps<TA, M / (16 * working_warps<WM, M, 16>()), N / (8 * working_warps<WN, N, 8>()), K / 16>(RegisterMma16Operand<DA>{a}, b, d);
  return d;
}
template <class DB, class SB, class TA, class TC, int WM, int WN, int G, int M, int N, int K>
TLE_DEVICE Tile<TC, Mma<WM, WN, G>, M, N> dot_from_slot_b(const Tile<TA, DotOperand<0, Mma<WM, WN, G>, 16>, M, K> &a,
                                                         const unsigned char *slotB, const Tile<TC, Mma<WM, WN, G>, M, N> &c) {
  return dot_from_slot_b_impl<false, DB, SB>(a, slotB, c);
}
template <class DB, class SB, class TA, class TC, int WM, int WN, int G, int M, int N, int K>
TLE_DEVICE Tile<TC, Mma<WM, WN, G>, M, N> dot_from_slot_b_in_flight(const Tile<TA, DotOperand<0, Mma<WM, WN, G>, 16>, M, K> &a,
                                                                   const unsigned char *slotB, const Tile<TC, Mma<WM, WN, G>, M, N> &c) {
  return dot_from_slot_b_impl<true, DB, SB>(a, slotB, c);
}

}  // namespace tle
