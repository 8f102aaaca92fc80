// Tests of the cube path of tlec's AscendC emulation (stdlib/include/tle/ascendc/emu/cube.h):
// GM -> L1 (DataCopy with Nd2NzParams), L1 -> L0A/L0B (LoadData), Mmad into L0C, L0C -> GM
// (Fixpipe), their layouts, numbers, hazards and misuse findings. main() is in
// EmulationTests.cpp.
#include <doctest/doctest.h>

#include "tle/ascendc/emu/kernel_operator.h"
#include "FindingsSupport.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using tle::ascendc::emu::CoreKind;
using tle::ascendc::emu::Finding;
using tle::ascendc::emu::FindingKind;
using tle::ascendc::emu::Findings;
using tle::ascendc::emu::LaunchOptions;
using tle::ascendc::emu::launch;

namespace {

using emu_test::contains;
using emu_test::countKind;
using emu_test::describeAll;
using emu_test::sync;

using AscendC::HardEvent;
using AscendC::TPosition;

LaunchOptions cubeCore() {
  LaunchOptions options;
  options.coreKind = CoreKind::cube;
  return options;
}

Findings launchCube(const std::function<void()> &kernel) { return launch(1, kernel, cubeCore()); }

// Test-only look into a tensor's memory, outside the hazard model (the scalar unit of a cube
// core cannot read L0A/L0B/L0C).
template <class T>
T peek(const AscendC::LocalTensor<T> &t, uint64_t index) {
  T value;
  const auto &r = t.emuRegion();
  std::memcpy(&value, tle::ascendc::emu::currentCore().memory(r.memory) + r.byteOffset + index * sizeof(T), sizeof(T));
  return value;
}

template <class T>
bool peekDefined(const AscendC::LocalTensor<T> &t, uint64_t index) {
  const auto &r = t.emuRegion();
  const uint8_t *defined = tle::ascendc::emu::currentCore().definedBytes(r.memory) + r.byteOffset + index * sizeof(T);
  return std::all_of(defined, defined + sizeof(T), [](uint8_t b) { return b != 0; });
}

uint16_t ceil16(uint32_t v) { return uint16_t((v + 15) / 16 * 16); }

// Inputs: multiples of 1/8 in [-3.75, 3.75]. Products are multiples of 1/64 and every partial
// sum of up to 64 of them is exact in float (and in double), so the float result equals the
// double reference whatever the summation order; the sums need more bits than half has, so
// F322F16 must round.
std::vector<half> matrixA(uint32_t m, uint32_t k) {
  std::vector<half> a(size_t(m) * k);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t kk = 0; kk < k; ++kk) a[size_t(i) * k + kk] = half(float(int((i * 7 + kk * 3) % 61) - 30) / 8.0f);
  return a;
}

std::vector<half> matrixB(uint32_t k, uint32_t n) {
  std::vector<half> b(size_t(k) * n);
  for (uint32_t kk = 0; kk < k; ++kk)
    for (uint32_t j = 0; j < n; ++j) b[size_t(kk) * n + j] = half(float(int((kk * 5 + j * 11 + 3) % 53) - 26) / 8.0f);
  return b;
}

template <class In>
std::vector<double> reference(const std::vector<In> &a, const std::vector<In> &b, uint32_t m, uint32_t k, uint32_t n) {
  std::vector<double> c(size_t(m) * n, 0.0);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j)
      for (uint32_t kk = 0; kk < k; ++kk)
        c[size_t(i) * n + j] += double(float(a[size_t(i) * k + kk])) * double(float(b[size_t(kk) * n + j]));
  return c;
}

// The synchronisation of the matmul kernel; tests drop one at a time.
struct CubeSync {
  bool mte2ToMte1 = true;  // DataCopy (Nd2Nz) into L1 before LoadData reads L1
  bool mte1ToM = true;     // LoadData into L0A/L0B before Mmad reads them
  bool mToFix = true;      // Mmad into L0C before Fixpipe reads it
};

// C[m, n] = A[m, k] B[k, n] on one cube core, the call sequence of CANN's basic matmul example
// (matmul_basic_api.asc) written for any m, k, n: GM -> L1 as NZ, L1 -> L0A (Nz -> Zz, one
// LoadData per 16-row block of A), L1 -> L0B (Nz -> Zn with transposition, one LoadData per
// 16-row block of B), Mmad, Fixpipe NZ -> ND with the cast quantPre names. Tails (sizes that are
// not multiples of 16) use fractal-padded buffers and the true sizes everywhere else.
template <class In, class Out>
void cubeMatmulKernel(GM_ADDR aGm, GM_ADDR bGm, GM_ADDR cGm, uint16_t m, uint16_t k, uint16_t n, QuantMode_t quant,
                      CubeSync s) {
  const uint16_t mp = ceil16(m), kp = ceil16(k), np = ceil16(n);
  const uint16_t mBlocks = uint16_t(mp / 16), kBlocks = uint16_t(kp / 16), nBlocks = uint16_t(np / 16);
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::A1> a1Buf;
  AscendC::TBuf<TPosition::B1> b1Buf;
  AscendC::TBuf<TPosition::A2> a2Buf;
  AscendC::TBuf<TPosition::B2> b2Buf;
  AscendC::TBuf<TPosition::CO1> c1Buf;
  pipe.InitBuffer(a1Buf, uint32_t(mp) * kp * sizeof(In));
  pipe.InitBuffer(b1Buf, uint32_t(kp) * np * sizeof(In));
  pipe.InitBuffer(a2Buf, uint32_t(mp) * kp * sizeof(In));
  pipe.InitBuffer(b2Buf, uint32_t(kp) * np * sizeof(In));
  pipe.InitBuffer(c1Buf, uint32_t(mp) * np * sizeof(float));
  AscendC::GlobalTensor<In> a, b;
  AscendC::GlobalTensor<Out> c;
  a.SetGlobalBuffer((__gm__ In *)aGm, uint64_t(m) * k);
  b.SetGlobalBuffer((__gm__ In *)bGm, uint64_t(k) * n);
  c.SetGlobalBuffer((__gm__ Out *)cGm, uint64_t(m) * n);
  AscendC::LocalTensor<In> a1 = a1Buf.Get<In>(), b1 = b1Buf.Get<In>();
  AscendC::LocalTensor<In> a2 = a2Buf.Get<In>(), b2 = b2Buf.Get<In>();
  AscendC::LocalTensor<float> c1 = c1Buf.Get<float>();

  // {ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride, dstNzMatrixStride}
  AscendC::DataCopy(a1, a, AscendC::Nd2NzParams{1, m, k, 0, k, mp, 1, 0});
  AscendC::DataCopy(b1, b, AscendC::Nd2NzParams{1, k, n, 0, n, kp, 1, 0});
  if (s.mte2ToMte1) sync<HardEvent::MTE2_MTE1>();
  // {startIndex, repeatTimes, srcStride, sid, dstGap, ifTranspose, addrMode}
  for (uint16_t i = 0; i < mBlocks; ++i)
    AscendC::LoadData(a2[uint32_t(i) * kp * 16], a1[uint32_t(i) * 256],
                      AscendC::LoadData2DParams{0, uint8_t(kBlocks), mBlocks, 0, 0, false, 0});
  for (uint16_t i = 0; i < kBlocks; ++i)
    AscendC::LoadData(b2[uint32_t(i) * np * 16], b1[uint32_t(i) * 256],
                      AscendC::LoadData2DParams{0, uint8_t(nBlocks), kBlocks, 0, 0, true, 0});
  if (s.mte1ToM) sync<HardEvent::MTE1_M>();
  // {m, n, k, unitFlag, cmatrixSource, cmatrixInitVal}
  AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{m, n, k, 0, false, true});
  if (s.mToFix) sync<HardEvent::M_FIX>();
  // {nSize, mSize, srcStride, dstStride, reluEn, quantPre, deqScalar, ndNum, srcNdStride, dstNdStride, unitFlag}
  AscendC::Fixpipe<Out, float, AscendC::CFG_ROW_MAJOR>(
      c, c1, AscendC::FixpipeParamsV220{n, m, mp, n, false, quant, 0, 1, 0, 0, 0});
  AscendC::PipeBarrier<PIPE_ALL>();
}

// Runs the kernel on A and B from matrixA/matrixB (converted to In) and checks C against the
// double reference, rounded to Out as the hardware rounds (float: exact; half/bfloat16_t:
// nearest even). Returns the findings.
template <class In, class Out>
Findings runMatmul(uint16_t m, uint16_t k, uint16_t n, QuantMode_t quant, CubeSync s = {}, size_t *inexact = nullptr) {
  const std::vector<half> ah = matrixA(m, k), bh = matrixB(k, n);
  std::vector<In> a(ah.size()), b(bh.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = In(float(ah[i]));
  for (size_t i = 0; i < b.size(); ++i) b[i] = In(float(bh[i]));
  std::vector<Out> c(size_t(m) * n + 16, Out(-7.0f));
  const Findings findings = launchCube(
      [&] { cubeMatmulKernel<In, Out>((GM_ADDR)a.data(), (GM_ADDR)b.data(), (GM_ADDR)c.data(), m, k, n, quant, s); });
  const std::vector<double> ref = reference(a, b, m, k, n);
  size_t roundedAway = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    CAPTURE(i);
    const Out expected = Out(ref[i]);  // round to nearest even (exact for float here)
    REQUIRE(float(c[i]) == float(expected));
    if (double(float(expected)) != ref[i]) ++roundedAway;
  }
  for (size_t i = ref.size(); i < c.size(); ++i) REQUIRE(float(c[i]) == -7.0f);  // nothing beyond m x n
  if (inexact) *inexact = roundedAway;
  return findings;
}

}  // namespace

TEST_CASE("cube matmul: C = A B with fp16 inputs, float and fp16 outputs, exact, no findings") {
  struct Shape {
    uint16_t m, k, n;
  };
  for (Shape shape : {Shape{32, 32, 32}, Shape{48, 64, 32}, Shape{16, 16, 16}, Shape{32, 48, 80}}) {
    CAPTURE(shape.m);
    CAPTURE(shape.k);
    CAPTURE(shape.n);
    SUBCASE("float out (NoQuant)") {
      const Findings findings = runMatmul<half, float>(shape.m, shape.k, shape.n, QuantMode_t::NoQuant);
      INFO(describeAll(findings));
      CHECK(findings.empty());
    }
    SUBCASE("fp16 out (F322F16, round to nearest even)") {
      size_t inexact = 0;
      const Findings findings = runMatmul<half, half>(shape.m, shape.k, shape.n, QuantMode_t::F322F16, {}, &inexact);
      INFO(describeAll(findings));
      CHECK(findings.empty());
      if (shape.k >= 32) CHECK(inexact > 0);  // the cast did round
    }
  }
}

TEST_CASE("cube matmul: bfloat16_t inputs with float and bfloat16_t outputs") {
  size_t inexact = 0;
  Findings findings = runMatmul<bfloat16_t, float>(48, 64, 32, QuantMode_t::NoQuant);
  INFO(describeAll(findings));
  CHECK(findings.empty());
  findings = runMatmul<bfloat16_t, bfloat16_t>(48, 64, 32, QuantMode_t::F322BF16, {}, &inexact);
  CHECK(findings.empty());
  CHECK(inexact > 0);
}

TEST_CASE("cube matmul with tails: sizes that are not multiples of 16 use padded fractals") {
  // A's rows beyond m and B's rows beyond k are never written in L1 (ND2NZ leaves them); Mmad
  // ignores them, so no finding, and Fixpipe writes exactly m x n.
  for (uint16_t m : {uint16_t(30), uint16_t(17)}) {
    CAPTURE(m);
    const Findings findings = runMatmul<half, float>(m, 40, 20, QuantMode_t::NoQuant);
    INFO(describeAll(findings));
    CHECK(findings.empty());
  }
}

TEST_CASE("Mmad with m = 1 is GEMV: A is read as K contiguous elements") {
  constexpr uint16_t k = 48, n = 32;
  const std::vector<half> a = matrixA(1, k), b = matrixB(k, n);
  const std::vector<double> ref = reference(a, b, 1, k, n);
  SUBCASE("A loaded as ND (one row, K contiguous) into L0A") {
    std::vector<float> c(n, -7.0f);
    const Findings findings = launchCube([&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::A1> a1Buf;
      AscendC::TBuf<TPosition::B1> b1Buf;
      AscendC::TBuf<TPosition::A2> a2Buf;
      AscendC::TBuf<TPosition::B2> b2Buf;
      AscendC::TBuf<TPosition::CO1> c1Buf;
      pipe.InitBuffer(a1Buf, 512);
      pipe.InitBuffer(b1Buf, k * n * 2);
      pipe.InitBuffer(a2Buf, 512);
      pipe.InitBuffer(b2Buf, k * n * 2);
      pipe.InitBuffer(c1Buf, 16 * n * 4);
      AscendC::GlobalTensor<half> ag, bg;
      AscendC::GlobalTensor<float> cg;
      ag.SetGlobalBuffer(const_cast<half *>(a.data()), a.size());
      bg.SetGlobalBuffer(const_cast<half *>(b.data()), b.size());
      cg.SetGlobalBuffer(c.data(), c.size());
      AscendC::LocalTensor<half> a1 = a1Buf.Get<half>(), b1 = b1Buf.Get<half>(), a2 = a2Buf.Get<half>(),
                                 b2 = b2Buf.Get<half>();
      AscendC::LocalTensor<float> c1 = c1Buf.Get<float>();
      AscendC::DataCopy(a1, ag, k);  // ND: 96 bytes
      AscendC::DataCopy(b1, bg, AscendC::Nd2NzParams{1, k, n, 0, n, k, 1, 0});
      sync<HardEvent::MTE2_MTE1>();
      AscendC::LoadData(a2, a1, AscendC::LoadData2DParams{0, 1, 1, 0, 0, false, 0});
      for (uint16_t i = 0; i < k / 16; ++i)
        AscendC::LoadData(b2[uint32_t(i) * n * 16], b1[uint32_t(i) * 256],
                          AscendC::LoadData2DParams{0, n / 16, k / 16, 0, 0, true, 0});
      sync<HardEvent::MTE1_M>();
      AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{1, n, k, 0, false, true});
      sync<HardEvent::M_FIX>();
      AscendC::Fixpipe(cg, c1, AscendC::FixpipeParamsV220{n, 1, 16, n, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
    });
    INFO(describeAll(findings));
    CHECK(findings.empty());
    for (uint32_t j = 0; j < n; ++j) REQUIRE(double(c[j]) == ref[j]);
  }
  SUBCASE("A loaded as Zz (as for m > 1): GEMV reads rows 1 and 2 of the first fractal") {
    std::vector<half> aIn = a, bIn = b;
    std::vector<float> c(n, -7.0f);
    const Findings findings = launchCube([&] {
      cubeMatmulKernel<half, float>((GM_ADDR)aIn.data(), (GM_ADDR)bIn.data(), (GM_ADDR)c.data(), 1, k, n,
                                    QuantMode_t::NoQuant, CubeSync{});
    });
    INFO(describeAll(findings));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::uninitialised_read);
    CHECK(contains(findings[0].message, "M Mmad #1 reads L0A bytes [32, 96) that hold no defined data"));
    CHECK(std::isnan(c[0]));  // the poison of the undefined bytes came through
  }
}

TEST_CASE("cube matmul: each missing flag of the sequence is a hazard") {
  SUBCASE("without MTE1_M, Mmad reads L0A/L0B that LoadData is still writing") {
    CubeSync s;
    s.mte1ToM = false;
    const Findings findings = runMatmul<half, float>(32, 32, 32, QuantMode_t::NoQuant, s);
    INFO(describeAll(findings));
    REQUIRE(findings.size() == 4);  // one per LoadData: 2 into L0A, 2 into L0B
    CHECK(countKind(findings, FindingKind::hazard_raw) == 4);
    CHECK(contains(findings[0].message, "M Mmad #1 reads L0A bytes [0, 1024) written by MTE1 LoadData #1"));
    CHECK(contains(findings[0].message, "with no SetFlag/WaitFlag MTE1_M ordering them"));
    CHECK(contains(findings[3].message, "M Mmad #1 reads L0B bytes [1024, 2048) written by MTE1 LoadData #4"));
  }
  SUBCASE("without MTE2_MTE1, LoadData reads L1 that the ND2NZ copy is still writing") {
    CubeSync s;
    s.mte2ToMte1 = false;
    const Findings findings = runMatmul<half, float>(48, 64, 32, QuantMode_t::NoQuant, s);
    INFO(describeAll(findings));
    CHECK(findings.size() == 3 + 4);  // 3 LoadData of A, 4 of B
    CHECK(countKind(findings, FindingKind::hazard_raw) == findings.size());
    CHECK(contains(findings[0].message, "MTE1 LoadData #1 reads L1 bytes"));
    CHECK(contains(findings[0].message, "written by MTE2 DataCopy #1 with no SetFlag/WaitFlag MTE2_MTE1"));
  }
  SUBCASE("without M_FIX, Fixpipe reads L0C that Mmad is still writing") {
    CubeSync s;
    s.mToFix = false;
    const Findings findings = runMatmul<half, half>(32, 32, 32, QuantMode_t::F322F16, s);
    INFO(describeAll(findings));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::hazard_raw);
    CHECK(contains(findings[0].message,
                   "FIX Fixpipe #1 reads L0C bytes [0, 4096) written by M Mmad #1 with no SetFlag/WaitFlag M_FIX"));
  }
}

namespace {

// C[m, n] = A[m, 0:k/2] B[0:k/2, n] then C += A[m, k/2:k] B[k/2:k, n]: two Mmads into one L0C
// tile, the second with cmatrixInitVal = false. Each K half gets its own L0A/L0B buffers.
void accumulateKernel(GM_ADDR aGm, GM_ADDR bGm, GM_ADDR cGm, uint16_t m, uint16_t k, uint16_t n, bool barrier) {
  const uint16_t half_k = uint16_t(k / 2);
  const uint16_t mBlocks = uint16_t(m / 16), kBlocks = uint16_t(k / 16), nBlocks = uint16_t(n / 16);
  const uint16_t halfBlocks = uint16_t(kBlocks / 2);
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::A1> a1Buf;
  AscendC::TBuf<TPosition::B1> b1Buf;
  AscendC::TBuf<TPosition::A2> a2Buf;
  AscendC::TBuf<TPosition::B2> b2Buf;
  AscendC::TBuf<TPosition::CO1> c1Buf;
  pipe.InitBuffer(a1Buf, uint32_t(m) * k * 2);
  pipe.InitBuffer(b1Buf, uint32_t(k) * n * 2);
  pipe.InitBuffer(a2Buf, uint32_t(m) * k * 2);
  pipe.InitBuffer(b2Buf, uint32_t(k) * n * 2);
  pipe.InitBuffer(c1Buf, uint32_t(m) * n * 4);
  AscendC::GlobalTensor<half> a, b;
  AscendC::GlobalTensor<float> c;
  a.SetGlobalBuffer((__gm__ half *)aGm, uint64_t(m) * k);
  b.SetGlobalBuffer((__gm__ half *)bGm, uint64_t(k) * n);
  c.SetGlobalBuffer((__gm__ float *)cGm, uint64_t(m) * n);
  AscendC::LocalTensor<half> a1 = a1Buf.Get<half>(), b1 = b1Buf.Get<half>();
  AscendC::LocalTensor<half> a2 = a2Buf.Get<half>(), b2 = b2Buf.Get<half>();
  AscendC::LocalTensor<float> c1 = c1Buf.Get<float>();
  AscendC::DataCopy(a1, a, AscendC::Nd2NzParams{1, m, k, 0, k, m, 1, 0});
  AscendC::DataCopy(b1, b, AscendC::Nd2NzParams{1, k, n, 0, n, k, 1, 0});
  sync<HardEvent::MTE2_MTE1>();
  for (uint16_t h = 0; h < 2; ++h) {
    // A's K half h: fractal columns h*halfBlocks.. of A's NZ layout (column block c starts at
    // fractal c * mBlocks), into its own m x k/2 Zz tile.
    AscendC::LocalTensor<half> a2h = a2[uint32_t(h) * m * half_k];
    for (uint16_t i = 0; i < mBlocks; ++i)
      AscendC::LoadData(a2h[uint32_t(i) * half_k * 16], a1,
                        AscendC::LoadData2DParams{uint16_t(h * halfBlocks * mBlocks + i), uint8_t(halfBlocks),
                                                  mBlocks, 0, 0, false, 0});
    AscendC::LocalTensor<half> b2h = b2[uint32_t(h) * half_k * n];
    for (uint16_t i = 0; i < halfBlocks; ++i)
      AscendC::LoadData(b2h[uint32_t(i) * n * 16], b1[uint32_t(h * halfBlocks + i) * 256],
                        AscendC::LoadData2DParams{0, uint8_t(nBlocks), kBlocks, 0, 0, true, 0});
  }
  sync<HardEvent::MTE1_M>();
  AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{m, n, half_k, 0, false, true});
  if (barrier) AscendC::PipeBarrier<PIPE_M>();
  AscendC::Mmad(c1, a2[uint32_t(m) * half_k], b2[uint32_t(half_k) * n], AscendC::MmadParams{m, n, half_k, 0, false, false});
  sync<HardEvent::M_FIX>();
  AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(
      c, c1, AscendC::FixpipeParamsV220{n, m, m, n, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
}

Findings runAccumulate(uint16_t m, uint16_t k, uint16_t n, bool barrier) {
  const std::vector<half> a = matrixA(m, k), b = matrixB(k, n);
  std::vector<float> c(size_t(m) * n, -7.0f);
  const Findings findings =
      launchCube([&] { accumulateKernel((GM_ADDR)a.data(), (GM_ADDR)b.data(), (GM_ADDR)c.data(), m, k, n, barrier); });
  const std::vector<double> ref = reference(a, b, m, k, n);
  for (size_t i = 0; i < ref.size(); ++i) {
    CAPTURE(i);
    REQUIRE(double(c[i]) == ref[i]);
  }
  return findings;
}

}  // namespace

TEST_CASE("Mmad accumulates over K: cmatrixInitVal true, then false adds to L0C") {
  SUBCASE("with PipeBarrier<PIPE_M> between the two Mmads") {
    const Findings findings = runAccumulate(32, 64, 32, true);
    INFO(describeAll(findings));
    CHECK(findings.empty());
  }
  SUBCASE("a small tile ((m/16)*(n/16) < 10) needs PipeBarrier<PIPE_M>") {
    const Findings findings = runAccumulate(32, 64, 32, false);
    INFO(describeAll(findings));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::hazard_raw);
    CHECK(contains(findings[0].message,
                   "M Mmad #2 reads L0C bytes [0, 4096) written by M Mmad #1 with no PipeBarrier<PIPE_M>"));
  }
  SUBCASE("a large tile ((m/16)*(n/16) >= 10): the hardware orders the two itself") {
    const Findings findings = runAccumulate(64, 32, 48, false);
    INFO(describeAll(findings));
    CHECK(findings.empty());
  }
}

TEST_CASE("DataCopy with Nd2NzParams: element (r, c) lands where the NZ formula says") {
  SUBCASE("half, two ND matrices, row padding zeroed, rows beyond nValue untouched") {
    // Two 20 x 23 matrices in GM rows of 40 halves, 20 rows apart (800 elements); in L1 two NZ
    // matrices of 2 column blocks x 32 rows x 16, 1024 elements apart.
    constexpr uint16_t nd = 2, rows = 20, cols = 23, srcD = 40, c0Stride = 32, matrixStride = 1024;
    std::vector<half> gm(size_t(nd) * rows * srcD);
    for (size_t i = 0; i < gm.size(); ++i) gm[i] = half(float(i % 2000));
    std::vector<half> fill(2048, half(-7.0f));
    bool layoutOk = true, padOk = true, untouchedOk = true;
    const Findings findings = launchCube([&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::A1> l1Buf;
      pipe.InitBuffer(l1Buf, 4096);
      AscendC::LocalTensor<half> l1 = l1Buf.Get<half>();
      AscendC::GlobalTensor<half> src, sentinel;
      src.SetGlobalBuffer(gm.data(), gm.size());
      sentinel.SetGlobalBuffer(fill.data(), fill.size());
      AscendC::DataCopy(l1, sentinel, 2048);  // MTE2 after MTE2: in order
      AscendC::DataCopy(l1, src, AscendC::Nd2NzParams{nd, rows, cols, rows * srcD, srcD, c0Stride, 1, matrixStride});
      for (uint32_t d = 0; d < nd; ++d)
        for (uint32_t r = 0; r < 32; ++r)
          for (uint32_t c = 0; c < 32; ++c) {
            const float got = float(peek(l1, d * matrixStride + (c / 16) * c0Stride * 16 + r * 16 + c % 16));
            if (r < rows && c < cols) layoutOk = layoutOk && got == float(gm[d * rows * srcD + r * srcD + c]);
            else if (r < rows) padOk = padOk && got == 0.0f;  // the last C0 block of a row: zeros
            else untouchedOk = untouchedOk && got == -7.0f;  // rows 20..31: never written
          }
    });
    INFO(describeAll(findings));
    CHECK(findings.empty());
    CHECK(layoutOk);
    CHECK(padOk);
    CHECK(untouchedOk);
  }
  SUBCASE("float: C0 = 8, dstNzNStride = 2 leaves a block between rows") {
    constexpr uint16_t rows = 5, cols = 11, c0Stride = 16;
    std::vector<float> gm(size_t(rows) * cols);
    for (size_t i = 0; i < gm.size(); ++i) gm[i] = float(i) + 0.5f;
    bool layoutOk = true, padOk = true, gapUndefined = true;
    const Findings findings = launchCube([&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::B1> l1Buf;
      pipe.InitBuffer(l1Buf, 2 * c0Stride * 32);
      AscendC::LocalTensor<float> l1 = l1Buf.Get<float>();
      AscendC::GlobalTensor<float> src;
      src.SetGlobalBuffer(gm.data(), gm.size());
      AscendC::DataCopy(l1, src, AscendC::Nd2NzParams{1, rows, cols, 0, cols, c0Stride, 2, 0});
      for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < 16; ++c) {
          const uint32_t at = (c / 8) * c0Stride * 8 + r * 2 * 8 + c % 8;
          if (c < cols) layoutOk = layoutOk && peek(l1, at) == gm[r * cols + c];
          else padOk = padOk && peek(l1, at) == 0.0f && peekDefined(l1, at);
          gapUndefined = gapUndefined && !peekDefined(l1, at + 8);  // the odd rows of the NZ slab
        }
    });
    INFO(describeAll(findings));
    CHECK(findings.empty());
    CHECK(layoutOk);
    CHECK(padOk);
    CHECK(gapUndefined);
  }
}

TEST_CASE("LoadData moves 512-byte fractals: startIndex, srcStride, dstGap and transposition") {
  // Four 16 x 16 half fractals in L1, element (f, r, c) = f * 256 + r * 16 + c.
  std::vector<half> gm(1024);
  for (size_t i = 0; i < gm.size(); ++i) gm[i] = half(float(i));
  bool transposedOk = true, gapUndefined = true, plainOk = true;
  const Findings findings = launchCube([&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::B1> l1Buf;
    AscendC::TBuf<TPosition::B2> l0bBuf;
    AscendC::TBuf<TPosition::A2> l0aBuf;
    pipe.InitBuffer(l1Buf, 2048);
    pipe.InitBuffer(l0bBuf, 2048);
    pipe.InitBuffer(l0aBuf, 2048);
    AscendC::LocalTensor<half> l1 = l1Buf.Get<half>(), l0b = l0bBuf.Get<half>(), l0a = l0aBuf.Get<half>();
    AscendC::GlobalTensor<half> src;
    src.SetGlobalBuffer(gm.data(), gm.size());
    AscendC::DataCopy(l1, src, 1024);
    sync<HardEvent::MTE2_MTE1>();
    // Fractals 1 and 3, transposed, into destination fractals 0 and 2 (one fractal gap).
    AscendC::LoadData(l0b, l1, AscendC::LoadData2DParams{1, 2, 2, 0, 1, true, 0});
    // Fractals 2 and 3 as they are, from a source offset by one fractal (startIndex 1).
    AscendC::LoadData(l0a, l1[256], AscendC::LoadData2DParams{1, 2, 1, 0, 0, false, 0});
    for (uint32_t r = 0; r < 16; ++r)
      for (uint32_t c = 0; c < 16; ++c) {
        transposedOk = transposedOk && float(peek(l0b, r * 16 + c)) == float(1 * 256 + c * 16 + r) &&
                       float(peek(l0b, 512 + r * 16 + c)) == float(3 * 256 + c * 16 + r);
        gapUndefined = gapUndefined && !peekDefined(l0b, 256 + r * 16 + c);
        plainOk = plainOk && float(peek(l0a, r * 16 + c)) == float(2 * 256 + r * 16 + c) &&
                  float(peek(l0a, 256 + r * 16 + c)) == float(3 * 256 + r * 16 + c);
      }
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  CHECK(transposedOk);
  CHECK(gapUndefined);
  CHECK(plainOk);
}

namespace {

// Mmad of 32 x 32 x 32 (inputs as in the matmul tests), then Fixpipe of a window or a layout.
template <class Out, const AscendC::FixpipeConfig &config>
Findings mmadThenFixpipe(Out *out, size_t outSize, const AscendC::FixpipeParamsV220 &params) {
  const std::vector<half> a = matrixA(32, 32), b = matrixB(32, 32);
  return launchCube([&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::A1> a1Buf;
    AscendC::TBuf<TPosition::B1> b1Buf;
    AscendC::TBuf<TPosition::A2> a2Buf;
    AscendC::TBuf<TPosition::B2> b2Buf;
    AscendC::TBuf<TPosition::CO1> c1Buf;
    pipe.InitBuffer(a1Buf, 2048);
    pipe.InitBuffer(b1Buf, 2048);
    pipe.InitBuffer(a2Buf, 2048);
    pipe.InitBuffer(b2Buf, 2048);
    pipe.InitBuffer(c1Buf, 4096);
    AscendC::GlobalTensor<half> ag, bg;
    AscendC::GlobalTensor<Out> cg;
    ag.SetGlobalBuffer(const_cast<half *>(a.data()), a.size());
    bg.SetGlobalBuffer(const_cast<half *>(b.data()), b.size());
    cg.SetGlobalBuffer(out, outSize);
    AscendC::LocalTensor<half> a1 = a1Buf.Get<half>(), b1 = b1Buf.Get<half>(), a2 = a2Buf.Get<half>(),
                               b2 = b2Buf.Get<half>();
    AscendC::LocalTensor<float> c1 = c1Buf.Get<float>();
    AscendC::DataCopy(a1, ag, AscendC::Nd2NzParams{1, 32, 32, 0, 32, 32, 1, 0});
    AscendC::DataCopy(b1, bg, AscendC::Nd2NzParams{1, 32, 32, 0, 32, 32, 1, 0});
    sync<HardEvent::MTE2_MTE1>();
    for (uint32_t i = 0; i < 2; ++i) {
      AscendC::LoadData(a2[i * 512], a1[i * 256], AscendC::LoadData2DParams{0, 2, 2, 0, 0, false, 0});
      AscendC::LoadData(b2[i * 512], b1[i * 256], AscendC::LoadData2DParams{0, 2, 2, 0, 0, true, 0});
    }
    sync<HardEvent::MTE1_M>();
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 32, 32, 0, false, true});
    sync<HardEvent::M_FIX>();
    AscendC::Fixpipe<Out, float, config>(cg, c1, params);
  });
}

}  // namespace

TEST_CASE("Fixpipe writes only the mSize x nSize window, dstStride elements apart") {
  const std::vector<double> ref = reference(matrixA(32, 32), matrixB(32, 32), 32, 32, 32);
  constexpr uint32_t stride = 40;
  std::vector<float> out(32 * stride, -7.0f);
  // 20 x 24 of the 32 x 32 result: the second 16-column block only partly.
  const Findings findings = mmadThenFixpipe<float, AscendC::CFG_ROW_MAJOR>(
      out.data(), out.size(), AscendC::FixpipeParamsV220{24, 20, 32, stride, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
  INFO(describeAll(findings));
  CHECK(findings.empty());
  for (uint32_t i = 0; i < 32; ++i)
    for (uint32_t j = 0; j < stride; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      if (i < 20 && j < 24) REQUIRE(double(out[i * stride + j]) == ref[i * 32 + j]);
      else REQUIRE(out[i * stride + j] == -7.0f);
    }
}

TEST_CASE("Fixpipe CFG_NZ keeps the NZ layout; ReLU; two ND matrices") {
  const std::vector<double> ref = reference(matrixA(32, 32), matrixB(32, 32), 32, 32, 32);
  SUBCASE("NZ2NZ: 16-column blocks dstStride 32-byte units apart") {
    // 20 rows x 32 columns; each block is 20 rows of 16 floats (1280 bytes), then a 256-byte gap.
    // An NZ destination starts 32-byte aligned in GM.
    std::vector<float> storage(2 * 384 + 8, -7.0f);
    float *out = storage.data();
    while (reinterpret_cast<uintptr_t>(out) % 32 != 0) ++out;
    const Findings findings = mmadThenFixpipe<float, AscendC::CFG_NZ>(
        out, 2 * 384, AscendC::FixpipeParamsV220{32, 20, 32, 48, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
    INFO(describeAll(findings));
    CHECK(findings.empty());
    for (uint32_t b = 0; b < 2; ++b)
      for (uint32_t e = 0; e < 384; ++e) {
        const uint32_t i = e / 16, j = b * 16 + e % 16;
        if (i < 20) REQUIRE(double(out[b * 384 + e]) == ref[i * 32 + j]);
        else REQUIRE(out[b * 384 + e] == -7.0f);
      }
  }
  SUBCASE("reluEn zeroes negative results before the cast") {
    std::vector<half> out(32 * 32, half(-7.0f));
    const Findings findings = mmadThenFixpipe<half, AscendC::CFG_ROW_MAJOR>(
        out.data(), out.size(), AscendC::FixpipeParamsV220{32, 32, 32, 32, true, QuantMode_t::F322F16, 0, 1, 0, 0, 0});
    CHECK(findings.empty());
    size_t negatives = 0;
    for (size_t i = 0; i < out.size(); ++i) {
      negatives += ref[i] < 0;
      REQUIRE(float(out[i]) == float(half(std::max(ref[i], 0.0))));
    }
    CHECK(negatives > 0);
  }
  SUBCASE("ndNum = 2: the two 16-row halves as separate ND matrices") {
    // Source matrices one 16 x 16 fractal (srcNdStride 1) apart: rows 0..15 and 16..31 of the
    // first column block; destination 600 elements apart, rows 16 elements apart.
    std::vector<float> out(1200, -7.0f);
    const Findings findings = mmadThenFixpipe<float, AscendC::CFG_ROW_MAJOR>(
        out.data(), out.size(), AscendC::FixpipeParamsV220{16, 16, 32, 16, false, QuantMode_t::NoQuant, 0, 2, 1, 600, 0});
    INFO(describeAll(findings));
    CHECK(findings.empty());
    for (uint32_t d = 0; d < 2; ++d)
      for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 16; ++j) REQUIRE(double(out[d * 600 + i * 16 + j]) == ref[(d * 16 + i) * 32 + j]);
    CHECK(out[256] == -7.0f);
    CHECK(out[856] == -7.0f);
  }
}

TEST_CASE("F322F16 and F322BF16 round to nearest, ties to even") {
  // C(i, j) = 2048 * A(i, 0) + t_j with A = 1 in column 0, t_j in column 1 of B: the sums lie
  // between halves (spacing 2 above 2048) and between bfloat16s (spacing 16 above 2048).
  const float ts[16] = {1, 3, 0.5f, 2.5f, 5, 7, 9, 8, -1, -3, 24, 40, 0, 2, 6, 10};
  std::vector<half> a(16 * 16, half(0.0f)), b(16 * 16, half(0.0f));
  for (uint32_t i = 0; i < 16; ++i) a[i * 16 + 0] = a[i * 16 + 1] = half(1.0f);
  for (uint32_t j = 0; j < 16; ++j) {
    b[0 * 16 + j] = half(2048.0f);
    b[1 * 16 + j] = half(ts[j]);
  }
  std::vector<half> h(256);
  std::vector<bfloat16_t> bf(256);
  const Findings findings = launchCube([&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::A1> a1Buf;
    AscendC::TBuf<TPosition::B1> b1Buf;
    AscendC::TBuf<TPosition::A2> a2Buf;
    AscendC::TBuf<TPosition::B2> b2Buf;
    AscendC::TBuf<TPosition::CO1> c1Buf;
    pipe.InitBuffer(a1Buf, 512);
    pipe.InitBuffer(b1Buf, 512);
    pipe.InitBuffer(a2Buf, 512);
    pipe.InitBuffer(b2Buf, 512);
    pipe.InitBuffer(c1Buf, 1024);
    AscendC::GlobalTensor<half> ag, bg, hg;
    AscendC::GlobalTensor<bfloat16_t> bfg;
    ag.SetGlobalBuffer(a.data(), 256);
    bg.SetGlobalBuffer(b.data(), 256);
    hg.SetGlobalBuffer(h.data(), 256);
    bfg.SetGlobalBuffer(bf.data(), 256);
    AscendC::LocalTensor<half> a1 = a1Buf.Get<half>(), b1 = b1Buf.Get<half>(), a2 = a2Buf.Get<half>(),
                               b2 = b2Buf.Get<half>();
    AscendC::LocalTensor<float> c1 = c1Buf.Get<float>();
    AscendC::DataCopy(a1, ag, AscendC::Nd2NzParams{1, 16, 16, 0, 16, 16, 1, 0});
    AscendC::DataCopy(b1, bg, AscendC::Nd2NzParams{1, 16, 16, 0, 16, 16, 1, 0});
    sync<HardEvent::MTE2_MTE1>();
    AscendC::LoadData(a2, a1, AscendC::LoadData2DParams{0, 1, 1, 0, 0, false, 0});
    AscendC::LoadData(b2, b1, AscendC::LoadData2DParams{0, 1, 1, 0, 0, true, 0});
    sync<HardEvent::MTE1_M>();
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{16, 16, 16, 0, false, true});
    sync<HardEvent::M_FIX>();
    AscendC::Fixpipe(hg, c1, AscendC::FixpipeParamsV220{16, 16, 16, 16, false, QuantMode_t::F322F16, 0, 1, 0, 0, 0});
    AscendC::Fixpipe(bfg, c1, AscendC::FixpipeParamsV220{16, 16, 16, 16, false, QuantMode_t::F322BF16, 0, 1, 0, 0, 0});
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  const float halfExpected[16] = {2048, 2052, 2048, 2050, 2052, 2056, 2056, 2056, 2047, 2045, 2072, 2088, 2048, 2050, 2054, 2058};
  const float bf16Expected[16] = {2048, 2048, 2048, 2048, 2048, 2048, 2064, 2048, 2048, 2048, 2080, 2080, 2048, 2048, 2048, 2064};
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t j = 0; j < 16; ++j) {
      CAPTURE(j);
      REQUIRE(float(h[i * 16 + j]) == halfExpected[j]);
      REQUIRE(float(bf[i * 16 + j]) == bf16Expected[j]);
    }
}

TEST_CASE("float inputs: C0 = 8, K aligned to 8, B loaded transposed from GM") {
  // A (16 x 24) Zz with 16 x 8 fractals; B given as B^T (N x K, row-major) so that ND2NZ of it is
  // already Zn fractal by fractal (16 n-rows of 8 contiguous k), gathered in K-block order.
  constexpr uint16_t m = 16, k = 24, n = 32;
  std::vector<float> a(m * k), bt(n * k), c(m * n, -7.0f);
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 23) - 11) * 0.5f;
  for (uint32_t i = 0; i < bt.size(); ++i) bt[i] = float(int(i * 5 % 19) - 9) * 0.25f;
  const Findings findings = launchCube([&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::A1> a1Buf;
    AscendC::TBuf<TPosition::B1> b1Buf;
    AscendC::TBuf<TPosition::A2> a2Buf;
    AscendC::TBuf<TPosition::B2> b2Buf;
    AscendC::TBuf<TPosition::CO1> c1Buf;
    pipe.InitBuffer(a1Buf, m * k * 4);
    pipe.InitBuffer(b1Buf, n * k * 4);
    pipe.InitBuffer(a2Buf, m * k * 4);
    pipe.InitBuffer(b2Buf, n * k * 4);
    pipe.InitBuffer(c1Buf, m * n * 4);
    AscendC::GlobalTensor<float> ag, bg, cg;
    ag.SetGlobalBuffer(a.data(), a.size());
    bg.SetGlobalBuffer(bt.data(), bt.size());
    cg.SetGlobalBuffer(c.data(), c.size());
    AscendC::LocalTensor<float> a1 = a1Buf.Get<float>(), b1 = b1Buf.Get<float>(), a2 = a2Buf.Get<float>(),
                                b2 = b2Buf.Get<float>(), c1 = c1Buf.Get<float>();
    AscendC::DataCopy(a1, ag, AscendC::Nd2NzParams{1, m, k, 0, k, m, 1, 0});
    AscendC::DataCopy(b1, bg, AscendC::Nd2NzParams{1, n, k, 0, k, n, 1, 0});
    sync<HardEvent::MTE2_MTE1>();
    AscendC::LoadData(a2, a1, AscendC::LoadData2DParams{0, 3, 1, 0, 0, false, 0});  // 1 row block, 3 k blocks
    for (uint32_t kb = 0; kb < 3; ++kb)  // K block kb of B^T's NZ: n/16 fractals, contiguous
      AscendC::LoadData(b2[kb * 2 * 128], b1[kb * n * 8], AscendC::LoadData2DParams{0, 2, 1, 0, 0, false, 0});
    sync<HardEvent::MTE1_M>();
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{m, n, k, 0, false, true});
    sync<HardEvent::M_FIX>();
    AscendC::Fixpipe(cg, c1, AscendC::FixpipeParamsV220{n, m, m, n, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      double ref = 0;
      for (uint32_t kk = 0; kk < k; ++kk) ref += double(a[i * k + kk]) * double(bt[j * k + kk]);
      REQUIRE(double(c[i * n + j]) == ref);
    }
}

TEST_CASE("int8_t inputs: C0 = 32 (16 x 32 fractals), int32_t results") {
  constexpr uint16_t m = 16, k = 64, n = 32;
  std::vector<int8_t> a(m * k), bt(n * k);  // B given as B^T (N x K), as for float
  std::vector<int32_t> c(m * n, -7);
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = int8_t(int(i * 37 % 255) - 127);
  for (uint32_t i = 0; i < bt.size(); ++i) bt[i] = int8_t(int(i * 53 % 251) - 125);
  const Findings findings = launchCube([&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::A1> a1Buf;
    AscendC::TBuf<TPosition::B1> b1Buf;
    AscendC::TBuf<TPosition::A2> a2Buf;
    AscendC::TBuf<TPosition::B2> b2Buf;
    AscendC::TBuf<TPosition::CO1> c1Buf;
    pipe.InitBuffer(a1Buf, m * k);
    pipe.InitBuffer(b1Buf, n * k);
    pipe.InitBuffer(a2Buf, m * k);
    pipe.InitBuffer(b2Buf, n * k);
    pipe.InitBuffer(c1Buf, m * n * 4);
    AscendC::GlobalTensor<int8_t> ag, bg;
    AscendC::GlobalTensor<int32_t> cg;
    ag.SetGlobalBuffer(a.data(), a.size());
    bg.SetGlobalBuffer(bt.data(), bt.size());
    cg.SetGlobalBuffer(c.data(), c.size());
    AscendC::LocalTensor<int8_t> a1 = a1Buf.Get<int8_t>(), b1 = b1Buf.Get<int8_t>(), a2 = a2Buf.Get<int8_t>(),
                                 b2 = b2Buf.Get<int8_t>();
    AscendC::LocalTensor<int32_t> c1 = c1Buf.Get<int32_t>();
    AscendC::DataCopy(a1, ag, AscendC::Nd2NzParams{1, m, k, 0, k, m, 1, 0});
    AscendC::DataCopy(b1, bg, AscendC::Nd2NzParams{1, n, k, 0, k, n, 1, 0});
    sync<HardEvent::MTE2_MTE1>();
    AscendC::LoadData(a2, a1, AscendC::LoadData2DParams{0, 2, 1, 0, 0, false, 0});
    for (uint32_t kb = 0; kb < 2; ++kb)
      AscendC::LoadData(b2[kb * 2 * 512], b1[kb * n * 32], AscendC::LoadData2DParams{0, 2, 1, 0, 0, false, 0});
    sync<HardEvent::MTE1_M>();
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{m, n, k, 0, false, true});
    sync<HardEvent::M_FIX>();
    AscendC::Fixpipe(cg, c1, AscendC::FixpipeParamsV220{n, m, m, n, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      int32_t ref = 0;
      for (uint32_t kk = 0; kk < k; ++kk) ref += int32_t(a[i * k + kk]) * int32_t(bt[j * k + kk]);
      REQUIRE(c[i * n + j] == ref);
    }
}

TEST_CASE("GM written by Fixpipe and read back by MTE2 needs FIX_MTE2") {
  auto kernelFindings = [](bool synced) {
    std::vector<float> scratch(32 * 32, 0.0f);
    const std::vector<half> a = matrixA(32, 32), b = matrixB(32, 32);
    return launchCube([&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::A1> a1Buf;
      AscendC::TBuf<TPosition::B1> b1Buf;
      AscendC::TBuf<TPosition::A2> a2Buf;
      AscendC::TBuf<TPosition::B2> b2Buf;
      AscendC::TBuf<TPosition::CO1> c1Buf;
      AscendC::TBuf<TPosition::C1> backBuf;
      pipe.InitBuffer(a1Buf, 2048);
      pipe.InitBuffer(b1Buf, 2048);
      pipe.InitBuffer(a2Buf, 2048);
      pipe.InitBuffer(b2Buf, 2048);
      pipe.InitBuffer(c1Buf, 4096);
      pipe.InitBuffer(backBuf, 4096);
      AscendC::GlobalTensor<half> ag, bg;
      AscendC::GlobalTensor<float> cg;
      ag.SetGlobalBuffer(const_cast<half *>(a.data()), a.size());
      bg.SetGlobalBuffer(const_cast<half *>(b.data()), b.size());
      cg.SetGlobalBuffer(scratch.data(), scratch.size());
      AscendC::LocalTensor<half> a1 = a1Buf.Get<half>(), b1 = b1Buf.Get<half>(), a2 = a2Buf.Get<half>(),
                                 b2 = b2Buf.Get<half>();
      AscendC::LocalTensor<float> c1 = c1Buf.Get<float>(), back = backBuf.Get<float>();
      AscendC::DataCopy(a1, ag, AscendC::Nd2NzParams{1, 32, 32, 0, 32, 32, 1, 0});
      AscendC::DataCopy(b1, bg, AscendC::Nd2NzParams{1, 32, 32, 0, 32, 32, 1, 0});
      sync<HardEvent::MTE2_MTE1>();
      for (uint32_t i = 0; i < 2; ++i) {
        AscendC::LoadData(a2[i * 512], a1[i * 256], AscendC::LoadData2DParams{0, 2, 2, 0, 0, false, 0});
        AscendC::LoadData(b2[i * 512], b1[i * 256], AscendC::LoadData2DParams{0, 2, 2, 0, 0, true, 0});
      }
      sync<HardEvent::MTE1_M>();
      AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 32, 32, 0, false, true});
      sync<HardEvent::M_FIX>();
      AscendC::Fixpipe(cg, c1, AscendC::FixpipeParamsV220{32, 32, 32, 32, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
      if (synced) sync<HardEvent::FIX_MTE2>();
      AscendC::DataCopy(back, cg, AscendC::Nd2NzParams{1, 32, 32, 0, 32, 32, 1, 0});
    });
  };
  CHECK(kernelFindings(true).empty());
  const Findings findings = kernelFindings(false);
  INFO(describeAll(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::hazard_raw);
  CHECK(contains(findings[0].message, "MTE2 DataCopy #3 reads GM bytes"));
  CHECK(contains(findings[0].message, "written by FIX Fixpipe #1 with no SetFlag/WaitFlag FIX_MTE2"));
}

TEST_CASE("a second tile through the same buffers needs M_MTE1 and FIX_M (write-after-read)") {
  // Two 16 x 16 x 16 products through one set of L0A/L0B/L0C buffers.
  auto run = [](bool mToMte1, bool fixToM) {
    std::vector<half> a(2 * 256), b(2 * 256);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = half(float(int(i % 9) - 4));
      b[i] = half(float(int(i % 7) - 3));
    }
    std::vector<float> c(2 * 256, 0.0f);
    Findings findings = launchCube([&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::A1> a1Buf;
      AscendC::TBuf<TPosition::B1> b1Buf;
      AscendC::TBuf<TPosition::A2> a2Buf;
      AscendC::TBuf<TPosition::B2> b2Buf;
      AscendC::TBuf<TPosition::CO1> c1Buf;
      pipe.InitBuffer(a1Buf, 1024);
      pipe.InitBuffer(b1Buf, 1024);
      pipe.InitBuffer(a2Buf, 512);
      pipe.InitBuffer(b2Buf, 512);
      pipe.InitBuffer(c1Buf, 1024);
      AscendC::GlobalTensor<half> ag, bg;
      AscendC::GlobalTensor<float> cg;
      ag.SetGlobalBuffer(a.data(), a.size());
      bg.SetGlobalBuffer(b.data(), b.size());
      cg.SetGlobalBuffer(c.data(), c.size());
      AscendC::LocalTensor<half> a1 = a1Buf.Get<half>(), b1 = b1Buf.Get<half>(), a2 = a2Buf.Get<half>(),
                                 b2 = b2Buf.Get<half>();
      AscendC::LocalTensor<float> c1 = c1Buf.Get<float>();
      AscendC::DataCopy(a1, ag, AscendC::Nd2NzParams{2, 16, 16, 256, 16, 16, 1, 256});
      AscendC::DataCopy(b1, bg, AscendC::Nd2NzParams{2, 16, 16, 256, 16, 16, 1, 256});
      sync<HardEvent::MTE2_MTE1>();
      for (uint32_t t = 0; t < 2; ++t) {
        if (t > 0 && mToMte1) sync<HardEvent::M_MTE1>();
        AscendC::LoadData(a2, a1[t * 256], AscendC::LoadData2DParams{0, 1, 1, 0, 0, false, 0});
        AscendC::LoadData(b2, b1[t * 256], AscendC::LoadData2DParams{0, 1, 1, 0, 0, true, 0});
        sync<HardEvent::MTE1_M>();
        if (t > 0 && fixToM) sync<HardEvent::FIX_M>();
        AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{16, 16, 16, 0, false, true});
        sync<HardEvent::M_FIX>();
        AscendC::Fixpipe(cg[t * 256], c1, AscendC::FixpipeParamsV220{16, 16, 16, 16, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
      }
    });
    for (uint32_t t = 0; t < 2; ++t)
      for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 16; ++j) {
          double ref = 0;
          for (uint32_t kk = 0; kk < 16; ++kk)
            ref += double(float(a[t * 256 + i * 16 + kk])) * double(float(b[t * 256 + kk * 16 + j]));
          REQUIRE(double(c[t * 256 + i * 16 + j]) == ref);
        }
    return findings;
  };
  CHECK(run(true, true).empty());
  Findings findings = run(false, true);
  INFO(describeAll(findings));
  REQUIRE(findings.size() == 2);  // LoadData into L0A and into L0B
  CHECK(countKind(findings, FindingKind::hazard_war) == 2);
  CHECK(contains(findings[0].message, "MTE1 LoadData #3 writes L0A bytes [0, 512) read by M Mmad #1"));
  CHECK(contains(findings[0].message, "SetFlag/WaitFlag M_MTE1"));
  findings = run(true, false);
  INFO(describeAll(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::hazard_war);
  CHECK(contains(findings[0].message, "M Mmad #2 writes L0C bytes [0, 1024) read by FIX Fixpipe #1"));
  CHECK(contains(findings[0].message, "SetFlag/WaitFlag FIX_M"));
}

TEST_CASE("cube misuse findings") {
  // A 32 x 32 x 32 problem's buffers, A and B loaded; `misuse` then issues one bad call.
  auto run = [](const std::function<void(AscendC::LocalTensor<half> &, AscendC::LocalTensor<half> &,
                                         AscendC::LocalTensor<float> &, AscendC::LocalTensor<half> &,
                                         AscendC::GlobalTensor<float> &)> &misuse,
                LaunchOptions options = cubeCore()) {
    const std::vector<half> a = matrixA(32, 32), b = matrixB(32, 32);
    std::vector<float> out(32 * 32 + 64, 0.0f);
    return launch(
        1,
        [&] {
          AscendC::TPipe pipe;
          AscendC::TBuf<TPosition::A1> a1Buf;
          AscendC::TBuf<TPosition::B1> b1Buf;
          AscendC::TBuf<TPosition::A2> a2Buf;
          AscendC::TBuf<TPosition::B2> b2Buf;
          AscendC::TBuf<TPosition::CO1> c1Buf;
          pipe.InitBuffer(a1Buf, 2048);
          pipe.InitBuffer(b1Buf, 2048);
          pipe.InitBuffer(a2Buf, 4096);  // room for a larger (misused) k
          pipe.InitBuffer(b2Buf, 2048);
          pipe.InitBuffer(c1Buf, 8192);
          AscendC::GlobalTensor<half> ag, bg;
          AscendC::GlobalTensor<float> cg;
          ag.SetGlobalBuffer(const_cast<half *>(a.data()), a.size());
          bg.SetGlobalBuffer(const_cast<half *>(b.data()), b.size());
          cg.SetGlobalBuffer(out.data(), 32 * 32);
          AscendC::LocalTensor<half> a1 = a1Buf.Get<half>(), b1 = b1Buf.Get<half>(), a2 = a2Buf.Get<half>(),
                                     b2 = b2Buf.Get<half>();
          AscendC::LocalTensor<float> c1 = c1Buf.Get<float>();
          AscendC::DataCopy(a1, ag, AscendC::Nd2NzParams{1, 32, 32, 0, 32, 32, 1, 0});
          AscendC::DataCopy(b1, bg, AscendC::Nd2NzParams{1, 32, 32, 0, 32, 32, 1, 0});
          sync<HardEvent::MTE2_MTE1>();
          for (uint32_t i = 0; i < 2; ++i) {
            AscendC::LoadData(a2[i * 512], a1[i * 256], AscendC::LoadData2DParams{0, 2, 2, 0, 0, false, 0});
            AscendC::LoadData(b2[i * 512], b1[i * 256], AscendC::LoadData2DParams{0, 2, 2, 0, 0, true, 0});
          }
          sync<HardEvent::MTE1_M>();
          misuse(a2, b2, c1, a1, cg);
          AscendC::PipeBarrier<PIPE_ALL>();
        },
        options);
  };
  using L = AscendC::LocalTensor<half>;
  using C = AscendC::LocalTensor<float>;
  using G = AscendC::GlobalTensor<float>;
  SUBCASE("the correct call is clean") {
    const Findings findings = run([](L &a2, L &b2, C &c1, L &, G &) {
      AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 32, 32, 0, false, true});
    });
    INFO(describeAll(findings));
    CHECK(findings.empty());
  }
  SUBCASE("Mmad with fm in L0B and filter in L0A") {
    const Findings findings = run([](L &a2, L &b2, C &c1, L &, G &) {
      AscendC::Mmad(c1, b2, a2, AscendC::MmadParams{32, 32, 32, 0, false, true});
    });
    REQUIRE(findings.size() == 2);
    CHECK(countKind(findings, FindingKind::wrong_memory) == 2);
    CHECK(contains(findings[0].message, "Mmad: fm is in L0B (TPosition::B2); it must be in L0A (TPosition::A2)"));
  }
  SUBCASE("Mmad with fm in L1") {
    const Findings findings = run([](L &, L &b2, C &c1, L &a1, G &) {
      AscendC::Mmad(c1, a1, b2, AscendC::MmadParams{32, 32, 32, 0, false, true});
    });
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::wrong_memory);
  }
  SUBCASE("Mmad operands off their alignment: fm 512 bytes, dst 1024 bytes") {
    const Findings findings = run([](L &a2, L &b2, C &c1, L &, G &) {
      AscendC::Mmad(c1[128], a2[128], b2, AscendC::MmadParams{16, 16, 16, 0, false, true});
    });
    INFO(describeAll(findings));
    CHECK(countKind(findings, FindingKind::alignment) == 2);
    CHECK(contains(describeAll(findings), "Mmad: dst starts at L0C byte 512, not 1024-byte aligned"));
    CHECK(contains(describeAll(findings), "Mmad: fm starts at L0A byte 256, not 512-byte aligned"));
  }
  SUBCASE("m, n, k needing more than the tensors hold") {
    const Findings findings = run([](L &a2, L &b2, C &c1, L &, G &) {
      AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 48, 32, 0, false, true});
    });
    INFO(describeAll(findings));
    CHECK(countKind(findings, FindingKind::bounds) == 1);  // filter: 2 x 3 fractals, it has 4
    CHECK(contains(describeAll(findings), "Mmad: filter accesses L0B bytes [0, 3072), beyond its tensor"));
  }
  SUBCASE("k larger than what LoadData put in L0A/L0B reads undefined data") {
    const Findings findings = run([](L &a2, L &b2, C &c1, L &, G &) {
      AscendC::Mmad(c1, a2, b2[0], AscendC::MmadParams{32, 16, 48, 0, false, true});
    });
    INFO(describeAll(findings));
    CHECK(countKind(findings, FindingKind::uninitialised_read) >= 1);
    CHECK(contains(describeAll(findings), "M Mmad #1 reads L0A bytes"));
  }
  SUBCASE("m = 0 is a no-op") {
    const Findings findings = run([](L &a2, L &b2, C &c1, L &, G &) {
      AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{0, 32, 32, 0, false, true});
    });
    CHECK(findings.empty());
  }
  SUBCASE("bad unitFlag, m beyond 4095, C from the BiasTable") {
    const Findings findings = run([](L &a2, L &b2, C &c1, L &, G &) {
      AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 32, 32, 1, false, true});
      AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{4096, 32, 32, 0, false, true});
      AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 32, 32, 0, true, false});
    });
    INFO(describeAll(findings));
    CHECK(countKind(findings, FindingKind::bad_argument) == 3);
  }
  SUBCASE("cube instructions on a vector core do nothing") {
    LaunchOptions vector;
    const Findings findings = run(
        [](L &a2, L &b2, C &c1, L &, G &) { AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 32, 32, 0, false, true}); },
        vector);
    // 2 DataCopy + 4 LoadData + Mmad.
    CHECK(countKind(findings, FindingKind::wrong_core) == 7);
    CHECK(findings.size() == 7);
    CHECK(contains(findings[0].message, "DataCopy with Nd2NzParams is a cube instruction"));
  }
  SUBCASE("Fixpipe: quantPre must match the types; CFG_NZ needs nSize % 16 == 0; src in L0C") {
    const Findings findings = run([](L &a2, L &b2, C &c1, L &, G &cg) {
      AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 32, 32, 0, false, true});
      sync<HardEvent::M_FIX>();
      AscendC::Fixpipe(cg, c1, AscendC::FixpipeParamsV220{32, 32, 32, 32, false, QuantMode_t::F322F16, 0, 1, 0, 0, 0});
      AscendC::Fixpipe<float, float, AscendC::CFG_NZ>(
          cg, c1, AscendC::FixpipeParamsV220{24, 32, 32, 2, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
      AscendC::Fixpipe(cg, c1, AscendC::FixpipeParamsV220{32, 32, 32, 0, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
    });
    INFO(describeAll(findings));
    CHECK(countKind(findings, FindingKind::bad_argument) == 3);
    CHECK(contains(findings[0].message, "Fixpipe: src float and dst float need quantPre NoQuant, not F322F16"));
  }
  SUBCASE("Fixpipe beyond a sized GlobalTensor, and rows that overlap") {
    const Findings findings = run([](L &a2, L &b2, C &c1, L &, G &cg) {
      AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{32, 32, 32, 0, false, true});
      sync<HardEvent::M_FIX>();
      AscendC::Fixpipe(cg, c1, AscendC::FixpipeParamsV220{32, 32, 32, 40, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
      AscendC::Fixpipe(cg, c1, AscendC::FixpipeParamsV220{32, 16, 32, 16, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
    });
    INFO(describeAll(findings));
    CHECK(countKind(findings, FindingKind::bounds) == 1);
    CHECK(countKind(findings, FindingKind::bad_argument) == 1);
    CHECK(contains(describeAll(findings), "Fixpipe writes overlapping destination elements"));
  }
  SUBCASE("Fixpipe of result padding reads undefined L0C") {
    const Findings findings = run([](L &a2, L &b2, C &c1, L &, G &cg) {
      AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{20, 32, 32, 0, false, true});
      sync<HardEvent::M_FIX>();
      AscendC::Fixpipe(cg, c1, AscendC::FixpipeParamsV220{32, 24, 32, 32, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
    });
    INFO(describeAll(findings));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::uninitialised_read);
    CHECK(contains(findings[0].message, "FIX Fixpipe #1 reads L0C bytes [1280, "));
  }
  SUBCASE("LoadData: wrong memories, misaligned L0 destination, transposition of b32") {
    const Findings findings = run([](L &a2, L &b2, C &c1, L &a1, G &) {
      AscendC::LoadData(a1, a2, AscendC::LoadData2DParams{0, 1, 1, 0, 0, false, 0});
      AscendC::LoadData(a2[16], a1, AscendC::LoadData2DParams{0, 1, 1, 0, 0, false, 0});
      AscendC::LoadData(b2.ReinterpretCast<float>(), a1.ReinterpretCast<float>(),
                        AscendC::LoadData2DParams{0, 1, 1, 0, 0, true, 0});
      AscendC::LoadData(a2, a1, AscendC::LoadData2DParams{0, 5, 1, 0, 0, false, 0});  // 5 fractals: a1 has 4
      (void)c1;
    });
    INFO(describeAll(findings));
    CHECK(countKind(findings, FindingKind::wrong_memory) == 2);  // dst in L1, src in L0A
    CHECK(countKind(findings, FindingKind::alignment) == 1);
    CHECK(countKind(findings, FindingKind::bad_argument) == 1);
    CHECK(countKind(findings, FindingKind::bounds) == 1);
  }
  SUBCASE("DataCopy with Nd2NzParams: into UB, overlapping blocks") {
    const Findings findings = run([](L &, L &, C &, L &a1, G &) {
      std::vector<half> gm(32 * 32, half(1.0f));
      AscendC::GlobalTensor<half> g;
      g.SetGlobalBuffer(gm.data(), gm.size());
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECIN> ub;
      pipe.InitBuffer(ub, 2048);
      AscendC::LocalTensor<half> u = ub.Get<half>();
      AscendC::DataCopy(u, g, AscendC::Nd2NzParams{1, 32, 32, 0, 32, 32, 1, 0});
      sync<HardEvent::MTE1_MTE2>();
      // dstNzC0Stride 16 < nValue 32: the second column block overwrites rows 16..31.
      AscendC::DataCopy(a1, g, AscendC::Nd2NzParams{1, 32, 32, 0, 32, 16, 1, 0});
    });
    INFO(describeAll(findings));
    CHECK(countKind(findings, FindingKind::wrong_memory) == 1);
    CHECK(countKind(findings, FindingKind::bad_argument) == 1);
    CHECK(contains(describeAll(findings), "writes overlapping 32-byte blocks"));
  }
}

TEST_CASE("L1 holds 512 KiB, L0C 128 KiB; L0C buffers are 64-byte aligned") {
  const Findings findings = launchCube([] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::A1> l1;
    AscendC::TBuf<TPosition::CO1> l0c;
    CHECK(pipe.InitBuffer(l1, 512 * 1024));
    CHECK_FALSE(pipe.InitBuffer(l0c, 129 * 1024));
    AscendC::TPipe pipe2;
    AscendC::TBuf<TPosition::CO1> c;
    pipe2.InitBuffer(c, 4096);
    (void)c.GetWithOffset<float>(16, 64);  // fine for Fixpipe (64-byte aligned)
    (void)c.GetWithOffset<float>(16, 32);  // not
  });
  INFO(describeAll(findings));
  CHECK(countKind(findings, FindingKind::capacity) == 1);
  CHECK(countKind(findings, FindingKind::alignment) == 1);
  CHECK(findings.size() == 2);
}
