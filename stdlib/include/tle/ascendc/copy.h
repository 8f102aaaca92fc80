// Strided windows between global memory and UB, as tlec's AscendC output moves them: one
// DataCopyPad per window (per 4095 rows), rows of `columns` elements that need not fill a
// 32-byte unit. UB rows start every `ub_row` elements (a multiple of 32 bytes, planned by
// tlec); global rows every `gm_row` elements.
#pragma once

#include <stdint.h>

namespace tle::ascendc {

namespace detail {

constexpr uint32_t kBlockBytes = 32;    // the unit UB addresses and strides count in
constexpr int32_t kMaxRowsPerCopy = 4095;  // DataCopyExtParams::blockCount's limit

__aicore__ inline uint32_t round_up_to_block(uint32_t bytes) { return (bytes + kBlockBytes - 1) / kBlockBytes * kBlockBytes; }

// The DataCopyPad geometry of a rows x columns window: rows of `row_bytes`, the 32-byte
// blocks between UB rows and the bytes between GM rows (gaps after each row's end), and how
// many rows one copy moves (up to 4095; one when rows overlap in GM).
template <typename T>
struct RowCopies {
  __aicore__ RowCopies(int32_t ub_row, int64_t gm_row, int32_t rows, int32_t columns)
      : rows(rows), row_bytes(static_cast<uint32_t>(columns) * sizeof(T)),
        ub_gap_blocks(rows > 1 ? (static_cast<uint32_t>(ub_row) * sizeof(T) - round_up_to_block(row_bytes)) / kBlockBytes : 0),
        one_copy(rows == 1 || gm_row >= columns),
        gm_gap_bytes(one_copy && rows > 1 ? static_cast<uint32_t>((gm_row - columns) * static_cast<int64_t>(sizeof(T))) : 0) {}
  // Rows the copy starting at row `first` moves.
  __aicore__ int32_t count(int32_t first) const {
    return one_copy ? (rows - first < kMaxRowsPerCopy ? rows - first : kMaxRowsPerCopy) : 1;
  }
  int32_t rows;
  uint32_t row_bytes, ub_gap_blocks;
  bool one_copy;
  uint32_t gm_gap_bytes;
};

// Global -> UB; `pad` (when `padded`) fills the rest of each row's last 32-byte unit.
template <typename T>
__aicore__ inline void copy_in(const AscendC::LocalTensor<T> &ub, int32_t ub_row, __gm__ T *gm, int64_t gm_row, int32_t rows,
                               int32_t columns, bool padded, T pad) {
  if (rows <= 0 || columns <= 0) return;
  const RowCopies<T> g(ub_row, gm_row, rows, columns);
  const uint8_t right_padding = static_cast<uint8_t>((round_up_to_block(g.row_bytes) - g.row_bytes) / sizeof(T));
  AscendC::GlobalTensor<T> global;
  global.SetGlobalBuffer(gm);
  for (int32_t first = 0, count = 0; first < rows; first += count) {
    count = g.count(first);
    AscendC::DataCopyPad(ub[first * ub_row], global[first * gm_row],
                         AscendC::DataCopyExtParams{static_cast<uint16_t>(count), g.row_bytes, g.gm_gap_bytes, g.ub_gap_blocks, 0},
                         AscendC::DataCopyPadExtParams<T>{padded, 0, padded ? right_padding : static_cast<uint8_t>(0), pad});
  }
}

template <typename T>
__aicore__ inline void copy_out(__gm__ T *gm, int64_t gm_row, const AscendC::LocalTensor<T> &ub, int32_t ub_row, int32_t rows,
                                int32_t columns) {
  if (rows <= 0 || columns <= 0) return;
  const RowCopies<T> g(ub_row, gm_row, rows, columns);
  AscendC::GlobalTensor<T> global;
  global.SetGlobalBuffer(gm);
  for (int32_t first = 0, count = 0; first < rows; first += count) {
    count = g.count(first);
    AscendC::DataCopyPad(global[first * gm_row], ub[first * ub_row],
                         AscendC::DataCopyExtParams{static_cast<uint16_t>(count), g.row_bytes, g.ub_gap_blocks, g.gm_gap_bytes, 0});
  }
}

}  // namespace detail

// A 1-D window of `count` elements.
template <typename T>
__aicore__ inline void copy_in(const AscendC::LocalTensor<T> &ub, __gm__ T *gm, int32_t count) {
  detail::copy_in(ub, 0, gm, 0, 1, count, false, T(0));
}
template <typename T, typename P>
__aicore__ inline void copy_in_padded(const AscendC::LocalTensor<T> &ub, __gm__ T *gm, int32_t count, P pad) {
  detail::copy_in(ub, 0, gm, 0, 1, count, true, static_cast<T>(pad));
}
template <typename T>
__aicore__ inline void copy_out(__gm__ T *gm, const AscendC::LocalTensor<T> &ub, int32_t count) {
  detail::copy_out(gm, 0, ub, 0, 1, count);
}

// A rows x columns window of a row-major tensor whose rows are `gm_row` elements apart.
template <typename T>
__aicore__ inline void copy_in_rows(const AscendC::LocalTensor<T> &ub, int32_t ub_row, __gm__ T *gm, int64_t gm_row, int32_t rows,
                                    int32_t columns) {
  detail::copy_in(ub, ub_row, gm, gm_row, rows, columns, false, T(0));
}
template <typename T, typename P>
__aicore__ inline void copy_in_rows_padded(const AscendC::LocalTensor<T> &ub, int32_t ub_row, __gm__ T *gm, int64_t gm_row,
                                           int32_t rows, int32_t columns, P pad) {
  detail::copy_in(ub, ub_row, gm, gm_row, rows, columns, true, static_cast<T>(pad));
}
template <typename T>
__aicore__ inline void copy_out_rows(__gm__ T *gm, int64_t gm_row, const AscendC::LocalTensor<T> &ub, int32_t ub_row, int32_t rows,
                                     int32_t columns) {
  detail::copy_out(gm, gm_row, ub, ub_row, rows, columns);
}

}  // namespace tle::ascendc
