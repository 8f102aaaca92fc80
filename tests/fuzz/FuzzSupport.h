// What every tlec fuzz target checks besides the sanitizers: a stage that fails says why
// with an error, and every error points into the input (a located diagnostic). Anything
// else aborts, so libFuzzer keeps the input as a finding.
#pragma once

#include "support/Diagnostics.h"
#include "support/SourceManager.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace tle::fuzz {

inline void quietLogs() { spdlog::set_level(spdlog::level::off); }

[[noreturn]] inline void finding(const std::string &what, const std::string &rendered) {
  std::fprintf(stderr, "tlec fuzz finding: %s\n%s\n", what.c_str(), rendered.c_str());
  std::abort();
}

// `ok`: what the stage returned.
inline void checkDiagnostics(const DiagnosticEngine &diags, bool ok, const std::ostringstream &rendered) {
  if (!ok && !diags.hasErrors()) finding("a stage failed without an error", rendered.str());
  if (ok && diags.hasErrors()) finding("a stage succeeded with errors", rendered.str());
  for (const Diagnostic &d : diags.emitted()) {
    if (d.severity != Severity::Error) continue;
    if (d.id == DiagId::InternalError) finding("an internal error", rendered.str());
    // About the run, not a place: the error limit, and a requested kernel that is not one
    // (the command line's --kernel; a note points at the function).
    if (!d.range.isValid() && d.id != DiagId::TooManyErrors && d.id != DiagId::KernelNotFound)
      finding("an unlocated error", rendered.str());
  }
}

// Diagnostics rendered into a string (shown with a finding), never colourised.
inline DiagnosticOptions plainDiagnostics() {
  DiagnosticOptions o;
  o.color = ColorMode::Never;
  return o;
}

}  // namespace tle::fuzz
