/* Loading and launching tlec's --emit=ptx and --emit=cubin output through the CUDA driver
 * API, for hosts that do not compile the generated .cu. Plain C, header-only, Linux.
 *
 *   tleModule module;
 *   tleKernel kernel;
 *   tleModuleLoadFile(&module, "add.cubin");          // or tleModuleLoadData(&module, image)
 *   tleModuleGetKernel(module, "add_kernel", &kernel);
 *   void *args[] = {&x, &y, &out, &n};                // the kernel's runtime parameters
 *   tleKernelLaunch(&kernel, stream, grid_x, 1, 1, args);
 *   tleModuleUnload(module);
 *
 * The driver library (libcuda.so.1) is opened at the first call, so programs that include
 * this header start, and get TLE_ERROR_NO_DRIVER, on machines without one. A CUDA context
 * must be current on the calling thread (cudaSetDevice, or any CUDA runtime call, makes the
 * device's primary context current). Every function is safe to call from several threads. */
#ifndef TLE_MODULE_H
#define TLE_MODULE_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tle/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A loaded module (a CUmodule). */
typedef struct CUmod_st *tleModule;

/* Variants a kernel may have (tlec --specialize=auto) and parameters they may describe. */
#define TLE_MAX_VARIANTS 5
#define TLE_MAX_DISPATCH_PARAMS 128
/* Tensor maps a kernel that reads descriptors by TMA takes after its parameters, and the
 * ints that describe them (NAME_tle_tensor_maps, docs/abi.md). */
#define TLE_MAX_TENSOR_MAPS 8
#define TLE_MAX_TENSOR_MAP_INTS 512
#ifdef __cplusplus
#define TLE_ALIGN64_ alignas(64)
#else
#define TLE_ALIGN64_ _Alignas(64)
#endif

/* One compiled kernel and how it must be launched. */
typedef struct tleKernelVariant {
  struct CUfunc_st *function;
  int threadsPerBlock;
  int dynamicSharedBytes;
  int clusterSize; /* blocks per thread-block cluster along x (1: no clusters) */
  int cooperative; /* 1: the kernel has grid barriers and is launched cooperatively */
  int tensorMapCount;  /* TMA tensor maps encoded at each launch from the arguments (0: none) */
  int tensorMapParams; /* its parameters before them */
  int tensorMaps[TLE_MAX_TENSOR_MAP_INTS];
} tleKernelVariant;

/* A kernel of a loaded module: the generic kernel (the first five fields, as before) and
 * the specialized variants tlec compiled beside it, tried in order by tleKernelLaunch as the
 * generated launcher tries them (docs/abi.md, "Automatic specialization"). */
typedef struct tleKernel {
  struct CUfunc_st *function;
  int threadsPerBlock;
  int dynamicSharedBytes;
  int clusterSize;
  int cooperative;
  int variantCount;
  int paramCount;
  signed char paramKinds[TLE_MAX_DISPATCH_PARAMS];                    /* 1 pointer, 4/8 integer bytes, 0 other */
  signed char assumptions[TLE_MAX_VARIANTS][TLE_MAX_DISPATCH_PARAMS]; /* d > 1 (a multiple of d), 1 (not passed) or 0 */
  tleKernelVariant variants[TLE_MAX_VARIANTS];
  int tensorMapCount; /* the generic kernel's tensor maps (a kernel whose hints allow TMA) */
  int tensorMapParams;
  int tensorMaps[TLE_MAX_TENSOR_MAP_INTS];
} tleKernel;

/* The driver functions used, resolved once. CUresult values are cudaError_t values. */
typedef struct tleDriver {
  int (*init)(unsigned);
  int (*moduleLoadData)(tleModule *, const void *);
  int (*moduleUnload)(tleModule);
  int (*moduleGetFunction)(struct CUfunc_st **, tleModule, const char *);
  int (*moduleGetGlobal)(unsigned long long *, size_t *, tleModule, const char *);
  int (*memcpyDtoH)(void *, unsigned long long, size_t);
  int (*funcSetAttribute)(struct CUfunc_st *, int, int);
  int (*launchKernel)(struct CUfunc_st *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, tleStream,
                      void **, void **);
  /* cuLaunchCooperativeKernel (grid barriers); may be absent from old drivers */
  int (*launchCooperativeKernel)(struct CUfunc_st *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                 tleStream, void **);
  /* cuTensorMapEncodeTiled (TMA); absent before CUDA 12: kernels that need it do not run */
  int (*tensorMapEncodeTiled)(void *, int, unsigned, void *, const unsigned long long *, const unsigned long long *,
                              const unsigned *, const unsigned *, int, int, int, int);
  int ready;
} tleDriver;

static tleDriver tle_driver_;
static pthread_once_t tle_driver_once_ = PTHREAD_ONCE_INIT;

static void tleDriverOpen_(void) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return;
#define TLE_RESOLVE_(field, symbol) *(void **)(&tle_driver_.field) = dlsym(lib, symbol)
  TLE_RESOLVE_(init, "cuInit");
  TLE_RESOLVE_(moduleLoadData, "cuModuleLoadData");
  TLE_RESOLVE_(moduleUnload, "cuModuleUnload");
  TLE_RESOLVE_(moduleGetFunction, "cuModuleGetFunction");
  TLE_RESOLVE_(moduleGetGlobal, "cuModuleGetGlobal_v2");
  TLE_RESOLVE_(memcpyDtoH, "cuMemcpyDtoH_v2");
  TLE_RESOLVE_(funcSetAttribute, "cuFuncSetAttribute");
  TLE_RESOLVE_(launchKernel, "cuLaunchKernel");
  TLE_RESOLVE_(launchCooperativeKernel, "cuLaunchCooperativeKernel");
  TLE_RESOLVE_(tensorMapEncodeTiled, "cuTensorMapEncodeTiled");
#undef TLE_RESOLVE_
  tle_driver_.ready = tle_driver_.init && tle_driver_.moduleLoadData && tle_driver_.moduleUnload &&
                      tle_driver_.moduleGetFunction && tle_driver_.moduleGetGlobal && tle_driver_.memcpyDtoH &&
                      tle_driver_.funcSetAttribute && tle_driver_.launchKernel && tle_driver_.init(0) == 0;
}

static inline const tleDriver *tleDriverGet_(void) {
  pthread_once(&tle_driver_once_, tleDriverOpen_);
  return tle_driver_.ready ? &tle_driver_ : NULL;
}

/* Loads a cubin, or NUL-terminated PTX (which the driver compiles for the current device),
 * into the current context. */
static inline tleStatus tleModuleLoadData(tleModule *module, const void *image) {
  if (!module || !image) return TLE_ERROR_INVALID_ARGUMENT;
  const tleDriver *d = tleDriverGet_();
  if (!d) return TLE_ERROR_NO_DRIVER;
  return d->moduleLoadData(module, image);
}

/* tleModuleLoadData on the contents of a file written by tlec --emit=ptx or --emit=cubin. */
static inline tleStatus tleModuleLoadFile(tleModule *module, const char *path) {
  if (!module || !path) return TLE_ERROR_INVALID_ARGUMENT;
  FILE *f = fopen(path, "rb");
  if (!f) return TLE_ERROR_FILE;
  char *image = NULL;
  long size = -1;
  if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
  if (size >= 0 && fseek(f, 0, SEEK_SET) == 0) image = (char *)malloc((size_t)size + 1);
  tleStatus status = TLE_ERROR_FILE;
  if (image && fread(image, 1, (size_t)size, f) == (size_t)size) {
    image[size] = 0; /* PTX is text: terminate it */
    status = tleModuleLoadData(module, image);
  }
  free(image);
  fclose(f);
  return status;
}

static inline tleStatus tleModuleUnload(tleModule module) {
  const tleDriver *d = tleDriverGet_();
  if (!d) return TLE_ERROR_NO_DRIVER;
  return d->moduleUnload(module);
}

/* The function `name` and its launch facts (NAME_tle_launch); opts it in to more than 48 KiB
 * of dynamic shared memory where it needs that. */
static inline tleStatus tleLoadVariant_(const tleDriver *d, tleModule module, const char *name, tleKernelVariant *out) {
  tleStatus status = d->moduleGetFunction(&out->function, module, name);
  if (status != TLE_SUCCESS) return status;
  char factsName[512];
  if (snprintf(factsName, sizeof factsName, "%s_tle_launch", name) >= (int)sizeof factsName) return TLE_ERROR_INVALID_ARGUMENT;
  unsigned long long address = 0;
  size_t bytes = 0;
  int facts[4] = {0, 0, 1, 0}; /* older tlec wrote the first two or three */
  if (d->moduleGetGlobal(&address, &bytes, module, factsName) != 0 ||
      (bytes != sizeof facts && bytes != 3 * sizeof(int) && bytes != 2 * sizeof(int)))
    return TLE_ERROR_NOT_A_TLE_KERNEL;
  status = d->memcpyDtoH(facts, address, bytes);
  if (status != TLE_SUCCESS) return status;
  out->threadsPerBlock = facts[0];
  out->dynamicSharedBytes = facts[1];
  out->clusterSize = facts[2];
  out->cooperative = facts[3];
  /* The tensor maps it takes, if it reads descriptors by TMA. */
  char mapsName[512];
  if (snprintf(mapsName, sizeof mapsName, "%s_tle_tensor_maps", name) >= (int)sizeof mapsName) return TLE_ERROR_INVALID_ARGUMENT;
  out->tensorMapCount = 0;
  if (d->moduleGetGlobal(&address, &bytes, module, mapsName) == 0) {
    int table[TLE_MAX_TENSOR_MAP_INTS + 2];
    if (bytes < sizeof(int) || bytes > sizeof table) return TLE_ERROR_NOT_A_TLE_KERNEL;
    status = d->memcpyDtoH(table, address, bytes);
    if (status != TLE_SUCCESS) return status;
    if (bytes < 2 * sizeof(int) || table[0] < 0 || table[0] > TLE_MAX_DISPATCH_PARAMS || table[1] < 0 || table[1] > TLE_MAX_TENSOR_MAPS)
      return TLE_ERROR_NOT_A_TLE_KERNEL;
    out->tensorMapParams = table[0];
    out->tensorMapCount = table[1];
    memcpy(out->tensorMaps, table + 2, bytes - 2 * sizeof(int));
  }
  if (facts[1] > 48 * 1024) {
    const int maxDynamicSharedBytes = 8; /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
    status = d->funcSetAttribute(out->function, maxDynamicSharedBytes, facts[1]);
  }
  if (status == TLE_SUCCESS && facts[2] > 1) {
    /* Cluster sizes beyond the portable 8 need the opt-in; it changes nothing for smaller ones. */
    const int nonPortableClusterSizeAllowed = 14; /* CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED */
    status = d->funcSetAttribute(out->function, nonPortableClusterSizeAllowed, 1);
  }
  return status;
}

/* Finds kernel `name` (its --out-name, or the kernel's name), its launch facts and, when
 * tlec compiled variants of it (NAME_tle_variants), theirs (NAME__s1, NAME__s2, ...). */
static inline tleStatus tleModuleGetKernel(tleModule module, const char *name, tleKernel *kernel) {
  if (!name || !kernel) return TLE_ERROR_INVALID_ARGUMENT;
  const tleDriver *d = tleDriverGet_();
  if (!d) return TLE_ERROR_NO_DRIVER;
  memset(kernel, 0, sizeof *kernel);
  tleKernelVariant generic;
  tleStatus status = tleLoadVariant_(d, module, name, &generic);
  if (status != TLE_SUCCESS) return status;
  kernel->function = generic.function;
  kernel->threadsPerBlock = generic.threadsPerBlock;
  kernel->dynamicSharedBytes = generic.dynamicSharedBytes;
  kernel->clusterSize = generic.clusterSize;
  kernel->cooperative = generic.cooperative;
  kernel->tensorMapCount = generic.tensorMapCount;
  kernel->tensorMapParams = generic.tensorMapParams;
  memcpy(kernel->tensorMaps, generic.tensorMaps, sizeof kernel->tensorMaps);
  /* The table: variant count, parameter count, parameter kinds, then the assumptions. */
  char tableName[512];
  if (snprintf(tableName, sizeof tableName, "%s_tle_variants", name) >= (int)sizeof tableName) return TLE_ERROR_INVALID_ARGUMENT;
  unsigned long long address = 0;
  size_t bytes = 0;
  if (d->moduleGetGlobal(&address, &bytes, module, tableName) != 0) return TLE_SUCCESS; /* one kernel */
  int table[2 + TLE_MAX_DISPATCH_PARAMS * (TLE_MAX_VARIANTS + 1)];
  if (bytes < 2 * sizeof(int) || bytes > sizeof table) return TLE_ERROR_NOT_A_TLE_KERNEL;
  status = d->memcpyDtoH(table, address, bytes);
  if (status != TLE_SUCCESS) return status;
  int variants = table[0], params = table[1];
  if (variants < 0 || variants > TLE_MAX_VARIANTS || params < 0 || params > TLE_MAX_DISPATCH_PARAMS ||
      bytes != (size_t)(2 + params * (variants + 1)) * sizeof(int))
    return TLE_ERROR_NOT_A_TLE_KERNEL;
  for (int i = 0; i < params; ++i) kernel->paramKinds[i] = (signed char)table[2 + i];
  for (int v = 0; v < variants; ++v) {
    for (int i = 0; i < params; ++i) kernel->assumptions[v][i] = (signed char)table[2 + params * (v + 1) + i];
    char variantName[512];
    if (snprintf(variantName, sizeof variantName, "%s__s%d", name, v + 1) >= (int)sizeof variantName) return TLE_ERROR_INVALID_ARGUMENT;
    status = tleLoadVariant_(d, module, variantName, &kernel->variants[v]);
    if (status != TLE_SUCCESS) return status;
  }
  kernel->variantCount = variants;
  kernel->paramCount = params;
  return TLE_SUCCESS;
}

static inline tleStatus tleLaunchVariant_(const tleDriver *d, const tleKernelVariant *k, tleStream stream, unsigned grid_x,
                                          unsigned grid_y, unsigned grid_z, void **args) {
  if (k->cooperative) {
    if (!d->launchCooperativeKernel) return TLE_ERROR_NO_DRIVER;
    return d->launchCooperativeKernel(k->function, grid_x, grid_y, grid_z, (unsigned)k->threadsPerBlock, 1, 1,
                                      (unsigned)k->dynamicSharedBytes, stream, args);
  }
  return d->launchKernel(k->function, grid_x, grid_y, grid_z, (unsigned)k->threadsPerBlock, 1, 1, (unsigned)k->dynamicSharedBytes,
                         stream, args, NULL);
}

/* An argument of that kind (1 pointer, 4/8 an integer of that many bytes) as a 64-bit
 * integer: a pointer's address, a 32-bit integer sign-extended. */
static inline long long tleArgument_(void *arg, int kind) {
  switch (kind) {
  case 1: return (long long)(unsigned long long)*(void *const *)arg;
  case 4: return *(const int *)arg;
  case 8: return *(const long long *)arg;
  default: return 0;
  }
}

/* Runs one program of a tensor map's table (cuda::HostStep in tlec) from `*at`; 0 on success. */
static inline int tleTensorMapPart_(void **args, const int *table, int *at, int end, long long *out) {
  long long stack[16];
  int depth = 0;
  if (*at >= end) return -1;
  const int length = table[(*at)++];
  const int stop = *at + length;
  if (length < 0 || stop > end) return -1;
  while (*at < stop) {
    const int step = table[(*at)++];
    if (step == 1 || step == 2) {
      if (depth == 16 || *at + 2 > stop) return -1;
      if (step == 1) {
        const int i = table[*at], kind = table[*at + 1];
        *at += 2;
        if (i < 0 || i >= TLE_MAX_DISPATCH_PARAMS) return -1;
        stack[depth++] = tleArgument_(args[i], kind);
      } else {
        const unsigned long long low = (unsigned)table[*at], high = (unsigned)table[*at + 1];
        *at += 2;
        stack[depth++] = (long long)(low | (high << 32));
      }
      continue;
    }
    if (step == 9 || step == 10) {
      if (depth < 1) return -1;
      stack[depth - 1] = step == 9 ? (long long)(int)stack[depth - 1] : (long long)(unsigned)stack[depth - 1];
      continue;
    }
    if (depth < 2 || step < 3 || step > 8) return -1;
    const unsigned long long a = (unsigned long long)stack[depth - 2], b = (unsigned long long)stack[depth - 1];
    const unsigned long long r = step == 3 || step == 6 ? a + b : step == 4 || step == 7 ? a - b : a * b;
    --depth;
    stack[depth - 1] = step <= 5 ? (long long)(int)(unsigned)r : (long long)r;  /* 32-bit steps wrap */
  }
  if (depth != 1) return -1;
  *out = stack[0];
  return 0;
}

/* Encodes the tensor maps `variant` takes into `maps` (64-byte aligned, 128 bytes each) from
 * the arguments; 0 on success, as the generated launcher's tle::encode_tensor_map. */
static inline int tleEncodeTensorMaps_(const tleDriver *d, int count, const int *table, void **args, unsigned long long (*maps)[16]) {
  if (count > 0 && !d->tensorMapEncodeTiled) return -1;
  int at = 0;
  for (int m = 0; m < count; ++m) {
    if (at + 5 > TLE_MAX_TENSOR_MAP_INTS) return -1;
    const int type = table[at], elementBytes = table[at + 1], boxRows = table[at + 2], boxCols = table[at + 3], swizzle = table[at + 4];
    at += 5;
    long long part[4];
    for (int p = 0; p < 4; ++p)
      if (tleTensorMapPart_(args, table, &at, TLE_MAX_TENSOR_MAP_INTS, &part[p]) != 0) return -1;
    /* part: base, rows, columns, row stride (elements) */
    if (part[1] <= 0 || part[2] <= 0 || part[3] < 0) return -1;
    const unsigned long long dims[2] = {(unsigned long long)part[2], (unsigned long long)part[1]};
    const unsigned long long strides[1] = {(unsigned long long)part[3] * (unsigned long long)elementBytes};
    const unsigned box[2] = {(unsigned)boxCols, (unsigned)boxRows}, elementStrides[2] = {1, 1};
    const int swizzleMode = swizzle == 128 ? 3 : swizzle == 64 ? 2 : swizzle == 32 ? 1 : 0; /* CU_TENSOR_MAP_SWIZZLE_* */
    const int interleaveNone = 0, l2Promotion128B = 2, oobFillNone = 0;
    if (d->tensorMapEncodeTiled(maps[m], type, 2, (void *)(unsigned long long)part[0], dims, strides, box, elementStrides,
                                interleaveNone, swizzleMode, l2Promotion128B, oobFillNone) != 0)
      return -1;
  }
  return 0;
}

/* Whether variant `v` of `kernel` may run with `args`; fills `passed` with the arguments it
 * takes (those it assumes equal to 1 are compiled in). */
static inline int tleVariantFits_(const tleKernel *kernel, int v, void **args, void **passed) {
  int n = 0;
  for (int i = 0; i < kernel->paramCount; ++i) {
    int assume = kernel->assumptions[v][i];
    if (assume != 0) {
      long long value;
      switch (kernel->paramKinds[i]) {
      case 1: value = (long long)(unsigned long long)*(void *const *)args[i]; break;
      case 4: value = *(const int *)args[i]; break;
      case 8: value = *(const long long *)args[i]; break;
      default: return 0;
      }
      if (assume > 1 && value % assume != 0) return 0;
      if (assume == 1 && value != 1) return 0;
    }
    if (assume != 1) passed[n++] = args[i];
  }
  return 1;
}

/* Launches `kernel` on `stream` over a grid of blocks; args points at each runtime parameter
 * (constexpr parameters are compiled in), in order. Nothing is launched for an empty grid.
 * The first variant whose assumptions the arguments meet runs, else the generic kernel. */
static inline tleStatus tleKernelLaunch(const tleKernel *kernel, tleStream stream, unsigned grid_x, unsigned grid_y,
                                        unsigned grid_z, void **args) {
  if (!kernel || !kernel->function) return TLE_ERROR_INVALID_ARGUMENT;
  if (grid_x == 0 || grid_y == 0 || grid_z == 0) return TLE_SUCCESS;
  /* The cluster's dimensions are compiled into the kernel (__cluster_dims__); sizes beyond 8
   * were opted in when the kernel was loaded. */
  if (kernel->clusterSize > 1 && grid_x % (unsigned)kernel->clusterSize != 0) return TLE_ERROR_CLUSTER_GRID;
  const tleDriver *d = tleDriverGet_();
  if (!d) return TLE_ERROR_NO_DRIVER;
  void *passed[TLE_MAX_DISPATCH_PARAMS + TLE_MAX_TENSOR_MAPS + 1];
  TLE_ALIGN64_ unsigned long long maps[TLE_MAX_TENSOR_MAPS][16]; /* CUtensorMaps */
  for (int v = 0; v < kernel->variantCount; ++v) {
    const tleKernelVariant *variant = &kernel->variants[v];
    if (!args || !tleVariantFits_(kernel, v, args, passed)) continue;
    /* A variant that reads descriptors by TMA takes their tensor maps last; where one does
     * not encode (an extent of 0), the next variant runs, as the generated launcher does. */
    if (variant->tensorMapCount > 0) {
      if (tleEncodeTensorMaps_(d, variant->tensorMapCount, variant->tensorMaps, args, maps) != 0) continue;
      for (int m = 0; m < variant->tensorMapCount; ++m) passed[variant->tensorMapParams + m] = maps[m];
    }
    return tleLaunchVariant_(d, variant, stream, grid_x, grid_y, grid_z, passed);
  }
  tleKernelVariant generic = {kernel->function, kernel->threadsPerBlock, kernel->dynamicSharedBytes, kernel->clusterSize,
                              kernel->cooperative, 0, 0, {0}};
  if (kernel->tensorMapCount > 0) {
    /* A lone kernel (no variants): its arguments, then its tensor maps. */
    if (!args || tleEncodeTensorMaps_(d, kernel->tensorMapCount, kernel->tensorMaps, args, maps) != 0) return TLE_ERROR_TENSOR_MAP;
    for (int i = 0; i < kernel->tensorMapParams; ++i) passed[i] = args[i];
    for (int m = 0; m < kernel->tensorMapCount; ++m) passed[kernel->tensorMapParams + m] = maps[m];
    return tleLaunchVariant_(d, &generic, stream, grid_x, grid_y, grid_z, passed);
  }
  return tleLaunchVariant_(d, &generic, stream, grid_x, grid_y, grid_z, args);
}

#ifdef __cplusplus
}
#endif

#endif /* TLE_MODULE_H */
