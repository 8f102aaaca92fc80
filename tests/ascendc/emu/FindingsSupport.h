// What the emulation's test files share: reading findings, and one SetFlag/WaitFlag pair.
#pragma once

#include "tle/ascendc/emu/kernel_operator.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace emu_test {

using tle::ascendc::emu::Finding;
using tle::ascendc::emu::FindingKind;
using tle::ascendc::emu::Findings;

inline size_t countKind(const Findings &findings, FindingKind kind) {
  return size_t(std::count_if(findings.begin(), findings.end(), [&](const Finding &f) { return f.kind == kind; }));
}

// Every finding described, one per line (for failure messages and substring checks).
inline std::string describeAll(const Findings &findings) {
  std::string text;
  for (const Finding &f : findings) text += tle::ascendc::emu::describe(f) + "\n";
  return text;
}

inline bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// Pipe `event`'s source signals and its destination waits, back to back.
template <AscendC::HardEvent event>
void sync(int32_t id = EVENT_ID0) {
  AscendC::SetFlag<event>(id);
  AscendC::WaitFlag<event>(id);
}

}  // namespace emu_test
