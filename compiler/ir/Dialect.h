// The `tle` MLIR dialect (the target-independent tile program): types and ops generated
// from TleTypes.td / TleOps.td. The GPU and DSA levels are in GpuDialect.h and DsaDialect.h.
#pragma once

#include "target/MemorySpace.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ir/TleDialect.h.inc"

namespace tle::ir {
// Memory spaces as the IR spells them (type parameters of !tle.ptr and !tle.buffer).
mlir::FailureOr<MemorySpace> parseMemorySpace(mlir::AsmParser &parser);
}  // namespace tle::ir

namespace tle {
inline mlir::AsmPrinter &operator<<(mlir::AsmPrinter &printer, MemorySpace space) {
  printer << llvm::StringRef(memorySpaceName(space).data(), memorySpaceName(space).size());
  return printer;
}
}  // namespace tle

#define GET_TYPEDEF_CLASSES
#include "ir/TleTypes.h.inc"

#define GET_OP_CLASSES
#include "ir/TleOps.h.inc"

namespace tle::ir {

// The element type of a tensor, or the type itself.
mlir::Type elementTypeOf(mlir::Type type);
// The shape of a tensor; empty for a scalar.
llvm::ArrayRef<int64_t> shapeOf(mlir::Type type);
// The memory space of a pointer or of a tensor of pointers; nullopt for other types.
std::optional<MemorySpace> pointerSpaceOf(mlir::Type type);
// Bytes of one element (of the pointee, for pointers; at least 1), and of a whole tile.
int64_t elementBytes(mlir::Type type);
int64_t tileBytes(mlir::RankedTensorType tile);
// An 8-bit float (e4m3, e5m2 and the other fp8 formats).
bool isFp8(mlir::Type type);
// `bytes` rounded up to a multiple of `alignment`.
inline int64_t alignTo(int64_t bytes, int64_t alignment) { return (bytes + alignment - 1) / alignment * alignment; }
// `result` is `buffer`'s whole tile, in any layout.
mlir::LogicalResult verifyWholeBufferRead(mlir::Operation *op, BufferType buffer, mlir::Type result);
// Is `t` a tensor of `shape` and `element` in any layout (layout assignment may give results
// and operands different ones), or, for an empty shape, the scalar `element`?
bool hasShapeAndElement(mlir::Type t, llvm::ArrayRef<int64_t> shape, mlir::Type element);

}  // namespace tle::ir
