// The cube path as tlec's AscendC output drives it: a window of a row-major tensor into L1
// (the cube's NZ fractal layout), L1 into L0A (zZ) and L0B (each fractal transposed), Mmad
// into L0C, and the fixpipe back to rows in global memory, converting float results to the
// destination's type. Tiles are tile_rows x tile_cols with both multiples of 16 (tlec checks).
#pragma once

#include <stdint.h>

namespace tle::ascendc {

namespace detail {

template <typename T> struct FixpipeQuant { static constexpr QuantMode_t value = QuantMode_t::NoQuant; };
template <> struct FixpipeQuant<half> { static constexpr QuantMode_t value = QuantMode_t::F322F16; };
template <> struct FixpipeQuant<bfloat16_t> { static constexpr QuantMode_t value = QuantMode_t::F322BF16; };

}  // namespace detail

// Global -> L1: rows x columns of the tensor at `gm` (rows `gm_row` elements apart).
template <typename T>
__aicore__ inline void copy_in_nz(const AscendC::LocalTensor<T> &l1, int32_t tile_rows, int32_t tile_cols, __gm__ T *gm, int64_t gm_row,
                                  int32_t rows, int32_t columns) {
  if (rows <= 0 || columns <= 0) return;
  AscendC::GlobalTensor<T> global;
  global.SetGlobalBuffer(gm);
  // One ND matrix; in L1 each 32-byte column block of the tile holds all tile_rows rows. The
  // source row stride is a 16-bit field: wider tensors go one row (one ND matrix) at a time.
  if (gm_row <= 65535) {
    AscendC::DataCopy(l1, global,
                      AscendC::Nd2NzParams{1, static_cast<uint16_t>(rows), static_cast<uint16_t>(columns), 0,
                                           static_cast<uint16_t>(gm_row), static_cast<uint16_t>(tile_rows), 1, 0});
  } else {
    for (int32_t r = 0; r < rows; ++r)
      AscendC::DataCopy(l1[r * 16], global[r * gm_row],
                        AscendC::Nd2NzParams{1, 1, static_cast<uint16_t>(columns), 0, static_cast<uint16_t>(columns),
                                             static_cast<uint16_t>(tile_rows), 1, 0});
  }
  (void)tile_cols;
}

// L1 -> L0A: the rows x k left operand (k may stop short of the tile's columns: a K tail).
template <typename T>
__aicore__ inline void load_l0a(const AscendC::LocalTensor<T> &l0a, const AscendC::LocalTensor<T> &l1, int32_t rows, int32_t k) {
  const int32_t row_blocks = rows / 16, k_blocks = (k + 15) / 16;
  for (int32_t i = 0; i < row_blocks; ++i)  // one fractal row of A at a time, K fractals long
    AscendC::LoadData(l0a[i * k_blocks * 256], l1[i * 256],
                      AscendC::LoadData2DParams(0, static_cast<uint8_t>(k_blocks), static_cast<uint16_t>(row_blocks), 0, 0, false, 0));
}

// L1 -> L0B: the k x columns right operand of a tile_rows-row tile, each fractal transposed.
template <typename T>
__aicore__ inline void load_l0b(const AscendC::LocalTensor<T> &l0b, const AscendC::LocalTensor<T> &l1, int32_t tile_rows, int32_t k,
                                int32_t columns) {
  const int32_t k_blocks = (k + 15) / 16, column_blocks = columns / 16;
  for (int32_t i = 0; i < k_blocks; ++i)
    AscendC::LoadData(l0b[i * columns * 16], l1[i * 256],
                      AscendC::LoadData2DParams(0, static_cast<uint8_t>(column_blocks), static_cast<uint16_t>(tile_rows / 16), 0, 0, true, 0));
}

// L0C (m x n) = L0A (m x k) . L0B (k x n), or += without `init`.
template <typename C, typename T>
__aicore__ inline void mmad(const AscendC::LocalTensor<C> &c, const AscendC::LocalTensor<T> &a, const AscendC::LocalTensor<T> &b, int32_t m,
                            int32_t n, int32_t k, bool init) {
  AscendC::Mmad(c, a, b, AscendC::MmadParams(static_cast<uint16_t>(m), static_cast<uint16_t>(n), static_cast<uint16_t>(k), 0, false, init));
}

// Global -> L1 where rows, columns or both wrap around: row i of the window is row
// (row_start + i) % row_wrap of the tensor (0: no wrap), likewise for columns. Each stretch
// that does not wrap is one copy; column stretches start on 16-column fractal boundaries
// (tlec checks that the wrap and its start are multiples of 16).
template <typename T>
__aicore__ inline void copy_in_nz_wrapped(const AscendC::LocalTensor<T> &l1, int32_t tile_rows, int32_t tile_cols, __gm__ T *gm,
                                          int64_t gm_row, int32_t rows, int32_t columns, int32_t row_wrap, int32_t row_start,
                                          int32_t column_wrap, int32_t column_start) {
  for (int32_t r0 = 0; r0 < rows;) {
    const int32_t r = row_wrap ? (row_start + r0) % row_wrap : r0;
    const int32_t row_count = row_wrap && row_wrap - r < rows - r0 ? row_wrap - r : rows - r0;
    for (int32_t c0 = 0; c0 < columns;) {
      const int32_t c = column_wrap ? (column_start + c0) % column_wrap : c0;
      const int32_t column_count = column_wrap && column_wrap - c < columns - c0 ? column_wrap - c : columns - c0;
      copy_in_nz(l1[(c0 / 16) * tile_rows * 16 + r0 * 16], tile_rows, tile_cols, gm + r * gm_row + c, gm_row, row_count, column_count);
      c0 += column_count;
    }
    r0 += row_count;
  }
}

// L0C -> global: rows x columns of the tile_rows x tile_cols result, converted to D.
template <typename D, typename C>
__aicore__ inline void copy_out_l0c(__gm__ D *gm, int64_t gm_row, const AscendC::LocalTensor<C> &l0c, int32_t tile_rows, int32_t tile_cols,
                                    int32_t rows, int32_t columns) {
  if (rows <= 0 || columns <= 0) return;
  AscendC::GlobalTensor<D> global;
  global.SetGlobalBuffer(gm);
  AscendC::Fixpipe<D, C, AscendC::CFG_ROW_MAJOR>(
      global, l0c,
      AscendC::FixpipeParamsV220(static_cast<uint16_t>(columns), static_cast<uint16_t>(rows), static_cast<uint16_t>(tile_rows),
                                 static_cast<uint32_t>(gm_row), false, detail::FixpipeQuant<D>::value, 0, 1, 0, 0, 0));
  (void)tile_cols;
}

}  // namespace tle::ascendc
