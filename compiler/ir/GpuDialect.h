// The `tle_gpu` dialect: layouts, TLE-Struct GPU ops and the CUDA planning passes' ops and
// attributes (GpuBase.td, GpuAttrs.td, GpuOps.td).
#pragma once

#include "ir/Dialect.h"

#include "ir/GpuDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/GpuAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ir/GpuTypes.h.inc"

#define GET_OP_CLASSES
#include "ir/GpuOps.h.inc"

namespace tle::gpu {

// The attributes CUDA passes hand to each other and to the printer (GpuBase.td), each with
// its meaning when absent.
TleGpuDialect &dialectOf(mlir::Operation *op);
// A load or store's vector width (tle-assign-layouts); 1 when unset.
int vectorWidth(mlir::Operation *op);
void setVectorWidth(mlir::Operation *op, int width);
// The access's mask may differ inside one vector (tle-assign-layouts).
bool maskPerElement(mlir::Operation *op);
void setMaskPerElement(mlir::Operation *op);
// An element-wise tile result whose registers are equal over aligned runs of this many
// consecutive ones (tle-mark-uniform-runs); 1 when unset.
int uniformRun(mlir::Operation *op);
void setUniformRun(mlir::Operation *op, int registers);
// A scalar load that thread 0 makes and the block shares (its value steers control flow).
bool uniformLoad(mlir::Operation *op);
void setUniformLoad(mlir::Operation *op);
// A reduction of a whole boolean tile to a scalar by or ("any") or and ("all") that the block's
// barrier computes (tle-block-votes); empty when unset.
llvm::StringRef blockVote(mlir::Operation *op);
void setBlockVote(mlir::Operation *op, llvm::StringRef vote);
// The resident blocks per multiprocessor a kernel asks ptxas to leave registers for
// (tle-bound-registers); nullopt: ptxas chooses.
std::optional<int64_t> minBlocksPerProcessor(mlir::Operation *kernel);
void setMinBlocksPerProcessor(mlir::Operation *kernel, int64_t blocks);
// A pipe commit after which the writer's cp.async copies (tle_gpu.copy_async_to_shared) are
// published too: its arrival waits for them (tle-async-slot-copies).
bool commitsAsyncCopies(mlir::Operation *commit);
void setCommitsAsyncCopies(mlir::Operation *commit);
// A buffer whose 2-D tiles (the whole buffer, or each slot of a pipe's) hold dot operands in
// the swizzled arrangement wgmma and ldmatrix read, in place (tle-read-buffer-operands):
// accesses through tle_gpu.local_ptr and tle_gpu.local_load follow the swizzle.
bool isOperandBuffer(mlir::Operation *alloc);
void setOperandBuffer(mlir::Operation *alloc);
// An addptr of 32-bit offsets that widens each where the addptr stands, so that the CUDA
// compiler keeps the 32-bit offsets, not their 64-bit widenings, across a loop
// (tle-carry-pointer-bases).
bool widensAtUse(mlir::Operation *addptr);
void setWidensAtUse(mlir::Operation *addptr);
// The alloc a buffer value is, or a slot of (through tle.buffer_slot); null when not known.
ir::AllocOp allocOf(mlir::Value buffer);
// A shared-memory buffer's byte offset (tle-plan-shared-memory); nullopt before planning.
std::optional<int64_t> bufferOffset(mlir::Operation *alloc);
void setBufferOffset(mlir::Operation *alloc, int64_t offset);
// The bytes a kernel's buffers take together (tle-plan-shared-memory); 0 when unset.
int64_t bufferBytes(mlir::Operation *kernel);
void setBufferBytes(mlir::Operation *kernel, int64_t bytes);
// A blocked layout with its dimensions permuted as tle.trans with `order` permutes its
// operand's (result dimension i is operand dimension order[i]); with `inverse`, back from the
// result's layout to the operand's. Null for other layouts: only a blocked layout permutes
// without moving elements between threads.
mlir::Attribute transposedBlockedLayout(mlir::Attribute layout, llvm::ArrayRef<int32_t> order, bool inverse);
// Whether a tile of `shape` in the mma accumulator layout `layout` has the lane and warp
// bases of every larger tile in it (layout.cuh's Mma): no basis is cut off by the shape, so
// the sub-tiles of a larger tile at multiples of `shape` are subsets of each thread's registers.
bool mmaTileKeepsThreads(MmaLayoutAttr layout, llvm::ArrayRef<int64_t> shape);
// A tle.extract_tile at constant offsets whose source and result share an mma layout that
// keeps the result's threads: each thread selects registers it holds, no scratch.
bool extractsInRegisters(mlir::Operation *extract);
// A tle.trans between layouts that are each other's permutation, or an extract_tile in
// registers: the printer moves nothing between threads, so the op needs no scratch.
bool rearrangesInRegisters(mlir::Operation *op);
// A load planned as an asynchronous copy into shared memory (tle-plan-async-copies).
bool isAsyncCopy(mlir::Operation *load);
void setAsyncCopy(mlir::Operation *load, bool async);
// A planned asynchronous copy of a descriptor block that goes by TMA (tle-plan-tma-copies).
bool isTmaCopy(mlir::Operation *load);
void setTmaCopy(mlir::Operation *load, bool tma);
// Whether a kernel may copy descriptor blocks by TMA (tlec --tma; true unless turned off).
bool tmaAllowed(mlir::Operation *kernel);
void disallowTma(mlir::Operation *kernel);
// How many iterations ahead a loop's asynchronous copies are issued; nullopt: the loop has none.
std::optional<int> asyncDepth(mlir::Operation *loop);
void setAsyncDepth(mlir::Operation *loop, int depth);
// The number of slots in the operand rings of a loop (tle-lower-async-copies); nullopt: none.
std::optional<int> ringSlots(mlir::Operation *loop);
void setRingSlots(mlir::Operation *loop, int slots);
// The innermost loop around `op` with tle_gpu.ring_slots; null: none.
mlir::Operation *enclosingRingLoop(mlir::Operation *op);
// A kernel's shared-memory plan (tle-plan-shared-memory); null before planning.
SharedMemoryPlanAttr sharedMemoryPlan(mlir::Operation *kernel);
void setSharedMemoryPlan(mlir::Operation *kernel, SharedMemoryPlanAttr plan);

// Where a TLE-Raw call's block arguments are staged in the scratch (tle-plan-shared-memory):
// one offset per block argument, then the end of the last one's region.
llvm::ArrayRef<int64_t> argumentOffsets(mlir::Operation *call);
void setArgumentOffsets(mlir::Operation *call, llvm::ArrayRef<int64_t> offsets);

// Warp specialization (tle-isolate-partitions). The kernel's one tle_gpu.warp_specialize,
// if it has one; the partition that runs `op` (0: the default partition, and all code
// outside the op; i: worker region i - 1); where each worker's warps start (a multiple of
// its own warp count, after the default partition's); the threads of partition `p`.
WarpSpecializeOp warpSpecializeOf(mlir::Operation *kernel);
unsigned partitionOf(mlir::Operation *op);
llvm::SmallVector<int32_t> workerFirstWarps(WarpSpecializeOp ws);
void setWorkerFirstWarps(WarpSpecializeOp ws, llvm::ArrayRef<int32_t> firstWarps);
// Partition `p`'s first warp and its warps; its threads (the target's threads per warp).
unsigned partitionFirstWarp(mlir::Operation *kernel, unsigned partition);
unsigned partitionWarps(mlir::Operation *kernel, unsigned partition);
unsigned partitionThreads(mlir::Operation *kernel, unsigned partition);
// Named barriers (bar.sync ids): 0 is the whole block's (__syncthreads), then the default
// partition's, one per worker, and the join at the end of tle_gpu.warp_specialize (the last
// of the 16 a block has).
constexpr unsigned kJoinBarrier = 15;
constexpr unsigned kMaxWorkers = kJoinBarrier - 2;
inline unsigned partitionBarrier(unsigned partition) { return partition + 1; }
// Register reallocation: the registers per thread the kernel is compiled for (__maxnreg__),
// then the setmaxnreg count of the default partition and of each worker (0: it keeps the
// kernel's); empty: none.
llvm::SmallVector<int32_t> registerPlan(WarpSpecializeOp ws);
void setRegisterPlan(WarpSpecializeOp ws, llvm::ArrayRef<int32_t> plan);
// The warps a block of a warp-specialized kernel has (the last worker's end).
unsigned blockWarps(mlir::Operation *kernel);
// A pipe's arrivals per phase: its writer's threads and all its readers' threads together.
std::optional<std::pair<int32_t, int32_t>> pipeThreads(mlir::Operation *pipe);
void setPipeThreads(mlir::Operation *pipe, int32_t writers, int32_t readers);

// Operand slots start at multiples of wgmma's swizzle atom (8 rows of 128 bytes), the layout
// the device library's copies write.
constexpr int64_t kOperandSlotAlignment = 1024;
// Bytes of one slot holding `staged`, rounded up to the swizzle atom; of one slot of a ring.
// A slot that also holds its tile's transpose (slotHoldsTranspose) is twice that.
int64_t slotBytes(mlir::RankedTensorType staged, bool withTranspose = false);
int64_t ringSlotBytes(OperandRingType ring);
// An fp8 B copied N-contiguous (`x @ W` with a row-major fp8 W): wgmma's fp8 forms read B
// K-major only, so the device library writes the tile's transpose into the slot's second
// half before the dot reads it (dot.cuh, transpose_fp8_slot). `nContiguous`: the copy's
// 16-byte chunks run along N (dimension 1).
bool slotHoldsTranspose(mlir::Type element, unsigned opIdx, bool nContiguous);
// Whether the device library's copy can put `staged` (a blocked tile of 16-bit elements)
// into a slot read as dot operand `opIdx`: the slot's rows run along the tile's other
// dimension than its 16-byte chunks (dot.cuh's operand_staging), which for an A operand must
// be K (dimension 1).
bool slotHoldsOperand(mlir::RankedTensorType staged, unsigned opIdx);
// A ring of one slot holds a loop-invariant operand for the loops that read it.
inline bool isResident(OperandRingType ring) { return ring.getSlots() == 1; }

}  // namespace tle::gpu
