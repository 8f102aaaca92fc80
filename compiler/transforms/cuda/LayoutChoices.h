// The layout choices that more than one CUDA pass must agree on: how a dot's warps split
// over M and N, and how wide a coalesced access is. tle-assign-layouts makes them;
// tle-plan-async-copies predicts them before layouts exist, with the same functions.
#pragma once

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"
#include "target/Target.h"
#include "transforms/common/AxisInfo.h"

#include "llvm/ADT/SmallVector.h"

namespace tle::cuda {

// `groupN` 0: mma.sync's layout (warps along N interleave 8-column tiles); > 0: wgmma with
// warpgroups along N, each owning blocks of `groupN` columns (#tle.mma's groupN).
struct MmaWarps {
  unsigned m = 1, n = 1, groupN = 0;
};
MmaWarps mmaWarpsOf(gpu::MmaLayoutAttr layout);

// Is `dot` part of a chain, its result flowing (through element-wise ops) into another
// dot's A operand, or fed that way itself (attention's P = softmax(Q K^T) into P V)?
bool isChainedDot(ir::DotOp dot);

// The warps of a 2-D dot's accumulator along M and N: whole warpgroups along M where the
// dot can run on wgmma (and, when the rows are too few for all of them, warpgroups along N
// as well), every warp along M in a chain, else split by the 16x8 tiles left per warp (as
// Triton does).
MmaWarps mmaWarpsFor(ir::DotOp dot, unsigned numWarps, const TargetInfo &target);

// wgmma's instruction widths along N (wgmma_width in dot.cuh).
bool isWgmmaWidth(int64_t n);
// Whether an accumulator `n` columns wide on `warps` can run on wgmma: whole warpgroups
// along M, and each warpgroup's columns whole instructions (wgmma_columns in dot.cuh).
bool wgmmaColumns(MmaWarps warps, int64_t n);
// Whether a dot operand tile of `shape` gives every warp whole mma fragments
// (is_mma16_operand in dot.cuh).
bool fillsMmaFragments(MmaWarps warps, unsigned opIdx, llvm::ArrayRef<int64_t> shape);
// Whether wgmma could take the dot at all (sm_90a, whole warpgroups, operand and result types).
bool wgmmaTypes(ir::DotOp dot, unsigned numWarps, const TargetInfo &target);
// An operand tile's shape in the 16-bit units the device library's slots count: an fp8 tile
// stored K-major is the 16-bit tile of half its K extent (dot.cuh chunk_elements).
llvm::SmallVector<int64_t, 2> operandUnits(llvm::ArrayRef<int64_t> shape, unsigned opIdx, mlir::Type element);
// Whether wgmma reads an operand stored K-major (A, or B arriving K-contiguous) with rows of
// `k` 16-bit elements along K from shared memory
// (SharedMma16Operand's kWgmmaLayout in dot.cuh: the 128-byte swizzle of rows of multiples of
// 64 elements, or the 64-byte one of 32).
bool wgmmaReadableAlongK(int64_t k);

// A coalesced access of `ptrType` tiles: dimensions fastest first, and how many consecutive
// elements each thread takes along the first.
struct Coalescing {
  llvm::SmallVector<unsigned> order;
  unsigned perThread = 1;
};
Coalescing coalescingFor(mlir::RankedTensorType ptrType, const common::AxisInfo &info, unsigned numWarps, const TargetInfo &target);

// The widest vector an access of `ptrType` can make when each thread holds `perThread`
// consecutive elements along `fast` (a power of two, at least 1).
unsigned vectorWidthFor(mlir::RankedTensorType ptrType, const common::AxisInfo &info, unsigned fast, unsigned perThread,
                        const TargetInfo &target);

// The access tle-assign-layouts gives a load or store of `ptrType` tiles in coalescingFor's
// layout, predicted before layouts exist: the dimension a thread's elements run along and
// how many of them one access moves.
struct PredictedAccess {
  unsigned fast = 0;
  unsigned vector = 1;
};
PredictedAccess predictedAccess(mlir::RankedTensorType ptrType, const common::AxisInfo &info, unsigned numWarps,
                                const TargetInfo &target);

// Whether accesses of `vector` elements of `ptrType` tiles move fewer bytes than the target's
// widest vector: each element then keeps its own address (and predicate) in registers.
bool narrowerThanWidest(mlir::RankedTensorType ptrType, unsigned vector, const TargetInfo &target);

// How many elements along the columns one store can write from an mma accumulator of
// `shape` once the lanes of a quad trade registers (store_exchanged in memory.cuh): the
// column pair times two per exchange step, each step trading one of the layout's register
// bits past the pair (at most two steps: the quad's four lanes hold eight columns). Mirrors
// plan_lane_exchange, which asserts what this promises.
unsigned exchangedRunElements(gpu::MmaLayoutAttr layout, llvm::ArrayRef<int64_t> shape);

// The dimension whose consecutive elements a thread holds in consecutive registers, and how
// many: a blocked layout's first `order` entry; the mma accumulator's column pairs (Mma in
// layout.cuh); also seen through slices of them. nullopt for other layouts.
std::optional<std::pair<unsigned, unsigned>> registerRunDimension(mlir::Attribute layout);

// Bytes of one element of a tile (of the pointee, for pointers).
unsigned elementBytes(mlir::Type type);

// The elements along `dim` that one repetition of a blocked layout covers: the size per thread
// times the threads and the warps along it. A tile longer than that repeats the layout; a
// shorter one gives some elements to several threads.
int64_t elementsCoveredAlong(gpu::BlockedLayoutAttr layout, unsigned dim);

}  // namespace tle::cuda
