// The `tle` MLIR dialect: types and ops generated from TleTypes.td / TleOps.td.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ir/TleDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ir/TleTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/TleAttrs.h.inc"

#define GET_OP_CLASSES
#include "ir/TleOps.h.inc"

namespace tle::ir {

// The element type of a tensor, or the type itself.
mlir::Type elementTypeOf(mlir::Type type);
// The shape of a tensor; empty for a scalar.
llvm::ArrayRef<int64_t> shapeOf(mlir::Type type);

}  // namespace tle::ir
