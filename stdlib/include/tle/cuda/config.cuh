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
// The warp's index in the block. Layouts read only its low bits (as many as the tile has warp
// bits), so a partition of a warp-specialized kernel, placed at a multiple of its own size,
// sees its warps as 0, 1, ...
TLE_DEVICE int warp_id() { return static_cast<int>(threadIdx.x) >> 5; }

// The threads that run one piece of code together: the whole block, or one partition of a
// warp-specialized kernel (tle.gpu.warp_specialize), which synchronizes on a named barrier
// of its own while the other partitions run. Its fields are constants at every call site.
struct Group {
  int first = 0;    // the first thread
  int threads = 0;  // how many; 0: the whole block
  int barrier = 0;  // the named barrier (bar.sync) of a partition
  TLE_DEVICE int rank() const { return static_cast<int>(threadIdx.x) - first; }
  TLE_DEVICE int size() const { return threads ? threads : static_cast<int>(blockDim.x); }
  TLE_DEVICE void sync() const {
    if (threads == 0) __syncthreads();
    else asm volatile("bar.sync %0, %1;" ::"r"(barrier), "r"(threads) : "memory");
  }
  // Arrives at the named barrier without waiting (a partition that is done).
  TLE_DEVICE void arrive() const { asm volatile("bar.arrive %0, %1;" ::"r"(barrier), "r"(threads) : "memory"); }
};

// setmaxnreg: a warp group moves from the kernel's registers per thread (From, its
// __maxnreg__) to Regs; every warp of the group executes it. sm_90a only (the architecture-
// specific feature macro); elsewhere tlec does not print it.
template <int Regs, int From>
TLE_DEVICE void set_max_registers() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if constexpr (Regs < From) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(Regs));
  else if constexpr (Regs > From) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(Regs));
#endif
}

// The shared-memory scratch of a library call that moves data between threads, and the
// threads that take part (a plain pointer: the whole block).
struct Scratch {
  unsigned char *ptr;
  Group group;
  TLE_DEVICE Scratch(unsigned char *p, Group g = Group{}) : ptr(p), group(g) {}
  TLE_DEVICE operator unsigned char *() const { return ptr; }
  TLE_DEVICE Scratch operator+(int bytes) const { return Scratch(ptr + bytes, group); }
};

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
