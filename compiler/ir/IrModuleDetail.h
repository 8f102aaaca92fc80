// The MLIR side of ir/IrModule.h: a context with every dialect of the tile IR loaded, and
// the module of kernels in it.
#pragma once

#include "ir/IrModule.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

namespace tle {

struct IrModule {
  IrModule();  // loads the dialects; `op` is set by whoever builds the module
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> op;
};

// The dialects a tile program may contain (the three tle levels, arith, math, scf, func).
void registerTileDialects(mlir::DialectRegistry &registry);

}  // namespace tle
