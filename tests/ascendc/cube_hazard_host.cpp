// The cube kernel with its MTE1 -> M wait removed (see CMakeLists.txt) must be reported.
#include "cube.h"
#include "harness.h"

int main() {
  std::vector<uint16_t> a(32 * 64, 0x3c00), b(64 * 16, 0x3c00);  // all ones
  std::vector<float> c(32 * 16);
  tleStatus s = dsa_matmul_launch(nullptr, 1, 1, 1, a.data(), b.data(), c.data());
  harness::check(s == TLE_ERROR_ASCENDC_EMULATION,
                 "the broken kernel's launch returned " + std::to_string(s) + " (" + tleStatusName(s) + "), not the emulation's finding");
  return harness::finish("hazard_cube");
}
