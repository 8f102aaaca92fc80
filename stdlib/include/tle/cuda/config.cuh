// Compiler-specific spellings shared by every header of the device library.
#pragma once

#if defined(__CUDACC_RTC__)
#include <cuda/std/cstdint>
using cuda::std::int16_t;
using cuda::std::int32_t;
using cuda::std::int64_t;
using cuda::std::int8_t;
using cuda::std::uint16_t;
using cuda::std::uint32_t;
using cuda::std::uint64_t;
using cuda::std::uint8_t;
#else
#include <cstdint>
#endif

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#define TLE_DEVICE __device__ __forceinline__
#define TLE_CONSTEXPR __host__ __device__ constexpr
#define TLE_UNROLL _Pragma("unroll")

namespace tle {

// Forces a compile-time evaluation. CUDA lets device code read a constexpr aggregate (a
// layout table) only inside a constant expression; this turns such a read into a scalar.
template <int V>
struct constant {
  static constexpr int value = V;
};
#define TLE_CONST(expr) (::tle::constant<(expr)>::value)

template <int... I>
struct seq {};
// seq<0, ..., N-1>, built by halves: logarithmic template depth, so that tiles of several
// hundred registers stay far from the compilers' instantiation limits.
template <class A, class B>
struct seq_concat;
template <int... I, int... J>
struct seq_concat<seq<I...>, seq<J...>> {
  using type = seq<I..., (static_cast<int>(sizeof...(I)) + J)...>;
};
template <int N>
struct make_seq_impl {
  using type = typename seq_concat<typename make_seq_impl<N / 2>::type, typename make_seq_impl<N - N / 2>::type>::type;
};
template <>
struct make_seq_impl<0> {
  using type = seq<>;
};
template <>
struct make_seq_impl<1> {
  using type = seq<0>;
};
template <int N>
using make_seq = typename make_seq_impl<N>::type;

TLE_DEVICE int lane_id() { return static_cast<int>(threadIdx.x) & 31; }
TLE_DEVICE int warp_id() { return static_cast<int>(threadIdx.x) >> 5; }

}  // namespace tle

namespace tle {
// The larger of two shared-memory needs (the kernel's dynamic shared memory is the
// largest scratch any of its operations uses).
TLE_CONSTEXPR int max_bytes(int a, int b) { return a > b ? a : b; }
}  // namespace tle

namespace tle {
// Host-side conversion of launcher arguments to device-only types (float -> __half).
template <class To, class From>
__host__ __device__ inline To host_cast(From x) {
  return To(x);
}
}  // namespace tle
