// Multi-GPU tests and benchmarks of samples/distributed/collectives.tle on tlec's distributed
// runtime, one thread per GPU of this process (ncclCommInitAll), against NCCL's own
// collectives and cuBLAS. Build: scripts/gpu-dist-build.sh. Run: test_distributed
// [--bench | --bench-only barrier|all-gather|ag+gemm] [--ranks N] [--timeout SECONDS (600)].
// Exit status 0 only when every check passed on every rank; a rank that cannot go on stops
// the run (1), and so does the timeout (124).
#include "tle/distributed.h"

#include "ag_gemm_128x128.h"
#include "ag_gemm_128x256.h"
#include "ag_gemm_128x256_plain.h"
#include "ag_gemm_64x128.h"
#include "ag_w1.h"
#include "ag_w1_8w.h"
#include "ag_w1_n16.h"
#include "ag_w2.h"
#include "ag_w2_8w.h"
#include "ag_w2_n16.h"
#include "barrier_w1.h"
#include "barrier_w2.h"
#include "ring_nodes_w1.h"
#include "ring_nodes_w2.h"
#include "rs_ring.h"
#include "team_w1.h"
#include "team_w2.h"
#include "rs_ring_n16.h"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

int gRanks = 1;
bool gBench = false;
std::string gBenchOnly;  // --bench-only barrier|all-gather|ag+gemm: one part of the benchmark
bool benchPart(const char *name) { return gBenchOnly.empty() || gBenchOnly == name; }
std::atomic<int> gFailures{0};
std::mutex gPrint;

// A reusable barrier for the rank threads (host side only).
class HostBarrier {
 public:
  explicit HostBarrier(int n) : n_(n) {}
  void wait() {
    std::unique_lock<std::mutex> lock(m_);
    int generation = generation_;
    if (++count_ == n_) {
      count_ = 0;
      ++generation_;
      cv_.notify_all();
    } else {
      cv_.wait(lock, [&] { return generation != generation_; });
    }
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int n_, count_ = 0, generation_ = 0;
};
HostBarrier *gBarrier = nullptr;

void report(int rank, bool ok, const std::string &what) {
  std::lock_guard<std::mutex> lock(gPrint);
  if (!ok) ++gFailures;
  if (!ok || rank == 0) std::printf("%s [rank %d/%d] %s\n", ok ? "PASS" : "FAIL", rank, gRanks, what.c_str());
  std::fflush(stdout);
}

// A rank that cannot go on stops the whole run: its peer would otherwise wait for it forever
// (at the host barrier, in a collective or in an in-kernel barrier).
[[noreturn]] void stopRun(int rank) {
  std::lock_guard<std::mutex> lock(gPrint);
  std::printf("FAILED: rank %d cannot go on; stopping the run (%d failure(s))\n", rank, gFailures.load());
  std::fflush(stdout);
  std::_Exit(1);
}

#define CHECK_CUDA(x)                                                                                  \
  do {                                                                                                  \
    cudaError_t e_ = (x);                                                                               \
    if (e_ != cudaSuccess) {                                                                            \
      report(rank, false, std::string(#x) + ": " + cudaGetErrorString(e_));                             \
      stopRun(rank);                                                                                    \
    }                                                                                                   \
  } while (0)
#define CHECK_TLE(x)                                                                                   \
  do {                                                                                                  \
    tleStatus s_ = (x);                                                                                 \
    if (s_ != TLE_SUCCESS) {                                                                            \
      report(rank, false, std::string(#x) + ": " + tleStatusName(s_) + (s_ > 0 ? std::string(": ") + cudaGetErrorString(static_cast<cudaError_t>(s_)) : "")); \
      stopRun(rank);                                                                                    \
    }                                                                                                   \
  } while (0)
#define CHECK_NCCL(x)                                                                                  \
  do {                                                                                                  \
    ncclResult_t r_ = (x);                                                                              \
    if (r_ != ncclSuccess) {                                                                            \
      report(rank, false, std::string(#x) + ": " + ncclGetErrorString(r_));                             \
      stopRun(rank);                                                                                    \
    }                                                                                                   \
  } while (0)

// Deterministic pseudo-random values in [-1, 1) from (seed, index).
float noise(uint64_t seed, uint64_t i) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 29;
  return static_cast<float>(x >> 40) / static_cast<float>(1ull << 23) - 1.0f;
}

template <class T>
std::vector<T> download(const T *device, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

using AgLaunch = tleStatus (*)(tleStream, unsigned, unsigned, unsigned, const tleDistContext *, float *, float *, int32_t);

struct AgVariant {
  const char *name;
  AgLaunch launch;
  bool needs16;
};

std::vector<AgVariant> allGatherVariants() {
  if (gRanks == 1)
    return {{"ag_w1_n16 (16 warps, BLOCK 4096, n:16)", ag_w1_n16_launch, true},
            {"ag_w1_8w (8 warps, BLOCK 2048, n:16)", ag_w1_8w_launch, true},
            {"ag_w1 (16 warps, BLOCK 4096, no hints)", ag_w1_launch, false}};
  return {{"ag_w2_n16 (16 warps, BLOCK 4096, n:16)", ag_w2_n16_launch, true},
          {"ag_w2_8w (8 warps, BLOCK 2048, n:16)", ag_w2_8w_launch, true},
          {"ag_w2 (16 warps, BLOCK 4096, no hints)", ag_w2_launch, false}};
}

// ---- all-gather: against ncclAllGather, bit for bit --------------------------------------
void testAllGather(int rank, tleDistContext *ctx, ncclComm_t comm, cudaStream_t stream) {
  for (const AgVariant &v : allGatherVariants()) {
    for (int n : {16 * 1000, 1 << 20, 1000003, 16}) {
      if (v.needs16 && n % 16) continue;
      for (int blocks : {1, 32, 132}) {
        float *src = nullptr, *dst = nullptr, *ref = nullptr;
        CHECK_CUDA(cudaMalloc(&src, n * sizeof(float)));
        CHECK_CUDA(cudaMalloc(&ref, size_t(n) * gRanks * sizeof(float)));
        CHECK_TLE(tleDistMalloc(ctx, size_t(n) * gRanks * sizeof(float), reinterpret_cast<void **>(&dst)));
        std::vector<float> h(n);
        for (int i = 0; i < n; ++i) h[i] = noise(rank * 7 + blocks, i);
        CHECK_CUDA(cudaMemcpy(src, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemset(dst, 0xFF, size_t(n) * gRanks * sizeof(float)));  // NaN poison
        CHECK_CUDA(cudaDeviceSynchronize());
        gBarrier->wait();  // every rank poisoned its dst before anyone writes into it
        CHECK_TLE(v.launch(reinterpret_cast<tleStream>(stream), blocks, 1, 1, ctx, src, dst, n));
        CHECK_NCCL(ncclAllGather(src, ref, n, ncclFloat, comm, stream));
        CHECK_CUDA(cudaStreamSynchronize(stream));
        auto got = download(dst, size_t(n) * gRanks), want = download(ref, size_t(n) * gRanks);
        size_t bad = 0;
        for (size_t i = 0; i < got.size(); ++i) bad += std::memcmp(&got[i], &want[i], sizeof(float)) != 0;
        report(rank, bad == 0, std::string("all-gather ") + v.name + " n=" + std::to_string(n) + " blocks=" + std::to_string(blocks) +
                                   (bad ? " mismatches=" + std::to_string(bad) : ""));
        gBarrier->wait();  // nobody frees (and reuses) heap memory a peer still writes
        tleDistFree(ctx, dst);
        cudaFree(src);
        cudaFree(ref);
      }
    }
  }
}

// ---- ring reduce-scatter: against ncclReduceScatter and a float64 sum ----------------------
void testReduceScatter(int rank, tleDistContext *ctx, ncclComm_t comm, cudaStream_t stream) {
  for (bool hinted : {false, true}) {
    for (int n : {100003, 4096, 1 << 20}) {
      if (hinted && n % 16) continue;
      const int blocks = 48;
      float *src = nullptr, *dst = nullptr, *ref = nullptr, *stage = nullptr;
      int32_t *ready = nullptr, *freed = nullptr;
      CHECK_CUDA(cudaMalloc(&src, size_t(n) * gRanks * sizeof(float)));
      CHECK_CUDA(cudaMalloc(&dst, n * sizeof(float)));
      CHECK_CUDA(cudaMalloc(&ref, n * sizeof(float)));
      CHECK_TLE(tleDistMalloc(ctx, size_t(n) * std::max(1, gRanks - 1) * sizeof(float), reinterpret_cast<void **>(&stage)));
      CHECK_TLE(tleDistMalloc(ctx, size_t(gRanks) * blocks * sizeof(int32_t), reinterpret_cast<void **>(&ready)));
      CHECK_TLE(tleDistMalloc(ctx, size_t(gRanks) * blocks * sizeof(int32_t), reinterpret_cast<void **>(&freed)));
      CHECK_CUDA(cudaMemset(ready, 0, size_t(gRanks) * blocks * sizeof(int32_t)));
      CHECK_CUDA(cudaMemset(freed, 0, size_t(gRanks) * blocks * sizeof(int32_t)));
      CHECK_CUDA(cudaDeviceSynchronize());
      gBarrier->wait();
      bool ok = true;
      std::string detail;
      // Three calls back to back: the epochs reuse every signal and stage slot.
      for (int epoch = 1; epoch <= 3; ++epoch) {
        std::vector<float> h(size_t(n) * gRanks);
        for (size_t i = 0; i < h.size(); ++i) h[i] = noise(1000 * epoch + rank, i);
        CHECK_CUDA(cudaMemcpyAsync(src, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice, stream));
        CHECK_CUDA(cudaMemsetAsync(dst, 0xFF, n * sizeof(float), stream));
        auto launch = hinted ? rs_ring_n16_launch : rs_ring_launch;
        CHECK_TLE(launch(reinterpret_cast<tleStream>(stream), blocks, 1, 1, ctx, src, dst, stage, ready, freed, n, epoch));
        CHECK_NCCL(ncclReduceScatter(src, ref, n, ncclFloat, ncclSum, comm, stream));
        CHECK_CUDA(cudaStreamSynchronize(stream));
        auto got = download(dst, n), want = download(ref, n);
        double worst = 0, worst64 = 0;
        for (int i = 0; i < n; ++i) {
          double sum = 0;
          for (int r = 0; r < gRanks; ++r) sum += noise(1000 * epoch + r, size_t(rank) * n + i);
          worst = std::max(worst, double(std::fabs(got[i] - want[i])));
          worst64 = std::max(worst64, std::fabs(got[i] - sum));
          if (std::isnan(got[i])) worst = worst64 = INFINITY;
        }
        if (!(worst <= 1e-5 * gRanks && worst64 <= 1e-5 * gRanks)) {
          ok = false;
          detail += " epoch " + std::to_string(epoch) + ": max |tlec-nccl|=" + std::to_string(worst) + " max |tlec-fp64|=" + std::to_string(worst64);
        }
      }
      report(rank, ok, std::string("ring reduce-scatter ") + (hinted ? "(n:16) " : "") + "n=" + std::to_string(n) + " x3 calls" + detail);
      gBarrier->wait();
      tleDistFree(ctx, freed);
      tleDistFree(ctx, ready);
      tleDistFree(ctx, stage);
      cudaFree(src);
      cudaFree(dst);
      cudaFree(ref);
    }
  }
}

// ---- all-gather + GEMM: against ncclAllGather then cuBLAS ----------------------------------
using AgGemmLaunch = tleStatus (*)(tleStream, unsigned, unsigned, unsigned, const tleDistContext *, void *, void *, void *, void *,
                                   int32_t *, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t);
using AgGemmResources = tleStatus (*)(int, tleKernelResources *);
struct AgGemmVariant {
  const char *name;
  AgGemmLaunch launch;
  AgGemmResources resources;
};
const AgGemmVariant kAgGemm[] = {{"128x128x64, 8 warps", ag_gemm_128x128_launch, ag_gemm_128x128_resources},
                                 {"128x256x64, 8 warps", ag_gemm_128x256_launch, ag_gemm_128x256_resources},
                                 {"64x128x64, 4 warps", ag_gemm_64x128_launch, ag_gemm_64x128_resources},
                                 {"128x256x64, 8 warps, no hints", ag_gemm_128x256_plain_launch, ag_gemm_128x256_plain_resources}};

struct AgGemmBuffers {
  int mPer, n, k;
  __half *a = nullptr, *aFull = nullptr, *b = nullptr, *c = nullptr, *aRef = nullptr, *cRef = nullptr;
  int32_t *signal = nullptr;
};

int residentBlocks(int rank, const AgGemmVariant &v) {
  tleKernelResources r{};
  if (v.resources(rank, &r) != TLE_SUCCESS) return 0;
  return r.maxBlocksPerSM * r.multiprocessorCount;
}

// The copy engine's side of AG+GEMM (copy_blocks == 0): each call's puts run on `side`,
// after what `stream` did before the call, and `stream` waits for them at the end.
struct CopyEngine {
  cudaStream_t side = nullptr;
  cudaEvent_t before = nullptr, after = nullptr;
  explicit CopyEngine(int rank) {
    CHECK_CUDA(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    CHECK_CUDA(cudaEventCreateWithFlags(&before, cudaEventDisableTiming));
    CHECK_CUDA(cudaEventCreateWithFlags(&after, cudaEventDisableTiming));
  }
  ~CopyEngine() {
    cudaEventDestroy(before), cudaEventDestroy(after);
    cudaStreamDestroy(side);
  }
};

// One AG+GEMM call. copyBlocks > 0: the kernel gathers A itself; 0: this rank's rows go to
// every peer by the copy engine, concurrently with the kernel, which waits for them. Either
// way the pushes start after a barrier over the ranks: a peer may still be reading this
// rank's rows of the previous call, or waiting for its signal value. The barrier runs
// before the GEMM kernel on its stream, not beside it: the persistent GEMM grid fills every
// multiprocessor and its blocks wait for the pushes, so a barrier kernel queued behind it
// would never start.
tleStatus launchAgGemm(const AgGemmVariant &v, int rank, tleDistContext *ctx, cudaStream_t stream, const CopyEngine &engine,
                       const AgGemmBuffers &g, int blocks, int copyBlocks, int epoch) {
  auto barrier = gRanks == 1 ? barrier_w1_launch : barrier_w2_launch;
  if (tleStatus st = barrier(reinterpret_cast<tleStream>(stream), 1, 1, 1, ctx, 1); st != TLE_SUCCESS) return st;
  if (copyBlocks == 0) {
    if (cudaError_t e = cudaEventRecord(engine.before, stream); e != cudaSuccess) return e;
    if (cudaError_t e = cudaStreamWaitEvent(engine.side, engine.before); e != cudaSuccess) return e;
    const size_t bytes = size_t(g.mPer) * g.k * sizeof(__half);
    for (int i = 1; i < gRanks; ++i) {
      const int peer = (rank + i) % gRanks;
      if (tleStatus st = tleDistPutSignalAsync(ctx, g.aFull + size_t(rank) * g.mPer * g.k, g.a, bytes, g.signal + rank, epoch, peer,
                                               reinterpret_cast<tleStream>(engine.side));
          st != TLE_SUCCESS)
        return st;
    }
  }
  tleStatus st = v.launch(reinterpret_cast<tleStream>(stream), blocks, 1, 1, ctx, g.a, g.aFull, g.b, g.c, g.signal, g.mPer, g.n, g.k,
                          epoch, copyBlocks, g.k, g.n, g.n);
  if (st != TLE_SUCCESS || copyBlocks != 0) return st;
  if (cudaError_t e = cudaEventRecord(engine.after, engine.side); e != cudaSuccess) return e;
  return cudaStreamWaitEvent(stream, engine.after);
}

void gemmReference(cublasHandle_t blas, const AgGemmBuffers &g) {
  // Row-major C[M,N] = A[M,K] B[K,N] is column-major C^T = B^T A^T.
  const float one = 1, zero = 0;
  cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, g.n, g.mPer * gRanks, g.k, &one, g.b, CUDA_R_16F, g.n, g.aRef, CUDA_R_16F, g.k, &zero,
               g.cRef, CUDA_R_16F, g.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

void testAgGemm(int rank, tleDistContext *ctx, ncclComm_t comm, cudaStream_t stream, cublasHandle_t blas) {
  struct Shape {
    int mPer, n, k;
  };
  CopyEngine engine(rank);
  for (const AgGemmVariant &v : kAgGemm) {
    for (Shape s : {Shape{256, 512, 384}, Shape{200, 272, 208}, Shape{1, 16, 16}}) {
      AgGemmBuffers g{s.mPer, s.n, s.k};
      const size_t aElems = size_t(s.mPer) * s.k, fullElems = aElems * gRanks, cElems = size_t(s.mPer) * gRanks * s.n;
      CHECK_CUDA(cudaMalloc(&g.a, aElems * 2));
      CHECK_CUDA(cudaMalloc(&g.b, size_t(s.k) * s.n * 2));
      CHECK_CUDA(cudaMalloc(&g.c, cElems * 2));
      CHECK_CUDA(cudaMalloc(&g.aRef, fullElems * 2));
      CHECK_CUDA(cudaMalloc(&g.cRef, cElems * 2));
      CHECK_TLE(tleDistMalloc(ctx, fullElems * 2, reinterpret_cast<void **>(&g.aFull)));
      CHECK_TLE(tleDistMalloc(ctx, gRanks * sizeof(int32_t), reinterpret_cast<void **>(&g.signal)));
      CHECK_CUDA(cudaMemset(g.signal, 0, gRanks * sizeof(int32_t)));
      std::vector<__half> ha(aElems), hb(size_t(s.k) * s.n);
      for (size_t i = 0; i < ha.size(); ++i) ha[i] = __float2half(noise(50 + rank, i));
      for (size_t i = 0; i < hb.size(); ++i) hb[i] = __float2half(noise(99, i));
      CHECK_CUDA(cudaMemcpy(g.a, ha.data(), aElems * 2, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(g.b, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaDeviceSynchronize());
      gBarrier->wait();
      int tiles = gRanks * ((s.mPer + 127) / 128) * ((s.n + 127) / 128);
      int blocks = std::max(1, std::min(tiles, residentBlocks(rank, v)));
      for (int copyBlocks : {std::max(1, std::min(blocks / 2, 8)), 0}) {
        bool ok = true;
        std::string detail;
        CHECK_CUDA(cudaMemset(g.signal, 0, gRanks * sizeof(int32_t)));
        CHECK_CUDA(cudaMemset(g.aFull, 0xFF, fullElems * 2));
        CHECK_CUDA(cudaDeviceSynchronize());
        gBarrier->wait();
        for (int epoch = 1; epoch <= 2; ++epoch) {
          CHECK_CUDA(cudaMemsetAsync(g.c, 0xFF, cElems * 2, stream));
          CHECK_TLE(launchAgGemm(v, rank, ctx, stream, engine, g, blocks, copyBlocks, epoch));
          CHECK_NCCL(ncclAllGather(g.a, g.aRef, aElems, ncclHalf, comm, stream));
          cublasSetStream(blas, stream);
          gemmReference(blas, g);
          CHECK_CUDA(cudaStreamSynchronize(stream));
          auto got = download(g.c, cElems), want = download(g.cRef, cElems);
          double worst = 0;
          for (size_t i = 0; i < cElems; ++i) {
            double d = std::fabs(double(__half2float(got[i])) - double(__half2float(want[i])));
            double tol = 2e-2 + 1e-2 * std::fabs(double(__half2float(want[i])));
            if (!(d <= tol)) worst = std::max(worst, std::isnan(d) ? INFINITY : d);
          }
          if (worst > 0) ok = false, detail += " epoch " + std::to_string(epoch) + ": max error " + std::to_string(worst);
      }
      report(rank, ok, std::string("AG+GEMM ") + v.name + " M_per=" + std::to_string(s.mPer) + " N=" + std::to_string(s.n) +
                           " K=" + std::to_string(s.k) + " blocks=" + std::to_string(blocks) +
                           (copyBlocks ? " copy_blocks=" + std::to_string(copyBlocks) : std::string(" copy engine")) + detail);
      gBarrier->wait();
      }
      tleDistFree(ctx, g.signal);
      tleDistFree(ctx, g.aFull);
      cudaFree(g.a), cudaFree(g.b), cudaFree(g.c), cudaFree(g.aRef), cudaFree(g.cRef);
    }
  }
}

// ---- tleDistPutSignalAsync: copy-engine puts to every rank, this one included ---------------
void testPutSignal(int rank, tleDistContext *ctx, cudaStream_t stream) {
  const size_t n = 1001;  // ints per rank: not a multiple of any copy width
  int32_t *src = nullptr, *dst = nullptr, *signal = nullptr;
  CHECK_CUDA(cudaMalloc(&src, n * 4));
  CHECK_TLE(tleDistMalloc(ctx, n * 4 * gRanks, reinterpret_cast<void **>(&dst)));
  CHECK_TLE(tleDistMalloc(ctx, 4 * gRanks, reinterpret_cast<void **>(&signal)));
  std::vector<int32_t> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = int32_t(rank * 100000 + i);
  CHECK_CUDA(cudaMemcpy(src, values.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dst, 0xFF, n * 4 * gRanks));
  CHECK_CUDA(cudaMemset(signal, 0, 4 * gRanks));
  CHECK_CUDA(cudaDeviceSynchronize());
  gBarrier->wait();
  tleStream s = reinterpret_cast<tleStream>(stream);
  for (int peer = 0; peer < gRanks; ++peer) CHECK_TLE(tleDistPutSignalAsync(ctx, dst + rank * n, src, n * 4, signal + rank, 41 + rank, peer, s));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  gBarrier->wait();
  auto got = download(dst, n * gRanks);
  auto signals = download(signal, gRanks);
  size_t wrong = 0;
  for (int r = 0; r < gRanks; ++r) {
    for (size_t i = 0; i < n; ++i) wrong += got[r * n + i] != int32_t(r * 100000 + i);
    wrong += signals[r] != 41 + r;
  }
  report(rank, wrong == 0, "tleDistPutSignalAsync: every rank's rows and signal arrive (" + std::to_string(wrong) + " wrong)");
  void *remote = nullptr;
  report(rank, tleDistPeerPointer(ctx, dst, rank, &remote) == TLE_SUCCESS && remote == dst, "tleDistPeerPointer of this rank is the pointer itself");
  report(rank, tleDistPeerPointer(ctx, src, 0, &remote) == TLE_ERROR_INVALID_ARGUMENT && remote == nullptr,
         "tleDistPeerPointer refuses memory outside the heap");
  report(rank, tleDistPeerPointer(ctx, dst, gRanks, &remote) == TLE_ERROR_INVALID_ARGUMENT, "tleDistPeerPointer refuses a rank outside the team");
  report(rank, tleDistPutSignalAsync(ctx, dst, src, size_t(1) << 40, signal, 1, rank, s) == TLE_ERROR_INVALID_ARGUMENT,
         "tleDistPutSignalAsync refuses a put past the heap's end");
  gBarrier->wait();
  tleDistFree(ctx, signal);
  tleDistFree(ctx, dst);
  cudaFree(src);
}

// ---- barriers over a node's GPUs and over the rail, signals with comm_scope="inter_node" ----
void testNodeSignalRing(int rank, tleDistContext *ctx, cudaStream_t stream) {
  int32_t *signal = nullptr;
  CHECK_TLE(tleDistMalloc(ctx, sizeof(int32_t), reinterpret_cast<void **>(&signal)));
  CHECK_CUDA(cudaMemset(signal, 0, sizeof(int32_t)));
  CHECK_CUDA(cudaDeviceSynchronize());
  gBarrier->wait();
  auto ring = gRanks == 1 ? ring_nodes_w1_launch : ring_nodes_w2_launch;
  bool ok = true;
  for (int32_t epoch = 1; epoch <= 3; ++epoch) {
    CHECK_TLE(ring(reinterpret_cast<tleStream>(stream), 1, 1, 1, ctx, signal, epoch));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    ok &= download(signal, 1)[0] == epoch;
  }
  report(rank, ok, "node and rail barriers, inter_node signals around the ring (3 epochs)");
  gBarrier->wait();
  tleDistFree(ctx, signal);
}

// ---- a barrier over a strided team of the node's GPUs (a sub-mesh of device axes) ----------
void testTeamBarrier(int rank, tleDistContext *ctx, cudaStream_t stream) {
  int32_t *slots = nullptr, *out = nullptr;
  CHECK_TLE(tleDistMalloc(ctx, sizeof(int32_t) * gRanks, reinterpret_cast<void **>(&slots)));
  CHECK_CUDA(cudaMalloc(&out, sizeof(int32_t) * gRanks));
  CHECK_CUDA(cudaDeviceSynchronize());
  gBarrier->wait();
  auto exchange = gRanks == 1 ? team_w1_launch : team_w2_launch;
  size_t wrong = 0;
  for (int32_t epoch = 1; epoch <= 3; ++epoch) {
    CHECK_CUDA(cudaMemsetAsync(out, 0xFF, sizeof(int32_t) * gRanks, stream));
    CHECK_TLE(exchange(reinterpret_cast<tleStream>(stream), 1, 1, 1, ctx, slots, out, epoch));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    auto got = download(out, gRanks);
    for (int r = 0; r < gRanks; ++r) wrong += got[r] != epoch * 100 + r;
  }
  report(rank, wrong == 0, "barrier over a team of the node's GPUs: every rank's slot arrives (3 epochs, " + std::to_string(wrong) + " wrong)");
  gBarrier->wait();
  tleDistFree(ctx, slots);
  cudaFree(out);
}

// ---- the launchers' refusals ----------------------------------------------------------------
void testRefusals(int rank, tleDistContext *ctx, cudaStream_t stream) {
  float *buf = nullptr;
  CHECK_TLE(tleDistMalloc(ctx, 4096, reinterpret_cast<void **>(&buf)));
  auto ag = gRanks == 1 ? ag_w1_launch : ag_w2_launch;
  auto wrong = gRanks == 1 ? ag_w2_launch : ag_w1_launch;  // compiled for the other mesh
  tleStream s = reinterpret_cast<tleStream>(stream);
  report(rank, ag(s, 1, 1, 1, nullptr, buf, buf, 16) == TLE_ERROR_INVALID_ARGUMENT, "a null context is refused");
  report(rank, wrong(s, 1, 1, 1, ctx, buf, buf, 16) == TLE_ERROR_DIST_MISMATCH, "a kernel compiled for another mesh size is refused");
  report(rank, ag(s, 4096, 1, 1, ctx, buf, buf, 16) == TLE_ERROR_DIST_GRID, "more blocks than barrierBlocks are refused");
  void *huge = nullptr;
  report(rank, tleDistMalloc(ctx, size_t(1) << 40, &huge) == TLE_ERROR_DIST_HEAP && huge == nullptr, "an allocation over the heap is refused");
  report(rank, tleDistFree(ctx, buf + 1) == TLE_ERROR_INVALID_ARGUMENT, "freeing a pointer tleDistMalloc did not return is refused");
  tleDistFree(ctx, buf);
}

// ---- benchmarks -------------------------------------------------------------------------------
// Milliseconds per call: the slowest rank's average over `iterations` after a warm-up.
double timeCalls(int rank, cudaStream_t stream, int iterations, const std::function<void()> &call, std::vector<double> &shared) {
  call();
  cudaStreamSynchronize(stream);
  gBarrier->wait();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, stream);
  for (int i = 0; i < iterations; ++i) call();
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  shared[rank] = ms / iterations;
  gBarrier->wait();
  double worst = *std::max_element(shared.begin(), shared.end());
  gBarrier->wait();
  return worst;
}

void bench(int rank, tleDistContext *ctx, ncclComm_t comm, cudaStream_t stream, cublasHandle_t blas) {
  static std::vector<double> shared(64);
  tleStream s = reinterpret_cast<tleStream>(stream);
  auto say = [&](const std::string &line) {
    if (rank == 0) std::printf("%s\n", line.c_str()), std::fflush(stdout);
  };
  // In-kernel barrier latency.
  auto barrier = gRanks == 1 ? barrier_w1_launch : barrier_w2_launch;
  for (int blocks : {1, 32, 132}) {
    if (!benchPart("barrier")) break;
    const int inner = 1000;
    double ms = timeCalls(rank, stream, 5, [&] { barrier(s, blocks, 1, 1, ctx, inner); }, shared);
    char line[256];
    std::snprintf(line, sizeof line, "BENCH barrier ranks=%d blocks=%d: %.2f us per tle.distributed_barrier", gRanks, blocks, ms * 1000 / inner);
    say(line);
  }
  // All-gather: direct stores (a sweep of grids and configs) against ncclAllGather.
  for (size_t mib : {1, 4, 16, 32, 64, 256}) {
    if (!benchPart("all-gather")) break;
    const size_t n = mib << 18;  // floats per rank
    float *src = nullptr, *dst = nullptr, *ncclDst = nullptr;
    CHECK_CUDA(cudaMalloc(&src, n * 4));
    CHECK_CUDA(cudaMalloc(&ncclDst, n * 4 * gRanks));
    CHECK_TLE(tleDistMalloc(ctx, n * 4 * gRanks, reinterpret_cast<void **>(&dst)));
    const int iterations = mib >= 64 ? 10 : 30;
    double ncclMs = timeCalls(rank, stream, iterations, [&] { ncclAllGather(src, ncclDst, n, ncclFloat, comm, stream); }, shared);
    double best = 1e30, worst = 0;
    std::string bestName;
    for (const AgVariant &v : allGatherVariants()) {
      for (int blocks : {16, 32, 64, 132}) {
        double ms = timeCalls(rank, stream, iterations, [&] { v.launch(s, blocks, 1, 1, ctx, src, dst, int32_t(n)); }, shared);
        if (ms < best) best = ms, bestName = std::string(v.name) + " blocks=" + std::to_string(blocks);
        worst = std::max(worst, ms);
      }
    }
    char line[512];
    auto gbs = [&](double ms) { return double(n) * 4 * std::max(1, gRanks - 1) / (ms * 1e-3) / 1e9; };
    std::snprintf(line, sizeof line,
                  "BENCH all-gather ranks=%d %zu MiB/rank: nccl %.1f GB/s (%.3f ms); tlec best %.1f GB/s (%.3f ms, %s), worst %.1f GB/s; "
                  "best/nccl %.2fx, worst/nccl %.2fx",
                  gRanks, mib, gbs(ncclMs), ncclMs, gbs(best), best, bestName.c_str(), gbs(worst), ncclMs / best, ncclMs / worst);
    say(line);
    gBarrier->wait();
    tleDistFree(ctx, dst);
    cudaFree(src);
    cudaFree(ncclDst);
  }
  // AG+GEMM against ncclAllGather then cuBLAS (and each part alone).
  struct Shape {
    int mPer, n, k;
  };
  cublasSetStream(blas, stream);
  CopyEngine engine(rank);
  for (Shape sh : {Shape{4096, 1024, 8192}, Shape{4096, 2048, 8192}, Shape{2048, 4096, 4096}, Shape{4096, 4096, 4096},
                   Shape{1024, 8192, 8192}}) {
    if (!benchPart("ag+gemm")) break;
    AgGemmBuffers g{sh.mPer, sh.n, sh.k};
    const size_t aElems = size_t(sh.mPer) * sh.k, fullElems = aElems * gRanks, cElems = size_t(sh.mPer) * gRanks * sh.n;
    CHECK_CUDA(cudaMalloc(&g.a, aElems * 2));
    CHECK_CUDA(cudaMalloc(&g.b, size_t(sh.k) * sh.n * 2));
    CHECK_CUDA(cudaMalloc(&g.c, cElems * 2));
    CHECK_CUDA(cudaMalloc(&g.aRef, fullElems * 2));
    CHECK_CUDA(cudaMalloc(&g.cRef, cElems * 2));
    CHECK_CUDA(cudaMemset(g.a, 0, aElems * 2));
    CHECK_CUDA(cudaMemset(g.b, 0, size_t(sh.k) * sh.n * 2));
    CHECK_TLE(tleDistMalloc(ctx, fullElems * 2, reinterpret_cast<void **>(&g.aFull)));
    CHECK_TLE(tleDistMalloc(ctx, gRanks * sizeof(int32_t), reinterpret_cast<void **>(&g.signal)));
    CHECK_CUDA(cudaMemset(g.signal, 0, gRanks * sizeof(int32_t)));
    CHECK_CUDA(cudaDeviceSynchronize());
    gBarrier->wait();
    double agMs = timeCalls(rank, stream, 10, [&] { ncclAllGather(g.a, g.aRef, aElems, ncclHalf, comm, stream); }, shared);
    double gemmMs = timeCalls(rank, stream, 10, [&] { gemmReference(blas, g); }, shared);
    double serialMs = timeCalls(rank, stream, 10, [&] {
      ncclAllGather(g.a, g.aRef, aElems, ncclHalf, comm, stream);
      gemmReference(blas, g);
    }, shared);
    char line[512];
    std::snprintf(line, sizeof line, "BENCH ag+gemm ranks=%d M_per=%d N=%d K=%d: nccl AG %.3f ms + cuBLAS %.3f ms = serial %.3f ms (comm %.0f%%)",
                  gRanks, sh.mPer, sh.n, sh.k, agMs, gemmMs, serialMs, 100 * agMs / serialMs);
    say(line);
    double best = 1e30, worst = 0;
    for (const AgGemmVariant &v : kAgGemm) {
      int blocks = residentBlocks(rank, v);
      for (int copyBlocks : {16, 32, 0}) {
        // The epoch counts calls, warm-up included; every rank makes the same calls.
        int epoch = 0;
        CHECK_CUDA(cudaMemset(g.signal, 0, gRanks * sizeof(int32_t)));
        CHECK_CUDA(cudaDeviceSynchronize());
        gBarrier->wait();
        double ms = timeCalls(rank, stream, 10, [&] {
          ++epoch;
          launchAgGemm(v, rank, ctx, stream, engine, g, blocks, copyBlocks, epoch);
        }, shared);
        best = std::min(best, ms), worst = std::max(worst, ms);
        const std::string producer = copyBlocks ? "copy_blocks=" + std::to_string(copyBlocks) : std::string("copy engine");
        std::snprintf(line, sizeof line, "BENCH ag+gemm   tlec %s blocks=%d %s: %.3f ms, %.2fx the serial NCCL+cuBLAS", v.name, blocks,
                      producer.c_str(), ms, serialMs / ms);
        say(line);
      }
    }
    std::snprintf(line, sizeof line, "BENCH ag+gemm   summary M_per=%d N=%d K=%d comm %.0f%%: best %.2fx, worst %.2fx", sh.mPer, sh.n, sh.k,
                  100 * agMs / serialMs, serialMs / best, serialMs / worst);
    say(line);
    gBarrier->wait();
    tleDistFree(ctx, g.signal);
    tleDistFree(ctx, g.aFull);
    cudaFree(g.a), cudaFree(g.b), cudaFree(g.c), cudaFree(g.aRef), cudaFree(g.cRef);
  }
}

void runRank(int rank, ncclComm_t comm) {
  CHECK_CUDA(cudaSetDevice(rank));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasHandle_t blas;
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) {
    report(rank, false, "cublasCreate");
    stopRun(rank);
  }
  tleDistContext *ctx = nullptr;
  const size_t heap = gBench ? (size_t(3) << 29) : (size_t(256) << 20);
  CHECK_TLE(tleDistCreate(comm, heap, 0, &ctx));
  report(rank, tleDistRank(ctx) == rank && tleDistSize(ctx) == gRanks, "tleDistCreate: rank and size");
  if (gBench) {
    bench(rank, ctx, comm, stream, blas);
  } else {
    testRefusals(rank, ctx, stream);
    testPutSignal(rank, ctx, stream);
    testNodeSignalRing(rank, ctx, stream);
    testTeamBarrier(rank, ctx, stream);
    testAllGather(rank, ctx, comm, stream);
    testReduceScatter(rank, ctx, comm, stream);
    testAgGemm(rank, ctx, comm, stream, blas);
  }
  gBarrier->wait();
  CHECK_TLE(tleDistDestroy(ctx));
  cublasDestroy(blas);
  cudaStreamDestroy(stream);
}

}  // namespace

int main(int argc, char **argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP no CUDA device\n");
    return 77;
  }
  gRanks = devices;
  int timeoutSeconds = 600;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--bench")) gBench = true;
    else if (!std::strcmp(argv[i], "--bench-only") && i + 1 < argc) gBench = true, gBenchOnly = argv[++i];
    else if (!std::strcmp(argv[i], "--ranks") && i + 1 < argc) gRanks = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--timeout") && i + 1 < argc) timeoutSeconds = std::atoi(argv[++i]);
  }
  if (gRanks < 1 || gRanks > devices || gRanks > 2) {
    std::printf("FAIL --ranks must be 1..min(2, %d GPUs)\n", devices);
    return 2;
  }
  if (timeoutSeconds < 1) {
    std::printf("FAIL --timeout must be a whole number of seconds, at least 1\n");
    return 2;
  }
  // A peer that never arrives (a lost signal, a kernel spinning on a barrier) fails the run
  // after --timeout seconds instead of hanging it.
  std::thread([timeoutSeconds] {
    std::this_thread::sleep_for(std::chrono::seconds(timeoutSeconds));
    std::lock_guard<std::mutex> lock(gPrint);
    std::printf("FAILED: no result after %d s (--timeout); a rank is waiting for its peer\n", timeoutSeconds);
    std::fflush(stdout);
    std::_Exit(124);
  }).detach();
  std::vector<ncclComm_t> comms(gRanks);
  std::vector<int> ids(gRanks);
  for (int i = 0; i < gRanks; ++i) ids[i] = i;
  if (ncclResult_t r = ncclCommInitAll(comms.data(), gRanks, ids.data()); r != ncclSuccess) {
    std::printf("FAIL ncclCommInitAll: %s\n", ncclGetErrorString(r));
    return 1;
  }
  HostBarrier barrier(gRanks);
  gBarrier = &barrier;
  std::vector<std::thread> threads;
  for (int r = 0; r < gRanks; ++r) threads.emplace_back(runRank, r, comms[r]);
  for (auto &t : threads) t.join();
  for (auto c : comms) ncclCommDestroy(c);
  std::printf("%s: %d failure(s) with %d rank(s)\n", gFailures ? "FAILED" : "ALL PASSED", gFailures.load(), gRanks);
  return gFailures ? 1 : 0;
}
