// Tests of the emulated compare and select instructions (stdlib/include/tle/ascendc/emu/cmpsel.h):
// Compare, Compares/CompareScalar, Select (modes 0, 1, 2) and CreateVecIndex, their results and
// the findings they must report. Linked with EmulationTests.cpp, which provides doctest's main.
#include <doctest/doctest.h>

#include "tle/ascendc/emu/kernel_operator.h"
#include "FindingsSupport.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using tle::ascendc::emu::Finding;
using tle::ascendc::emu::FindingKind;
using tle::ascendc::emu::Findings;
using tle::ascendc::emu::launch;

namespace {

using emu_test::contains;
using emu_test::countKind;
using emu_test::describeAll;
using emu_test::sync;

using AscendC::CMPMODE;
using AscendC::HardEvent;
using AscendC::SELMODE;
using AscendC::TPosition;

constexpr CMPMODE kModes[] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ, CMPMODE::LE, CMPMODE::GE, CMPMODE::NE};

bool expected(float a, float b, CMPMODE mode) {
  switch (mode) {
  case CMPMODE::LT: return a < b;
  case CMPMODE::GT: return a > b;
  case CMPMODE::EQ: return a == b;
  case CMPMODE::LE: return a <= b;
  case CMPMODE::GE: return a >= b;
  case CMPMODE::NE: return a != b;
  }
  return false;
}

// Inputs with equal, smaller, larger, infinite, signed-zero and NaN pairs (n of them).
void comparisonInputs(size_t n, std::vector<float> &a, std::vector<float> &b) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const float pairs[][2] = {{1, 1}, {1, 2}, {2, 1}, {nan, 1}, {1, nan}, {nan, nan}, {-0.0f, 0.0f}, {-inf, inf},
                            {inf, inf}, {-3, -3}, {0.5f, -0.5f}, {nan, inf}, {7, 7.5f}, {-1, -2}, {100, 100}, {0, nan}};
  a.resize(n);
  b.resize(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = pairs[(i + i / 16) % 16][0];
    b[i] = pairs[(i + i / 16) % 16][1];
  }
}

// Runs Compare (tensor or scalar form) on one 256-byte repeat of T (64 floats, 128 halves) for
// one mode; returns 32 mask bytes, of which the first n/8 are the result.
template <class T>
std::vector<uint8_t> runCompare(const std::vector<float> &a, const std::vector<float> &b, CMPMODE mode, bool scalar,
                                Findings &findings) {
  constexpr uint32_t n = 256 / sizeof(T);
  std::vector<uint8_t> mask(32, 0);
  findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 1024);
    AscendC::LocalTensor<T> x = ub.GetWithOffset<T>(n, 0);
    AscendC::LocalTensor<T> y = ub.GetWithOffset<T>(n, 256);
    AscendC::LocalTensor<uint8_t> m = ub.GetWithOffset<uint8_t>(32, 512);
    for (uint32_t i = 0; i < n; ++i) {
      x.SetValue(i, T(a[i]));
      y.SetValue(i, T(b[i]));
    }
    AscendC::Duplicate(m.ReinterpretCast<uint32_t>(), 0xAAAAAAAAu, 8);
    sync<HardEvent::S_V>();
    if (scalar) AscendC::CompareScalar(m, x, T(b[0]), mode, n);
    else AscendC::Compare(m, x, y, mode, n);
    sync<HardEvent::V_S>();
    for (uint32_t i = 0; i < 32; ++i) mask[i] = m.GetValue(i);
  });
  return mask;
}

template <class T>
void checkAllModes(bool scalar) {
  constexpr size_t n = 256 / sizeof(T);
  std::vector<float> a, b;
  comparisonInputs(n, a, b);
  for (CMPMODE mode : kModes) {
    CAPTURE(int(mode));
    Findings findings;
    const std::vector<uint8_t> mask = runCompare<T>(a, b, mode, scalar, findings);
    INFO(describeAll(findings));
    CHECK(findings.empty());
    size_t ones = 0;
    for (size_t i = 0; i < n; ++i) {
      CAPTURE(i);
      const bool bit = (mask[i / 8] >> (i % 8)) & 1u;
      ones += bit;
      CHECK(bit == expected(float(T(a[i])), float(T(scalar ? b[0] : b[i])), mode));
    }
    CHECK(ones > 0);
    CHECK(ones < n);
    for (size_t i = n / 8; i < 32; ++i) CHECK(mask[i] == 0xAA);  // n bits: n/8 bytes written, no more
  }
}

}  // namespace

TEST_CASE("CMPMODE and SELMODE have CANN's values") {
  CHECK(int(CMPMODE::LT) == 0);
  CHECK(int(CMPMODE::GT) == 1);
  CHECK(int(CMPMODE::EQ) == 2);
  CHECK(int(CMPMODE::LE) == 3);
  CHECK(int(CMPMODE::GE) == 4);
  CHECK(int(CMPMODE::NE) == 5);
  CHECK(int(SELMODE::VSEL_CMPMASK_SPR) == 0);
  CHECK(int(SELMODE::VSEL_TENSOR_SCALAR_MODE) == 1);
  CHECK(int(SELMODE::VSEL_TENSOR_TENSOR_MODE) == 2);
}

TEST_CASE("Compare: every mode on 64 floats (256 bytes), NaN compares false except NE") { checkAllModes<float>(false); }
TEST_CASE("Compare: every mode on 128 halves (256 bytes)") { checkAllModes<half>(false); }
TEST_CASE("CompareScalar: every mode on 64 floats against 1.0") { checkAllModes<float>(true); }
TEST_CASE("CompareScalar: every mode on 128 halves against 1.0") { checkAllModes<half>(true); }

TEST_CASE("Compares with a NaN scalar: all false except NE") {
  std::vector<uint8_t> lt(8), ne(8);
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 1024);
    AscendC::LocalTensor<float> x = ub.GetWithOffset<float>(64, 0);
    AscendC::LocalTensor<uint8_t> m0 = ub.GetWithOffset<uint8_t>(32, 256);
    AscendC::LocalTensor<uint8_t> m1 = ub.GetWithOffset<uint8_t>(32, 288);
    AscendC::Duplicate(x, 1.0f, 64);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Compares(m0, x, std::numeric_limits<float>::quiet_NaN(), CMPMODE::LT, 64);
    AscendC::Compares(m1, x, std::numeric_limits<float>::quiet_NaN(), CMPMODE::NE, 64);
    sync<HardEvent::V_S>();
    for (uint32_t i = 0; i < 8; ++i) {
      lt[i] = m0.GetValue(i);
      ne[i] = m1.GetValue(i);
    }
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  for (size_t i = 0; i < 8; ++i) {
    CHECK(lt[i] == 0x00);
    CHECK(ne[i] == 0xFF);
  }
}

TEST_CASE("Compare: count * sizeof(T) must be a multiple of 256 bytes; the tail is not compared") {
  for (bool scalar : {false, true}) {
    CAPTURE(scalar);
    std::vector<uint8_t> mask(32);
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 2048);
      AscendC::LocalTensor<float> x = ub.GetWithOffset<float>(128, 0);
      AscendC::LocalTensor<float> y = ub.GetWithOffset<float>(128, 512);
      AscendC::LocalTensor<uint8_t> m = ub.GetWithOffset<uint8_t>(32, 1024);
      AscendC::Duplicate(x, 1.0f, 128);
      AscendC::Duplicate(y, 1.0f, 128);
      AscendC::Duplicate(m, uint8_t(0x5A), 32);
      AscendC::PipeBarrier<PIPE_V>();
      if (scalar) AscendC::CompareScalar(m, x, 1.0f, CMPMODE::EQ, 100);  // 400 bytes: one whole repeat
      else AscendC::Compare(m, x, y, CMPMODE::EQ, 100);
      sync<HardEvent::V_S>();
      for (uint32_t i = 0; i < 32; ++i) mask[i] = m.GetValue(i);
    });
    INFO(describeAll(findings));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::bad_argument);
    CHECK(contains(findings[0].message, "not a multiple of 256 bytes"));
    for (size_t i = 0; i < 8; ++i) CHECK(mask[i] == 0xFF);   // the first 64 elements
    for (size_t i = 8; i < 32; ++i) CHECK(mask[i] == 0x5A);  // elements 64..99 untouched
  }
}

TEST_CASE("Compare: a count below one repeat compares nothing; half needs 128 elements") {
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 2048);
    AscendC::LocalTensor<half> x = ub.GetWithOffset<half>(128, 0);
    AscendC::LocalTensor<uint8_t> m = ub.GetWithOffset<uint8_t>(32, 1024);
    AscendC::Duplicate(x, half(1.0f), 128);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Compare(m, x, x, CMPMODE::EQ, 64);  // 128 bytes
    AscendC::Compare(m, x, x, CMPMODE::EQ, 128);  // 256 bytes: fine
  });
  INFO(describeAll(findings));
  CHECK(findings.size() == 1);
  CHECK(countKind(findings, FindingKind::bad_argument) == 1);
}

TEST_CASE("Compare on int32_t supports only EQ; other modes compare EQ and are reported") {
  std::vector<uint8_t> mask(8);
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 1024);
    AscendC::LocalTensor<int32_t> x = ub.GetWithOffset<int32_t>(64, 0);
    AscendC::LocalTensor<int32_t> y = ub.GetWithOffset<int32_t>(64, 256);
    AscendC::LocalTensor<uint8_t> m = ub.GetWithOffset<uint8_t>(32, 512);
    AscendC::Duplicate(x, 5, 64);
    AscendC::Duplicate(y, 5, 64);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Compare(m, x, y, CMPMODE::LT, 64);
    sync<HardEvent::V_S>();
    for (uint32_t i = 0; i < 8; ++i) mask[i] = m.GetValue(i);
  });
  INFO(describeAll(findings));
  REQUIRE(findings.size() == 1);
  CHECK(contains(findings[0].message, "only CMPMODE::EQ"));
  for (uint8_t byte : mask) CHECK(byte == 0xFF);  // 5 == 5
}

TEST_CASE("Compare reports wrong memory, misalignment and bounds like other vector instructions") {
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    AscendC::TBuf<TPosition::A1> l1;
    pipe.InitBuffer(ub, 2048);
    pipe.InitBuffer(l1, 1024);
    AscendC::LocalTensor<float> x = ub.GetWithOffset<float>(64, 0);
    AscendC::LocalTensor<uint8_t> m = ub.GetWithOffset<uint8_t>(64, 512);
    AscendC::Duplicate(x, 1.0f, 64);
    AscendC::Duplicate(m, uint8_t(0), 64);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Compare(m[4], x, x, CMPMODE::EQ, 64);  // dst at byte 516
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Compare(m, x, x, CMPMODE::EQ, 128);  // x holds 64 floats
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Compare(m, l1.Get<float>(), x, CMPMODE::EQ, 64);
  });
  INFO(describeAll(findings));
  CHECK(countKind(findings, FindingKind::alignment) == 1);
  CHECK(countKind(findings, FindingKind::bounds) >= 1);
  CHECK(countKind(findings, FindingKind::wrong_memory) == 1);
}

TEST_CASE("Select tensor-tensor (mode 2) and tensor-scalar (mode 1)") {
  std::vector<float> tt(80), ts(80);
  std::vector<uint16_t> th(80);
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 4096);
    AscendC::LocalTensor<float> a = ub.GetWithOffset<float>(80, 0);
    AscendC::LocalTensor<float> b = ub.GetWithOffset<float>(80, 512);
    AscendC::LocalTensor<uint8_t> mask = ub.GetWithOffset<uint8_t>(32, 1024);
    AscendC::LocalTensor<float> d1 = ub.GetWithOffset<float>(80, 1536);
    AscendC::LocalTensor<float> d2 = ub.GetWithOffset<float>(80, 2048);
    AscendC::LocalTensor<half> h = ub.GetWithOffset<half>(80, 2560);
    AscendC::LocalTensor<half> hd = ub.GetWithOffset<half>(80, 2816);
    AscendC::Duplicate(h, half(2.5f), 80);
    for (uint32_t i = 0; i < 80; ++i) {
      a.SetValue(i, float(i));
      b.SetValue(i, -float(i));
    }
    for (uint32_t i = 0; i < 32; ++i) mask.SetValue(i, uint8_t(0x35 + 7 * i));  // irregular bits
    sync<HardEvent::S_V>();
    AscendC::Select(d1, mask, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 80);
    AscendC::Select(d2, mask, a, 100.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 80);
    AscendC::Select(hd, mask, h, half(-1.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, 80);
    sync<HardEvent::V_S>();
    for (uint32_t i = 0; i < 80; ++i) {
      tt[i] = d1.GetValue(i);
      ts[i] = d2.GetValue(i);
      th[i] = hd.GetValue(i).bits();
    }
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  for (uint32_t i = 0; i < 80; ++i) {
    CAPTURE(i);
    const bool bit = (uint8_t(0x35 + 7 * (i / 8)) >> (i % 8)) & 1u;
    CHECK(tt[i] == (bit ? float(i) : -float(i)));
    CHECK(ts[i] == (bit ? float(i) : 100.0f));
    CHECK(th[i] == (bit ? half(2.5f) : half(-1.0f)).bits());
  }
}

TEST_CASE("Select mode 0 (VSEL_CMPMASK_SPR) reuses the first 256/sizeof(T) mask bits every repeat") {
  std::vector<float> out(192);
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 4096);
    AscendC::LocalTensor<float> a = ub.GetWithOffset<float>(192, 0);
    AscendC::LocalTensor<float> b = ub.GetWithOffset<float>(192, 1024);
    AscendC::LocalTensor<uint8_t> mask = ub.GetWithOffset<uint8_t>(32, 2048);
    AscendC::LocalTensor<float> d = ub.GetWithOffset<float>(192, 2560);
    AscendC::Duplicate(a, 1.0f, 192);
    AscendC::Duplicate(b, 2.0f, 192);
    AscendC::Duplicate(mask, uint8_t(0), 32);
    AscendC::PipeBarrier<PIPE_V>();
    sync<HardEvent::V_S>();
    mask.SetValue(0, uint8_t(0x01));   // element 0 of each 64
    mask.SetValue(8, uint8_t(0xFF));   // bits 64..71: beyond what mode 0 reads for float
    sync<HardEvent::S_V>();
    AscendC::Select(d, mask, a, b, SELMODE::VSEL_CMPMASK_SPR, 192);
    sync<HardEvent::V_S>();
    for (uint32_t i = 0; i < 192; ++i) out[i] = d.GetValue(i);
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  for (uint32_t i = 0; i < 192; ++i) {
    CAPTURE(i);
    CHECK(out[i] == (i % 64 == 0 ? 1.0f : 2.0f));
  }
}

TEST_CASE("Select rejects a mode that does not match its src1 form") {
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 1024);
    AscendC::LocalTensor<float> a = ub.GetWithOffset<float>(64, 0);
    AscendC::LocalTensor<uint8_t> mask = ub.GetWithOffset<uint8_t>(32, 256);
    AscendC::LocalTensor<float> d = ub.GetWithOffset<float>(64, 512);
    AscendC::Duplicate(a, 1.0f, 64);
    AscendC::Duplicate(mask, uint8_t(0), 32);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Select(d, mask, a, a, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
    AscendC::Select(d, mask, a, 0.0f, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
  });
  INFO(describeAll(findings));
  CHECK(countKind(findings, FindingKind::bad_argument) == 2);
  CHECK(findings.size() == 2);
}

namespace {

// x, y (64 floats) from GM -> Compare(LT) -> [PipeBarrier<PIPE_V>] -> Select -> GM.
Findings runPipeline(bool barrier, SELMODE mode, std::vector<float> &out) {
  std::vector<float> x(64), y(64);
  for (size_t i = 0; i < 64; ++i) {
    x[i] = float(i);
    y[i] = float(63 - i);
  }
  out.assign(64, 0.0f);
  return launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 2048);
    AscendC::GlobalTensor<float> xg, yg, og;
    xg.SetGlobalBuffer((__gm__ float *)x.data());
    yg.SetGlobalBuffer((__gm__ float *)y.data());
    og.SetGlobalBuffer((__gm__ float *)out.data());
    AscendC::LocalTensor<float> a = ub.GetWithOffset<float>(64, 0);
    AscendC::LocalTensor<float> b = ub.GetWithOffset<float>(64, 256);
    AscendC::LocalTensor<uint8_t> m = ub.GetWithOffset<uint8_t>(32, 512);
    AscendC::LocalTensor<float> d = ub.GetWithOffset<float>(64, 1024);
    AscendC::DataCopy(a, xg, 64);
    AscendC::DataCopy(b, yg, 64);
    sync<HardEvent::MTE2_V>();
    AscendC::Compare(m, a, b, CMPMODE::LT, 64);
    if (barrier) AscendC::PipeBarrier<PIPE_V>();
    if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) AscendC::Select(d, m, a, -1.0f, mode, 64);
    else AscendC::Select(d, m, a, b, mode, 64);
    sync<HardEvent::V_MTE3>();
    AscendC::DataCopy(og, d, 64);
  });
}

float pipelineExpected(size_t i, SELMODE mode) {
  const float a = float(i), b = float(63 - i);
  return a < b ? a : (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE ? -1.0f : b);
}

}  // namespace

TEST_CASE("Compare -> PipeBarrier<PIPE_V> -> Select has no findings in every mode") {
  for (SELMODE mode : {SELMODE::VSEL_CMPMASK_SPR, SELMODE::VSEL_TENSOR_SCALAR_MODE, SELMODE::VSEL_TENSOR_TENSOR_MODE}) {
    CAPTURE(int(mode));
    std::vector<float> out;
    const Findings findings = runPipeline(true, mode, out);
    INFO(describeAll(findings));
    CHECK(findings.empty());
    for (size_t i = 0; i < 64; ++i) CHECK(out[i] == pipelineExpected(i, mode));
  }
}

TEST_CASE("Compare -> Select without PipeBarrier<PIPE_V>: RAW on the mask in mode 0") {
  std::vector<float> out;
  const Findings findings = runPipeline(false, SELMODE::VSEL_CMPMASK_SPR, out);
  INFO(describeAll(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::hazard_raw);
  CHECK(contains(findings[0].message, "written by V Compare"));
  CHECK(contains(findings[0].message, "PipeBarrier<PIPE_V>"));
  CHECK(contains(findings[0].message, "UB bytes [512, 520)"));
}

TEST_CASE("Select modes 1 and 2 order earlier V writes themselves (CANN's internal PipeBarrier<PIPE_V>)") {
  for (SELMODE mode : {SELMODE::VSEL_TENSOR_SCALAR_MODE, SELMODE::VSEL_TENSOR_TENSOR_MODE}) {
    CAPTURE(int(mode));
    std::vector<float> out;
    const Findings findings = runPipeline(false, mode, out);
    INFO(describeAll(findings));
    CHECK(findings.empty());
    for (size_t i = 0; i < 64; ++i) CHECK(out[i] == pipelineExpected(i, mode));
  }
}

TEST_CASE("Select mode 1 ends without a barrier; modes 0 and 2 end with one") {
  for (SELMODE mode : {SELMODE::VSEL_CMPMASK_SPR, SELMODE::VSEL_TENSOR_SCALAR_MODE, SELMODE::VSEL_TENSOR_TENSOR_MODE}) {
    CAPTURE(int(mode));
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 2048);
      AscendC::LocalTensor<float> a = ub.GetWithOffset<float>(64, 0);
      AscendC::LocalTensor<uint8_t> m = ub.GetWithOffset<uint8_t>(32, 256);
      AscendC::LocalTensor<float> d = ub.GetWithOffset<float>(64, 512);
      AscendC::Duplicate(a, 1.0f, 64);
      AscendC::Duplicate(m, uint8_t(0x0F), 32);
      AscendC::PipeBarrier<PIPE_V>();
      if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) AscendC::Select(d, m, a, 0.0f, mode, 64);
      else AscendC::Select(d, m, a, a, mode, 64);
      AscendC::Adds(a, d, 1.0f, 64);  // reads d
    });
    INFO(describeAll(findings));
    CHECK(countKind(findings, FindingKind::hazard_raw) == (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE ? 1u : 0u));
  }
}

TEST_CASE("Select modes 1 and 2 overwrite CANN's reserved scratch area at UB 184 KiB") {
  float clobbered = 0;
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 192 * 1024);
    AscendC::LocalTensor<float> all = ub.Get<float>();
    AscendC::LocalTensor<float> a = all[0];
    AscendC::LocalTensor<uint8_t> m = ub.GetWithOffset<uint8_t>(32, 1024);
    AscendC::LocalTensor<float> d = all[512];
    AscendC::LocalTensor<float> kept = all[184 * 256];  // UB byte 184 KiB
    AscendC::Duplicate(a, 1.0f, 64);
    AscendC::Duplicate(m, uint8_t(0), 32);
    AscendC::Duplicate(kept, 42.0f, 64);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Select(d, m, a, 7.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
    sync<HardEvent::V_S>();
    clobbered = kept.GetValue(0);
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  CHECK(clobbered == 7.0f);  // the scalar, duplicated into the scratch block
}

TEST_CASE("CreateVecIndex: int32, float and half values") {
  std::vector<int32_t> ints(300);
  std::vector<float> floats(100);
  std::vector<uint16_t> halves(200);
  std::vector<int16_t> shorts(20);
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 4096);
    AscendC::LocalTensor<int32_t> i32 = ub.GetWithOffset<int32_t>(300, 0);
    AscendC::LocalTensor<float> f32 = ub.GetWithOffset<float>(100, 1216);
    AscendC::LocalTensor<half> f16 = ub.GetWithOffset<half>(200, 1632);
    AscendC::LocalTensor<int16_t> i16 = ub.GetWithOffset<int16_t>(20, 2048);
    AscendC::CreateVecIndex(i32, int32_t(-5), 300);
    AscendC::CreateVecIndex(f32, 0.5f, 100);
    AscendC::CreateVecIndex(f16, half(2000.0f), 200);  // beyond 2048 halves step by 2
    AscendC::CreateVecIndex(i16, int16_t(7), 20);
    sync<HardEvent::V_S>();
    for (uint32_t i = 0; i < 300; ++i) ints[i] = i32.GetValue(i);
    for (uint32_t i = 0; i < 100; ++i) floats[i] = f32.GetValue(i);
    for (uint32_t i = 0; i < 200; ++i) halves[i] = f16.GetValue(i).bits();
    for (uint32_t i = 0; i < 20; ++i) shorts[i] = i16.GetValue(i);
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  for (int32_t i = 0; i < 300; ++i) CHECK(ints[size_t(i)] == i - 5);
  for (int32_t i = 0; i < 100; ++i) CHECK(floats[size_t(i)] == 0.5f + float(i));
  for (int32_t i = 0; i < 20; ++i) CHECK(shorts[size_t(i)] == 7 + i);
  CHECK(halves[0] == half(2000.0f).bits());
  CHECK(halves[47] == half(2047.0f).bits());
  CHECK(halves[48] == half(2048.0f).bits());
  CHECK(halves[199] == half(2048.0f + 151.0f).bits());  // 2199 rounds to even: 2200
  CHECK(halves[199] == half(2200.0f).bits());
}

TEST_CASE("CreateVecIndex writes its first block on pipe S: it must wait for earlier V readers") {
  for (bool synced : {false, true}) {
    CAPTURE(synced);
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 2048);
      AscendC::LocalTensor<float> idx = ub.GetWithOffset<float>(64, 0);
      AscendC::LocalTensor<float> d = ub.GetWithOffset<float>(64, 256);
      AscendC::Duplicate(idx, 0.0f, 64);
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::Adds(d, idx, 1.0f, 64);  // V reads idx
      if (synced) sync<HardEvent::V_S>();
      AscendC::CreateVecIndex(idx, 0.0f, 64);
    });
    INFO(describeAll(findings));
    CHECK(countKind(findings, FindingKind::hazard_war) == (synced ? 0u : 1u));
  }
}
