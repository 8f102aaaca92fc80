/* tle/module.h without a GPU: argument and file errors are tlec statuses, and a program that
 * includes the loader starts and reports TLE_ERROR_NO_DRIVER (or, where a driver exists, a
 * CUDA error for an image that is not one). Exit status 0 on success. */
#include "tle/module.h"

#include <stdio.h>

static int failures = 0;

static void expect(int ok, const char *what, tleStatus status) {
  printf("%s  %s (status %d: %s)\n", ok ? "PASS" : "FAIL", what, status, tleStatusName(status));
  failures += !ok;
}

int main(int argc, char **argv) {
  tleModule module = NULL;
  tleKernel kernel = {NULL, 0, 0};
  tleStatus s = tleModuleLoadFile(&module, "/nonexistent/kernel.cubin");
  expect(s == TLE_ERROR_FILE, "a missing file is TLE_ERROR_FILE", s);
  s = tleModuleLoadFile(NULL, "x");
  expect(s == TLE_ERROR_INVALID_ARGUMENT, "a null module pointer is TLE_ERROR_INVALID_ARGUMENT", s);
  s = tleKernelLaunch(&kernel, NULL, 1, 1, 1, NULL);
  expect(s == TLE_ERROR_INVALID_ARGUMENT, "launching an unloaded kernel is TLE_ERROR_INVALID_ARGUMENT", s);
  s = tleModuleLoadData(&module, "not a cubin");
  expect(s == TLE_ERROR_NO_DRIVER || s > 0, "a non-image is TLE_ERROR_NO_DRIVER or a CUDA error", s);
  if (argc > 1) { /* a real file: the driver is the only thing that may be missing */
    s = tleModuleLoadFile(&module, argv[1]);
    expect(s == TLE_ERROR_NO_DRIVER || s >= 0, "tlec's cubin reads (no driver, or loads)", s);
  }
  expect(tleStatusName(TLE_ERROR_NOT_A_TLE_KERNEL)[0] != 0, "every status has a name", TLE_ERROR_NOT_A_TLE_KERNEL);
  return failures;
}
