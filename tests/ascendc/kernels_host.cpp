// tests/ascendc/kernels.tle under the CPU emulation: 2-D windows with row and column tails
// and a padded row stride; fp16 storage with f32 arithmetic.
#include "harness.h"
#include "kernels.h"

#include <algorithm>

int main() {
  // scale_rows: BLOCK_M=8, BLOCK_N=64.
  for (int M : {1, 8, 13, 40})
    for (int N : {1, 17, 64}) {
      int stride = N + 3;
      auto x = harness::randomFloats(static_cast<size_t>(M) * stride, M * 7 + N);
      std::vector<float> y(x.size(), 99.0f);
      std::string what = "scale_rows " + std::to_string(M) + "x" + std::to_string(N);
      harness::checkStatus(scale_rows_launch(nullptr, (M + 7) / 8, 1, 1, x.data(), y.data(), M, N, stride, 0.75f), what);
      std::vector<double> want(y.size());
      for (int r = 0; r < M; ++r)
        for (int c = 0; c < stride; ++c)
          want[r * stride + c] = c < N ? static_cast<float>(static_cast<float>(x[r * stride + c] * 0.75f) + 1.0f) : 99.0;
      harness::checkClose(want, y, 0, 0, what);
    }
  // mixed_math: BLOCK=256, fp16 in and out.
  for (int n : {1, 15, 256, 1000}) {
    auto xf = harness::randomFloats(n, n);
    std::vector<uint16_t> x(n), y(n + 16, 0x7777);
    for (int i = 0; i < n; ++i) x[i] = harness::floatToHalf(xf[i]);
    std::string what = "mixed_math n=" + std::to_string(n);
    harness::checkStatus(mixed_math_launch(nullptr, (n + 255) / 256, 1, 1, x.data(), y.data(), n), what);
    std::vector<double> want(n);
    std::vector<float> got(n);
    for (int i = 0; i < n; ++i) {
      double v = harness::halfToFloat(x[i]);
      want[i] = std::fmax(v, 0.0) + std::exp(-std::fabs(v)) * 0.5 - std::sqrt(std::fabs(v) + 1.0);
      got[i] = harness::halfToFloat(y[i]);
    }
    harness::checkClose(want, got, 2e-3, 2e-3, what);  // one fp16 rounding of the result
    for (int i = n; i < n + 16; ++i) harness::check(y[i] == 0x7777, what + ": wrote past the end");
  }
  // walk_rows: pointer tiles advanced by a loop (carried as scalar offsets), BLOCK=64.
  for (int rows : {0, 1, 5}) {
    int stride = 70;
    auto x = harness::randomFloats(static_cast<size_t>(rows) * stride + 64, rows + 40);
    std::vector<float> y(x.size(), 3.0f);
    std::string what = "walk_rows rows=" + std::to_string(rows);
    harness::checkStatus(walk_rows_launch(nullptr, 1, 1, 1, x.data(), y.data(), rows, stride), what);
    std::vector<double> want(y.size(), 3.0);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < 64; ++c) want[r * stride + c] = x[r * stride + c] * 2.0f;
    harness::checkClose(want, y, 0, 0, what);
  }
  {  // dsa_subview: y = x + x, z = y[8:24]
    auto x = harness::randomFloats(64, 77);
    std::vector<float> y(64), z(16 + 4, 5.0f);
    harness::checkStatus(dsa_subview_launch(nullptr, 1, 1, 1, x.data(), y.data(), z.data()), "dsa_subview");
    std::vector<double> wantY(64), wantZ(20, 5.0);
    for (int i = 0; i < 64; ++i) wantY[i] = x[i] + x[i];
    for (int i = 0; i < 16; ++i) wantZ[i] = wantY[8 + i];
    harness::checkClose(wantY, y, 0, 0, "dsa_subview y");
    harness::checkClose(wantZ, z, 0, 0, "dsa_subview z");
  }
  for (int n : {1, 100, 256}) {  // raw_scale: out = 2x + 1 by a TLE-Raw AscendC function
    auto x = harness::randomFloats(n, 90 + n);
    std::vector<float> out(n + 8, 9.0f);
    std::string what = "raw_scale n=" + std::to_string(n);
    harness::checkStatus(raw_scale_launch(nullptr, 1, 1, 1, x.data(), out.data(), n), what);
    std::vector<double> want(n + 8, 9.0);
    for (int i = 0; i < n; ++i) want[i] = static_cast<float>(x[i] * 2.0f) + 1.0f;
    harness::checkClose(want, out, 0, 0, what);
  }
  for (int M : {1, 9, 16}) {  // reduce_axes: ROWS=16, COLS=64; rows past M load as 0
    auto x = harness::randomFloats(16 * 64, 300 + M);
    std::vector<float> rowSums(16 + 4, 8.0f), colMax(64);
    std::string what = "reduce_axes M=" + std::to_string(M);
    harness::checkStatus(reduce_axes_launch(nullptr, 1, 1, 1, x.data(), rowSums.data(), colMax.data(), M), what);
    std::vector<double> wantRows(20, 8.0), wantCols(64, -INFINITY);
    for (int r = 0; r < 16; ++r) {
      double sum = 0;
      for (int c = 0; c < 64; ++c) {
        double v = r < M ? x[r * 64 + c] : 0.0;
        sum += v;
        wantCols[c] = std::max(wantCols[c], v);
      }
      if (r < M) wantRows[r] = sum;
    }
    harness::checkClose(wantRows, rowSums, 1e-5, 1e-5, what + " row sums");
    harness::checkClose(wantCols, colMax, 0, 0, what + " column maxima");
  }
  for (int n : {5, 256, 700}) {  // leaky_relu: tl.where on compares of data, BLOCK=256
    auto x = harness::randomFloats(n, 500 + n), y = harness::randomFloats(n, 600 + n);
    x[0] = NAN;  // compares with NaN are false: the NaN goes to the other side of each where
    std::vector<float> z(n + 8, 4.0f);
    std::string what = "leaky_relu n=" + std::to_string(n);
    harness::checkStatus(leaky_relu_launch(nullptr, (n + 255) / 256, 1, 1, x.data(), y.data(), z.data(), n), what);
    std::vector<double> want(n + 8, 4.0);
    for (int i = 0; i < n; ++i) {
      float leaky = x[i] >= 0 ? x[i] : 0.01f * x[i];
      want[i] = leaky > y[i] ? leaky : y[i];
    }
    harness::checkClose(want, z, 0, 0, what);
  }
  for (int n : {3, 256, 1000}) {  // ramp: index tiles as data (CreateVecIndex), BLOCK=256
    auto x = harness::randomFloats(n, 700 + n);
    std::vector<float> y(n + 8, 6.0f);
    std::string what = "ramp n=" + std::to_string(n);
    harness::checkStatus(ramp_launch(nullptr, (n + 255) / 256, 1, 1, x.data(), y.data(), n), what);
    std::vector<double> want(n + 8, 6.0);
    for (int i = 0; i < n; ++i) want[i] = static_cast<float>(x[i] * static_cast<float>(i)) + static_cast<float>(3 * i);
    harness::checkClose(want, y, 0, 0, what);
  }
  for (int k : {0, 1, 2, 5, 64, 1000}) {  // halvings: a scalar while loop, BLOCK=64
    const int n = 50;
    auto x = harness::randomFloats(n, 800 + k);
    std::vector<float> y(n + 8, 4.0f);
    std::string what = "halvings k=" + std::to_string(k);
    harness::checkStatus(halvings_launch(nullptr, 1, 1, 1, x.data(), y.data(), n, k), what);
    int steps = 0;
    for (int left = k; left > 1; left /= 2) ++steps;
    std::vector<double> want(n + 8, 4.0);
    for (int i = 0; i < n; ++i) want[i] = x[i] * static_cast<float>(steps);
    harness::checkClose(want, y, 0, 0, what);
  }
  for (int flag : {-1, 0, 1}) {  // branch_tiles: tiles yielded by branches, BLOCK=64
    const int n = 60;
    auto x = harness::randomFloats(n, 900 + flag);
    std::vector<float> y(n + 8, 2.0f);
    std::string what = "branch_tiles flag=" + std::to_string(flag);
    harness::checkStatus(branch_tiles_launch(nullptr, 1, 1, 1, x.data(), y.data(), n, flag), what);
    std::vector<double> want(n + 8, 2.0);
    for (int i = 0; i < n; ++i) {
      float yv = flag > 0 ? x[i] * 2.0f : x[i] - 3.0f, zv = flag > 0 ? x[i] + 1.0f : x[i], acc = 0.0f;
      for (int turn = 0; turn < (flag > 0 ? 3 : 4); ++turn) acc = turn % 2 == 0 ? acc + yv : acc * zv;
      want[i] = acc + zv;
    }
    harness::checkClose(want, y, 0, 0, what);
  }
  for (int a : {0, 1})  // choose_tiles: a tile chosen by a scalar, nested branches on an integer tile
    for (int b : {0, 1}) {
      const int n = 61;
      auto x = harness::randomFloats(n, 950 + 2 * a + b);
      std::vector<int32_t> in(n);
      for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101 - 50;
      std::vector<float> y(n + 3, 8.0f);
      std::vector<int32_t> j(n + 3, -9);
      std::string what = "choose_tiles a=" + std::to_string(a) + " b=" + std::to_string(b);
      harness::checkStatus(choose_tiles_launch(nullptr, 1, 1, 1, x.data(), in.data(), y.data(), j.data(), n, a, b), what);
      std::vector<double> wantY(n + 3, 8.0), wantJ(n + 3, -9.0);
      std::vector<float> gotJ(n + 3);
      for (int i = 0; i < n; ++i) {
        wantY[i] = x[i] + (a > 0 ? 2.0f : x[i]);
        wantJ[i] = a > 0 ? (b > 0 ? in[i] + 3 : in[i] * 2) : in[i];
      }
      for (int i = 0; i < n + 3; ++i) gotJ[i] = static_cast<float>(j[i]);  // |values| < 2^24: exact
      harness::checkClose(wantY, y, 0, 0, what + " y");
      harness::checkClose(wantJ, gotJ, 0, 0, what + " j");
    }
  for (int k : {0, 1, 2, 7, 100}) {  // halve_tile: a while loop carrying a tile, BLOCK=64
    const int n = 57;
    auto x = harness::randomFloats(n, 990 + k);
    std::vector<float> y(n + 7, 1.5f);
    std::string what = "halve_tile k=" + std::to_string(k);
    harness::checkStatus(halve_tile_launch(nullptr, 1, 1, 1, x.data(), y.data(), n, k), what);
    std::vector<double> want(n + 7, 1.5);
    for (int i = 0; i < n; ++i) {
      float v = x[i];
      int steps = 0;
      for (int left = k; left > 1; left /= 2, ++steps) v = v * 0.5f + 1.0f;
      want[i] = v + static_cast<float>(steps);
    }
    harness::checkClose(want, y, 0, 0, what);
  }
  for (int shift : {-3, 0, 5})  // shifted_windows: offsets and pointers chosen in branches, BLOCK=64
    for (int n : {20, 50}) {
      auto x = harness::randomFloats(3 * 64, 1200 + 10 * shift + n);
      std::vector<float> y(2 * 64 + 5, -4.0f);
      std::string what = "shifted_windows shift=" + std::to_string(shift) + " n=" + std::to_string(n);
      harness::checkStatus(shifted_windows_launch(nullptr, 1, 1, 1, x.data(), y.data(), n, shift), what);
      std::vector<double> want(y.size(), -4.0);
      const int from = shift > 0 ? shift : shift < 0 ? 2 * 64 : 0, to = n > 32 ? 1 : 0;
      for (int i = 0; i < n; ++i) want[to + i] = (shift > 0 ? x[i] * 2.0f : x[i]) + x[from + i];
      harness::checkClose(want, y, 0, 0, what);
    }
  for (int n : {20, 64, 150}) {  // walking_windows: while and for loops moving windows, BLOCK=64
    auto x = harness::randomFloats(n + 64, 1300 + n);
    std::vector<float> y(n + 64, -4.0f), z(n + 64, -5.0f);
    std::string what = "walking_windows n=" + std::to_string(n);
    harness::checkStatus(walking_windows_launch(nullptr, 1, 1, 1, x.data(), y.data(), z.data(), n), what);
    std::vector<double> wantY(y.size(), -4.0), wantZ(z.size(), -5.0);
    for (int i = 0; i < n; ++i) {
      wantY[i] = x[i] * 2.0f;
      wantZ[i] = x[i] + 1.0f;
    }
    harness::checkClose(wantY, y, 0, 0, what + " y");
    harness::checkClose(wantZ, z, 0, 0, what + " z");
  }
  for (int flag : {-1, 1, 2}) {  // chosen_scale: integer tiles chosen by a scalar, as data, BLOCK=64
    auto x = harness::randomFloats(64, 1400 + flag);
    std::vector<float> y(64, -4.0f);
    std::string what = "chosen_scale flag=" + std::to_string(flag);
    harness::checkStatus(chosen_scale_launch(nullptr, 1, 1, 1, x.data(), y.data(), flag), what);
    std::vector<double> want(64);
    for (int i = 0; i < 64; ++i) want[i] = x[i] * (flag > 0 ? 3.0f : 5.0f) + (flag > 1 ? 2.0f : 7.0f);
    harness::checkClose(want, y, 0, 0, what);
  }
  for (int k : {1, 5, 40}) {  // nested_carries: while -> if and for, one carried tile, BLOCK=64
    const int n = 64;
    auto x = harness::randomFloats(n, 1100 + k);
    std::vector<float> y(n, 0.0f);
    std::string what = "nested_carries k=" + std::to_string(k);
    harness::checkStatus(nested_carries_launch(nullptr, 1, 1, 1, x.data(), y.data(), n, k), what);
    std::vector<double> want(n);
    for (int i = 0; i < n; ++i) {
      float v = x[i];
      for (int left = k; left > 1;) {
        left /= 2;
        if (left % 2 == 0) v = v + 1.0f;
        v = v * 2.0f * 2.0f;
      }
      want[i] = v;
    }
    harness::checkClose(want, y, 0, 0, what);
  }
  for (int n : {1, 50, 64}) {  // scan_tiles: scans by the scalar unit, ROWS=4, COLS=64
    auto r = harness::randomFloats(64, 1200 + n);
    std::vector<float> x(n), z = harness::randomFloats(4 * 64, 1300 + n), y(n + 5, 7.0f);
    std::vector<int32_t> in(n), j(n + 5, -3);
    for (int i = 0; i < n; ++i) x[i] = 1.0f + 0.05f * r[i], in[i] = (i * 53) % 97 - 48;
    const std::vector<float> t = z;
    std::string what = "scan_tiles n=" + std::to_string(n);
    harness::checkStatus(scan_tiles_launch(nullptr, 1, 1, 1, x.data(), in.data(), y.data(), z.data(), j.data(), n), what);
    std::vector<double> wantY(n + 5, 7.0), wantJ(n + 5, -3.0), wantZ(4 * 64);
    std::vector<float> gotJ(n + 5);
    float sum = 0.0f;
    int32_t isum = 0;
    for (int i = 0; i < n; ++i) {
      sum = i == 0 ? x[i] : sum + x[i];
      float prod = 1.0f;  // the masked tail loads as 1.0: the reversed product starts there
      for (int k = 63; k >= i; --k) prod = k == 63 ? (k < n ? x[k] : 1.0f) : prod * (k < n ? x[k] : 1.0f);
      wantY[i] = sum + prod;
      isum += in[i];
      wantJ[i] = isum;
    }
    for (int i = 0; i < n + 5; ++i) gotJ[i] = static_cast<float>(j[i]);
    for (int row = 0; row < 4; ++row)
      for (int c = 0; c < 64; ++c) {
        float rowMax = t[row * 64], columnMax = t[3 * 64 + c];
        for (int k = 1; k <= c; ++k) rowMax = std::max(rowMax, t[row * 64 + k]);
        for (int k = 2; k >= row; --k) columnMax = std::max(columnMax, t[k * 64 + c]);
        wantZ[row * 64 + c] = rowMax + columnMax;
      }
    harness::checkClose(wantY, y, 0, 0, what + " cumsum + reversed cumprod");
    harness::checkClose(wantJ, gotJ, 0, 0, what + " integer cumsum");
    harness::checkClose(wantZ, z, 0, 0, what + " maximum along rows and columns");
  }
  return harness::finish("kernels");
}
