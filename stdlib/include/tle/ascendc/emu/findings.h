// What the emulation reports: a finding is something that the CPU run survived but that would
// be wrong (or undefined, or a hang) on an Ascend AI core. Findings never stop the run; an
// access that would leave the emulated core's memory is skipped instead of performed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tle::ascendc::emu {

enum class FindingKind : uint8_t {
  hazard_raw,          // a read of bytes whose last write is not ordered before it
  hazard_war,          // a write of bytes whose last reads (other pipes) are not ordered before it
  hazard_waw,          // a write of bytes whose last write (another pipe) is not ordered before it
  uninitialised_read,  // a read of on-chip bytes nothing in this kernel has written
  unset_flag,          // WaitFlag with no pending SetFlag of the same event and id: a hang
  unwaited_flag,       // SetFlag never consumed by a WaitFlag before the kernel ends
  double_set_flag,     // SetFlag on an event and id already set and not yet waited
  bad_event_id,        // an event id outside 0..7
  capacity,            // TPipe::InitBuffer beyond the capacity of the core's memory
  alignment,           // an address that the hardware requires aligned is not
  bounds,              // an access beyond its tensor, buffer or memory
  copy_granularity,    // DataCopy of a byte count that is not whole 32-byte blocks
  wrong_memory,        // an operand in a memory the instruction cannot use
  wrong_core,          // a cube instruction on a vector core (CANN skips it there: nothing happens)
  bad_argument,        // an argument outside what the API accepts
  truncated,           // further findings of this core were dropped (see the message)
};

inline const char *kindName(FindingKind kind) {
  switch (kind) {
  case FindingKind::hazard_raw: return "hazard_raw";
  case FindingKind::hazard_war: return "hazard_war";
  case FindingKind::hazard_waw: return "hazard_waw";
  case FindingKind::uninitialised_read: return "uninitialised_read";
  case FindingKind::unset_flag: return "unset_flag";
  case FindingKind::unwaited_flag: return "unwaited_flag";
  case FindingKind::double_set_flag: return "double_set_flag";
  case FindingKind::bad_event_id: return "bad_event_id";
  case FindingKind::capacity: return "capacity";
  case FindingKind::alignment: return "alignment";
  case FindingKind::bounds: return "bounds";
  case FindingKind::copy_granularity: return "copy_granularity";
  case FindingKind::wrong_memory: return "wrong_memory";
  case FindingKind::wrong_core: return "wrong_core";
  case FindingKind::bad_argument: return "bad_argument";
  case FindingKind::truncated: return "truncated";
  }
  return "unknown";
}

struct Finding {
  uint32_t core = 0;  // the block index (GetBlockIdx) of the core that made it
  FindingKind kind = FindingKind::bad_argument;
  std::string message;
};

using Findings = std::vector<Finding>;

// "core 2: hazard_raw: V Adds #2 reads UB bytes [0, 4096) written by ..."
inline std::string describe(const Finding &finding) {
  return "core " + std::to_string(finding.core) + ": " + kindName(finding.kind) + ": " + finding.message;
}

}  // namespace tle::ascendc::emu
