// How a pass says that a correct program cannot be compiled for the target (a tile too big
// for on-chip memory, an access the hardware cannot make): an error at the op that the driver
// reports as `unsupported-on-target` at the op's source position, not as a compiler bug.
#pragma once

#include "mlir/IR/Operation.h"

namespace tle {

inline constexpr llvm::StringLiteral kUnsupportedOnTarget = "unsupported on this target: ";

inline mlir::InFlightDiagnostic emitUnsupported(mlir::Operation *op) { return op->emitError() << kUnsupportedOnTarget; }

// A form tlec does not lower yet (reported as `not-implemented`).
inline constexpr llvm::StringLiteral kNotImplemented = "not implemented yet: ";

inline mlir::InFlightDiagnostic emitNotImplemented(mlir::Operation *op) { return op->emitError() << kNotImplemented; }

}  // namespace tle
