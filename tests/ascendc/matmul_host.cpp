// Triton tutorial 03 (matmul, fp16, BLOCK 64 x 64 x 32, GROUP_SIZE_M 8) compiled for
// ascend:910b and run under the CPU emulation on the cube cores: rows past M wrap (`% M`) and
// are read in segments, K tails are cut by the mask, N is a multiple of 16 (its :16 hint);
// float64 references of the fp16 products, fp16 results.
#include "03_matmul.h"
#include "harness.h"

int main() {
  struct Shape { int M, N, K; };
  for (Shape s : {Shape{64, 64, 32}, Shape{100, 80, 70}, Shape{130, 144, 96}, Shape{16, 32, 17}, Shape{200, 64, 128}}) {
    auto af = harness::randomFloats(static_cast<size_t>(s.M) * s.K, s.M, -1, 1), bf = harness::randomFloats(static_cast<size_t>(s.K) * s.N, s.N, -1, 1);
    std::vector<uint16_t> a(af.size()), b(bf.size()), c(static_cast<size_t>(s.M) * s.N, 0x7e00);
    for (size_t i = 0; i < a.size(); ++i) a[i] = harness::floatToHalf(af[i]);
    for (size_t i = 0; i < b.size(); ++i) b[i] = harness::floatToHalf(bf[i]);
    unsigned grid = ((s.M + 63) / 64) * ((s.N + 63) / 64);
    std::string what = "matmul " + std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K);
    harness::checkStatus(matmul_kernel_launch(nullptr, grid, 1, 1, a.data(), b.data(), c.data(), s.M, s.N, s.K, s.K, s.N, s.N), what);
    std::vector<double> want(c.size());
    std::vector<float> got(c.size());
    for (int i = 0; i < s.M; ++i)
      for (int j = 0; j < s.N; ++j) {
        double acc = 0;
        for (int k = 0; k < s.K; ++k) acc += static_cast<double>(harness::halfToFloat(a[i * s.K + k])) * harness::halfToFloat(b[k * s.N + j]);
        want[i * s.N + j] = acc;
        got[i * s.N + j] = harness::halfToFloat(c[i * s.N + j]);
      }
    harness::checkClose(want, got, 2e-3, 2e-3, what);  // one fp16 rounding of the result
  }
  return harness::finish("matmul");
}
