// Shared fixture: a SourceManager and a DiagnosticEngine that renders into a string.
#pragma once

#include "support/Diagnostics.h"
#include "support/SourceManager.h"

#include <sstream>
#include <string>
#include <vector>

namespace tle::test {

struct Harness {
  explicit Harness(DiagnosticOptions options = plain()) : diags(sources, out, options) {}

  static DiagnosticOptions plain() {
    DiagnosticOptions o;
    o.color = ColorMode::Never;
    return o;
  }

  FileId add(const std::string &text, const std::string &name = "t.tle") { return sources.addBuffer(name, text); }

  // The ids of everything reported so far, space separated.
  std::string ids() const {
    std::string s;
    for (const Diagnostic &d : diags.emitted()) s += (s.empty() ? "" : " ") + std::string(diagIdName(d.id));
    return s;
  }

  SourceManager sources;
  std::ostringstream out;
  DiagnosticEngine diags;
};

}  // namespace tle::test
