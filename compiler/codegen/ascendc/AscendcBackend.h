// The AscendC printer: turns tile IR that the Ascend pipeline has lowered (UB buffers,
// vector instructions, strided windows, pipe flags) into AscendC C++ plus a C header with
// one launcher per kernel, the same launcher ABI as the CUDA backend's.
#pragma once

#include "ir/IrModule.h"
#include "support/Diagnostics.h"
#include "support/SourceManager.h"

#include <functional>
#include <string>

namespace tle {

struct AscendcOptions {
  std::string headerName;  // how the .cpp includes its header ("kernel.h")
  std::string inputName;   // the .tle file, for the banner
  std::string targetName;  // "ascend:910b"
  // The text of line `line` of `file`, for the comment above each statement; may be empty.
  SourceLineReader sourceLine;
  SourceLocator locate;
};

struct AscendcOutput {
  std::string source;  // the .cpp file
  std::string header;  // the launchers' C header
};

// Reports what it cannot print (a not-implemented error at the op) and returns false.
bool printAscendc(const IrModule &module, const AscendcOptions &options, DiagnosticEngine &diags, AscendcOutput &out);

}  // namespace tle
