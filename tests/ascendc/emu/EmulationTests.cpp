// Tests of tlec's CPU emulation of the AscendC API (stdlib/include/tle/ascendc/emu): results of
// the emulated instructions, and the findings (hazards, misuse) it must report. Builds on its
// own: g++ -std=c++17 -pthread -Istdlib/include tests/ascendc/emu/EmulationTests.cpp
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "tle/ascendc/emu/kernel_operator.h"
#include "FindingsSupport.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
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

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// The synchronisation of addKernel; tests drop one at a time.
struct AddKernelSync {
  bool vToMte2 = true;   // Duplicate(x) before DataCopyPad overwrites x
  bool mte2ToV = true;   // DataCopyPad(x) before Adds reads x
  bool vBarrier = true;  // Adds(y) before Exp reads y
  bool vToMte3 = true;   // Exp(y) before DataCopyPad reads y
};

constexpr int32_t kTile = 1024;

// out = exp(x + 1) over n floats, one tile of 1024 per block, shaped like tlec's generated code.
void addKernel(GM_ADDR xGm, GM_ADDR outGm, int32_t n, AddKernelSync s) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
  pipe.InitBuffer(ub, 8192);
  AscendC::GlobalTensor<float> xg;
  xg.SetGlobalBuffer((__gm__ float *)xGm);
  AscendC::GlobalTensor<float> out;
  out.SetGlobalBuffer((__gm__ float *)outGm);
  AscendC::LocalTensor<float> x = ub.GetWithOffset<float>(kTile, 0);
  AscendC::LocalTensor<float> y = ub.GetWithOffset<float>(kTile, 4096);
  const int32_t pid = int32_t(AscendC::GetBlockIdx());
  const int32_t count = std::min(kTile, n - pid * kTile);
  if (count <= 0) return;
  const uint32_t bytes = uint32_t(count) * sizeof(float);
  AscendC::Duplicate(x, 0.0f, kTile);
  if (s.vToMte2) sync<HardEvent::V_MTE2>();
  AscendC::DataCopyPad(x, xg[pid * kTile], AscendC::DataCopyExtParams{1, bytes, 0, 0, 0},
                       AscendC::DataCopyPadExtParams<float>{true, 0, 0, 0.0f});
  if (s.mte2ToV) sync<HardEvent::MTE2_V>();
  AscendC::Adds(y, x, 1.0f, kTile);
  if (s.vBarrier) AscendC::PipeBarrier<PIPE_V>();
  AscendC::Exp(y, y, kTile);
  if (s.vToMte3) sync<HardEvent::V_MTE3>();
  AscendC::DataCopyPad(out[pid * kTile], y, AscendC::DataCopyExtParams{1, bytes, 0, 0, 0});
}

Findings runAddKernel(uint32_t blocks, int32_t n, AddKernelSync s, std::vector<float> *outResult = nullptr) {
  std::vector<float> x(size_t(blocks) * kTile), out(x.size() + 8, -7.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i % 97) - 48) / 16.0f;
  Findings findings = launch(blocks, [&] { addKernel((GM_ADDR)x.data(), (GM_ADDR)out.data(), n, s); });
  for (int32_t i = 0; i < n; ++i) REQUIRE(out[size_t(i)] == std::exp(x[size_t(i)] + 1.0f));
  for (size_t i = size_t(n); i < out.size(); ++i) REQUIRE(out[i] == -7.0f);  // nothing beyond n
  if (outResult) *outResult = out;
  return findings;
}

// The synchronisation of loopKernel (tiles of 256 floats through one x and one y buffer).
struct LoopSync {
  bool vToMte2 = true;  // Muls of the previous tile read x before DataCopy overwrites it
  bool mte3ToV = true;  // DataCopy of the previous tile read y before Muls overwrites it
};

void loopKernel(GM_ADDR xGm, GM_ADDR outGm, int32_t tiles, LoopSync s) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECIN> inBuf;
  AscendC::TBuf<AscendC::TPosition::VECOUT> outBuf;
  pipe.InitBuffer(inBuf, 1024);
  pipe.InitBuffer(outBuf, 1024);
  AscendC::GlobalTensor<float> xg, out;
  xg.SetGlobalBuffer((__gm__ float *)xGm);
  out.SetGlobalBuffer((__gm__ float *)outGm);
  AscendC::LocalTensor<float> x = inBuf.Get<float>();
  AscendC::LocalTensor<float> y = outBuf.Get<float>();
  for (int32_t t = 0; t < tiles; ++t) {
    if (t > 0 && s.vToMte2) sync<HardEvent::V_MTE2>();
    AscendC::DataCopy(x, xg[t * 256], 256);
    sync<HardEvent::MTE2_V>();
    if (t > 0 && s.mte3ToV) sync<HardEvent::MTE3_V>();
    AscendC::Muls(y, x, 2.0f, 256);
    sync<HardEvent::V_MTE3>();
    AscendC::DataCopy(out[t * 256], y, 256);
  }
}

Findings runLoopKernel(LoopSync s) {
  std::vector<float> x(512), out(512, 0.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i);
  Findings findings = launch(1, [&] { loopKernel((GM_ADDR)x.data(), (GM_ADDR)out.data(), 2, s); });
  for (size_t i = 0; i < x.size(); ++i) REQUIRE(out[i] == 2.0f * x[i]);
  return findings;
}

}  // namespace

TEST_CASE("the add kernel computes exp(x + 1) with zero findings for 1, 3 and 8 blocks") {
  for (uint32_t blocks : {1u, 3u, 8u}) {
    CAPTURE(blocks);
    // The last block's row is 1017 floats: 4068 bytes, not whole 32-byte blocks.
    const Findings findings = runAddKernel(blocks, int32_t(blocks) * kTile - 7, AddKernelSync{});
    INFO(describeAll(findings));
    CHECK(findings.empty());
  }
}

TEST_CASE("without MTE2_V, Adds reads what DataCopyPad is still writing") {
  AddKernelSync s;
  s.mte2ToV = false;
  const Findings findings = runAddKernel(1, 1000, s);
  INFO(describeAll(findings));
  // The flag pairs V_MTE2 then MTE2_V also ordered Duplicate before Adds (V waited for MTE2,
  // which had waited for V); without the second, Adds reads the tail Duplicate zeroed unordered.
  REQUIRE(findings.size() == 2);
  CHECK(countKind(findings, FindingKind::hazard_raw) == 2);
  CHECK(findings[0].core == 0);
  CHECK(contains(findings[0].message, "V Adds #2 reads UB bytes [0, 4000) written by MTE2 DataCopyPad #1"));
  CHECK(contains(findings[0].message, "with no SetFlag/WaitFlag MTE2_V ordering them"));
  CHECK(contains(findings[1].message, "V Adds #2 reads UB bytes [4000, 4096) written by V Duplicate #1"));
  CHECK(contains(findings[1].message, "with no PipeBarrier<PIPE_V> ordering them"));
}

TEST_CASE("without PipeBarrier<PIPE_V>, Exp reads what Adds is still writing") {
  AddKernelSync s;
  s.vBarrier = false;
  const Findings findings = runAddKernel(1, 1000, s);
  INFO(describeAll(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::hazard_raw);
  CHECK(contains(findings[0].message, "V Exp #3 reads UB bytes [4096, 8192) written by V Adds #2"));
  CHECK(contains(findings[0].message, "PipeBarrier<PIPE_V>"));
}

TEST_CASE("without V_MTE2, DataCopyPad overwrites what Duplicate is still writing") {
  AddKernelSync s;
  s.vToMte2 = false;
  const Findings findings = runAddKernel(1, 1000, s);
  INFO(describeAll(findings));
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].kind == FindingKind::hazard_waw);
  CHECK(contains(findings[0].message, "MTE2 DataCopyPad #1 writes UB bytes [0, 4000) also written by V Duplicate #1"));
  CHECK(contains(findings[0].message, "SetFlag/WaitFlag V_MTE2"));
  CHECK(findings[1].kind == FindingKind::hazard_raw);  // the chain V -> MTE2 -> V is broken too
  CHECK(contains(findings[1].message, "V Adds #2 reads UB bytes [4000, 4096) written by V Duplicate #1"));
}

TEST_CASE("without V_MTE3, DataCopyPad stores what Exp is still writing") {
  AddKernelSync s;
  s.vToMte3 = false;
  const Findings findings = runAddKernel(2, 2000, s);
  INFO(describeAll(findings));
  REQUIRE(findings.size() == 2);  // one per block
  CHECK(findings[0].core == 0);
  CHECK(findings[1].core == 1);
  CHECK(countKind(findings, FindingKind::hazard_raw) == 2);
  CHECK(contains(findings[1].message, "MTE3 DataCopyPad #1 reads UB bytes [4096, 8000) written by V Exp #3"));
}

TEST_CASE("a loop over tiles needs V_MTE2 and MTE3_V between iterations (write-after-read)") {
  SUBCASE("fully synchronised") {
    const Findings findings = runLoopKernel(LoopSync{});
    INFO(describeAll(findings));
    CHECK(findings.empty());
  }
  SUBCASE("DataCopy overwrites x while Muls of the previous tile may still read it") {
    LoopSync s;
    s.vToMte2 = false;
    const Findings findings = runLoopKernel(s);
    INFO(describeAll(findings));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::hazard_war);
    CHECK(contains(findings[0].message, "MTE2 DataCopy #2 writes UB bytes [0, 1024) read by V Muls #1"));
    CHECK(contains(findings[0].message, "SetFlag/WaitFlag V_MTE2"));
  }
  SUBCASE("Muls overwrites y while DataCopy of the previous tile may still read it") {
    LoopSync s;
    s.mte3ToV = false;
    const Findings findings = runLoopKernel(s);
    INFO(describeAll(findings));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::hazard_war);
    CHECK(contains(findings[0].message, "V Muls #2 writes UB bytes [1024, 2048) read by MTE3 DataCopy #1"));
    CHECK(contains(findings[0].message, "SetFlag/WaitFlag MTE3_V"));
  }
}

TEST_CASE("flag misuse: wait without set, set without wait, set twice, bad event id") {
  SUBCASE("WaitFlag with no SetFlag would hang") {
    const Findings findings = launch(1, [] { AscendC::WaitFlag<HardEvent::MTE2_V>(EVENT_ID1); });
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::unset_flag);
    CHECK(contains(findings[0].message, "WaitFlag<MTE2_V>(1) waits on a flag never set"));
  }
  SUBCASE("SetFlag never waited") {
    const Findings findings = launch(1, [] { AscendC::SetFlag<HardEvent::V_MTE3>(EVENT_ID2); });
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::unwaited_flag);
    CHECK(contains(findings[0].message, "SetFlag<V_MTE3>(2)"));
  }
  SUBCASE("SetFlag twice on the same event and id") {
    const Findings findings = launch(1, [] {
      AscendC::SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    });
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::double_set_flag);
  }
  SUBCASE("the same event with different ids is two flags") {
    const Findings findings = launch(1, [] {
      AscendC::SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
      AscendC::WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
      AscendC::WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    });
    CHECK(findings.empty());
  }
  SUBCASE("event ids are 0..7") {
    const Findings findings = launch(1, [] { AscendC::SetFlag<HardEvent::S_V>(8); });
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::bad_event_id);
  }
}

TEST_CASE("a flag orders only what its source pipe issued before it") {
  // SetFlag<MTE2_V> before the copy: the flag says nothing about the copy.
  const Findings findings = launch(1, [] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 1024);
    std::vector<float> src(64, 1.0f);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(src.data());
    AscendC::LocalTensor<float> x = ub.Get<float>();
    AscendC::SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::DataCopy(x, g, 64);
    AscendC::WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Adds(x[64], x, 1.0f, 64);
  });
  INFO(describeAll(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::hazard_raw);
}

TEST_CASE("PipeBarrier<PIPE_ALL> orders every pipe after everything issued before it") {
  const Findings findings = launch(1, [] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 1024);
    std::vector<float> src(64, 1.0f);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(src.data());
    AscendC::LocalTensor<float> x = ub.Get<float>();
    AscendC::DataCopy(x, g, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Adds(x[64], x, 1.0f, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(g, x[64], 64);
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
}

TEST_CASE("scalar reads of vector results need V_S") {
  std::vector<float> seen;
  auto kernel = [&](bool synced) {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 1024);
    AscendC::LocalTensor<float> x = ub.Get<float>();
    AscendC::Duplicate(x, 5.0f, 8);
    if (synced) sync<HardEvent::V_S>();
    seen.push_back(x.GetValue(3));
  };
  CHECK(launch(1, [&] { kernel(true); }).empty());
  const Findings findings = launch(1, [&] { kernel(false); });
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::hazard_raw);
  CHECK(contains(findings[0].message, "S GetValue #1 reads UB bytes [12, 16) written by V Duplicate #1"));
  CHECK(contains(findings[0].message, "SetFlag/WaitFlag V_S"));
  CHECK(seen == std::vector<float>{5.0f, 5.0f});
}

TEST_CASE("GM written by MTE3 and read back by MTE2 needs MTE3_MTE2") {
  std::vector<float> scratch(8, 0.0f);
  auto kernel = [&](bool synced) {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 64);
    AscendC::LocalTensor<float> x = ub.GetWithOffset<float>(8, 0);
    AscendC::LocalTensor<float> y = ub.GetWithOffset<float>(8, 32);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(scratch.data(), 8);
    AscendC::Duplicate(x, 3.0f, 8);
    sync<HardEvent::V_MTE3>();
    AscendC::DataCopy(g, x, 8);
    if (synced) sync<HardEvent::MTE3_MTE2>();
    AscendC::DataCopy(y, g, 8);
  };
  CHECK(launch(1, [&] { kernel(true); }).empty());
  const Findings findings = launch(1, [&] { kernel(false); });
  INFO(describeAll(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::hazard_raw);
  CHECK(contains(findings[0].message, "MTE2 DataCopy #1 reads GM bytes"));
  CHECK(contains(findings[0].message, "written by MTE3 DataCopy #1 with no SetFlag/WaitFlag MTE3_MTE2"));
}

TEST_CASE("GM hazards are tracked by exact bytes, not 32-byte granules") {
  // Rows of 5 floats written by MTE3 and then a neighbouring row read by MTE2 share granules
  // but no bytes: not a hazard.
  std::vector<float> data(16, 1.0f);
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 64);
    AscendC::LocalTensor<float> x = ub.GetWithOffset<float>(8, 0);
    AscendC::LocalTensor<float> y = ub.GetWithOffset<float>(8, 32);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(data.data(), 16);
    AscendC::Duplicate(x, 2.0f, 8);
    sync<HardEvent::V_MTE3>();
    AscendC::DataCopyPad(g, x, AscendC::DataCopyExtParams{1, 20, 0, 0, 0});
    AscendC::DataCopyPad(y, g[5], AscendC::DataCopyExtParams{1, 20, 0, 0, 0},
                         AscendC::DataCopyPadExtParams<float>{true, 0, 0, 0.0f});
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  CHECK(data[4] == 2.0f);
  CHECK(data[5] == 1.0f);
}

TEST_CASE("reading on-chip memory that nothing wrote is reported") {
  const Findings findings = launch(1, [] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 2048);
    AscendC::LocalTensor<float> x = ub.Get<float>();
    AscendC::Adds(x[256], x, 1.0f, 256);
  });
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::uninitialised_read);
  CHECK(contains(findings[0].message, "V Adds #1 reads UB bytes [0, 1024)"));
}

TEST_CASE("capacity, alignment, bounds and memory findings") {
  SUBCASE("InitBuffer of 200 KiB exceeds the 192 KiB UB") {
    bool ok = true;
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECCALC> ub;
      ok = pipe.InitBuffer(ub, 200 * 1024);
    });
    CHECK_FALSE(ok);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::capacity);
  }
  SUBCASE("buffers add up: 100 KiB twice") {
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECIN> a;
      AscendC::TBuf<TPosition::VECOUT> b;
      CHECK(pipe.InitBuffer(a, 100 * 1024));
      CHECK_FALSE(pipe.InitBuffer(b, 100 * 1024));
    });
    CHECK(countKind(findings, FindingKind::capacity) == 1);
  }
  SUBCASE("L0A holds 64 KiB") {
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::A2> a;
      CHECK_FALSE(pipe.InitBuffer(a, 65 * 1024));
    });
    CHECK(countKind(findings, FindingKind::capacity) == 1);
  }
  SUBCASE("GetWithOffset at byte 16 of UB is misaligned") {
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 1024);
      (void)ub.GetWithOffset<float>(8, 16);
      (void)ub.GetWithOffset<float>(8, 32);
    });
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::alignment);
  }
  SUBCASE("L0 buffers need 512-byte alignment") {
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::B2> b;
      pipe.InitBuffer(b, 4096);
      (void)b.GetWithOffset<float>(8, 32);
      (void)b.GetWithOffset<float>(8, 512);
    });
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::alignment);
  }
  SUBCASE("GetWithOffset beyond the TBuf") {
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 1024);
      (void)ub.GetWithOffset<float>(256, 512);
    });
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::bounds);
  }
  SUBCASE("a vector operand starting at element 3 of a float tensor is misaligned") {
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 1024);
      AscendC::LocalTensor<float> x = ub.Get<float>();
      AscendC::Duplicate(x, 1.0f, 256);
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::Adds(x[3], x[8], 1.0f, 16);
    });
    INFO(describeAll(findings));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::alignment);
    CHECK(contains(findings[0].message, "Adds: dst starts at UB byte 12, not 32-byte aligned"));
  }
  SUBCASE("a count beyond the tensor") {
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 8192);
      AscendC::LocalTensor<float> x = ub.GetWithOffset<float>(512, 0);
      AscendC::Duplicate(x, 1.0f, 1024);
    });
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::bounds);
  }
  SUBCASE("an access beyond the core's UB is skipped, not performed") {
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 192 * 1024);
      AscendC::LocalTensor<float> x = ub.Get<float>();
      AscendC::Duplicate(x[48 * 1024 - 8], 1.0f, 1024);
    });
    CHECK(countKind(findings, FindingKind::bounds) == 2);  // beyond the tensor, beyond UB
  }
  SUBCASE("vector instructions take UB operands only") {
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::A1> l1;
      pipe.InitBuffer(l1, 1024);
      AscendC::LocalTensor<float> a = l1.Get<float>();
      AscendC::Duplicate(a, 1.0f, 8);
    });
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::wrong_memory);
  }
  SUBCASE("a copy beyond a sized GlobalTensor is skipped") {
    std::vector<float> small(4, 0.0f);
    const Findings findings = launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 64);
      AscendC::LocalTensor<float> x = ub.Get<float>();
      AscendC::GlobalTensor<float> g;
      g.SetGlobalBuffer(small.data(), 4);
      AscendC::Duplicate(x, 9.0f, 16);
      sync<HardEvent::V_MTE3>();
      AscendC::DataCopy(g, x, 8);
    });
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].kind == FindingKind::bounds);
    CHECK(small == std::vector<float>(4, 0.0f));
  }
}

TEST_CASE("DataCopy of 10 floats moves only the whole 32-byte block") {
  std::vector<float> src(16), dst(16, -1.0f);
  for (size_t i = 0; i < src.size(); ++i) src[i] = float(i + 1);
  std::vector<uint32_t> seen(10);
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 128);
    AscendC::LocalTensor<float> x = ub.GetWithOffset<float>(16, 0);
    AscendC::LocalTensor<float> y = ub.GetWithOffset<float>(16, 64);
    AscendC::GlobalTensor<float> gs, gd;
    gs.SetGlobalBuffer(src.data());
    gd.SetGlobalBuffer(dst.data());
    AscendC::DataCopy(x, gs, 10);  // GM -> UB
    sync<HardEvent::MTE2_S>();
    for (uint32_t i = 0; i < 10; ++i) seen[i] = floatBits(x.GetValue(i));
    AscendC::Duplicate(y, 5.0f, 16);
    sync<HardEvent::V_MTE3>();
    AscendC::DataCopy(gd, y, 10);  // UB -> GM
  });
  INFO(describeAll(findings));
  CHECK(countKind(findings, FindingKind::copy_granularity) == 2);
  CHECK(countKind(findings, FindingKind::uninitialised_read) == 2);  // GetValue(8), GetValue(9)
  CHECK(findings.size() == 4);
  for (uint32_t i = 0; i < 8; ++i) CHECK(seen[i] == floatBits(src[i]));
  CHECK(seen[8] == 0xFFFFFFFFu);  // poison: never copied
  CHECK(seen[9] == 0xFFFFFFFFu);
  for (size_t i = 0; i < 8; ++i) CHECK(dst[i] == 5.0f);
  CHECK(dst[8] == -1.0f);
  CHECK(dst[9] == -1.0f);
}

namespace {

// Copies rows from `src` into a UB buffer prefilled with 9.0 and returns the buffer's floats.
std::vector<float> copyPadIn(const std::vector<float> &src, AscendC::DataCopyExtParams params,
                             AscendC::DataCopyPadExtParams<float> pad, Findings *findings = nullptr) {
  std::vector<float> ubFloats(64);
  std::vector<float> gm = src;
  Findings f = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECIN> ub;
    pipe.InitBuffer(ub, 256);
    AscendC::LocalTensor<float> x = ub.Get<float>();
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(gm.data(), gm.size());
    AscendC::Duplicate(x, 9.0f, 64);
    sync<HardEvent::V_MTE2>();
    AscendC::DataCopyPad(x, g, params, pad);
    sync<HardEvent::MTE2_S>();
    for (uint32_t i = 0; i < 64; ++i) ubFloats[i] = x.GetValue(i);
  });
  if (findings) *findings = f;
  return ubFloats;
}

}  // namespace

TEST_CASE("DataCopy with DataCopyParams moves strided rows of 32-byte blocks both ways") {
  // GM rows of 16 floats; two rows of one block (8 floats), one block skipped in GM between
  // them, packed in UB, then written back with a one-block gap in UB and two in GM.
  std::vector<float> src(32), dst(48, -1.0f);
  for (size_t i = 0; i < src.size(); ++i) src[i] = float(i);
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 256);
    AscendC::LocalTensor<float> x = ub.GetWithOffset<float>(24, 0);
    AscendC::GlobalTensor<float> gs, gd;
    gs.SetGlobalBuffer(src.data());
    gd.SetGlobalBuffer(dst.data());
    AscendC::Duplicate(x, 0.0f, 24);
    sync<HardEvent::V_MTE2>();
    AscendC::DataCopy(x, gs, AscendC::DataCopyParams(2, 1, 1, 1));  // rows at GM 0 and 16 -> UB 0 and 16
    sync<HardEvent::MTE2_MTE3>();
    AscendC::DataCopy(gd, x, AscendC::DataCopyParams(2, 1, 1, 2));  // UB 0 and 16 -> GM 0 and 24
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  for (int i = 0; i < 8; ++i) {
    CHECK(dst[size_t(i)] == src[size_t(i)]);
    CHECK(dst[size_t(24 + i)] == src[size_t(16 + i)]);
    CHECK(dst[size_t(8 + i)] == -1.0f);  // the GM gap is not written
  }
}

TEST_CASE("DataCopyPad GM -> UB pads rows to 32 bytes") {
  const std::vector<float> src = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  SUBCASE("isPad = false leaves the hardware's undefined filler: poison") {
    Findings findings;
    const std::vector<float> ub = copyPadIn(src, {1, 20, 0, 0, 0}, {false, 0, 0, 0.0f}, &findings);
    CHECK(findings.empty());
    for (int i = 0; i < 5; ++i) CHECK(ub[size_t(i)] == src[size_t(i)]);
    for (int i = 5; i < 8; ++i) CHECK(floatBits(ub[size_t(i)]) == 0xFFFFFFFFu);
    CHECK(ub[8] == 9.0f);  // the next 32-byte block is untouched
  }
  SUBCASE("isPad = true fills with paddingValue") {
    const std::vector<float> ub = copyPadIn(src, {1, 20, 0, 0, 0}, {true, 0, 0, 7.0f});
    for (int i = 0; i < 5; ++i) CHECK(ub[size_t(i)] == src[size_t(i)]);
    for (int i = 5; i < 8; ++i) CHECK(ub[size_t(i)] == 7.0f);
    CHECK(ub[8] == 9.0f);
  }
  SUBCASE("leftPadding and rightPadding elements surround each row") {
    // 2 + 5 + 2 floats = 36 bytes: the row takes two 32-byte blocks.
    const std::vector<float> ub = copyPadIn(src, {1, 20, 0, 0, 0}, {true, 2, 2, -1.0f});
    const std::vector<float> expected = {-1, -1, 1, 2, 3, 4, 5, -1, -1, -1, -1, -1, -1, -1, -1, -1, 9};
    for (size_t i = 0; i < expected.size(); ++i) CHECK(ub[i] == expected[i]);
  }
  SUBCASE("rows with a GM gap (bytes) and a UB gap (32-byte blocks)") {
    // 3 rows of 3 floats, 2 floats apart in GM (gap 8 bytes), one empty block between UB rows.
    const std::vector<float> ub = copyPadIn(src, {3, 12, 8, 1, 0}, {true, 0, 0, 0.0f});
    for (size_t r = 0; r < 3; ++r) {
      CAPTURE(r);
      for (size_t i = 0; i < 3; ++i) CHECK(ub[16 * r + i] == src[5 * r + i]);
      for (size_t i = 3; i < 8; ++i) CHECK(ub[16 * r + i] == 0.0f);
      for (size_t i = 8; i < 16; ++i) CHECK(ub[16 * r + i] == 9.0f);  // the gap is not written
    }
  }
  SUBCASE("padding beyond 32 bytes is rejected") {
    Findings findings;
    copyPadIn(src, {1, 20, 0, 0, 0}, {true, 9, 0, 0.0f}, &findings);
    CHECK(countKind(findings, FindingKind::bad_argument) == 1);
  }
}

TEST_CASE("DataCopyPad UB -> GM writes exactly blockLen bytes per row") {
  std::vector<float> gm(16, -1.0f);
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECOUT> ub;
    pipe.InitBuffer(ub, 256);
    AscendC::LocalTensor<float> y = ub.Get<float>();
    for (uint32_t i = 0; i < 64; ++i) y.SetValue(i, float(i));
    sync<HardEvent::S_MTE3>();
    // Rows of 3 floats: in UB 16 floats apart (a 32-byte row plus a one-block gap), in GM one
    // float (4 bytes) between rows.
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(gm.data(), 16);
    AscendC::DataCopyPad(g, y, AscendC::DataCopyExtParams{3, 12, 1, 4, 0});
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  const std::vector<float> expected = {0, 1, 2, -1, 16, 17, 18, -1, 32, 33, 34, -1, -1, -1, -1, -1};
  CHECK(gm == expected);
}

TEST_CASE("half rounds like IEEE binary16") {
  CHECK(half(2048.0f) + half(1.0f) == 2048.0f);
  CHECK(half(2049.0f) == 2048.0f);  // tie: to even
  CHECK(half(2051.0f) == 2052.0f);  // tie: to even
  CHECK(half(0.1f).bits() == 0x2E66);
  CHECK(half(65504.0f).bits() == 0x7BFF);
  CHECK(half(65520.0f).bits() == 0x7C00);  // rounds up to infinity
  CHECK(half(-0.0f).bits() == 0x8000);
  CHECK(half(std::ldexp(1.0f, -24)).bits() == 0x0001);  // smallest subnormal
  CHECK(std::isnan(float(half::fromBits(0xFFFF))));
  CHECK(float(half::fromBits(0x3555)) == 0.333251953125f);
  CHECK(half(1.5f) * 2 == half(3.0f));
  CHECK(half(1.0f) / half(3.0f) == half::fromBits(0x3555));
  CHECK(bfloat16_t(1.0f + std::ldexp(1.0f, -8)).bits() == 0x3F80);        // tie: to even
  CHECK(bfloat16_t(1.0f + 3 * std::ldexp(1.0f, -8)).bits() == 0x3F82);    // tie: to even
  CHECK(float(bfloat16_t::fromBits(0x4049)) == 3.140625f);
}

TEST_CASE("vector arithmetic on half rounds every element") {
  std::vector<uint16_t> out(16);
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 256);
    AscendC::LocalTensor<half> a = ub.GetWithOffset<half>(16, 0);
    AscendC::LocalTensor<half> b = ub.GetWithOffset<half>(16, 32);
    AscendC::LocalTensor<half> c = ub.GetWithOffset<half>(16, 64);
    AscendC::Duplicate(a, 2048.0f, 16);
    AscendC::Duplicate(b, half(0.1f), 16);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(a, a, 1.0f, 16);  // 2049 is not a half: stays 2048
    AscendC::Adds(b, b, half(0.2f), 16);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Add(c, a, b, 16);
    sync<HardEvent::V_S>();
    out[0] = a.GetValue(0).bits();
    out[1] = b.GetValue(0).bits();
    out[2] = c.GetValue(15).bits();
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  CHECK(out[0] == half(2048.0f).bits());
  CHECK(out[1] == half(float(half(0.1f)) + float(half(0.2f))).bits());
  CHECK(out[1] == 0x34CC);  // 0.29993: the exact sum lies halfway between two halves; to even
  CHECK(out[2] == half(2048.0f).bits());
}

TEST_CASE("Cast rounds as its RoundMode says") {
  const std::vector<float> inputs = {1.0f + std::ldexp(1.0f, -11), 1.0f + 3 * std::ldexp(1.0f, -11), 65519.0f,
                                     65520.0f, std::ldexp(1.0f, -25), 3 * std::ldexp(1.0f, -26),
                                     -0.0f, 2.5f};
  std::vector<uint16_t> rint(8), trunc(8);
  std::vector<int32_t> ints(8);
  std::vector<float> back(8);
  const std::vector<float> intInputs = {2.5f, 3.5f, -2.5f, -2.7f, 2.1f, 3e9f, -3e9f, std::nanf("")};
  auto castInts = [&](AscendC::RoundMode mode) {
    std::vector<int32_t> result(8);
    launch(1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, 256);
      AscendC::LocalTensor<float> f = ub.GetWithOffset<float>(8, 0);
      AscendC::LocalTensor<int32_t> i = ub.GetWithOffset<int32_t>(8, 32);
      for (uint32_t k = 0; k < 8; ++k) f.SetValue(k, intInputs[k]);
      sync<HardEvent::S_V>();
      AscendC::Cast(i, f, mode, 8);
      sync<HardEvent::V_S>();
      for (uint32_t k = 0; k < 8; ++k) result[k] = i.GetValue(k);
    });
    return result;
  };
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 256);
    AscendC::LocalTensor<float> f = ub.GetWithOffset<float>(8, 0);
    AscendC::LocalTensor<half> h = ub.GetWithOffset<half>(8, 32);
    AscendC::LocalTensor<half> t = ub.GetWithOffset<half>(8, 64);
    AscendC::LocalTensor<float> g = ub.GetWithOffset<float>(8, 96);
    for (uint32_t k = 0; k < 8; ++k) f.SetValue(k, inputs[k]);
    sync<HardEvent::S_V>();
    AscendC::Cast(h, f, AscendC::RoundMode::CAST_RINT, 8);
    AscendC::Cast(t, f, AscendC::RoundMode::CAST_TRUNC, 8);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Cast(g, h, AscendC::RoundMode::CAST_NONE, 8);
    sync<HardEvent::V_S>();
    for (uint32_t k = 0; k < 8; ++k) {
      rint[k] = h.GetValue(k).bits();
      trunc[k] = t.GetValue(k).bits();
      back[k] = g.GetValue(k);
    }
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  CHECK(rint == std::vector<uint16_t>{0x3C00, 0x3C02, 0x7BFF, 0x7C00, 0x0000, 0x0001, 0x8000, 0x4100});
  CHECK(trunc == std::vector<uint16_t>{0x3C00, 0x3C01, 0x7BFF, 0x7BFF, 0x0000, 0x0000, 0x8000, 0x4100});
  CHECK(back[1] == 1.0f + std::ldexp(1.0f, -9));  // half -> float is exact
  CHECK(std::isinf(back[3]));

  const int32_t maxInt = std::numeric_limits<int32_t>::max(), minInt = std::numeric_limits<int32_t>::min();
  CHECK(castInts(AscendC::RoundMode::CAST_RINT) == std::vector<int32_t>{2, 4, -2, -3, 2, maxInt, minInt, 0});
  CHECK(castInts(AscendC::RoundMode::CAST_ROUND) == std::vector<int32_t>{3, 4, -3, -3, 2, maxInt, minInt, 0});
  CHECK(castInts(AscendC::RoundMode::CAST_FLOOR) == std::vector<int32_t>{2, 3, -3, -3, 2, maxInt, minInt, 0});
  CHECK(castInts(AscendC::RoundMode::CAST_CEIL) == std::vector<int32_t>{3, 4, -2, -2, 3, maxInt, minInt, 0});
  CHECK(castInts(AscendC::RoundMode::CAST_TRUNC) == std::vector<int32_t>{2, 3, -2, -2, 2, maxInt, minInt, 0});
}

TEST_CASE("ReduceSum, ReduceMax and ReduceMin") {
  std::vector<float> src(1000);
  for (size_t i = 0; i < src.size(); ++i) src[i] = float(int(i % 7) - 3);
  src[700] = 50.0f;
  src[900] = 50.0f;  // a tie: the lower index wins
  src[123] = -60.0f;
  double expectedSum = 0;
  for (float v : src) expectedSum += v;

  float sum = 0, maxValue = 0, minValue = 0;
  uint32_t maxIndex = 0, minIndex = 0;
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    AscendC::TBuf<> tmpBuf;  // TPosition::LCM, i.e. VECCALC
    pipe.InitBuffer(ub, 8192);
    pipe.InitBuffer(tmpBuf, 256);
    AscendC::LocalTensor<float> x = ub.GetWithOffset<float>(1024, 0);
    AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
    AscendC::LocalTensor<float> r = ub.GetWithOffset<float>(24, 4352);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(src.data(), src.size());
    AscendC::DataCopyPad(x, g, AscendC::DataCopyExtParams{1, 4000, 0, 0, 0},
                         AscendC::DataCopyPadExtParams<float>{true, 0, 0, 0.0f});
    sync<HardEvent::MTE2_V>();
    AscendC::ReduceSum(r, x, tmp, 1000);
    AscendC::ReduceMax(r[8], x, tmp, 1000, true);  // WAW on tmp within V: in order
    AscendC::ReduceMin(r[16], x, tmp, 1000, true);
    sync<HardEvent::V_S>();
    sum = r.GetValue(0);
    maxValue = r.GetValue(8);
    minValue = r.GetValue(16);
    const float maxIndexBits = r.GetValue(9), minIndexBits = r.GetValue(17);
    std::memcpy(&maxIndex, &maxIndexBits, 4);
    std::memcpy(&minIndex, &minIndexBits, 4);
  });
  INFO(describeAll(findings));
  CHECK(findings.empty());
  CHECK(sum == float(expectedSum));
  CHECK(maxValue == 50.0f);
  CHECK(maxIndex == 700);
  CHECK(minValue == -60.0f);
  CHECK(minIndex == 123);
}

TEST_CASE("ReduceSum on half rounds partial sums to half") {
  float sum = 0;
  launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 8192);
    AscendC::LocalTensor<half> x = ub.GetWithOffset<half>(2048, 0);
    AscendC::LocalTensor<half> tmp = ub.GetWithOffset<half>(32, 4096);
    AscendC::LocalTensor<half> r = ub.GetWithOffset<half>(16, 4160);
    AscendC::Duplicate(x, 1.0f, 2048);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceSum(r, x, tmp, 2048);
    sync<HardEvent::V_S>();
    sum = float(r.GetValue(0));
  });
  CHECK(sum == 2048.0f);  // exact: every partial sum is a power of two
}

TEST_CASE("a reduction's sharedTmpBuffer must be as large as CANN documents") {
  const Findings findings = launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 8192);
    AscendC::LocalTensor<float> x = ub.GetWithOffset<float>(1024, 0);
    AscendC::LocalTensor<float> tmp = ub.GetWithOffset<float>(8, 4096);
    AscendC::LocalTensor<float> r = ub.GetWithOffset<float>(8, 4128);
    AscendC::Duplicate(x, 1.0f, 1024);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceSum(r, x, tmp, 1024);  // 16 repeats: needs 16 elements
  });
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::bounds);
  CHECK(contains(findings[0].message, "ReduceSum: sharedTmpBuffer"));
}

TEST_CASE("blocks run in parallel, each with its own index and its own UB") {
  constexpr uint32_t blocks = 8;
  for (uint32_t threads : {1u, 8u}) {
    CAPTURE(threads);
    std::vector<float> out(blocks * 256, 0.0f);
    std::vector<std::atomic<int64_t>> blockNum(blocks);
    std::atomic<uint32_t> arrived{0};
    LaunchOptions options;
    options.maxThreads = threads;
    const Findings findings = launch(
        blocks,
        [&] {
          const int64_t idx = AscendC::GetBlockIdx();
          blockNum[size_t(idx)] = AscendC::GetBlockNum();
          AscendC::TPipe pipe;
          AscendC::TBuf<TPosition::VECCALC> ub;
          pipe.InitBuffer(ub, 1024);
          AscendC::LocalTensor<float> x = ub.Get<float>();
          AscendC::GlobalTensor<float> g;
          g.SetGlobalBuffer(out.data() + idx * 256, 256);
          AscendC::Duplicate(x, float(idx), 256);
          if (threads == blocks) {
            // Every block has its own thread: wait until all have written their UB, so that a UB
            // shared between blocks would show the last writer's value everywhere.
            ++arrived;
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while (arrived < blocks && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
          }
          for (int i = 0; i < 50; ++i) {
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Adds(x, x, 1.0f, 256);
          }
          sync<HardEvent::V_MTE3>();
          AscendC::DataCopy(g, x, 256);
        },
        options);
    INFO(describeAll(findings));
    CHECK(findings.empty());
    for (uint32_t b = 0; b < blocks; ++b) {
      CHECK(blockNum[b] == int64_t(blocks));
      for (uint32_t i = 0; i < 256; ++i) REQUIRE(out[b * 256 + i] == float(b + 50));
    }
  }
}

TEST_CASE("ASCEND_IS_AIV / ASCEND_IS_AIC follow the launch's core kind") {
  bool aiv = false, aic = true;
  launch(1, [&] {
    aiv = ASCEND_IS_AIV;
    aic = ASCEND_IS_AIC;
  });
  CHECK(aiv);
  CHECK_FALSE(aic);
  LaunchOptions cube;
  cube.coreKind = CoreKind::cube;
  launch(1, [&] {
    if ASCEND_IS_AIC { aic = true; }
    if ASCEND_IS_NOT_AIV { aiv = false; }
  }, cube);
  CHECK(aic);
  CHECK_FALSE(aiv);
}

TEST_CASE("describe() names the core and the kind") {
  const Findings findings = launch(2, [] {
    if (AscendC::GetBlockIdx() == 1) AscendC::SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID3);
  });
  REQUIRE(findings.size() == 1);
  CHECK(tle::ascendc::emu::describe(findings[0]) ==
        "core 1: unwaited_flag: SetFlag<MTE3_MTE2>(3) is never waited (the flag stays set after the kernel ends)");
}

TEST_CASE("an exception from the kernel is rethrown by launch") {
  CHECK_THROWS_AS(launch(4, [] {
                    if (AscendC::GetBlockIdx() == 2) throw std::runtime_error("kernel failed");
                  }),
                  std::runtime_error);
  CHECK_THROWS_AS(AscendC::GetBlockIdx(), std::logic_error);  // outside launch
}
