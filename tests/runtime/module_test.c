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

  /* The variant table's assumptions (what `SYMBOL_tle_variants` holds): a pointer aligned to
   * 16 bytes, an integer divisible by 8 (a 16-bit kernel's divisor), one equal to 1 and not
   * passed; then the same pointer with nothing assumed of the integers. */
  tleKernel table = {NULL, 0, 0};
  table.variantCount = 2;
  table.paramCount = 3;
  const signed char kinds[3] = {1, 4, 4}, first[3] = {16, 8, 1}, second[3] = {16, 0, 0};
  for (int i = 0; i < 3; ++i) {
    table.paramKinds[i] = kinds[i];
    table.assumptions[0][i] = first[i];
    table.assumptions[1][i] = second[i];
  }
  void *aligned = (void *)(unsigned long long)0x1000, *odd = (void *)(unsigned long long)0x1002;
  int k1000 = 1000, k1004 = 1004, one = 1, two = 2;
  void *passed[4] = {NULL, NULL, NULL, NULL};
  void *args[3] = {&aligned, &k1000, &one};
  expect(tleVariantFits_(&table, 0, args, passed) && passed[0] == &aligned && passed[1] == &k1000 && passed[2] == NULL,
         "K = 1000 meets a divisor of 8; the argument equal to 1 is not passed", TLE_SUCCESS);
  args[1] = &k1004;
  expect(!tleVariantFits_(&table, 0, args, passed), "K = 1004 does not meet a divisor of 8", TLE_SUCCESS);
  expect(tleVariantFits_(&table, 1, args, passed) && passed[2] == &one, "the variant assuming nothing of it takes it", TLE_SUCCESS);
  args[1] = &k1000;
  args[2] = &two;
  expect(!tleVariantFits_(&table, 0, args, passed), "a stride of 2 does not meet 'equal to 1'", TLE_SUCCESS);
  args[0] = &odd;
  expect(!tleVariantFits_(&table, 1, args, passed), "a pointer 2 bytes past alignment does not meet 16", TLE_SUCCESS);
  return failures;
}
