// What the passes that copy dot operands into shared memory share: which loads' `other`
// the copies' zero fill honours, and the copy of a load into a ring slot.
#pragma once

#include "ir/GpuDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace tle::cuda {

// cp.async's 16-byte chunk of 16-bit elements.
constexpr int kOperandChunkElements = 8;
// The most iterations ahead a loop's operand copies go (num_stages = 8): enough for every
// config Triton's tutorials use (num_stages 5 on two warps goes 4 ahead, as Triton's does).
constexpr int64_t kMaxAsyncDepth = 7;
// Elements of `element` in one 16-byte chunk (16-bit: 8, fp8: 16).
inline int64_t operandChunkElements(mlir::Type element) { return 128 / element.getIntOrFloatBitWidth(); }

// A load's `other` that masked-off chunks filled with zeros honour: none, or a zero splat.
bool isZeroOrAbsent(mlir::Value other);

// A copy of `load` into `ring` (into `slot` when given, else the slot its loop's iteration
// frees), at the builder's insertion point. A mask that is a splat (the whole tile or none
// of it) stays a scalar: the library decides once per tile.
// The copy keeps no eviction_policy of the load (cp.async has no eviction priority;
// Triton's asynchronous copies drop it too): a warning at the load says so, once per source
// location in `warned` (pipelining copies one load several times).
gpu::AsyncCopyOp createOperandCopy(mlir::OpBuilder &b, ir::LoadOp load, mlir::Value ring, mlir::IntegerAttr slot,
                                   llvm::DenseSet<mlir::Location> &warned);

// The warning above, for the other passes that turn a load into a cp.async copy.
void warnEvictionNotCopied(ir::LoadOp load, llvm::DenseSet<mlir::Location> &warned);

// The shared memory an op may take as scratch or staging (KernelPrinter's useScratch and
// useStaging; the device library sizes them): at most its largest tile operand, twice that
// for double-buffered staging; nothing for a rearrangement the printer does in registers
// (gpu::rearrangesInRegisters).
int64_t scratchEstimate(mlir::Operation *op);

// The shared memory `op` takes for the whole kernel, whatever the plan: a shared-memory
// tle.alloc's buffer or an operand ring's slots; 0 for other ops.
int64_t fixedSharedBytes(mlir::Operation *op);

// Whether an op after `from`, up to and including `to` (both in one block), may write memory
// (a store, an atomic, a barrier after which other threads write, an op of unknown effects);
// the operand copies placed so far do not count.
bool writesBetween(mlir::Operation *from, mlir::Operation *to);

// A conversion of a 16-bit tile to whole mma fragments of operand opIdx, read only by dots
// (outside ring loops) as that operand; with `copiedFromSource`, also one whose source
// layout the library's copy can write into the slot arrangement. The operand index, or
// nullopt.
std::optional<unsigned> operandConversion(gpu::ConvertLayoutOp c, bool copiedFromSource = true);

}  // namespace tle::cuda
