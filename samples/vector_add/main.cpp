// Launches the tlec-compiled vector add through its generated C header and checks it
// against a float64 reference on the CPU. Exit status: 0 pass, 1 fail, 77 no GPU here.
#include "vector_add_kernels.h"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

static bool ok(cudaError_t e, const char *what) {
  if (e != cudaSuccess) std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("vector_add: no CUDA device here; built, not run\n");
    return 77;
  }
  const int n = 98437;  // not a multiple of the 1024-element block: the mask matters
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) x[i] = dist(rng), y[i] = dist(rng);

  float *dx = nullptr, *dy = nullptr, *dout = nullptr;
  const size_t bytes = n * sizeof(float);
  if (!ok(cudaMalloc(&dx, bytes), "cudaMalloc") || !ok(cudaMalloc(&dy, bytes), "cudaMalloc") ||
      !ok(cudaMalloc(&dout, bytes), "cudaMalloc"))
    return 1;
  cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0xff, bytes);  // poison: NaN everywhere the kernel does not write

  const unsigned blocks = (n + 1023) / 1024;
  tleStatus status = add_kernel_launch(nullptr, blocks, 1, 1, dx, dy, dout, n);
  if (status != TLE_SUCCESS) {
    std::fprintf(stderr, "add_kernel_launch: %d (%s)\n", status, tleStatusName(status));
    return 1;
  }
  if (!ok(cudaDeviceSynchronize(), "kernel")) return 1;
  cudaMemcpy(out.data(), dout, bytes, cudaMemcpyDeviceToHost);

  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const double want = static_cast<double>(x[i]) + static_cast<double>(y[i]);
    if (!(std::fabs(out[i] - want) <= 1e-6 * std::fabs(want) + 1e-7)) ++wrong;
  }
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dout);
  std::printf("vector_add: n=%d, %d wrong: %s\n", n, wrong, wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
