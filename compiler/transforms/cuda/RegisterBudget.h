// A thread's registers for a kernel's tiles, and how many resident blocks per multiprocessor
// leave room for them: tle-bound-registers asks ptxas for that many, and
// tle-keep-dots-in-flight checks that what a group in flight keeps live still fits.
#pragma once

#include "target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tle::cuda {

// A block count is worth asking for when each thread's share of the register file keeps at
// least this multiple of the tiles' estimate, and this many registers: below either, ptxas
// spilled on the attention sweep (96-200 bytes, 15-35% slower) where above them it did not.
constexpr double kRegisterHeadroom = 1.3;
constexpr int64_t kFewestRegisters = 80;

// Registers a thread spends on `tile`, distributed over `threads` (32-bit words; a dot
// operand is held once per warp along the other dimension, and warps past an Mma tile's rows
// hold its rows again).
int64_t registersOf(mlir::RankedTensorType tile, int64_t threads);

// The dots' accumulators of each block (the dots of one loop body are live together) and,
// once, every A operand held in registers from outside its dot's block (attention's Q).
int64_t estimatedTileRegisters(mlir::func::FuncOp f, int64_t threads);

// Registers for the dot operands a kernel loads element by element into registers (its
// variants that know nothing of sizes or strides): each operand tile and its 64-bit
// addresses, for the dots of one block of ops together. estimatedTileRegisters does not see
// them: there the operands go to shared memory in 16-byte copies.
int64_t estimatedElementwiseOperandRegisters(mlir::func::FuncOp f, const TargetInfo &t, int64_t threads);

// A kernel with dots: its accumulators and invariant operands (estimatedTileRegisters) plus
// the operands it loads element by element with their addresses; 0 for a kernel without dots.
int64_t estimatedDotKernelRegisters(mlir::func::FuncOp f, const TargetInfo &t, int64_t threads);

// For a kernel without dots: the most that one loop keeps in registers across its
// iterations, the tiles it carries and the tiles its body loads (a layer norm's running sums
// and the row chunk it adds to them; a softmax's row). 0 when a tile is loaded in accesses
// narrower than the target's widest or masked element by element: each element then takes its own
// address or predicate registers, which this estimate does not count (ptxas took 168-226
// registers for such layer norms, and spilled 532 bytes when bounded to 128).
int64_t estimatedLoopTileRegisters(mlir::func::FuncOp f, const TargetInfo &t, int64_t threads);

// The most resident blocks that `sharedBytes` a block, the threads and the register file
// allow with room for `tileRegisters`, if that asks ptxas for fewer registers than it may
// take: 0 when no such count is worth asking for.
int64_t blocksWorthAskingFor(const TargetInfo &t, int64_t threads, int64_t tileRegisters, int64_t sharedBytes);

// A thread's registers when `blocks` blocks of `threads` share the register file (0: as many
// as ptxas may take).
int64_t registerShare(const TargetInfo &t, int64_t threads, int64_t blocks);

}  // namespace tle::cuda
