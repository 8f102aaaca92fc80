// Hopper's warpgroup matrix multiply (wgmma.mma_async, sm_90a only): four warps compute a
// 64 x N tile from operands in shared memory (described by a matrix descriptor) or A in
// registers. CCCL's cuda::ptx has no wgmma wrapper, hence the inline PTX; the accumulator
// fragment of each warp is the m16n8 layout repeated along N, which is tle's Mma layout with
// every warp along M, so the rest of the device library sees ordinary tiles.
#pragma once

#include "tle/cuda/config.cuh"

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TLE_HAS_WGMMA 1
#else
#define TLE_HAS_WGMMA 0
#endif

namespace tle {
namespace wgmma {

// A swizzled operand in shared memory: start address, leading and stride byte offsets and
// the swizzle width (PTX ISA, "matrix descriptor"). Swizzle16 lays out rows of 64 or more
// 16-bit elements as the 128-byte swizzle, rows of 32 as the 64-byte one and rows of 16 as
// the 32-byte one; atoms of 8 rows must start at multiples of 8 rows' bytes.
TLE_DEVICE uint64_t descriptor(uint32_t smem_address, uint32_t leading_bytes, uint32_t stride_bytes, int swizzle_bytes = 128) {
  const uint64_t mode = swizzle_bytes == 128 ? 1 : swizzle_bytes == 64 ? 2 : 3;
  return static_cast<uint64_t>((smem_address & 0x3FFFF) >> 4) | (static_cast<uint64_t>((leading_bytes >> 4) & 0x3FFF) << 16) |
         (static_cast<uint64_t>((stride_bytes >> 4) & 0x3FFF) << 32) | (mode << 62);
}

// The descriptor of the atom `elements` 16-bit elements after `base`'s start (a multiple of
// 8): shared addresses stay below 2^18, so the start field (address / 16, 14 bits) takes the
// offset without a carry into the next field. One add per instruction instead of the whole
// encoding from the address.
TLE_DEVICE uint64_t descriptor_at(uint64_t base, int elements) { return base + static_cast<uint64_t>(elements >> 3); }

#if TLE_HAS_WGMMA
TLE_DEVICE void fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
TLE_DEVICE void commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
TLE_DEVICE void wait_all() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }
// All groups but the youngest `Pending` have finished.
template <int Pending>
TLE_DEVICE void wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(Pending) : "memory"); }
// Pins a register at this point of the instruction stream (relative to the other volatile
// asm here): fragments and accumulators are materialized before the fence, and the
// accumulators are read only after the wait.
TLE_DEVICE void pin(uint32_t &r) { asm volatile("" : "+r"(r)::"memory"); }
TLE_DEVICE void pin(float &f) { asm volatile("" : "+f"(f)::"memory"); }
// Shared-memory writes of the generic proxy (stores, cp.async) become visible to wgmma,
// which reads through the async proxy. (CCCL has this one as
// cuda::ptx::fence_proxy_async, but <cuda/ptx> adds seconds of parsing to every kernel
// NVRTC compiles; one line of PTX does not.)
TLE_DEVICE void fence_shared_writes() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
#else
TLE_DEVICE void fence_shared_writes() {}
#endif

// d (N/2 floats per thread) += A (64 x 16) * B (16 x N). A from shared memory (K-major or,
// with TransA, M-major) or
// registers (the m16n8k16 A fragment); B from shared memory, K-major or, with TransB,
// N-major. T: __half or __nv_bfloat16.
template <int N, class T>
struct mma;



// Per width N: the accumulator operand list (N/2 registers, %0 ...) and the operand
// numbers that follow it; one struct per width and type from TLE_WGMMA_MMA below.
#define TLE_WGMMA_D16 "{%0, %1, %2, %3, %4, %5, %6, %7}"
#define TLE_WGMMA_SMEM_AB16 "%8, %9, p, 1, 1, %10, %11;"
#define TLE_WGMMA_REG_AB16 "{%8, %9, %10, %11}, %12, p, 1, 1, %13;"
#define TLE_WGMMA_OUT16 "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
#define TLE_WGMMA_D32 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"
#define TLE_WGMMA_SMEM_AB32 "%16, %17, p, 1, 1, %18, %19;"
#define TLE_WGMMA_REG_AB32 "{%16, %17, %18, %19}, %20, p, 1, 1, %21;"
#define TLE_WGMMA_OUT32 "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
#define TLE_WGMMA_D64 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define TLE_WGMMA_SMEM_AB64 "%32, %33, p, 1, 1, %34, %35;"
#define TLE_WGMMA_REG_AB64 "{%32, %33, %34, %35}, %36, p, 1, 1, %37;"
#define TLE_WGMMA_OUT64 "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
#define TLE_WGMMA_D128 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define TLE_WGMMA_SMEM_AB128 "%64, %65, p, 1, 1, %66, %67;"
#define TLE_WGMMA_REG_AB128 "{%64, %65, %66, %67}, %68, p, 1, 1, %69;"
#define TLE_WGMMA_OUT128 "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define TLE_WGMMA_D256 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"
#define TLE_WGMMA_SMEM_AB256 "%128, %129, p, 1, 1, %130, %131;"
#define TLE_WGMMA_REG_AB256 "{%128, %129, %130, %131}, %132, p, 1, 1, %133;"
#define TLE_WGMMA_OUT256 "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

#if TLE_HAS_WGMMA
#define TLE_WGMMA_MMA(N, T, PTX)                                                                       \
  template <>                                                                                          \
  struct mma<N, T> {                                                                                   \
    template <bool TransA, bool TransB>                                                                \
    TLE_DEVICE static void smem_a(float *d, uint64_t a, uint64_t b) {                                  \
      asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\nwgmma.mma_async.sync.aligned.m64n" #N "k16.f32." PTX \
                   "." PTX " " TLE_WGMMA_D##N ", " TLE_WGMMA_SMEM_AB##N "\n}\n"                           \
                   : TLE_WGMMA_OUT##N                                                                  \
                   : "l"(a), "l"(b), "n"(TransA ? 1 : 0), "n"(TransB ? 1 : 0));                        \
    }                                                                                                  \
    template <bool TransB>                                                                             \
    TLE_DEVICE static void register_a(float *d, const uint32_t *a, uint64_t b) {                       \
      asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\nwgmma.mma_async.sync.aligned.m64n" #N "k16.f32." PTX \
                   "." PTX " " TLE_WGMMA_D##N ", " TLE_WGMMA_REG_AB##N "\n}\n"                            \
                   : TLE_WGMMA_OUT##N                                                                  \
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "n"(TransB ? 1 : 0));         \
    }                                                                                                  \
  };
#else
#define TLE_WGMMA_MMA(N, T, PTX)                                                                       \
  template <>                                                                                          \
  struct mma<N, T> {                                                                                   \
    template <bool TransA, bool TransB>                                                                \
    TLE_DEVICE static void smem_a(float *, uint64_t, uint64_t) {}                                      \
    template <bool TransB>                                                                             \
    TLE_DEVICE static void register_a(float *, const uint32_t *, uint64_t) {}                          \
  };
#endif

TLE_WGMMA_MMA(16, __half, "f16")
TLE_WGMMA_MMA(16, __nv_bfloat16, "bf16")
TLE_WGMMA_MMA(32, __half, "f16")
TLE_WGMMA_MMA(32, __nv_bfloat16, "bf16")
TLE_WGMMA_MMA(64, __half, "f16")
TLE_WGMMA_MMA(64, __nv_bfloat16, "bf16")
TLE_WGMMA_MMA(128, __half, "f16")
TLE_WGMMA_MMA(128, __nv_bfloat16, "bf16")
TLE_WGMMA_MMA(256, __half, "f16")
TLE_WGMMA_MMA(256, __nv_bfloat16, "bf16")

// fp8 (e4m3, e5m2): k32 steps (the same 32 bytes of K as a 16-bit k16 step), both operands
// K-major from shared memory (the fp8 forms have no transpose), no register A here.
#define TLE_WGMMA_SMEM_FP8_16 "%8, %9, p, 1, 1;"
#define TLE_WGMMA_SMEM_FP8_32 "%16, %17, p, 1, 1;"
#define TLE_WGMMA_SMEM_FP8_64 "%32, %33, p, 1, 1;"
#define TLE_WGMMA_SMEM_FP8_128 "%64, %65, p, 1, 1;"
#define TLE_WGMMA_SMEM_FP8_256 "%128, %129, p, 1, 1;"
#if TLE_HAS_WGMMA
#define TLE_WGMMA_MMA_FP8(N, T, PTX)                                                                   \
  template <>                                                                                          \
  struct mma<N, T> {                                                                                   \
    template <bool TransA, bool TransB>                                                                \
    TLE_DEVICE static void smem_a(float *d, uint64_t a, uint64_t b) {                                  \
      static_assert(!TransA && !TransB, "tlec bug: fp8 wgmma reads K-major operands only");             \
      asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\nwgmma.mma_async.sync.aligned.m64n" #N "k32.f32." PTX \
                   "." PTX " " TLE_WGMMA_D##N ", " TLE_WGMMA_SMEM_FP8_##N "\n}\n"                        \
                   : TLE_WGMMA_OUT##N                                                                  \
                   : "l"(a), "l"(b));                                                                  \
    }                                                                                                  \
  };
#else
#define TLE_WGMMA_MMA_FP8(N, T, PTX)                                                                   \
  template <>                                                                                          \
  struct mma<N, T> {                                                                                   \
    template <bool TransA, bool TransB>                                                                \
    TLE_DEVICE static void smem_a(float *, uint64_t, uint64_t) {}                                      \
  };
#endif
TLE_WGMMA_MMA_FP8(16, __nv_fp8_e4m3, "e4m3")
TLE_WGMMA_MMA_FP8(16, __nv_fp8_e5m2, "e5m2")
TLE_WGMMA_MMA_FP8(32, __nv_fp8_e4m3, "e4m3")
TLE_WGMMA_MMA_FP8(32, __nv_fp8_e5m2, "e5m2")
TLE_WGMMA_MMA_FP8(64, __nv_fp8_e4m3, "e4m3")
TLE_WGMMA_MMA_FP8(64, __nv_fp8_e5m2, "e5m2")
TLE_WGMMA_MMA_FP8(128, __nv_fp8_e4m3, "e4m3")
TLE_WGMMA_MMA_FP8(128, __nv_fp8_e5m2, "e5m2")
TLE_WGMMA_MMA_FP8(256, __nv_fp8_e4m3, "e4m3")
TLE_WGMMA_MMA_FP8(256, __nv_fp8_e5m2, "e5m2")
#undef TLE_WGMMA_MMA_FP8
#undef TLE_WGMMA_SMEM_FP8_16
#undef TLE_WGMMA_SMEM_FP8_32
#undef TLE_WGMMA_SMEM_FP8_64
#undef TLE_WGMMA_SMEM_FP8_128
#undef TLE_WGMMA_SMEM_FP8_256

#undef TLE_WGMMA_MMA
#undef TLE_WGMMA_D16
#undef TLE_WGMMA_SMEM_AB16
#undef TLE_WGMMA_REG_AB16
#undef TLE_WGMMA_OUT16
#undef TLE_WGMMA_D32
#undef TLE_WGMMA_SMEM_AB32
#undef TLE_WGMMA_REG_AB32
#undef TLE_WGMMA_OUT32
#undef TLE_WGMMA_D64
#undef TLE_WGMMA_SMEM_AB64
#undef TLE_WGMMA_REG_AB64
#undef TLE_WGMMA_OUT64
#undef TLE_WGMMA_D128
#undef TLE_WGMMA_SMEM_AB128
#undef TLE_WGMMA_REG_AB128
#undef TLE_WGMMA_OUT128
#undef TLE_WGMMA_D256
#undef TLE_WGMMA_SMEM_AB256
#undef TLE_WGMMA_REG_AB256
#undef TLE_WGMMA_OUT256

}  // namespace wgmma
}  // namespace tle
