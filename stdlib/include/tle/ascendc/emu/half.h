// 16-bit floating-point storage types of the AscendC emulation: `half` (IEEE binary16) and
// `bfloat16_t` (8 exponent bits, 7 mantissa bits). A value is kept as its bit pattern;
// arithmetic converts to float, computes there and rounds once back to the 16-bit format
// (float has more than twice the precision plus two bits, so + - * / and sqrt done this way
// round exactly as a native 16-bit unit would). Conversions round to nearest, ties to even,
// unless a Cast asks for another rounding.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace tle::ascendc::emu {

// Roundings of AscendC's Cast (RoundMode) in IEEE terms.
enum class Rounding : uint8_t { nearestEven, towardZero, down, up, nearestAway, odd };

namespace detail {

template <class To, class From>
To bitCast(const From &from) {
  static_assert(sizeof(To) == sizeof(From), "bitCast needs equal sizes");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

// Whether the magnitude kept so far (`kept`, with `dropped` bits below it out of
// `halfUlp * 2`) goes up one unit under `rounding`.
inline bool roundsUp(uint64_t kept, uint64_t dropped, uint64_t halfUlp, bool negative, Rounding rounding) {
  switch (rounding) {
  case Rounding::nearestEven: return dropped > halfUlp || (dropped == halfUlp && (kept & 1));
  case Rounding::nearestAway: return dropped >= halfUlp;
  case Rounding::towardZero: return false;
  case Rounding::down: return negative && dropped != 0;
  case Rounding::up: return !negative && dropped != 0;
  case Rounding::odd: return false;  // handled by setting the last bit instead
  }
  return false;
}

// Whether a finite value too large for the format becomes infinity (else the largest finite).
inline bool overflowsToInfinity(bool negative, Rounding rounding) {
  switch (rounding) {
  case Rounding::nearestEven:
  case Rounding::nearestAway: return true;
  case Rounding::towardZero:
  case Rounding::odd: return false;
  case Rounding::down: return negative;
  case Rounding::up: return !negative;
  }
  return true;
}

}  // namespace detail

// The bits of `value` in a binary format with ExpBits exponent and MantBits mantissa bits
// (sign in bit ExpBits + MantBits), rounded as asked. Handles subnormals, infinities and NaN.
template <int ExpBits, int MantBits>
uint32_t encodeFloat(double value, Rounding rounding = Rounding::nearestEven) {
  static_assert(ExpBits + MantBits < 32, "format must fit 32 bits");
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  constexpr int maxBiasedExp = (1 << ExpBits) - 1;
  constexpr uint32_t mantMask = (1u << MantBits) - 1;
  constexpr uint32_t infinityBits = uint32_t(maxBiasedExp) << MantBits;
  constexpr uint32_t largestFiniteBits = infinityBits - 1;

  const uint64_t bits = detail::bitCast<uint64_t>(value);
  const bool negative = (bits >> 63) != 0;
  const uint32_t sign = negative ? (1u << (ExpBits + MantBits)) : 0;
  const int doubleExp = int((bits >> 52) & 0x7FF);
  const uint64_t doubleMant = bits & ((uint64_t(1) << 52) - 1);

  if (doubleExp == 0x7FF) {  // infinity, or NaN (kept quiet, top payload bits kept)
    if (doubleMant == 0) return sign | infinityBits;
    return sign | infinityBits | (1u << (MantBits - 1)) | uint32_t(doubleMant >> (52 - MantBits));
  }
  if (doubleExp == 0) {  // zero or a double subnormal: far below every format's smallest value
    const bool nonzero = doubleMant != 0;
    if (nonzero && (rounding == Rounding::odd || (rounding == Rounding::up && !negative) ||
                    (rounding == Rounding::down && negative)))
      return sign | 1u;
    return sign;
  }

  const uint64_t significand = (uint64_t(1) << 52) | doubleMant;  // 53 bits, value 1.x
  int biasedExp = doubleExp - 1023 + bias;
  if (biasedExp >= maxBiasedExp)
    return sign | (detail::overflowsToInfinity(negative, rounding) ? infinityBits : largestFiniteBits);

  // Bits of the 53-bit significand that do not fit: more of them for subnormal results.
  int dropBits = 52 - MantBits + (biasedExp <= 0 ? 1 - biasedExp : 0);
  uint64_t kept, dropped, halfUlp;
  if (dropBits >= 64) {
    kept = 0;
    dropped = 1;  // nonzero and below half a unit
    halfUlp = uint64_t(1) << 63;
  } else {
    kept = significand >> dropBits;
    dropped = significand & ((uint64_t(1) << dropBits) - 1);
    halfUlp = uint64_t(1) << (dropBits - 1);
  }
  if (detail::roundsUp(kept, dropped, halfUlp, negative, rounding)) ++kept;
  if (rounding == Rounding::odd && dropped != 0) kept |= 1;

  if (biasedExp <= 0) {
    // Subnormal: `kept` is the mantissa field; rounding up to 1 << MantBits gives the smallest
    // normal number, whose exponent field is 1: the same bits.
    return sign | uint32_t(kept);
  }
  if (kept >> (MantBits + 1)) {  // rounded up to the next power of two
    kept >>= 1;
    ++biasedExp;
    if (biasedExp >= maxBiasedExp)
      return sign | (detail::overflowsToInfinity(negative, rounding) ? infinityBits : largestFiniteBits);
  }
  return sign | (uint32_t(biasedExp) << MantBits) | (uint32_t(kept) & mantMask);
}

// The exact value of a bit pattern of the format above.
template <int ExpBits, int MantBits>
double decodeFloat(uint32_t bits) {
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  constexpr int maxBiasedExp = (1 << ExpBits) - 1;
  const bool negative = (bits >> (ExpBits + MantBits)) & 1;
  const int biasedExp = int((bits >> MantBits) & uint32_t(maxBiasedExp));
  const uint32_t mant = bits & ((1u << MantBits) - 1);
  double magnitude;
  if (biasedExp == maxBiasedExp)
    magnitude = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (biasedExp == 0)
    magnitude = std::ldexp(double(mant), 1 - bias - MantBits);
  else
    magnitude = std::ldexp(double(mant | (1u << MantBits)), biasedExp - bias - MantBits);
  return negative ? -magnitude : magnitude;
}

// A 16-bit floating-point value kept as its bits. Implicitly converts from and to the built-in
// arithmetic types, like the device compiler's half.
template <int ExpBits, int MantBits>
class SmallFloat {
  static_assert(ExpBits + MantBits == 15, "16-bit formats only");

public:
  SmallFloat() = default;
  template <class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>
  SmallFloat(U value) : bits_(uint16_t(encodeFloat<ExpBits, MantBits>(double(value)))) {}

  static SmallFloat fromBits(uint16_t bits) {
    SmallFloat result;
    result.bits_ = bits;
    return result;
  }
  // The value rounded from `value` as asked (the constructor rounds to nearest even).
  static SmallFloat rounded(double value, Rounding rounding) {
    return fromBits(uint16_t(encodeFloat<ExpBits, MantBits>(value, rounding)));
  }
  uint16_t bits() const { return bits_; }

  operator float() const { return float(decodeFloat<ExpBits, MantBits>(bits_)); }

  SmallFloat operator-() const { return fromBits(uint16_t(bits_ ^ 0x8000u)); }
  SmallFloat operator+() const { return *this; }

  SmallFloat &operator+=(SmallFloat other) { return *this = SmallFloat(float(*this) + float(other)); }
  SmallFloat &operator-=(SmallFloat other) { return *this = SmallFloat(float(*this) - float(other)); }
  SmallFloat &operator*=(SmallFloat other) { return *this = SmallFloat(float(*this) * float(other)); }
  SmallFloat &operator/=(SmallFloat other) { return *this = SmallFloat(float(*this) / float(other)); }

private:
  uint16_t bits_ = 0;
};

// Same-format arithmetic stays in the format; mixing with an integer keeps the 16-bit type
// (like _Float16 + int), mixing with float or double gives float or double.
template <class A, class B>
struct SmallFloatMix;
template <int E, int M>
struct SmallFloatMix<SmallFloat<E, M>, SmallFloat<E, M>> {
  using type = SmallFloat<E, M>;
};
template <int E, int M, class U>
struct SmallFloatMix<SmallFloat<E, M>, U> {
  using type = std::conditional_t<std::is_floating_point_v<U>, std::common_type_t<float, U>, SmallFloat<E, M>>;
};
template <int E, int M, class U>
struct SmallFloatMix<U, SmallFloat<E, M>> : SmallFloatMix<SmallFloat<E, M>, U> {};

template <class T>
struct IsSmallFloat : std::false_type {};
template <int E, int M>
struct IsSmallFloat<SmallFloat<E, M>> : std::true_type {};

// Enables the mixed operators when one side is a SmallFloat and the other a SmallFloat of the
// same format or a built-in arithmetic type.
template <class A, class B>
using SmallFloatOperands = std::enable_if_t<
    (IsSmallFloat<A>::value && (std::is_arithmetic_v<B> || std::is_same_v<A, B>)) ||
        (IsSmallFloat<B>::value && std::is_arithmetic_v<A>),
    int>;

template <class T>
auto widenForMath(const T &v) {
  if constexpr (IsSmallFloat<T>::value) return float(v);
  else return v;
}

#define TLE_ASCENDC_EMU_SMALLFLOAT_ARITH(OP)                                                    \
  template <class A, class B, SmallFloatOperands<A, B> = 0>                                     \
  typename SmallFloatMix<A, B>::type operator OP(const A &a, const B &b) {                      \
    using Result = typename SmallFloatMix<A, B>::type;                                          \
    if constexpr (IsSmallFloat<Result>::value)                                                  \
      return Result(float(widenForMath(a)) OP float(widenForMath(b)));                         \
    else                                                                                        \
      return Result(widenForMath(a)) OP Result(widenForMath(b));                                \
  }
TLE_ASCENDC_EMU_SMALLFLOAT_ARITH(+)
TLE_ASCENDC_EMU_SMALLFLOAT_ARITH(-)
TLE_ASCENDC_EMU_SMALLFLOAT_ARITH(*)
TLE_ASCENDC_EMU_SMALLFLOAT_ARITH(/)
#undef TLE_ASCENDC_EMU_SMALLFLOAT_ARITH

// Comparisons are exact in double (every 16-bit value and every float is a double).
#define TLE_ASCENDC_EMU_SMALLFLOAT_COMPARE(OP)                                                  \
  template <class A, class B, SmallFloatOperands<A, B> = 0>                                     \
  bool operator OP(const A &a, const B &b) {                                                    \
    return double(widenForMath(a)) OP double(widenForMath(b));                                  \
  }
TLE_ASCENDC_EMU_SMALLFLOAT_COMPARE(==)
TLE_ASCENDC_EMU_SMALLFLOAT_COMPARE(!=)
TLE_ASCENDC_EMU_SMALLFLOAT_COMPARE(<)
TLE_ASCENDC_EMU_SMALLFLOAT_COMPARE(<=)
TLE_ASCENDC_EMU_SMALLFLOAT_COMPARE(>)
TLE_ASCENDC_EMU_SMALLFLOAT_COMPARE(>=)
#undef TLE_ASCENDC_EMU_SMALLFLOAT_COMPARE

using Half = SmallFloat<5, 10>;
using BFloat16 = SmallFloat<8, 7>;

}  // namespace tle::ascendc::emu

// The device compiler provides these at global scope.
using half = ::tle::ascendc::emu::Half;
using bfloat16_t = ::tle::ascendc::emu::BFloat16;
