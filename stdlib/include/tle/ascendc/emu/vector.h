// Element-wise vector instructions (pipe V) over the first `count` elements of UB tensors:
// binary (Add, Sub, Mul, Div, Max, Min, And, Or), tensor-scalar (Adds, Muls, Maxs, Mins), unary
// (Exp, Ln, Abs, Sqrt, Rsqrt, Reciprocal, Relu) and Duplicate. Every operand must be in UB and
// start 32-byte aligned. 16-bit floats are computed in float and rounded per element, as each
// hardware instruction rounds its result.
#pragma once

#include "tle/ascendc/emu/half.h"
#include "tle/ascendc/emu/memory.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace AscendC {
namespace emu_detail {

// The type element values are computed in.
template <class T>
struct MathTypeOf {
  using type = T;
};
template <int E, int M>
struct MathTypeOf<SmallFloat<E, M>> {
  using type = float;
};
template <class T>
using MathType = typename MathTypeOf<T>::type;

// Keeps a scalar argument out of template deduction, so Adds(halfTensor, halfTensor, 1.0f, n)
// takes T from the tensors and converts the scalar.
template <class T>
struct NonDeducedOf {
  using type = T;
};
template <class T>
using NonDeduced = typename NonDeducedOf<T>::type;

template <class T>
inline constexpr bool kIsFloating = std::is_floating_point_v<T> || IsSmallFloat<T>::value;

template <class T>
bool isNaN(T v) {
  if constexpr (kIsFloating<T>) return std::isnan(MathType<T>(v));
  else return false;
}

// Integer arithmetic wraps (two's complement), like the hardware's.
template <class T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(uint32_t)), uint32_t, std::make_unsigned_t<T>>;

template <class T>
T addValues(T a, T b) {
  if constexpr (std::is_integral_v<T>) return T(WrapType<T>(a) + WrapType<T>(b));
  else return T(MathType<T>(a) + MathType<T>(b));
}
template <class T>
T subValues(T a, T b) {
  if constexpr (std::is_integral_v<T>) return T(WrapType<T>(a) - WrapType<T>(b));
  else return T(MathType<T>(a) - MathType<T>(b));
}
template <class T>
T mulValues(T a, T b) {
  if constexpr (std::is_integral_v<T>) return T(WrapType<T>(a) * WrapType<T>(b));
  else return T(MathType<T>(a) * MathType<T>(b));
}
template <class T>
T divValues(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // Not a vector instruction for integers on Atlas A2; defined here so nothing traps.
    if (b == 0 || (std::is_signed_v<T> && a == std::numeric_limits<T>::min() && b == T(-1))) return T(0);
    return T(a / b);
  } else {
    return T(MathType<T>(a) / MathType<T>(b));
  }
}
// NaN in, NaN out, so poisoned inputs stay visible.
template <class T>
T maxValues(T a, T b) {
  if (isNaN(a)) return a;
  if (isNaN(b)) return b;
  return MathType<T>(a) < MathType<T>(b) ? b : a;
}
template <class T>
T minValues(T a, T b) {
  if (isNaN(a)) return a;
  if (isNaN(b)) return b;
  return MathType<T>(b) < MathType<T>(a) ? b : a;
}
template <class T>
T absValue(T a) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) return a < 0 ? T(WrapType<T>(0) - WrapType<T>(a)) : a;
    else return a;
  } else {
    return T(std::fabs(MathType<T>(a)));
  }
}

// Reports a bad count; false for a negative count and for 0 (a no-op on Atlas A2).
inline bool vectorCount(Core &core, const char *op, int64_t count) {
  if (count < 0) {
    core.report(FindingKind::bad_argument, std::string(op) + ": negative count " + std::to_string(count));
    return false;
  }
  return count > 0;
}

// Checks one operand of a vector instruction over `count` elements; false: skip the instruction.
template <class T>
bool vectorOperand(Core &core, const char *op, const char *role, const LocalTensor<T> &tensor, uint64_t count,
                   bool needsAlignment = true) {
  const LocalRegion &r = tensor.emuRegion();
  if (r.bound && r.memory != MemoryKind::UB) {
    core.report(FindingKind::wrong_memory, std::string(op) + ": " + role + " is in " + memorySpec(r.memory).name +
                                               " (TPosition::" + positionName(r.position) +
                                               "); vector instructions work on UB only");
    return false;
  }
  if (needsAlignment) checkAligned(core, op, role, tensor, 32);
  return checkLocalExtent(core, op, role, tensor, count * sizeof(T));
}

template <class T>
std::vector<T> loadLocal(Core &core, const LocalTensor<T> &tensor, uint64_t count) {
  std::vector<T> values(static_cast<size_t>(count));
  const LocalRegion &r = tensor.emuRegion();
  std::memcpy(values.data(), core.memory(r.memory) + r.byteOffset, size_t(count) * sizeof(T));
  return values;
}

template <class T>
void storeLocal(Core &core, const LocalTensor<T> &tensor, const std::vector<T> &values) {
  const LocalRegion &r = tensor.emuRegion();
  std::memcpy(core.memory(r.memory) + r.byteOffset, values.data(), values.size() * sizeof(T));
}

template <class T>
uint64_t byteOffsetOf(const LocalTensor<T> &tensor) {
  return tensor.emuRegion().byteOffset;
}

// dst[i] = f(src[i]) for i < count.
template <class TD, class TS, class F>
void mapUnary(const char *name, const LocalTensor<TD> &dst, const LocalTensor<TS> &src, int64_t count, F &&f) {
  Core &core = currentCore();
  if (!vectorCount(core, name, count)) return;
  bool ok = vectorOperand(core, name, "dst", dst, uint64_t(count));
  ok = vectorOperand(core, name, "src", src, uint64_t(count)) && ok;
  if (!ok) return;
  {
    Operation op(core, Pipe::V, name);
    op.readLocal(MemoryKind::UB, byteOffsetOf(src), byteOffsetOf(src) + uint64_t(count) * sizeof(TS));
    op.writeLocal(MemoryKind::UB, byteOffsetOf(dst), byteOffsetOf(dst) + uint64_t(count) * sizeof(TD));
  }
  const std::vector<TS> in = loadLocal(core, src, uint64_t(count));
  std::vector<TD> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = f(in[i]);
  storeLocal(core, dst, out);
}

// dst[i] = f(src0[i], src1[i]) for i < count.
template <class T, class F>
void mapBinary(const char *name, const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,
               int64_t count, F &&f) {
  Core &core = currentCore();
  if (!vectorCount(core, name, count)) return;
  bool ok = vectorOperand(core, name, "dst", dst, uint64_t(count));
  ok = vectorOperand(core, name, "src0", src0, uint64_t(count)) && ok;
  ok = vectorOperand(core, name, "src1", src1, uint64_t(count)) && ok;
  if (!ok) return;
  const uint64_t bytes = uint64_t(count) * sizeof(T);
  {
    Operation op(core, Pipe::V, name);
    op.readLocal(MemoryKind::UB, byteOffsetOf(src0), byteOffsetOf(src0) + bytes);
    op.readLocal(MemoryKind::UB, byteOffsetOf(src1), byteOffsetOf(src1) + bytes);
    op.writeLocal(MemoryKind::UB, byteOffsetOf(dst), byteOffsetOf(dst) + bytes);
  }
  const std::vector<T> a = loadLocal(core, src0, uint64_t(count));
  const std::vector<T> b = loadLocal(core, src1, uint64_t(count));
  std::vector<T> out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = f(a[i], b[i]);
  storeLocal(core, dst, out);
}

}  // namespace emu_detail

#define TLE_ASCENDC_EMU_BINARY(NAME, EXPR)                                                          \
  template <typename T>                                                                             \
  void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,      \
            const int32_t &count) {                                                                 \
    emu_detail::mapBinary(#NAME, dst, src0, src1, count, [](T a, T b) { return EXPR; });            \
  }
TLE_ASCENDC_EMU_BINARY(Add, emu_detail::addValues(a, b))
TLE_ASCENDC_EMU_BINARY(Sub, emu_detail::subValues(a, b))
TLE_ASCENDC_EMU_BINARY(Mul, emu_detail::mulValues(a, b))
TLE_ASCENDC_EMU_BINARY(Div, emu_detail::divValues(a, b))
TLE_ASCENDC_EMU_BINARY(Max, emu_detail::maxValues(a, b))
TLE_ASCENDC_EMU_BINARY(Min, emu_detail::minValues(a, b))
#undef TLE_ASCENDC_EMU_BINARY

// Bitwise, for integer element types (int16_t/uint16_t on hardware).
template <typename T>
void And(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, const int32_t &count) {
  static_assert(std::is_integral_v<T>, "And takes integer tensors");
  emu_detail::mapBinary("And", dst, src0, src1, count, [](T a, T b) { return T(a & b); });
}
template <typename T>
void Or(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, const int32_t &count) {
  static_assert(std::is_integral_v<T>, "Or takes integer tensors");
  emu_detail::mapBinary("Or", dst, src0, src1, count, [](T a, T b) { return T(a | b); });
}

#define TLE_ASCENDC_EMU_SCALAR(NAME, EXPR)                                                          \
  template <typename T, bool isSetMask = true>                                                      \
  void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                   \
            const emu_detail::NonDeduced<T> &scalarValue, const int32_t &count) {                   \
    const T b = scalarValue;                                                                        \
    emu_detail::mapUnary(#NAME, dst, src, count, [b](T a) { return EXPR; });                        \
  }
TLE_ASCENDC_EMU_SCALAR(Adds, emu_detail::addValues(a, b))
TLE_ASCENDC_EMU_SCALAR(Muls, emu_detail::mulValues(a, b))
TLE_ASCENDC_EMU_SCALAR(Maxs, emu_detail::maxValues(a, b))
TLE_ASCENDC_EMU_SCALAR(Mins, emu_detail::minValues(a, b))
#undef TLE_ASCENDC_EMU_SCALAR

// Transcendental results come from the C library in float and are rounded to the element type;
// the hardware's approximations may differ in the last bits.
#define TLE_ASCENDC_EMU_UNARY_FLOAT(NAME, EXPR)                                                     \
  template <typename T>                                                                             \
  void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count) {           \
    static_assert(emu_detail::kIsFloating<T>, #NAME " takes floating-point tensors");               \
    using M = emu_detail::MathType<T>;                                                              \
    emu_detail::mapUnary(#NAME, dst, src, count, [](T t) {                                          \
      const M a = M(t);                                                                             \
      return T(EXPR);                                                                               \
    });                                                                                             \
  }
TLE_ASCENDC_EMU_UNARY_FLOAT(Exp, std::exp(a))
TLE_ASCENDC_EMU_UNARY_FLOAT(Ln, std::log(a))
TLE_ASCENDC_EMU_UNARY_FLOAT(Sqrt, std::sqrt(a))
TLE_ASCENDC_EMU_UNARY_FLOAT(Rsqrt, M(1) / std::sqrt(a))
TLE_ASCENDC_EMU_UNARY_FLOAT(Reciprocal, M(1) / a)
#undef TLE_ASCENDC_EMU_UNARY_FLOAT

template <typename T>
void Abs(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count) {
  emu_detail::mapUnary("Abs", dst, src, count, [](T a) { return emu_detail::absValue(a); });
}

template <typename T>
void Relu(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count) {
  emu_detail::mapUnary("Relu", dst, src, count, [](T a) { return emu_detail::maxValues(a, T(0)); });
}

// dst[i] = scalarValue for i < count.
template <typename T>
void Duplicate(const LocalTensor<T> &dst, const emu_detail::NonDeduced<T> &scalarValue, const int32_t &count) {
  using namespace emu_detail;
  Core &core = currentCore();
  const char *name = "Duplicate";
  if (!vectorCount(core, name, count) || !vectorOperand(core, name, "dst", dst, uint64_t(count))) return;
  {
    Operation op(core, Pipe::V, name);
    op.writeLocal(MemoryKind::UB, byteOffsetOf(dst), byteOffsetOf(dst) + uint64_t(count) * sizeof(T));
  }
  storeLocal(core, dst, std::vector<T>(size_t(count), T(scalarValue)));
}

}  // namespace AscendC
