// Inclusive scans of a UB tile (tl.cumsum, tl.cumprod, tl.associative_scan with a sum,
// product, maximum or minimum), as tlec's AscendC output calls them. A scan is a chain of
// dependent steps, which the vector instructions (whole 32-byte blocks, no carry between
// lanes) do not express: the scalar unit runs it, between flags that order it after the
// vector work before it and before the vector work after it.
#pragma once

#include <stdint.h>

namespace tle::ascendc {

// max_num / min_num ignore a NaN operand (arith.maxnumf, and integers); max / min propagate
// it (arith.maximumf).
enum class Scan { sum, prod, max_num, min_num, max, min };

template <Scan S, typename T>
__aicore__ inline T scan_step(T acc, T x) {
  if constexpr (S == Scan::sum) return acc + x;
  else if constexpr (S == Scan::prod) return acc * x;
  else if constexpr (S == Scan::max_num) return acc != acc ? x : (x > acc ? x : acc);
  else if constexpr (S == Scan::min_num) return acc != acc ? x : (x < acc ? x : acc);
  else if constexpr (S == Scan::max) return acc != acc ? acc : (x != x || x > acc ? x : acc);
  else return acc != acc ? acc : (x != x || x < acc ? x : acc);
}

// out = the inclusive scan of `in` along `lines` lines of `length` elements each: element i
// of line l at l * line_stride + i * stride, combined from the line's end when Reverse.
template <Scan S, bool Reverse, typename T>
__aicore__ inline void scan(const AscendC::LocalTensor<T> &out, const AscendC::LocalTensor<T> &in, int32_t lines, int32_t length,
                            int32_t stride, int32_t line_stride) {
  AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);  // the vector unit's writes of `in` are done
  AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
  for (int32_t l = 0; l < lines; ++l) {
    T acc = T(0);
    for (int32_t k = 0; k < length; ++k) {
      const int32_t at = l * line_stride + (Reverse ? length - 1 - k : k) * stride;
      const T x = in.GetValue(at);
      acc = k == 0 ? x : scan_step<S>(acc, x);
      out.SetValue(at, acc);
    }
  }
  AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);  // later vector work on `out` sees the scalar writes
  AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
}

}  // namespace tle::ascendc
