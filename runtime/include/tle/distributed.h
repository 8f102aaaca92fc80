/* tlec's distributed runtime: the context a multi-GPU kernel's launcher takes.
 *
 * Built on NCCL's device API (NCCL 2.28+). The user keeps NCCL's own bootstrap
 * (ncclGetUniqueId + ncclCommInitRank, MPI, a file, ncclCommInitAll) and hands tlec the
 * communicator; tlec allocates one symmetric heap per context (ncclMemAlloc, registered as
 * an NCCL window) and creates the device communicator once. Tensors that kernels reach on
 * other ranks (tle.remote, dl.symm_at, dl.notify's signals) come from tleDistMalloc.
 *
 * Plain C interface; the implementation (distributed.cpp, shipped as source with tlec) is
 * compiled against the NCCL the program runs with, because NCCL's device communicator is
 * laid out per NCCL version. Errors come back as tleStatus, never as an exit or a print. */
#ifndef TLE_DISTRIBUTED_H
#define TLE_DISTRIBUTED_H

#include <stddef.h>

#include <nccl.h>

#include "tle/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over `comm`: every rank calls it with the same heapBytes and barrierBlocks.
 * heapBytes: the symmetric heap (rounded up to NCCL's granularity). barrierBlocks: the most
 * blocks a kernel with a device-wide barrier (tle.distributed_barrier over GPUs) may launch;
 * 0 means 1024. Uses the current CUDA device, which must be the communicator's. */
tleStatus tleDistCreate(ncclComm_t comm, size_t heapBytes, int barrierBlocks, tleDistContext **context);
/* Collective; frees the heap and the device communicator (not the NCCL communicator). */
tleStatus tleDistDestroy(tleDistContext *context);

/* Symmetric allocation: every rank makes the same calls in the same order, so each
 * allocation has the same offset in every rank's heap. 256-byte aligned; TLE_ERROR_DIST_HEAP
 * when the heap is full. Not collective (no communication), but symmetric by contract. */
tleStatus tleDistMalloc(tleDistContext *context, size_t bytes, void **pointer);
tleStatus tleDistFree(tleDistContext *context, void *pointer);

/* Where rank `peer` keeps the symmetric allocation that is at `local` on this rank, as an
 * address this GPU reaches (NVLink or PCIe peers, NCCL's LSA team): for the copy engines
 * (cudaMemcpyAsync) and stream memory operations. `local` must lie in the context's heap;
 * TLE_ERROR_INVALID_ARGUMENT otherwise or when `peer` is not an LSA peer. */
tleStatus tleDistPeerPointer(const tleDistContext *context, const void *local, int peer, void **remote);

/* A put with a signal, by the copy engine (no SM runs it), in `stream` order: copies `bytes`
 * from `source` (device memory of this GPU) to rank `peer`'s copy of the symmetric
 * `destination`, then sets `peer`'s copy of the symmetric 32-bit `signal` to `value` once
 * those bytes are visible to it. A kernel on `peer` waits for them with
 * dl.wait(signal, 1, "sys", "acquire", waitValue=value). `peer` may be this rank.
 * TLE_ERROR_NO_DRIVER when the driver has no stream memory operations. */
tleStatus tleDistPutSignalAsync(const tleDistContext *context, void *destination, const void *source, size_t bytes, int32_t *signal,
                                int32_t value, int peer, tleStream stream);

int tleDistRank(const tleDistContext *context);
int tleDistSize(const tleDistContext *context);
/* The result of the last NCCL call that failed (ncclSuccess if none): for
 * ncclGetErrorString after TLE_ERROR_NCCL. */
ncclResult_t tleDistLastNcclResult(const tleDistContext *context);

#ifdef __cplusplus
}
#endif

#endif /* TLE_DISTRIBUTED_H */
