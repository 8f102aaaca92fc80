// Cast (pipe V): element type conversion with an explicit rounding. Every conversion goes
// through double, which holds every source value (float, half, bfloat16_t, 8/16/32-bit
// integers) exactly, and is rounded once into the destination type.
#pragma once

#include "tle/ascendc/emu/half.h"
#include "tle/ascendc/emu/vector.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace AscendC {

enum class RoundMode : uint8_t {
  CAST_NONE = 0,  // round to nearest even where the conversion loses precision
  CAST_RINT,      // to nearest, ties to even
  CAST_FLOOR,     // toward -infinity
  CAST_CEIL,      // toward +infinity
  CAST_ROUND,     // to nearest, ties away from zero
  CAST_TRUNC,     // toward zero
  CAST_ODD,       // round to odd (von Neumann)
  UNKNOWN = 0xFF,
};

namespace emu_detail {

inline Rounding roundingOf(RoundMode mode) {
  switch (mode) {
  case RoundMode::CAST_FLOOR: return Rounding::down;
  case RoundMode::CAST_CEIL: return Rounding::up;
  case RoundMode::CAST_ROUND: return Rounding::nearestAway;
  case RoundMode::CAST_TRUNC: return Rounding::towardZero;
  case RoundMode::CAST_ODD: return Rounding::odd;
  default: return Rounding::nearestEven;
  }
}

template <class T>
double toDouble(T value) {
  if constexpr (IsSmallFloat<T>::value) return double(float(value));
  else return double(value);
}

// An integral double nearest `value` under `rounding`.
inline double roundToInteger(double value, Rounding rounding) {
  const double down = std::floor(value);
  if (down == value) return value;
  const double up = down + 1;
  switch (rounding) {
  case Rounding::down: return down;
  case Rounding::up: return up;
  case Rounding::towardZero: return value < 0 ? up : down;
  case Rounding::nearestAway: {
    const double diff = value - down;
    if (diff != 0.5) return diff < 0.5 ? down : up;
    return value < 0 ? down : up;
  }
  case Rounding::odd: return std::fmod(down, 2.0) != 0 ? down : up;
  case Rounding::nearestEven: break;
  }
  const double diff = value - down;
  if (diff != 0.5) return diff < 0.5 ? down : up;
  return std::fmod(down, 2.0) == 0 ? down : up;
}

// `value` converted to T under `rounding`; integers saturate, NaN becomes 0.
template <class T>
T fromDouble(double value, Rounding rounding) {
  if constexpr (IsSmallFloat<T>::value) {
    return T::rounded(value, rounding);
  } else if constexpr (std::is_same_v<T, float>) {
    return ::tle::ascendc::emu::detail::bitCast<float>(encodeFloat<8, 23>(value, rounding));
  } else if constexpr (std::is_floating_point_v<T>) {
    return T(value);
  } else {
    static_assert(std::is_integral_v<T>, "Cast to an unsupported type");
    if (std::isnan(value)) return T(0);
    const double r = roundToInteger(value, rounding);
    if (r <= double(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    if (r >= double(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return T(r);
  }
}

}  // namespace emu_detail

// dst[i] = src[i] converted with roundMode, for i < count.
template <typename T, typename U>
void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode, const uint32_t count) {
  const ::tle::ascendc::emu::Rounding rounding = emu_detail::roundingOf(roundMode);
  emu_detail::mapUnary("Cast", dst, src, int64_t(count),
                       [rounding](U v) { return emu_detail::fromDouble<T>(emu_detail::toDouble(v), rounding); });
}

}  // namespace AscendC
