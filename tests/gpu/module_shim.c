/* tle/module.h behind one call, for tests/gpu/test_tutorials.py (ctypes): loads a tlec
 * --emit=ptx/cubin file, finds the vector add and launches it on the default stream. */
#include "tle/module.h"

tleStatus tle_shim_vector_add(const char *path, const char *name, void *x, void *y, void *out, int n, unsigned grid) {
  tleModule module = NULL;
  tleKernel kernel;
  tleStatus s = tleModuleLoadFile(&module, path);
  if (s != TLE_SUCCESS) return s;
  s = tleModuleGetKernel(module, name, &kernel);
  void *args[] = {&x, &y, &out, &n};
  if (s == TLE_SUCCESS) s = tleKernelLaunch(&kernel, NULL, grid, 1, 1, args);
  tleStatus unload = tleModuleUnload(module);  /* waits for the kernel: the context synchronizes */
  return s != TLE_SUCCESS ? s : unload;
}

/* The same for a kernel of two pointers (x, out): a cluster kernel, for the cluster opt-in. */
tleStatus tle_shim_two_pointers(const char *path, const char *name, void *x, void *out, unsigned grid) {
  tleModule module = NULL;
  tleKernel kernel;
  tleStatus s = tleModuleLoadFile(&module, path);
  if (s != TLE_SUCCESS) return s;
  s = tleModuleGetKernel(module, name, &kernel);
  void *args[] = {&x, &out};
  if (s == TLE_SUCCESS) s = tleKernelLaunch(&kernel, NULL, grid, 1, 1, args);
  tleStatus unload = tleModuleUnload(module);
  return s != TLE_SUCCESS ? s : unload;
}

/* The same for tutorial 09's descriptor matmul (a, b, c, M, N, K): its variants that read
 * the descriptors by TMA take tensor maps the loader encodes. */
tleStatus tle_shim_descriptor_matmul(const char *path, const char *name, void *a, void *b, void *c, int m, int n, int k, unsigned grid) {
  tleModule module = NULL;
  tleKernel kernel;
  tleStatus s = tleModuleLoadFile(&module, path);
  if (s != TLE_SUCCESS) return s;
  s = tleModuleGetKernel(module, name, &kernel);
  void *args[] = {&a, &b, &c, &m, &n, &k};
  if (s == TLE_SUCCESS) s = tleKernelLaunch(&kernel, NULL, grid, 1, 1, args);
  tleStatus unload = tleModuleUnload(module);
  return s != TLE_SUCCESS ? s : unload;
}
