// Reductions of a rows x columns UB tile along one axis, as tlec's AscendC output calls them.
// Each row is one vector operand (rows are a multiple of 32 bytes; tlec checks).
#pragma once

#include <stdint.h>

namespace tle::ascendc {

enum class Reduction { sum, max, min };

// out[c] = the rows' column c combined: row 0 copied, then the other rows folded in.
template <Reduction R, typename T>
__aicore__ inline void reduce_columns(const AscendC::LocalTensor<T> &out, const AscendC::LocalTensor<T> &in, int32_t rows,
                                      int32_t columns) {
  AscendC::Muls(out, in, T(1), columns);  // times one: every float exactly, signed zeros and NaNs too
  for (int32_t r = 1; r < rows; ++r) {
    AscendC::PipeBarrier<PIPE_V>();  // each step reads what the last one wrote
    if constexpr (R == Reduction::sum) AscendC::Add(out, out, in[r * columns], columns);
    else if constexpr (R == Reduction::max) AscendC::Max(out, out, in[r * columns], columns);
    else AscendC::Min(out, out, in[r * columns], columns);
  }
}

// out[r] = row r reduced. Each row reduces into its own 32-byte block of `scratch` (after
// which the scalar unit gathers the results), using the scratch's tail as the instruction's
// work space; `scratch` holds rows * 32 bytes and then `columns` elements.
template <Reduction R, typename T>
__aicore__ inline void reduce_rows(const AscendC::LocalTensor<T> &out, const AscendC::LocalTensor<T> &in,
                                   const AscendC::LocalTensor<T> &scratch, int32_t rows, int32_t columns) {
  constexpr int32_t kLanes = 32 / sizeof(T);
  const AscendC::LocalTensor<T> work = scratch[rows * kLanes];
  for (int32_t r = 0; r < rows; ++r) {
    if (r > 0) AscendC::PipeBarrier<PIPE_V>();  // the work space is reused
    if constexpr (R == Reduction::sum) AscendC::ReduceSum(scratch[r * kLanes], in[r * columns], work, columns);
    else if constexpr (R == Reduction::max) AscendC::ReduceMax(scratch[r * kLanes], in[r * columns], work, columns);
    else AscendC::ReduceMin(scratch[r * kLanes], in[r * columns], work, columns);
  }
  AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
  for (int32_t r = 0; r < rows; ++r) out.SetValue(r, scratch.GetValue(r * kLanes));
  AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);  // later work on `out` sees the scalar writes
  AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
}

}  // namespace tle::ascendc
