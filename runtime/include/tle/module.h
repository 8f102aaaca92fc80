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

/* One compiled kernel and how it must be launched. */
typedef struct tleKernelVariant {
  struct CUfunc_st *function;
  int threadsPerBlock;
  int dynamicSharedBytes;
  int clusterSize; /* blocks per thread-block cluster along x (1: no clusters) */
  int cooperative; /* 1: the kernel has grid barriers and is launched cooperatively */
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
  void *passed[TLE_MAX_DISPATCH_PARAMS + 1];
  for (int v = 0; v < kernel->variantCount; ++v)
    if (args && tleVariantFits_(kernel, v, args, passed))
      return tleLaunchVariant_(d, &kernel->variants[v], stream, grid_x, grid_y, grid_z, passed);
  tleKernelVariant generic = {kernel->function, kernel->threadsPerBlock, kernel->dynamicSharedBytes, kernel->clusterSize,
                              kernel->cooperative};
  return tleLaunchVariant_(d, &generic, stream, grid_x, grid_y, grid_z, args);
}

#ifdef __cplusplus
}
#endif

#endif /* TLE_MODULE_H */
