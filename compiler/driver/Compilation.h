// One tlec run after the command line is parsed: read the input, run the stages that
// --emit asks for, write the output and the dependency file.
#pragma once

#include "driver/CommandLine.h"
#include "support/Diagnostics.h"
#include "support/SourceManager.h"

namespace tle {

// Returns true on success. Everything that goes wrong is reported to `diags`.
bool runCompilation(const Options &options, SourceManager &sources, DiagnosticEngine &diags);

// Where --emit=cuda writes the launchers' header: the output path with its extension
// replaced by ".h".
std::string headerPathFor(const Options &options);

// The make-style rule `target: deps...`, with spaces and '$' escaped as make and ninja expect.
std::string formatDepfile(const std::string &target, const std::vector<std::string> &deps);

}  // namespace tle
