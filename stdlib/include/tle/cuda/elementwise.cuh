// Elementwise operations on scalars and on tiles of one layout. Each operation is a scalar
// function; TLE_LIFT_* makes the tile version, so generated code reads the same for both.
#pragma once

#include "tle/cuda/tile.cuh"

namespace tle {

// ---- scalar definitions ------------------------------------------------------------------------

template <class T>
struct unsigned_of {
  using type = T;
};
template <> struct unsigned_of<int8_t> { using type = uint8_t; };
template <> struct unsigned_of<int16_t> { using type = uint16_t; };
template <> struct unsigned_of<int32_t> { using type = uint32_t; };
template <> struct unsigned_of<int64_t> { using type = uint64_t; };
template <> struct unsigned_of<bool> { using type = bool; };
template <class T>
using unsigned_t = typename unsigned_of<T>::type;

template <class T> TLE_DEVICE T add(T a, T b) { return static_cast<T>(a + b); }
template <class T> TLE_DEVICE T sub(T a, T b) { return static_cast<T>(a - b); }
template <class T> TLE_DEVICE T mul(T a, T b) { return static_cast<T>(a * b); }
template <class T> TLE_DEVICE T div(T a, T b) { return static_cast<T>(a / b); }
template <class T> TLE_DEVICE T rem(T a, T b) { return static_cast<T>(a % b); }
template <class T> TLE_DEVICE T divu(T a, T b) { return static_cast<T>(static_cast<unsigned_t<T>>(a) / static_cast<unsigned_t<T>>(b)); }
template <class T> TLE_DEVICE T remu(T a, T b) { return static_cast<T>(static_cast<unsigned_t<T>>(a) % static_cast<unsigned_t<T>>(b)); }
template <class T> TLE_DEVICE T bit_and(T a, T b) { return static_cast<T>(a & b); }
template <class T> TLE_DEVICE T bit_or(T a, T b) { return static_cast<T>(a | b); }
template <class T> TLE_DEVICE T bit_xor(T a, T b) { return static_cast<T>(a ^ b); }
template <class T> TLE_DEVICE T shl(T a, T b) { return static_cast<T>(static_cast<unsigned_t<T>>(a) << b); }
template <class T> TLE_DEVICE T shr(T a, T b) { return static_cast<T>(a >> b); }
template <class T> TLE_DEVICE T shru(T a, T b) { return static_cast<T>(static_cast<unsigned_t<T>>(a) >> b); }
template <class T> TLE_DEVICE T neg(T a) { return static_cast<T>(-a); }
// i1 arithmetic wraps modulo 2, as arith.addi and its kin on i1 do (C++ would promote to int
// and make any nonzero result true: true + true would stay true).
TLE_DEVICE bool add(bool a, bool b) { return a != b; }
TLE_DEVICE bool sub(bool a, bool b) { return a != b; }
TLE_DEVICE bool mul(bool a, bool b) { return a && b; }
TLE_DEVICE bool neg(bool a) { return a; }
template <class T> TLE_DEVICE T maxs(T a, T b) { return a > b ? a : b; }
template <class T> TLE_DEVICE T mins(T a, T b) { return a < b ? a : b; }
template <class T> TLE_DEVICE T maxu(T a, T b) { return static_cast<unsigned_t<T>>(a) > static_cast<unsigned_t<T>>(b) ? a : b; }
template <class T> TLE_DEVICE T minu(T a, T b) { return static_cast<unsigned_t<T>>(a) < static_cast<unsigned_t<T>>(b) ? a : b; }
template <class T> TLE_DEVICE T fmod(T a, T b) { return static_cast<T>(::fmodf(static_cast<float>(a), static_cast<float>(b))); }
TLE_DEVICE double fmod(double a, double b) { return ::fmod(a, b); }

template <class T> TLE_DEVICE bool eq(T a, T b) { return a == b; }
template <class T> TLE_DEVICE bool ne(T a, T b) { return a != b; }
template <class T> TLE_DEVICE bool lt(T a, T b) { return a < b; }
template <class T> TLE_DEVICE bool le(T a, T b) { return a <= b; }
template <class T> TLE_DEVICE bool gt(T a, T b) { return a > b; }
template <class T> TLE_DEVICE bool ge(T a, T b) { return a >= b; }
template <class T> TLE_DEVICE bool ltu(T a, T b) { return static_cast<unsigned_t<T>>(a) < static_cast<unsigned_t<T>>(b); }
template <class T> TLE_DEVICE bool leu(T a, T b) { return static_cast<unsigned_t<T>>(a) <= static_cast<unsigned_t<T>>(b); }
template <class T> TLE_DEVICE bool gtu(T a, T b) { return static_cast<unsigned_t<T>>(a) > static_cast<unsigned_t<T>>(b); }
template <class T> TLE_DEVICE bool geu(T a, T b) { return static_cast<unsigned_t<T>>(a) >= static_cast<unsigned_t<T>>(b); }
// Float comparisons: "ordered" ones are false when either side is NaN (C++'s own rule);
// "unordered" ones are true then.
template <class T> TLE_DEVICE bool is_nan(T a) { return !(a == a); }
template <class T> TLE_DEVICE bool ord(T a, T b) { return !is_nan(a) && !is_nan(b); }
template <class T> TLE_DEVICE bool uno(T a, T b) { return is_nan(a) || is_nan(b); }
template <class T> TLE_DEVICE bool one(T a, T b) { return ord(a, b) && a != b; }
template <class T> TLE_DEVICE bool ueq(T a, T b) { return uno(a, b) || a == b; }
template <class T> TLE_DEVICE bool ult(T a, T b) { return uno(a, b) || a < b; }
template <class T> TLE_DEVICE bool ule(T a, T b) { return uno(a, b) || a <= b; }
template <class T> TLE_DEVICE bool ugt(T a, T b) { return uno(a, b) || a > b; }
template <class T> TLE_DEVICE bool uge(T a, T b) { return uno(a, b) || a >= b; }

template <class T> TLE_DEVICE T select(bool c, T a, T b) { return c ? a : b; }

// maximum/minimum propagate NaN; maxnum/minnum return the other operand (IEEE maxNum).
template <class T> TLE_DEVICE T maximum(T a, T b) { return is_nan(a) ? a : is_nan(b) ? b : (a > b ? a : b); }
template <class T> TLE_DEVICE T minimum(T a, T b) { return is_nan(a) ? a : is_nan(b) ? b : (a < b ? a : b); }
template <class T> TLE_DEVICE T maxnum(T a, T b) { return is_nan(a) ? b : is_nan(b) ? a : (a > b ? a : b); }
template <class T> TLE_DEVICE T minnum(T a, T b) { return is_nan(a) ? b : is_nan(b) ? a : (a < b ? a : b); }
TLE_DEVICE float maxnum(float a, float b) { return fmaxf(a, b); }
TLE_DEVICE float minnum(float a, float b) { return fminf(a, b); }

// Conversions. Half, bfloat16 and fp8 convert through float where CUDA has no direct path.
template <class To, class From>
TLE_DEVICE To cast(From x) {
  return static_cast<To>(x);
}
template <> TLE_DEVICE __half cast<__half, double>(double x) { return __double2half(x); }
template <> TLE_DEVICE __nv_bfloat16 cast<__nv_bfloat16, double>(double x) { return __double2bfloat16(x); }
template <> TLE_DEVICE __half cast<__half, __nv_bfloat16>(__nv_bfloat16 x) { return __float2half(__bfloat162float(x)); }
template <> TLE_DEVICE __nv_bfloat16 cast<__nv_bfloat16, __half>(__half x) { return __float2bfloat16(__half2float(x)); }
template <> TLE_DEVICE double cast<double, __half>(__half x) { return static_cast<double>(__half2float(x)); }
template <> TLE_DEVICE double cast<double, __nv_bfloat16>(__nv_bfloat16 x) { return static_cast<double>(__bfloat162float(x)); }
template <class To, class From>
TLE_DEVICE To cast_unsigned(From x) {
  return static_cast<To>(static_cast<unsigned_t<From>>(x));
}
// fptoui: through the unsigned type of To's width, as PTX's cvt.rzi.u* does it (negative
// values and NaN become 0, values above the range its maximum), like Triton.
template <class To, class From>
TLE_DEVICE To cast_to_unsigned(From x) {
  return static_cast<To>(static_cast<unsigned_t<To>>(x));
}
template <class To>
TLE_DEVICE To cast_to_unsigned(__half x) {
  return cast_to_unsigned<To>(__half2float(x));
}
template <class To>
TLE_DEVICE To cast_to_unsigned(__nv_bfloat16 x) {
  return cast_to_unsigned<To>(__bfloat162float(x));
}
template <class To, class From>
TLE_DEVICE To bitcast(From x) {
  static_assert(sizeof(To) == sizeof(From), "bitcast between types of different sizes");
  To y;
  memcpy(&y, &x, sizeof(To));
  return y;
}

// Math. float and double call CUDA's functions; 16-bit floats compute in float.
#define TLE_MATH_UNARY(name, f32, f64)                                                   \
  TLE_DEVICE float name(float x) { return f32(x); }                                       \
  TLE_DEVICE double name(double x) { return f64(x); }                                     \
  TLE_DEVICE __half name(__half x) { return __float2half(f32(__half2float(x))); }         \
  TLE_DEVICE __nv_bfloat16 name(__nv_bfloat16 x) { return __float2bfloat16(f32(__bfloat162float(x))); }
TLE_MATH_UNARY(exp, __expf, ::exp)
// fp32 exp2 is the hardware's approximation with subnormals flushed to zero, as Triton
// lowers tl.exp2 (exp2f adds a range test and two scalings per element around it: a third
// of attention's softmax instructions).
TLE_DEVICE float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
TLE_MATH_UNARY(exp2, exp2_approx, ::exp2)
// Triton's fp32 `/` (and tl.fdiv): div.full, the full-range approximation (within 2 ulp),
// not the correctly rounded division CUDA's `/` makes (tl.math.div_rn is that one).
TLE_DEVICE float div_full(float a, float b) {
  float q;
  asm("div.full.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
  return q;
}
TLE_MATH_UNARY(log, __logf, ::log)
TLE_MATH_UNARY(log2, ::log2f, ::log2)
TLE_MATH_UNARY(sqrt, ::sqrtf, ::sqrt)
TLE_MATH_UNARY(rsqrt, ::rsqrtf, ::rsqrt)
TLE_MATH_UNARY(sin, ::sinf, ::sin)
TLE_MATH_UNARY(cos, ::cosf, ::cos)
TLE_MATH_UNARY(tan, ::tanf, ::tan)
TLE_MATH_UNARY(tanh, ::tanhf, ::tanh)
TLE_MATH_UNARY(fabs, ::fabsf, ::fabs)
TLE_MATH_UNARY(floor, ::floorf, ::floor)
TLE_MATH_UNARY(ceil, ::ceilf, ::ceil)
TLE_MATH_UNARY(erf, ::erff, ::erf)
TLE_MATH_UNARY(log1p, ::log1pf, ::log1p)
TLE_MATH_UNARY(expm1, ::expm1f, ::expm1)
#undef TLE_MATH_UNARY
template <class T> TLE_DEVICE T iabs(T x) { return x < 0 ? static_cast<T>(-x) : x; }
TLE_DEVICE float fma(float a, float b, float c) { return ::fmaf(a, b, c); }
TLE_DEVICE double fma(double a, double b, double c) { return ::fma(a, b, c); }
TLE_DEVICE __half fma(__half a, __half b, __half c) { return __hfma(a, b, c); }
TLE_DEVICE __nv_bfloat16 fma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) { return __hfma(a, b, c); }
TLE_DEVICE float pow(float a, float b) { return ::powf(a, b); }
TLE_DEVICE double pow(double a, double b) { return ::pow(a, b); }
TLE_DEVICE int32_t umulhi(int32_t a, int32_t b) { return static_cast<int32_t>(__umulhi(static_cast<uint32_t>(a), static_cast<uint32_t>(b))); }
TLE_DEVICE int64_t umulhi(int64_t a, int64_t b) { return static_cast<int64_t>(__umul64hi(static_cast<uint64_t>(a), static_cast<uint64_t>(b))); }

// ---- tile versions ----------------------------------------------------------------------------

#define TLE_LIFT_UNARY(name)                                                              \
  template <class T, class L, int... S>                                                   \
  TLE_DEVICE auto name(const Tile<T, L, S...> &a) {                                       \
    Tile<decltype(name(a.v[0])), L, S...> r;                                               \
    TLE_UNROLL for (int i = 0; i < r.kRegs; ++i) r.v[i] = name(a.v[i]);                   \
    return r;                                                                             \
  }
#define TLE_LIFT_BINARY(name)                                                             \
  template <class T, class L, int... S>                                                   \
  TLE_DEVICE auto name(const Tile<T, L, S...> &a, const Tile<T, L, S...> &b) {            \
    Tile<decltype(name(a.v[0], b.v[0])), L, S...> r;                                       \
    TLE_UNROLL for (int i = 0; i < r.kRegs; ++i) r.v[i] = name(a.v[i], b.v[i]);           \
    return r;                                                                             \
  }

TLE_LIFT_BINARY(add) TLE_LIFT_BINARY(sub) TLE_LIFT_BINARY(mul) TLE_LIFT_BINARY(div) TLE_LIFT_BINARY(rem)
TLE_LIFT_BINARY(divu) TLE_LIFT_BINARY(remu) TLE_LIFT_BINARY(bit_and) TLE_LIFT_BINARY(bit_or)
TLE_LIFT_BINARY(bit_xor) TLE_LIFT_BINARY(shl) TLE_LIFT_BINARY(shr) TLE_LIFT_BINARY(shru)
TLE_LIFT_BINARY(maxs) TLE_LIFT_BINARY(mins) TLE_LIFT_BINARY(maxu) TLE_LIFT_BINARY(minu) TLE_LIFT_BINARY(fmod)
TLE_LIFT_BINARY(eq) TLE_LIFT_BINARY(ne) TLE_LIFT_BINARY(lt) TLE_LIFT_BINARY(le) TLE_LIFT_BINARY(gt)
TLE_LIFT_BINARY(ge) TLE_LIFT_BINARY(ltu) TLE_LIFT_BINARY(leu) TLE_LIFT_BINARY(gtu) TLE_LIFT_BINARY(geu)
TLE_LIFT_BINARY(ord) TLE_LIFT_BINARY(uno) TLE_LIFT_BINARY(one) TLE_LIFT_BINARY(ueq) TLE_LIFT_BINARY(ult)
TLE_LIFT_BINARY(ule) TLE_LIFT_BINARY(ugt) TLE_LIFT_BINARY(uge)
TLE_LIFT_BINARY(maximum) TLE_LIFT_BINARY(minimum) TLE_LIFT_BINARY(maxnum) TLE_LIFT_BINARY(minnum)
TLE_LIFT_BINARY(pow) TLE_LIFT_BINARY(umulhi) TLE_LIFT_BINARY(div_full)
TLE_LIFT_UNARY(neg) TLE_LIFT_UNARY(exp) TLE_LIFT_UNARY(exp2) TLE_LIFT_UNARY(log) TLE_LIFT_UNARY(log2)
TLE_LIFT_UNARY(sqrt) TLE_LIFT_UNARY(rsqrt) TLE_LIFT_UNARY(sin) TLE_LIFT_UNARY(cos) TLE_LIFT_UNARY(tan)
TLE_LIFT_UNARY(tanh) TLE_LIFT_UNARY(fabs) TLE_LIFT_UNARY(floor) TLE_LIFT_UNARY(ceil) TLE_LIFT_UNARY(erf)
TLE_LIFT_UNARY(log1p) TLE_LIFT_UNARY(expm1) TLE_LIFT_UNARY(iabs)
#undef TLE_LIFT_UNARY
#undef TLE_LIFT_BINARY

template <class T, class L, int... S>
TLE_DEVICE Tile<T, L, S...> fma(const Tile<T, L, S...> &a, const Tile<T, L, S...> &b, const Tile<T, L, S...> &c) {
  Tile<T, L, S...> r;
  TLE_UNROLL for (int i = 0; i < r.kRegs; ++i) r.v[i] = fma(a.v[i], b.v[i], c.v[i]);
  return r;
}

template <class T, class L, int... S>
TLE_DEVICE Tile<T, L, S...> select(const Tile<bool, L, S...> &c, const Tile<T, L, S...> &a, const Tile<T, L, S...> &b) {
  Tile<T, L, S...> r;
  TLE_UNROLL for (int i = 0; i < r.kRegs; ++i) r.v[i] = c.v[i] ? a.v[i] : b.v[i];
  return r;
}
// A scalar condition picks a whole tile.
template <class T, class L, int... S>
TLE_DEVICE Tile<T, L, S...> select(bool c, const Tile<T, L, S...> &a, const Tile<T, L, S...> &b) {
  return c ? a : b;
}

// Registers [g*Vec, g*Vec+Vec) must be consecutive elements along one dimension; the
// compiler picks Vec so that they are also contiguous and aligned in memory.
template <class TileT, int Vec>
TLE_CONSTEXPR bool consecutive_registers() {
  bool ok = true;
  for (int b = 0; ok && (1 << b) < Vec; ++b) {
    int dim = -1;
    for (int d = 0; d < TileT::rank; ++d)
      if (b < TileT::linear.numRegBits && TileT::linear.reg[b][d]) dim = d;
    ok = dim >= 0 && TileT::linear.reg[b][dim] == (1 << b) && TileT::linear.reg[0][dim] == 1;
  }
  return ok;
}

// `t` with every aligned run of R consecutive registers set to the run's first one. tlec
// wraps an element-wise result in it where it proved the runs equal (tle-mark-uniform-runs):
// the other registers' work becomes dead code.
template <int R, class T, class L, int... S>
TLE_DEVICE Tile<T, L, S...> first_of_runs(const Tile<T, L, S...> &t) {
  static_assert(R > 0 && Tile<T, L, S...>::kRegs % R == 0 && consecutive_registers<Tile<T, L, S...>, R>(),
                "tlec bug: a run of equal registers does not match the layout");
  Tile<T, L, S...> r;
  TLE_UNROLL for (int i = 0; i < r.kRegs; ++i) r.v[i] = t.v[i - i % R];
  return r;
}

// Pointer arithmetic: tile of pointers plus tile of offsets (in elements).
template <class P, class I, class L, int... S>
TLE_DEVICE Tile<P, L, S...> addptr(const Tile<P, L, S...> &p, const Tile<I, L, S...> &offset) {
  Tile<P, L, S...> r;
  TLE_UNROLL for (int i = 0; i < r.kRegs; ++i) r.v[i] = p.v[i] + offset.v[i];
  return r;
}
template <class P, class I>
TLE_DEVICE P addptr(P p, I offset) {
  return p + offset;
}
// The same sums, each 32-bit offset widened where it is added (tle-carry-pointer-bases marks
// the addptr that rebuilds a loop's tile of pointers from a carried scalar): written in C++,
// the compiler hoists the widened offsets out of the loop and keeps two registers an element
// where the offsets take one. No CCCL wrapper exists for mad.wide, hence the PTX.
template <class P, class I, class L, int... S>
TLE_DEVICE Tile<P, L, S...> addptr_widening(const Tile<P, L, S...> &p, const Tile<I, L, S...> &offset) {
  return addptr(p, offset);
}
template <class P, class L, int... S>
TLE_DEVICE Tile<P, L, S...> addptr_widening(const Tile<P, L, S...> &p, const Tile<int32_t, L, S...> &offset) {
  Tile<P, L, S...> r;
  TLE_UNROLL for (int i = 0; i < r.kRegs; ++i) {
    unsigned long long address;
    asm("mad.wide.s32 %0, %1, %2, %3;"
        : "=l"(address)
        : "r"(offset.v[i]), "r"(static_cast<int32_t>(sizeof(*p.v[i]))), "l"(reinterpret_cast<unsigned long long>(p.v[i])));
    r.v[i] = reinterpret_cast<P>(address);
  }
  return r;
}

// p + (Start + the element's index along Dim) * stride + rest, each sum widened where it is
// added (tle-range-offsets-at-use, on blocked layouts): a range's offsets computed where the
// address is needed, the register's part of the index an immediate, so that a thread keeps
// `rest`, the stride and its own part of the index across a loop instead of an offset per
// element. In PTX, or nvcc hoists the products out of the loop again.
template <int Dim, int Start, class P, class L, int... S>
TLE_DEVICE Tile<P, L, S...> addptr_widening_along(const Tile<P, L, S...> &p, int32_t stride, const Tile<int32_t, L, S...> &rest) {
  using T = Tile<P, L, S...>;
  static_assert(additive_coordinates<T>(Dim), "tlec bug: addptr_along on a layout whose coordinates are not sums");
  T r;
  const int base = thread_coord<T, Dim>();
  static_for<T::kRegs>([&](auto reg) {
    constexpr int i = decltype(reg)::value;
    unsigned long long address;
    asm("{\n\t.reg .s32 index;\n\t"
        "add.s32 index, %1, %2;\n\t"
        "mad.lo.s32 index, index, %3, %4;\n\t"
        "mad.wide.s32 %0, index, %5, %6;\n\t}"
        : "=l"(address)
        : "r"(base), "n"(Start + TLE_CONST(T::linear.regCoord(i, Dim))), "r"(stride), "r"(rest.v[i]),
          "n"(static_cast<int>(sizeof(*p.v[i]))), "l"(reinterpret_cast<unsigned long long>(p.v[i])));
    r.v[i] = reinterpret_cast<P>(address);
  });
  return r;
}

#define TLE_LIFT_CAST(name)                                                               \
  template <class To, class T, class L, int... S>                                         \
  TLE_DEVICE Tile<To, L, S...> name(const Tile<T, L, S...> &a) {                          \
    Tile<To, L, S...> r;                                                                  \
    TLE_UNROLL for (int i = 0; i < r.kRegs; ++i) r.v[i] = name<To>(a.v[i]);               \
    return r;                                                                             \
  }
TLE_LIFT_CAST(cast) TLE_LIFT_CAST(cast_unsigned) TLE_LIFT_CAST(cast_to_unsigned) TLE_LIFT_CAST(bitcast)
#undef TLE_LIFT_CAST

}  // namespace tle
