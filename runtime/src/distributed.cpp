// tle/distributed.h: one symmetric heap per context (an NCCL window), a first-fit allocator
// over it that every rank runs identically, and the device communicator kernels take.
#include "tle/distributed_device.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstring>
#include <iterator>
#include <map>
#include <new>

struct tleDistContext {
  ncclComm_t comm = nullptr;
  tleDistDevice device{};
  bool devCommCreated = false;
  ncclResult_t lastNccl = ncclSuccess;
  ncclWindow_vidmem window{};  // the heap window's LSA layout, read once for host-side peer pointers
  CUresult(CUDAAPI *writeValue32)(CUstream, CUdeviceptr, cuuint32_t, unsigned) = nullptr;  // cuStreamWriteValue32; null: none
  std::map<size_t, size_t> freeBlocks;  // offset -> size
  std::map<size_t, size_t> used;        // offset -> size
};

namespace {

constexpr size_t kAlignment = 256;
constexpr int kDefaultBarrierBlocks = 1024;

bool failed(tleDistContext *c, ncclResult_t r) {
  if (r == ncclSuccess) return false;
  c->lastNccl = r;
  return true;
}

// Frees what a partly made context holds; collective like creation.
void release(tleDistContext *c) {
  if (c->devCommCreated) ncclDevCommDestroy(c->comm, &c->device.comm);
  if (c->device.window) ncclCommWindowDeregister(c->comm, c->device.window);
  if (c->device.base) ncclMemFree(c->device.base);
  delete c;
}

}  // namespace

extern "C" tleStatus tleDistCreate(ncclComm_t comm, size_t heapBytes, int barrierBlocks, tleDistContext **context) {
  if (!comm || !context || heapBytes == 0 || barrierBlocks < 0) return TLE_ERROR_INVALID_ARGUMENT;
  *context = nullptr;
  auto *c = new (std::nothrow) tleDistContext;
  if (!c) return TLE_ERROR_DIST_HEAP;
  c->comm = comm;
  int commDevice = -1, current = -1;
  if (failed(c, ncclCommCuDevice(comm, &commDevice))) return release(c), TLE_ERROR_NCCL;
  if (cudaError_t e = cudaGetDevice(&current); e != cudaSuccess) return release(c), static_cast<tleStatus>(e);
  if (current != commDevice) return release(c), TLE_ERROR_DIST_MISMATCH;
  // Windows are registered in multiples of NCCL's required alignment (4 KiB).
  heapBytes = (heapBytes + 4095) / 4096 * 4096;
  void *heap = nullptr;
  if (failed(c, ncclMemAlloc(&heap, heapBytes))) return release(c), TLE_ERROR_NCCL;
  c->device.base = static_cast<char *>(heap);
  c->device.bytes = heapBytes;
  c->device.cudaDevice = commDevice;
  c->device.barrierBlocks = barrierBlocks ? barrierBlocks : kDefaultBarrierBlocks;
  if (failed(c, ncclCommWindowRegister(comm, heap, heapBytes, &c->device.window, NCCL_WIN_COLL_SYMMETRIC)))
    return release(c), TLE_ERROR_NCCL;
  // 2.28 has no requirements initializer: zero it, then ask for the LSA barriers.
  ncclDevCommRequirements requirements;
  std::memset(&requirements, 0, sizeof requirements);
  requirements.lsaBarrierCount = c->device.barrierBlocks;
  if (failed(c, ncclDevCommCreate(comm, &requirements, &c->device.comm))) return release(c), TLE_ERROR_NCCL;
  c->devCommCreated = true;
  if (c->device.comm.lsaSize != c->device.comm.nRanks) {
    // Ranks on several nodes: barriers over them also cross the network, through one GIN
    // context and a rail barrier per block (asked for only here, since a single node may
    // have no network plugin). Every rank sees the same team sizes, so all take this branch.
    c->devCommCreated = false;
    if (failed(c, ncclDevCommDestroy(comm, &c->device.comm))) return release(c), TLE_ERROR_NCCL;
    requirements.railGinBarrierCount = c->device.barrierBlocks;
    requirements.ginContextCount = 1;
    if (failed(c, ncclDevCommCreate(comm, &requirements, &c->device.comm))) return release(c), TLE_ERROR_NCCL;
    c->devCommCreated = true;
  }
  // The window lives in device memory; its LSA base and stride give peer addresses on the host.
  if (cudaError_t e = cudaMemcpy(&c->window, c->device.window, sizeof c->window, cudaMemcpyDefault); e != cudaSuccess)
    return release(c), static_cast<tleStatus>(e);
  // Through the runtime's entry point, so that programs need not link libcuda themselves.
  cudaDriverEntryPointQueryResult found{};
  void *writeValue = nullptr;
  if (cudaGetDriverEntryPointByVersion("cuStreamWriteValue32", &writeValue, 12020, cudaEnableDefault, &found) == cudaSuccess &&
      found == cudaDriverEntryPointSuccess)
    c->writeValue32 = reinterpret_cast<decltype(c->writeValue32)>(writeValue);
  // Signals start at zero on every rank; kernels may wait on the heap right away.
  if (cudaError_t e = cudaMemset(heap, 0, heapBytes); e != cudaSuccess) return release(c), static_cast<tleStatus>(e);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return release(c), static_cast<tleStatus>(e);
  c->freeBlocks[0] = heapBytes;
  *context = c;
  return TLE_SUCCESS;
}

extern "C" tleStatus tleDistDestroy(tleDistContext *context) {
  if (!context) return TLE_ERROR_INVALID_ARGUMENT;
  ncclResult_t r = ncclSuccess;
  if (context->devCommCreated) r = ncclDevCommDestroy(context->comm, &context->device.comm);
  context->devCommCreated = false;
  if (context->device.window) {
    ncclResult_t d = ncclCommWindowDeregister(context->comm, context->device.window);
    if (r == ncclSuccess) r = d;
    context->device.window = nullptr;
  }
  if (context->device.base) {
    ncclResult_t f = ncclMemFree(context->device.base);
    if (r == ncclSuccess) r = f;
    context->device.base = nullptr;
  }
  delete context;
  return r == ncclSuccess ? TLE_SUCCESS : TLE_ERROR_NCCL;
}

extern "C" tleStatus tleDistMalloc(tleDistContext *context, size_t bytes, void **pointer) {
  if (!context || !pointer) return TLE_ERROR_INVALID_ARGUMENT;
  *pointer = nullptr;
  size_t size = (bytes == 0 ? 1 : bytes + kAlignment - 1) / kAlignment * kAlignment;
  // First fit by offset: the same calls give the same offsets on every rank.
  for (auto it = context->freeBlocks.begin(); it != context->freeBlocks.end(); ++it) {
    if (it->second < size) continue;
    size_t offset = it->first, rest = it->second - size;
    context->freeBlocks.erase(it);
    if (rest) context->freeBlocks[offset + size] = rest;
    context->used[offset] = size;
    *pointer = context->device.base + offset;
    return TLE_SUCCESS;
  }
  return TLE_ERROR_DIST_HEAP;
}

extern "C" tleStatus tleDistFree(tleDistContext *context, void *pointer) {
  if (!context) return TLE_ERROR_INVALID_ARGUMENT;
  if (!pointer) return TLE_SUCCESS;
  char *p = static_cast<char *>(pointer);
  if (p < context->device.base) return TLE_ERROR_INVALID_ARGUMENT;
  auto used = context->used.find(static_cast<size_t>(p - context->device.base));
  if (used == context->used.end()) return TLE_ERROR_INVALID_ARGUMENT;
  size_t offset = used->first, size = used->second;
  context->used.erase(used);
  // Merge with the free neighbours.
  auto next = context->freeBlocks.lower_bound(offset);
  if (next != context->freeBlocks.end() && next->first == offset + size) {
    size += next->second;
    next = context->freeBlocks.erase(next);
  }
  if (next != context->freeBlocks.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == offset) {
      previous->second += size;
      return TLE_SUCCESS;
    }
  }
  context->freeBlocks[offset] = size;
  return TLE_SUCCESS;
}

extern "C" tleStatus tleDistPeerPointer(const tleDistContext *context, const void *local, int peer, void **remote) {
  if (!context || !remote) return TLE_ERROR_INVALID_ARGUMENT;
  *remote = nullptr;
  const char *p = static_cast<const char *>(local);
  const tleDistDevice &d = context->device;
  if (p < d.base || p >= d.base + d.bytes) return TLE_ERROR_INVALID_ARGUMENT;
  // ncclGetPeerPointer's arithmetic: peers sit 4 GiB strides apart from the LSA team's base.
  const int lsaPeer = peer >= 0 && peer < d.comm.nRanks ? tleDistLsaIndex(d.comm, peer) : -1;
  if (lsaPeer < 0) return TLE_ERROR_INVALID_ARGUMENT;
  if (peer == d.comm.rank) {  // the heap itself, as the kernels' peer pointers do
    *remote = const_cast<char *>(p);
    return TLE_SUCCESS;
  }
  char *peerBase = nccl::utility::add4G(context->window.lsaFlatBase, lsaPeer * static_cast<int>(context->window.stride4G));
  *remote = peerBase + (p - d.base);
  return TLE_SUCCESS;
}

extern "C" tleStatus tleDistPutSignalAsync(const tleDistContext *context, void *destination, const void *source, size_t bytes,
                                           int32_t *signal, int32_t value, int peer, tleStream stream) {
  if (!context || !source) return TLE_ERROR_INVALID_ARGUMENT;
  if (!context->writeValue32) return TLE_ERROR_NO_DRIVER;
  void *remoteDestination = nullptr, *remoteSignal = nullptr;
  if (tleStatus s = tleDistPeerPointer(context, destination, peer, &remoteDestination); s != TLE_SUCCESS) return s;
  if (tleStatus s = tleDistPeerPointer(context, signal, peer, &remoteSignal); s != TLE_SUCCESS) return s;
  if (bytes > context->device.bytes - (static_cast<char *>(destination) - context->device.base)) return TLE_ERROR_INVALID_ARGUMENT;
  auto cudaStream = reinterpret_cast<cudaStream_t>(stream);
  if (bytes) {
    if (cudaError_t e = cudaMemcpyAsync(remoteDestination, source, bytes, cudaMemcpyDefault, cudaStream); e != cudaSuccess)
      return static_cast<tleStatus>(e);
  }
  // The default flags put a memory barrier before the write: the copy is visible first.
  CUresult r = context->writeValue32(reinterpret_cast<CUstream>(stream), reinterpret_cast<CUdeviceptr>(remoteSignal),
                                     static_cast<cuuint32_t>(value), CU_STREAM_WRITE_VALUE_DEFAULT);
  // The runtime's error codes mirror the driver's (cudaErrorNotSupported is CUDA_ERROR_NOT_SUPPORTED).
  return static_cast<tleStatus>(r);
}

extern "C" int tleDistRank(const tleDistContext *context) { return context ? context->device.comm.rank : -1; }
extern "C" int tleDistSize(const tleDistContext *context) { return context ? context->device.comm.nRanks : 0; }
extern "C" ncclResult_t tleDistLastNcclResult(const tleDistContext *context) { return context ? context->lastNccl : ncclInvalidArgument; }
extern "C" const tleDistDevice *tleDistDeviceOf(const tleDistContext *context) { return context ? &context->device : nullptr; }
