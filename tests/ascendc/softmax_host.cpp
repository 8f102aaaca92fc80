// Triton tutorial 02 (fused softmax) compiled for ascend:910b, run under the CPU emulation:
// rows shorter than the block (masked with -inf), padded row strides, one to eight cores
// striding over the rows.
#include "02_fused_softmax.h"
#include "harness.h"

int main() {
  for (int rows : {1, 5, 33})
    for (int cols : {1, 100, 781, 1024})
      for (unsigned programs : {1u, 3u, 8u}) {
        int stride = cols + 5;
        auto in = harness::randomFloats(static_cast<size_t>(rows) * stride, rows * 100 + cols);
        std::vector<float> out(static_cast<size_t>(rows) * stride, -7.0f);
        std::string what = "softmax " + std::to_string(rows) + "x" + std::to_string(cols) + " on " + std::to_string(programs);
        harness::checkStatus(softmax_kernel_launch(nullptr, programs, 1, 1, out.data(), in.data(), stride, stride, rows, cols), what);
        std::vector<double> want(out.size());
        std::vector<float> got(out.size());
        for (int r = 0; r < rows; ++r) {
          double max = -INFINITY, sum = 0;
          for (int c = 0; c < cols; ++c) max = std::fmax(max, in[r * stride + c]);
          for (int c = 0; c < cols; ++c) sum += std::exp(in[r * stride + c] - max);
          for (int c = 0; c < stride; ++c) {  // the columns past n_cols keep their poison
            want[r * stride + c] = c < cols ? std::exp(in[r * stride + c] - max) / sum : -7.0;
            got[r * stride + c] = out[r * stride + c];
          }
        }
        harness::checkClose(want, got, 1e-6, 1e-5, what);
      }
  // BLOCK_SIZE 8192: 32 KiB rows, which fit in UB because dead tiles give their bytes back.
  for (int cols : {5000, 8192}) {
    int rows = 3, stride = cols;
    auto in = harness::randomFloats(static_cast<size_t>(rows) * stride, cols);
    std::vector<float> out(in.size(), -7.0f);
    std::string what = "softmax_8k 3x" + std::to_string(cols);
    harness::checkStatus(softmax_8k_launch(nullptr, 2, 1, 1, out.data(), in.data(), stride, stride, rows, cols), what);
    std::vector<double> want(out.size());
    for (int r = 0; r < rows; ++r) {
      double max = -INFINITY, sum = 0;
      for (int c = 0; c < cols; ++c) max = std::fmax(max, in[r * stride + c]);
      for (int c = 0; c < cols; ++c) sum += std::exp(in[r * stride + c] - max);
      for (int c = 0; c < cols; ++c) want[r * stride + c] = std::exp(in[r * stride + c] - max) / sum;
    }
    harness::checkClose(want, out, 1e-7, 1e-5, what);
  }
  return harness::finish("softmax");
}
