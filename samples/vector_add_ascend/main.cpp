// Launches the AscendC vector add through the same generated C header a CUDA build has, here
// on the CPU emulation (host memory is "global memory"), and checks it against a float64
// reference. Exit status: 0 pass, 1 fail.
#include "vector_add_kernels.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

int main() {
  const int n = 98437;  // not a multiple of the 1024-element block: the mask matters
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(n), y(n), out(n, NAN);
  for (int i = 0; i < n; ++i) x[i] = dist(rng), y[i] = dist(rng);

  const unsigned blocks = (n + 1023) / 1024;
  tleStatus status = add_kernel_launch(nullptr, blocks, 1, 1, x.data(), y.data(), out.data(), n);
  if (status != TLE_SUCCESS) {
    std::fprintf(stderr, "add_kernel_launch: %d (%s)\n", status, tleStatusName(status));
    return 1;
  }
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const double want = static_cast<double>(x[i]) + static_cast<double>(y[i]);
    if (!(std::fabs(out[i] - want) <= 1e-6 * std::fabs(want) + 1e-7)) ++wrong;
  }
  std::printf("vector_add_ascend: %d of %d elements wrong (%u AI cores, emulated)\n", wrong, n, blocks);
  return wrong == 0 ? 0 : 1;
}
