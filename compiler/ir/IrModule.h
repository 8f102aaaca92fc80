// The MLIR side of ir/Backend.h's opaque IrModule.
#pragma once

#include "ir/Backend.h"

#include "mlir/IR/BuiltinOps.h"

namespace tle {

struct IrModule {
  mlir::ModuleOp op;
};

}  // namespace tle
