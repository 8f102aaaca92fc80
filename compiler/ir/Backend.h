// Where the semantic stage hands over its verified tile IR. A backend (CUDA, AscendC, or
// plain MLIR text) turns the module into output files. Plain C++: the driver, which does not
// see MLIR, creates backends through factories and passes them to sema::compile.
#pragma once

#include "support/Diagnostics.h"

#include <string>

namespace tle {

// The lowered module; its definition (an mlir::ModuleOp) is in ir/IrModule.h.
struct IrModule;

struct BackendOutput {
  std::string main;    // .cu / .mlir / .ptx text
  std::string header;  // the C header with the launchers, when the backend makes one
};

class Backend {
 public:
  virtual ~Backend() = default;
  // Reports problems to `diags` and returns false on error.
  virtual bool run(IrModule &module, DiagnosticEngine &diags, BackendOutput &out) = 0;
};

}  // namespace tle
