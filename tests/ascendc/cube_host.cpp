// tests/ascendc/cube.tle under the CPU emulation: the cube path written with TLE-Struct DSA
// ops (global -> L1 -> L0A/L0B, matmul into L0C, L0C -> global), one K step and two K steps
// accumulated, and a Triton loop that keeps only its last product (a fresh accumulator per
// step), on the cube cores; float64 references of the fp16 products.
#include "cube.h"
#include "harness.h"

namespace {

std::vector<uint16_t> randomHalves(size_t n, unsigned seed) {
  auto f = harness::randomFloats(n, seed);
  std::vector<uint16_t> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = harness::floatToHalf(f[i]);
  return h;
}

std::vector<double> reference(const std::vector<uint16_t> &a, const std::vector<uint16_t> &b, int M, int N, int K) {
  std::vector<double> c(static_cast<size_t>(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k) acc += static_cast<double>(harness::halfToFloat(a[i * K + k])) * harness::halfToFloat(b[k * N + j]);
      c[i * N + j] = acc;
    }
  return c;
}

}  // namespace

int main() {
  {  // dsa_matmul: M=32, N=16, K=64
    auto a = randomHalves(32 * 64, 1), b = randomHalves(64 * 16, 2);
    std::vector<float> c(32 * 16, -1.0f);
    harness::checkStatus(dsa_matmul_launch(nullptr, 1, 1, 1, a.data(), b.data(), c.data()), "dsa_matmul");
    harness::checkClose(reference(a, b, 32, 16, 64), c, 1e-4, 1e-5, "dsa_matmul");
  }
  {  // dsa_matmul_acc: M=16, N=32, two K halves of 64
    auto a = randomHalves(16 * 128, 3), b = randomHalves(128 * 32, 4);
    std::vector<float> c(16 * 32, -1.0f);
    harness::checkStatus(dsa_matmul_acc_launch(nullptr, 1, 1, 1, a.data(), b.data(), c.data()), "dsa_matmul_acc");
    harness::checkClose(reference(a, b, 16, 32, 128), c, 1e-4, 1e-5, "dsa_matmul_acc");
  }
  {  // last_product: M=32, N=16, K=96 in steps of 32; C = A[:, 64:96] @ B[64:96, :]
    auto a = randomHalves(32 * 96, 5), b = randomHalves(96 * 16, 6);
    std::vector<float> c(32 * 16, -1.0f);
    harness::checkStatus(last_product_launch(nullptr, 1, 1, 1, a.data(), b.data(), c.data(), 96), "last_product");
    std::vector<uint16_t> aLast(32 * 32), bLast(b.begin() + 64 * 16, b.end());
    for (int i = 0; i < 32; ++i)
      for (int k = 0; k < 32; ++k) aLast[i * 32 + k] = a[i * 96 + 64 + k];
    harness::checkClose(reference(aLast, bLast, 32, 16, 32), c, 1e-4, 1e-5, "last_product");
  }
  return harness::finish("cube");
}
