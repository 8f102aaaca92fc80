// What the emulation tests' host programs share: seeded random data, poisoned outputs,
// float64 references compared with a tolerance, and a tally that becomes the exit status.
#pragma once

#include "tle/runtime.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace harness {

inline int &failures() {
  static int n = 0;
  return n;
}

inline void check(bool ok, const std::string &what) {
  if (!ok) {
    ++failures();
    std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  }
}

inline void checkStatus(tleStatus s, const std::string &what) {
  check(s == TLE_SUCCESS, what + ": launcher returned " + std::to_string(s) + " (" + tleStatusName(s) + ")");
}

inline std::vector<float> randomFloats(size_t n, unsigned seed, float lo = -4.0f, float hi = 4.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v) x = dist(gen);
  return v;
}

// |got - want| <= atol + rtol * |want|, elementwise; reports the first few mismatches.
inline void checkClose(const std::vector<double> &want, const std::vector<float> &got, double atol, double rtol,
                       const std::string &what) {
  int shown = 0;
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    double w = want[i], g = got[i];
    bool ok = (std::isnan(w) && std::isnan(g)) || std::fabs(g - w) <= atol + rtol * std::fabs(w);
    if (!ok) {
      ++bad;
      if (shown++ < 5) std::fprintf(stderr, "  %s[%zu]: got %.9g, want %.9g\n", what.c_str(), i, g, w);
    }
  }
  check(bad == 0, what + ": " + std::to_string(bad) + " of " + std::to_string(want.size()) + " elements differ");
}

inline int finish(const char *name) {
  if (failures() == 0) std::printf("%s: all checks passed\n", name);
  return failures() == 0 ? 0 : 1;
}

}  // namespace harness

namespace harness {

// IEEE binary16 <-> float, written here independently of the emulation's half type.
inline float halfToFloat(uint16_t h) {
  int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float magnitude = exponent == 0    ? std::ldexp(static_cast<float>(mantissa), -24)
                    : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                     : std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  return sign ? -magnitude : magnitude;
}

inline uint16_t floatToHalf(float f) {  // round to nearest even, by search over the 65536 values' order
  if (std::isnan(f)) return 0x7e00;
  uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  float a = std::fabs(f);
  uint16_t lo = 0, hi = 0x7c00;  // binary search for the largest magnitude <= a
  while (lo < hi) {
    uint16_t mid = static_cast<uint16_t>((lo + hi + 1) / 2);
    if (halfToFloat(mid) <= a) lo = mid;
    else hi = static_cast<uint16_t>(mid - 1);
  }
  if (lo == 0x7c00) return sign | lo;
  float below = halfToFloat(lo), above = halfToFloat(static_cast<uint16_t>(lo + 1));
  if (lo == 0x7bff && a >= 65520.0f) return sign | 0x7c00;
  uint16_t pick = (a - below < above - a) || (a - below == above - a && (lo & 1) == 0) ? lo : static_cast<uint16_t>(lo + 1);
  return sign | pick;
}

}  // namespace harness
