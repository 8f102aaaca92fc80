// A softmax kernel with one pipe flag removed (see CMakeLists.txt) must be reported by the
// emulation: the launcher returns TLE_ERROR_ASCENDC_EMULATION instead of silently computing
// what a CPU computes in program order.
#include "02_fused_softmax.h"
#include "harness.h"

int main() {
  auto in = harness::randomFloats(4 * 100, 3);
  std::vector<float> out(in.size());
  tleStatus s = softmax_kernel_launch(nullptr, 2, 1, 1, out.data(), in.data(), 100, 100, 4, 100);
  harness::check(s == TLE_ERROR_ASCENDC_EMULATION,
                 "the broken kernel's launch returned " + std::to_string(s) + " (" + tleStatusName(s) + "), not the emulation's finding");
  return harness::finish("hazard");
}
