// The seeds' TLE-Struct DSA examples (tests/corpus/seeds/*dsa*.tle) compiled for
// ascend:910b and run under the CPU emulation against float64 references.
#include "dsa_seeds_chain.h"
#include "dsa_seeds_clamp.h"
#include "dsa_seeds_copy.h"
#include "dsa_seeds_flow.h"
#include "dsa_seeds_view.h"
#include "harness.h"

#include <algorithm>

int main() {
  {  // local-buffer flow: fp16 a + b through UB, 16 x 32
    auto af = harness::randomFloats(512, 1), bf = harness::randomFloats(512, 2);
    std::vector<uint16_t> a(512), b(512), out(512, 0);
    for (int i = 0; i < 512; ++i) a[i] = harness::floatToHalf(af[i]), b[i] = harness::floatToHalf(bf[i]);
    harness::checkStatus(dsa_local_buffer_flow_kernel_launch(nullptr, 1, 1, 1, a.data(), b.data(), out.data()), "flow");
    std::vector<double> want(512);
    std::vector<float> got(512);
    for (int i = 0; i < 512; ++i) {
      want[i] = harness::halfToFloat(harness::floatToHalf(harness::halfToFloat(a[i]) + harness::halfToFloat(b[i])));
      got[i] = harness::halfToFloat(out[i]);
    }
    harness::checkClose(want, got, 0, 0, "flow");
  }
  for (int M : {3, 8, 21})  // copy with run-time tails: 8-row programs, rows of N <= 32 columns
    for (int N : {5, 32}) {
      auto x = harness::randomFloats(static_cast<size_t>(M) * N, M + N);
      std::vector<float> out(x.size(), -1.0f);
      std::string what = "copy " + std::to_string(M) + "x" + std::to_string(N);
      harness::checkStatus(dsa_copy_kernel_launch(nullptr, (M + 7) / 8, 1, 1, x.data(), out.data(), M, N), what);
      harness::checkClose(std::vector<double>(x.begin(), x.end()), out, 0, 0, what);
    }
  {  // clamp: min(max(x, floor), ceil), 256
    auto x = harness::randomFloats(256, 5), lo = harness::randomFloats(256, 6, -2, 0), hi = harness::randomFloats(256, 7, 0, 2);
    std::vector<float> y(256);
    harness::checkStatus(dsa_clamp_kernel_launch(nullptr, 1, 1, 1, x.data(), lo.data(), hi.data(), y.data()), "clamp");
    std::vector<double> want(256);
    for (int i = 0; i < 256; ++i) want[i] = std::min(std::max(x[i], lo[i]), hi[i]);
    harness::checkClose(want, y, 0, 0, "clamp");
  }
  {  // arithmetic chain: (a - b) * b / scale, 8 x 32
    auto a = harness::randomFloats(256, 8), b = harness::randomFloats(256, 9), s = harness::randomFloats(256, 10, 0.5f, 2.0f);
    std::vector<float> out(256);
    harness::checkStatus(dsa_arith_chain_kernel_launch(nullptr, 1, 1, 1, a.data(), b.data(), s.data(), out.data()), "chain");
    std::vector<double> want(256);
    for (int i = 0; i < 256; ++i) want[i] = static_cast<float>(static_cast<float>((a[i] - b[i]) * b[i]) / s[i]);
    harness::checkClose(want, out, 0, 0, "chain");
  }
  {  // to_tensor / to_buffer: out = c * 0.5, 8 x 32
    auto c = harness::randomFloats(256, 11);
    std::vector<float> out(256);
    harness::checkStatus(dsa_to_tensor_buffer_kernel_launch(nullptr, 1, 1, 1, c.data(), out.data()), "view");
    std::vector<double> want(c.begin(), c.end());
    for (double &w : want) w *= 0.5;
    harness::checkClose(want, out, 0, 0, "view");
  }
  return harness::finish("dsa_seeds");
}
