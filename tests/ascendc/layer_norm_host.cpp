// Triton tutorial 05's layer norm forward compiled for ascend:910b, run under the CPU
// emulation: column blocks carried through loops (the running sums), tl.where on the tail,
// a scalar square root, scalar stores of the mean and 1/std; rows of 1 to 1000 columns.
#include "05_layer_norm.h"
#include "harness.h"

int main() {
  for (int M : {1, 3, 9})
    for (int N : {1, 100, 256, 1000}) {
      int stride = N + 4;
      auto x = harness::randomFloats(static_cast<size_t>(M) * stride, M * 31 + N);
      auto w = harness::randomFloats(N, 2), b = harness::randomFloats(N, 3);
      std::vector<float> y(x.size(), -5.0f), mean(M + 1, -5.0f), rstd(M + 1, -5.0f);
      std::string what = "layer_norm " + std::to_string(M) + "x" + std::to_string(N);
      harness::checkStatus(_layer_norm_fwd_fused_launch(nullptr, M, 1, 1, x.data(), y.data(), w.data(), b.data(), mean.data(),
                                                        rstd.data(), stride, N, 1e-5f),
                           what);
      std::vector<double> wantY(y.size()), wantMean(M + 1, -5.0), wantRstd(M + 1, -5.0);
      for (int r = 0; r < M; ++r) {
        double m = 0, v = 0;
        for (int c = 0; c < N; ++c) m += x[r * stride + c];
        m /= N;
        for (int c = 0; c < N; ++c) v += (x[r * stride + c] - m) * (x[r * stride + c] - m);
        v /= N;
        double rs = 1 / std::sqrt(v + 1e-5);
        wantMean[r] = m, wantRstd[r] = rs;
        for (int c = 0; c < stride; ++c) wantY[r * stride + c] = c < N ? (x[r * stride + c] - m) * rs * w[c] + b[c] : -5.0;
      }
      harness::checkClose(wantY, y, 1e-4, 1e-4, what + " y");
      harness::checkClose(wantMean, mean, 1e-5, 1e-5, what + " mean");
      harness::checkClose(wantRstd, rstd, 1e-5, 1e-4, what + " rstd");
    }
  return harness::finish("layer_norm");
}
