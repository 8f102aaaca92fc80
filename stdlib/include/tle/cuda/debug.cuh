// tl.device_print and tl.device_assert.
//
// device_print writes one line per element, as Triton does:
//   pid (x, y, z) idx (i, j)<prefix><value>
// from the one thread that owns each element (copies are not printed twice); scalars are
// printed by every thread, also as Triton does. device_assert stops the kernel with
// cudaErrorAssert where the condition is false; like C's assert, it compiles to nothing when
// the generated code is built with NDEBUG defined.
#pragma once

#include "tle/cuda/tile.cuh"

#if !defined(__CUDACC_RTC__)
#include <cstdio>
#endif

namespace tle {

// The two type traits printing needs (<cuda/std/type_traits> costs a second of compile time).
template <class T> constexpr bool is_pointer_v = false;
template <class T> constexpr bool is_pointer_v<T *> = true;
template <class T> constexpr bool is_pointer_v<T *const> = true;
template <class T> constexpr bool is_integral_v = false;
template <> constexpr bool is_integral_v<bool> = true;
template <> constexpr bool is_integral_v<int8_t> = true;
template <> constexpr bool is_integral_v<uint8_t> = true;
template <> constexpr bool is_integral_v<int16_t> = true;
template <> constexpr bool is_integral_v<uint16_t> = true;
template <> constexpr bool is_integral_v<int32_t> = true;
template <> constexpr bool is_integral_v<uint32_t> = true;
template <> constexpr bool is_integral_v<int64_t> = true;
template <> constexpr bool is_integral_v<uint64_t> = true;

// printf's view of a value: a format and the argument it takes.
template <bool Signed, bool Hex, class T>
TLE_DEVICE void print_value(const char *head, const char *prefix, T x) {
  if constexpr (is_pointer_v<T>) {
    printf("%s%s%p\n", head, prefix, static_cast<const void *>(x));
  } else if constexpr (sizeof(T) <= 2 && !is_integral_v<T>) {  // half, bfloat16, fp8
    printf("%s%s%f\n", head, prefix, static_cast<double>(static_cast<float>(x)));
  } else if constexpr (!is_integral_v<T>) {
    printf("%s%s%f\n", head, prefix, static_cast<double>(x));
  } else if constexpr (Hex) {
    printf("%s%s0x%llx\n", head, prefix, static_cast<unsigned long long>(x) & (~0ull >> (64 - 8 * sizeof(T))));
  } else if constexpr (sizeof(T) == 1 && !Signed) {  // i1 and u8
    printf("%s%s%u\n", head, prefix, static_cast<unsigned>(static_cast<uint8_t>(x)));
  } else if constexpr (Signed) {
    printf("%s%s%lld\n", head, prefix, static_cast<long long>(x));
  } else {
    printf("%s%s%llu\n", head, prefix, static_cast<unsigned long long>(x));
  }
}

// Appends the decimal digits of v.
TLE_DEVICE int put_decimal(char *out, int n, unsigned v) {
  char digits[10];
  int k = 0;
  do digits[k++] = static_cast<char>('0' + v % 10); while ((v /= 10) != 0);
  while (k) out[n++] = digits[--k];
  return n;
}
TLE_DEVICE int put_text(char *out, int n, const char *s) {
  while (*s) out[n++] = *s++;
  return n;
}

// "pid (x, y, z) idx (" written by hand: one printf per line keeps lines from interleaving.
TLE_DEVICE int format_pid(char *out) {
  int n = put_text(out, 0, "pid (");
  n = put_decimal(out, n, blockIdx.x);
  n = put_text(out, n, ", ");
  n = put_decimal(out, n, blockIdx.y);
  n = put_text(out, n, ", ");
  n = put_decimal(out, n, blockIdx.z);
  return put_text(out, n, ") idx (");
}

// One operand of tl.device_print; the prefix ends in "(operand k) " when there are several.
template <bool Signed, bool Hex, class X>
TLE_DEVICE void device_print(const char *prefix, const X &x) {
  char head[96];
  const int n = format_pid(head);
  if constexpr (is_tile<X>::value) {
    if (!is_owner<X>()) return;
    static_for<X::kRegs>([&](auto r) {
      int k = n;
      static_for<X::rank>([&](auto d) {
        const int coord = thread_coord<X, decltype(d)::value>() ^ TLE_CONST(X::linear.regCoord(decltype(r)::value, decltype(d)::value));
        if (decltype(d)::value > 0) k = put_text(head, k, ", ");
        k = put_decimal(head, k, static_cast<unsigned>(coord));
      });
      head[k++] = ')';
      head[k] = 0;
      print_value<Signed, Hex>(head, prefix, x.v[decltype(r)::value]);
    });
  } else {
    head[n] = ')';
    head[n + 1] = 0;
    print_value<Signed, Hex>(head, prefix, x);
  }
}

// tl.device_print with nothing but the prefix.
TLE_DEVICE void device_print(const char *prefix) {
  char head[96];
  const int n = format_pid(head);
  head[n] = ')';
  head[n + 1] = 0;
  printf("%s%s\n", head, prefix);
}

#if !defined(NDEBUG)  // glibc declares __assert_fail only then
TLE_DEVICE void assert_failed(const char *message, const char *file, unsigned line, const char *function) {
#if defined(__CUDACC_RTC__)
  __assertfail(message, file, line, function, sizeof(char));
#else
  __assert_fail(message, file, line, function);
#endif
}
#endif

template <class C>
TLE_DEVICE void device_assert(const C &condition, const char *message, const char *file, unsigned line, const char *function) {
#if !defined(NDEBUG)
  if constexpr (is_tile<C>::value) {
    TLE_UNROLL for (int r = 0; r < C::kRegs; ++r)
      if (!condition.v[r]) assert_failed(message, file, line, function);
  } else {
    if (!condition) assert_failed(message, file, line, function);
  }
#else
  (void)condition, (void)message, (void)file, (void)line, (void)function;
#endif
}

}  // namespace tle
