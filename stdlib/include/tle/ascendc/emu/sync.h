// Synchronisation within a core: SetFlag/WaitFlag between two pipes and PipeBarrier on one
// pipe (or all). They change nothing in a CPU run except the hazard model's vector clocks
// (hazards.h), which is how missing or misplaced synchronisation becomes visible.
#pragma once

#include "tle/ascendc/emu/core.h"

#include <cstdint>

// The device compiler's pipe and event identifiers (global, like CANN's).
enum pipe_t {
  PIPE_S = 0,
  PIPE_V = 1,
  PIPE_M = 2,
  PIPE_MTE1 = 3,
  PIPE_MTE2 = 4,
  PIPE_MTE3 = 5,
  PIPE_ALL = 6,
  PIPE_MTE4 = 7,
  PIPE_MTE5 = 8,
  PIPE_V2 = 9,
  PIPE_FIX = 10,
};

enum event_t {
  EVENT_ID0 = 0,
  EVENT_ID1 = 1,
  EVENT_ID2 = 2,
  EVENT_ID3 = 3,
  EVENT_ID4 = 4,
  EVENT_ID5 = 5,
  EVENT_ID6 = 6,
  EVENT_ID7 = 7,
};

namespace AscendC {

// Named <source pipe>_<destination pipe>: the destination waits for the source.
enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX,
};
static_assert(int(HardEvent::MAX) == ::tle::ascendc::emu::kHardEventCount,
              "HardEvent and kHardEventPipes (hazards.h) must list the same events in the same order");

using TEventID = int8_t;

// The source pipe signals that all its earlier operations are complete.
template <HardEvent event>
void SetFlag(int32_t eventID) {
  static_assert(event != HardEvent::MAX, "HardEvent::MAX is not an event");
  ::tle::ascendc::emu::currentCore().setFlag(int(event), eventID);
}

// The destination pipe waits for that signal (and consumes it).
template <HardEvent event>
void WaitFlag(int32_t eventID) {
  static_assert(event != HardEvent::MAX, "HardEvent::MAX is not an event");
  ::tle::ascendc::emu::currentCore().waitFlag(int(event), eventID);
}

// Orders the pipe's later operations after all its earlier ones (PIPE_ALL: every pipe after
// everything issued so far).
template <pipe_t pipe>
void PipeBarrier() {
  using ::tle::ascendc::emu::Pipe;
  ::tle::ascendc::emu::PipeClocks &clocks = ::tle::ascendc::emu::currentCore().clocks();
  switch (pipe) {
  case PIPE_S: clocks.barrier(Pipe::S); break;
  case PIPE_V: clocks.barrier(Pipe::V); break;
  case PIPE_M: clocks.barrier(Pipe::M); break;
  case PIPE_MTE1: clocks.barrier(Pipe::MTE1); break;
  case PIPE_MTE2: clocks.barrier(Pipe::MTE2); break;
  case PIPE_MTE3: clocks.barrier(Pipe::MTE3); break;
  case PIPE_FIX: clocks.barrier(Pipe::FIX); break;
  case PIPE_ALL: clocks.barrierAll(); break;
  default: break;  // pipes the emulation has no operations on
  }
}

}  // namespace AscendC
