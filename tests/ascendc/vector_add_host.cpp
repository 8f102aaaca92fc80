// Triton tutorial 01 (vector add) compiled for ascend:910b, run under the CPU emulation:
// sizes with tails that are not multiples of 32 bytes, one to many AI cores.
#include "01_vector_add.h"
#include "harness.h"

int main() {
  for (int n : {1, 7, 31, 1000, 1024, 4097, 98432}) {
    auto x = harness::randomFloats(n, 1), y = harness::randomFloats(n, 2);
    std::vector<float> out(n + 8, 12345.0f);  // past the end: must stay untouched
    unsigned grid = (n + 1023) / 1024;
    harness::checkStatus(add_kernel_launch(nullptr, grid, 1, 1, x.data(), y.data(), out.data(), n), "add n=" + std::to_string(n));
    std::vector<double> want(n);
    for (int i = 0; i < n; ++i) want[i] = static_cast<float>(x[i] + y[i]);
    harness::checkClose(want, std::vector<float>(out.begin(), out.begin() + n), 0, 0, "add n=" + std::to_string(n));
    for (int i = n; i < n + 8; ++i) harness::check(out[i] == 12345.0f, "add wrote past the end, n=" + std::to_string(n));
  }
  // BLOCK_SIZE 65536: three 256 KiB tiles do not fit in UB; the kernel runs in chunks.
  for (int n : {1, 70000, 131072, 200003}) {
    auto x = harness::randomFloats(n, 11), y = harness::randomFloats(n, 12);
    std::vector<float> out(n + 8, 5.0f);
    std::string what = "add_big n=" + std::to_string(n);
    harness::checkStatus(add_big_launch(nullptr, (n + 65535) / 65536, 1, 1, x.data(), y.data(), out.data(), n), what);
    std::vector<double> want(n + 8, 5.0);
    for (int i = 0; i < n; ++i) want[i] = static_cast<float>(x[i] + y[i]);
    harness::checkClose(want, out, 0, 0, what);
  }
  return harness::finish("vector_add");
}
