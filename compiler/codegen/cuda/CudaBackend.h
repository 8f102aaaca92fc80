// The CUDA printer: turns tile IR that the CUDA pipeline has lowered into CUDA C++ plus a C
// header with one launcher per kernel. Plain C++ interface for the driver.
#pragma once

#include "ir/IrModule.h"
#include "support/Diagnostics.h"
#include "support/SourceManager.h"

#include <functional>
#include <memory>
#include <string>

namespace tle {

struct CudaOptions {
  std::string headerName;  // how the .cu includes its header ("kernel.h")
  std::string inputName;   // the .tle file, for the banner
  bool lineDirectives = false;
  // The text of line `line` of `file`, for the comment above each statement; may be empty.
  SourceLineReader sourceLine;
  // Where a (file, line, column) of the IR's locations is, for diagnostics.
  SourceLocator locate;
};

struct CudaOutput {
  std::string source;  // the .cu file
  std::string header;  // the launchers' C header
  bool distributed = false;  // a kernel takes a tleDistContext (needs NCCL and its launcher)
};

// Reports what it cannot print (a not-implemented error at the op) and returns false.
bool printCuda(const IrModule &module, const CudaOptions &options, DiagnosticEngine &diags, CudaOutput &out);

}  // namespace tle
