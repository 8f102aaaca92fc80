// Writing results so that a failed run never leaves a partial or clobbered file: the
// content goes to a temporary file beside the target, which is renamed over it only
// when complete.
#pragma once

#include "support/Diagnostics.h"

#include <string>

namespace tle {

// Writes `content` to `path` atomically, or to standard output for "" or "-".
// Reports failures (as cannot-write-file) and returns false.
bool writeOutputFile(const std::string &path, const std::string &content, DiagnosticEngine &diags);

// Reads a whole file, or standard input for "-". Reports failures and returns false.
bool readInputFile(const std::string &path, std::string &content, DiagnosticEngine &diags);

}  // namespace tle
