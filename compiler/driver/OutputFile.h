// Writing results so that a failed run never leaves a partial or clobbered file: every
// output (the result, the dependency file) first goes to a temporary file beside its
// target; only when all are complete are they renamed over their targets.
#pragma once

#include "support/Diagnostics.h"

#include <string>
#include <vector>

namespace tle {

class OutputSet {
public:
  OutputSet() = default;
  OutputSet(const OutputSet &) = delete;
  OutputSet &operator=(const OutputSet &) = delete;
  ~OutputSet();  // removes temporary files that were not committed

  // Stages `content` for `path` ("" or "-": standard output, written at commit).
  bool add(const std::string &path, std::string content, DiagnosticEngine &diags);
  // Renames every staged file into place and writes standard output.
  bool commit(DiagnosticEngine &diags);

private:
  struct Staged {
    std::string path;
    std::string temp;
  };
  std::vector<Staged> staged_;
  std::string stdoutContent_;
  bool hasStdout_ = false;
};

// Reads a whole file, or standard input for "-". Reports failures and returns false.
bool readInputFile(const std::string &path, std::string &content, DiagnosticEngine &diags);

}  // namespace tle
