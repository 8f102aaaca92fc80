/* tlec's runtime interface: the types the generated launchers use. Plain C; it needs no
 * CUDA header, so host code that only launches kernels compiles with any C/C++ compiler. */
#ifndef TLE_RUNTIME_H
#define TLE_RUNTIME_H

#ifdef __cplusplus
extern "C" {
#endif

/* A CUDA stream; the same type as cudaStream_t and CUstream. NULL is the default stream.
 * For AscendC output it carries an aclrtStream (a void pointer) the same way. */
typedef struct CUstream_st *tleStream;

/* What a launcher returns. 0 is success; negative values are tlec's own errors (below);
 * positive values are the cudaError_t the CUDA runtime returned (cudaGetErrorString). */
typedef int tleStatus;

#define TLE_SUCCESS 0
/* An argument breaks a promise made in --signature: a pointer hinted ":16" is not 16-byte
 * aligned, an integer hinted ":16" is not a multiple of 16, or one hinted ":1" is not 1.
 * The kernel was compiled to rely on it, so it is not launched. */
#define TLE_ERROR_BROKEN_HINT (-1)
/* A null pointer where the function needs an object (the resources query). */
#define TLE_ERROR_INVALID_ARGUMENT (-2)
/* tle/module.h: libcuda.so.1 could not be opened, or lacks a function the loader needs. */
#define TLE_ERROR_NO_DRIVER (-3)
/* tle/module.h: the file given to tleModuleLoadFile could not be read. */
#define TLE_ERROR_FILE (-4)
/* tle/module.h: the module has the function but not the launch facts tlec writes beside it
 * (NAME_tle_launch): it was not compiled by tlec. */
#define TLE_ERROR_NOT_A_TLE_KERNEL (-5)
/* A kernel launched on thread-block clusters (a block_cluster mesh level) got a grid_x that
 * is not a multiple of its cluster size; nothing was launched. */
#define TLE_ERROR_CLUSTER_GRID (-6)
/* AscendC output run under tlec's CPU emulation (tle/ascendc/kernel.h): the emulation found
 * something that would be wrong on an NPU (an unordered pipe hazard, a flag misused, a buffer
 * out of its memory or misaligned); the findings went to stderr. */
#define TLE_ERROR_ASCENDC_EMULATION (-7)
/* tle/distributed.h: an NCCL call failed (tleDistLastNcclResult says which result). */
#define TLE_ERROR_NCCL (-8)
/* tle/distributed.h: the symmetric heap has no room for the allocation. */
#define TLE_ERROR_DIST_HEAP (-9)
/* A distributed kernel was launched with a context that does not fit it: the kernel's device
 * mesh has another number of ranks than the communicator, or the current CUDA device is not
 * the context's. Nothing was launched. */
#define TLE_ERROR_DIST_MISMATCH (-10)
/* A kernel with a device-wide barrier got more blocks than the context's barrierBlocks. */
#define TLE_ERROR_DIST_GRID (-11)

/* A kernel that reads tensor descriptors by TMA (the tensor memory accelerator) got one the
 * driver cannot encode as a tensor map: an extent of 0 or of 2^32 or more, or a base or row
 * stride not a multiple of 16 bytes. A launcher that chooses among variants runs the next
 * one instead (docs/abi.md); a kernel compiled alone returns this and launches nothing. */
#define TLE_ERROR_TENSOR_MAP (-12)

/* A multi-GPU context (tle/distributed.h); launchers of distributed kernels take one. */
typedef struct tleDistContext tleDistContext;

/* A short description of a tlec status; CUDA codes are described as "CUDA error N". */
static inline const char *tleStatusName(tleStatus status) {
  switch (status) {
  case TLE_SUCCESS: return "success";
  case TLE_ERROR_BROKEN_HINT: return "an argument breaks a --signature hint (alignment or divisibility)";
  case TLE_ERROR_INVALID_ARGUMENT: return "invalid argument";
  case TLE_ERROR_NO_DRIVER: return "the CUDA driver (libcuda.so.1) could not be loaded";
  case TLE_ERROR_FILE: return "the file could not be read";
  case TLE_ERROR_NOT_A_TLE_KERNEL: return "the module's kernel was not compiled by tlec (no NAME_tle_launch)";
  case TLE_ERROR_CLUSTER_GRID: return "grid_x is not a multiple of the kernel's thread-block cluster size";
  case TLE_ERROR_ASCENDC_EMULATION: return "the AscendC CPU emulation found a hazard or misuse (see stderr)";
  case TLE_ERROR_NCCL: return "an NCCL call failed (see tleDistLastNcclResult)";
  case TLE_ERROR_DIST_HEAP: return "the symmetric heap is full";
  case TLE_ERROR_DIST_MISMATCH: return "the distributed context does not fit the kernel (mesh ranks or CUDA device)";
  case TLE_ERROR_DIST_GRID: return "more blocks than the distributed context's barrierBlocks";
  case TLE_ERROR_TENSOR_MAP: return "a tensor descriptor cannot be encoded as a TMA tensor map (an extent of 0, or misaligned)";
  default: return status > 0 ? "CUDA error (see cudaGetErrorString)" : "unknown tlec status";
  }
}

/* What one block of a kernel uses, for sizing persistent grids. */
typedef struct tleKernelResources {
  int threadsPerBlock;
  int dynamicSharedBytes;   /* requested at launch */
  int staticSharedBytes;
  int registersPerThread;
  int maxBlocksPerSM;       /* occupancy on the queried device */
  int multiprocessorCount;  /* of the queried device */
  int clusterSize;          /* blocks per thread-block cluster (1: no clusters) */
  int maxActiveClusters;    /* clusters that fit on the device at once (0: no clusters) */
} tleKernelResources;

#ifdef __cplusplus
}
#endif

#endif /* TLE_RUNTIME_H */
