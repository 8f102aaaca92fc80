// The scalar every element of a tile holds, where the IR says so directly: the passes that
// turn a tile's uniform step or stride into a scalar operand ask this.
#pragma once

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Value.h"

namespace tle::common {

// A splat's source, or a splat constant's value (an attribute); null for anything else.
mlir::OpFoldResult splatScalar(mlir::Value tile);

// The same as a value: a splat constant's value materialized as an arith.constant at `b`.
mlir::Value splatScalarValue(mlir::Value tile, mlir::OpBuilder &b);

}  // namespace tle::common
