#include "ir/GpuDialect.h"

#include "target/Target.h"
#include "ir/KernelSettings.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include "ir/GpuDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/GpuAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ir/GpuTypes.cpp.inc"

#define GET_OP_CLASSES
#include "ir/GpuOps.cpp.inc"

namespace tle::gpu {

using namespace mlir;

void TleGpuDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ir/GpuAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "ir/GpuTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ir/GpuOps.cpp.inc"
      >();
}

TleGpuDialect &dialectOf(Operation *op) { return *op->getContext()->getOrLoadDialect<TleGpuDialect>(); }

int vectorWidth(Operation *op) {
  auto v = dialectOf(op).getVecAttrHelper().getAttr(op);
  return v ? static_cast<int>(v.getInt()) : 1;
}
void setVectorWidth(Operation *op, int width) {
  dialectOf(op).getVecAttrHelper().setAttr(op, IntegerAttr::get(IntegerType::get(op->getContext(), 32), width));
}
bool maskPerElement(Operation *op) { return dialectOf(op).getMaskPerElementAttrHelper().isAttrPresent(op); }
void setMaskPerElement(Operation *op) { dialectOf(op).getMaskPerElementAttrHelper().setAttr(op, UnitAttr::get(op->getContext())); }
int uniformRun(Operation *op) {
  auto v = dialectOf(op).getUniformRunAttrHelper().getAttr(op);
  return v ? static_cast<int>(v.getInt()) : 1;
}
void setUniformRun(Operation *op, int registers) {
  dialectOf(op).getUniformRunAttrHelper().setAttr(op, IntegerAttr::get(IntegerType::get(op->getContext(), 32), registers));
}
bool uniformLoad(Operation *op) { return dialectOf(op).getUniformAttrHelper().isAttrPresent(op); }
void setUniformLoad(Operation *op) { dialectOf(op).getUniformAttrHelper().setAttr(op, UnitAttr::get(op->getContext())); }
llvm::StringRef blockVote(Operation *op) {
  if (auto v = dialectOf(op).getBlockVoteAttrHelper().getAttr(op)) return v.getValue();
  return {};
}
void setBlockVote(Operation *op, llvm::StringRef vote) {
  dialectOf(op).getBlockVoteAttrHelper().setAttr(op, StringAttr::get(op->getContext(), vote));
}
std::optional<int64_t> minBlocksPerProcessor(Operation *kernel) {
  if (auto v = dialectOf(kernel).getMinBlocksPerProcessorAttrHelper().getAttr(kernel)) return v.getInt();
  return std::nullopt;
}
void setMinBlocksPerProcessor(Operation *kernel, int64_t blocks) {
  dialectOf(kernel).getMinBlocksPerProcessorAttrHelper().setAttr(kernel, IntegerAttr::get(IntegerType::get(kernel->getContext(), 32), blocks));
}
bool widensAtUse(Operation *addptr) { return dialectOf(addptr).getWidenAtUseAttrHelper().isAttrPresent(addptr); }
void setWidensAtUse(Operation *addptr) { dialectOf(addptr).getWidenAtUseAttrHelper().setAttr(addptr, UnitAttr::get(addptr->getContext())); }
bool commitsAsyncCopies(Operation *commit) { return dialectOf(commit).getAfterAsyncCopiesAttrHelper().isAttrPresent(commit); }
void setCommitsAsyncCopies(Operation *commit) {
  dialectOf(commit).getAfterAsyncCopiesAttrHelper().setAttr(commit, UnitAttr::get(commit->getContext()));
}
bool isOperandBuffer(Operation *alloc) { return alloc && dialectOf(alloc).getOperandBufferAttrHelper().isAttrPresent(alloc); }
void setOperandBuffer(Operation *alloc) { dialectOf(alloc).getOperandBufferAttrHelper().setAttr(alloc, UnitAttr::get(alloc->getContext())); }
ir::AllocOp allocOf(Value buffer) {
  while (auto slot = buffer.getDefiningOp<ir::BufferSlotOp>()) buffer = slot.getBuffer();
  return buffer.getDefiningOp<ir::AllocOp>();
}
std::optional<int64_t> bufferOffset(Operation *alloc) {
  if (auto v = dialectOf(alloc).getOffsetAttrHelper().getAttr(alloc)) return v.getInt();
  return std::nullopt;
}
void setBufferOffset(Operation *alloc, int64_t offset) {
  dialectOf(alloc).getOffsetAttrHelper().setAttr(alloc, IntegerAttr::get(IntegerType::get(alloc->getContext(), 64), offset));
}
int64_t bufferBytes(Operation *kernel) {
  auto v = dialectOf(kernel).getBufferBytesAttrHelper().getAttr(kernel);
  return v ? v.getInt() : 0;
}
void setBufferBytes(Operation *kernel, int64_t bytes) {
  dialectOf(kernel).getBufferBytesAttrHelper().setAttr(kernel, IntegerAttr::get(IntegerType::get(kernel->getContext(), 64), bytes));
}

Attribute transposedBlockedLayout(Attribute layout, ArrayRef<int32_t> order, bool inverse) {
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(layout);
  size_t rank = order.size();
  if (!blocked || blocked.getOrder().size() != rank) return {};
  // from[i]: the dimension of the given layout that becomes dimension i.
  SmallVector<unsigned> from(rank), position(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (order[i] < 0 || static_cast<size_t>(order[i]) >= rank) return {};
    if (inverse) from[order[i]] = i;
    else from[i] = order[i];
  }
  for (size_t i = 0; i < rank; ++i) position[from[i]] = i;
  SmallVector<unsigned> spt, tpw, wpc, fastest;
  for (size_t i = 0; i < rank; ++i) {
    spt.push_back(blocked.getSizePerThread()[from[i]]);
    tpw.push_back(blocked.getThreadsPerWarp()[from[i]]);
    wpc.push_back(blocked.getWarpsPerCTA()[from[i]]);
  }
  for (unsigned d : blocked.getOrder()) fastest.push_back(position[d]);
  return BlockedLayoutAttr::get(layout.getContext(), spt, tpw, wpc, fastest);
}

bool mmaTileKeepsThreads(MmaLayoutAttr layout, ArrayRef<int64_t> shape) {
  if (shape.size() != 2) return false;
  const int64_t warpsM = layout.getWarpsM(), warpsN = layout.getWarpsN(), groupN = layout.getGroupN();
  // Rows: lanes reach 8, a register the next 8, the warps 16 apart. Columns: a register and
  // two lane bits reach 8; the warps then interleave 8-column blocks, or own groupN-wide ones.
  const int64_t rows = 16 * warpsM;
  const int64_t cols = groupN == 0 ? 8 * warpsN : warpsN > 1 ? groupN * warpsN : 8;
  return shape[0] >= rows && shape[1] >= cols;
}

bool extractsInRegisters(Operation *op) {
  auto extract = dyn_cast<ir::ExtractTileOp>(op);
  if (!extract || !extract.getDynamicOffsets().empty()) return false;
  auto src = dyn_cast<MmaLayoutAttr>(extract.getSrc().getType().getEncoding());
  return src && src == extract.getType().getEncoding() && mmaTileKeepsThreads(src, extract.getType().getShape());
}

bool rearrangesInRegisters(Operation *op) {
  if (auto t = dyn_cast<ir::TransOp>(op)) {
    auto src = dyn_cast<RankedTensorType>(t.getSrc().getType());
    auto result = dyn_cast<RankedTensorType>(t.getType());
    return src && result && src.getEncoding() && transposedBlockedLayout(src.getEncoding(), t.getOrder(), false) == result.getEncoding();
  }
  return extractsInRegisters(op);
}

bool isAsyncCopy(Operation *load) { return dialectOf(load).getAsyncCopyAttrHelper().isAttrPresent(load); }
void setAsyncCopy(Operation *load, bool async) {
  auto helper = dialectOf(load).getAsyncCopyAttrHelper();
  if (async) helper.setAttr(load, UnitAttr::get(load->getContext()));
  else if (helper.isAttrPresent(load)) helper.removeAttr(load);
}
bool isTmaCopy(Operation *load) { return dialectOf(load).getTmaCopyAttrHelper().isAttrPresent(load); }
void setTmaCopy(Operation *load, bool tma) {
  auto helper = dialectOf(load).getTmaCopyAttrHelper();
  if (tma) helper.setAttr(load, UnitAttr::get(load->getContext()));
  else if (helper.isAttrPresent(load)) helper.removeAttr(load);
}
bool tmaAllowed(Operation *kernel) { return !dialectOf(kernel).getNoTmaAttrHelper().isAttrPresent(kernel); }
void disallowTma(Operation *kernel) { dialectOf(kernel).getNoTmaAttrHelper().setAttr(kernel, UnitAttr::get(kernel->getContext())); }
std::optional<int> asyncDepth(Operation *loop) {
  if (auto v = dialectOf(loop).getAsyncDepthAttrHelper().getAttr(loop)) return static_cast<int>(v.getInt());
  return std::nullopt;
}
void setAsyncDepth(Operation *loop, int depth) {
  dialectOf(loop).getAsyncDepthAttrHelper().setAttr(loop, IntegerAttr::get(IntegerType::get(loop->getContext(), 32), depth));
}
std::optional<int> ringSlots(Operation *loop) {
  if (auto v = dialectOf(loop).getRingSlotsAttrHelper().getAttr(loop)) return static_cast<int>(v.getInt());
  return std::nullopt;
}
void setRingSlots(Operation *loop, int slots) {
  dialectOf(loop).getRingSlotsAttrHelper().setAttr(loop, IntegerAttr::get(IntegerType::get(loop->getContext(), 32), slots));
}
Operation *enclosingRingLoop(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (ringSlots(p)) return p;
  return nullptr;
}
WarpSpecializeOp warpSpecializeOf(Operation *kernel) {
  WarpSpecializeOp found;
  kernel->walk([&](WarpSpecializeOp ws) {
    found = ws;
    return WalkResult::interrupt();
  });
  return found;
}
unsigned partitionOf(Operation *op) {
  for (Operation *at = op; at; at = at->getParentOp()) {
    auto ws = dyn_cast_or_null<WarpSpecializeOp>(at->getParentOp());
    if (!ws) continue;
    Region *region = at->getParentRegion();
    for (auto [i, worker] : llvm::enumerate(ws.getWorkerRegions()))
      if (&worker == region) return static_cast<unsigned>(i) + 1;
    return 0;
  }
  return 0;
}
llvm::SmallVector<int32_t> workerFirstWarps(WarpSpecializeOp ws) {
  if (auto a = dialectOf(ws).getWorkerFirstWarpsAttrHelper().getAttr(ws)) return llvm::to_vector(a.asArrayRef());
  return {};
}
void setWorkerFirstWarps(WarpSpecializeOp ws, llvm::ArrayRef<int32_t> firstWarps) {
  dialectOf(ws).getWorkerFirstWarpsAttrHelper().setAttr(ws, DenseI32ArrayAttr::get(ws.getContext(), firstWarps));
}
llvm::SmallVector<int32_t> registerPlan(WarpSpecializeOp ws) {
  if (auto a = dialectOf(ws).getRegisterPlanAttrHelper().getAttr(ws)) return llvm::to_vector(a.asArrayRef());
  return {};
}
void setRegisterPlan(WarpSpecializeOp ws, llvm::ArrayRef<int32_t> plan) {
  dialectOf(ws).getRegisterPlanAttrHelper().setAttr(ws, DenseI32ArrayAttr::get(ws.getContext(), plan));
}
unsigned partitionFirstWarp(Operation *kernel, unsigned partition) {
  if (partition == 0) return 0;
  return static_cast<unsigned>(workerFirstWarps(warpSpecializeOf(kernel))[partition - 1]);
}
unsigned partitionWarps(Operation *kernel, unsigned partition) {
  if (partition == 0) return ir::numWarps(kernel);
  return static_cast<unsigned>(warpSpecializeOf(kernel).getWorkerNumWarps()[partition - 1]);
}
unsigned partitionThreads(Operation *kernel, unsigned partition) {
  return partitionWarps(kernel, partition) * ir::targetOf(kernel).threadsPerWarp();
}
unsigned blockWarps(Operation *kernel) {
  unsigned warps = ir::numWarps(kernel);
  if (WarpSpecializeOp ws = warpSpecializeOf(kernel)) {
    llvm::SmallVector<int32_t> first = workerFirstWarps(ws);
    for (auto [i, n] : llvm::enumerate(ws.getWorkerNumWarps()))
      if (i < first.size()) warps = std::max<unsigned>(warps, static_cast<unsigned>(first[i] + n));
  }
  return warps;
}
std::optional<std::pair<int32_t, int32_t>> pipeThreads(Operation *pipe) {
  auto a = dialectOf(pipe).getPipeThreadsAttrHelper().getAttr(pipe);
  if (!a || a.size() != 2) return std::nullopt;
  return std::pair{a[0], a[1]};
}
void setPipeThreads(Operation *pipe, int32_t writers, int32_t readers) {
  dialectOf(pipe).getPipeThreadsAttrHelper().setAttr(pipe, DenseI32ArrayAttr::get(pipe->getContext(), {writers, readers}));
}
SharedMemoryPlanAttr sharedMemoryPlan(Operation *kernel) {
  return dyn_cast_or_null<SharedMemoryPlanAttr>(dialectOf(kernel).getSharedMemoryAttrHelper().getAttr(kernel));
}
void setSharedMemoryPlan(Operation *kernel, SharedMemoryPlanAttr plan) {
  dialectOf(kernel).getSharedMemoryAttrHelper().setAttr(kernel, plan);
}

int64_t slotBytes(RankedTensorType staged, bool withTranspose) {
  return (withTranspose ? 2 : 1) * ir::alignTo(ir::tileBytes(staged), kOperandSlotAlignment);
}
bool slotHoldsTranspose(Type element, unsigned opIdx, bool nContiguous) { return ir::isFp8(element) && opIdx == 1 && nContiguous; }
int64_t ringSlotBytes(OperandRingType ring) {
  RankedTensorType staged = ring.getStaged();
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(staged.getEncoding());
  auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(ring.getOperand().getEncoding());
  const bool transposed = blocked && operand && staged.getRank() == 2 &&
                          slotHoldsTranspose(staged.getElementType(), operand.getOpIdx(), blocked.getOrder()[0] == 1);
  return slotBytes(staged, transposed);
}

ArrayRef<int64_t> argumentOffsets(Operation *call) {
  if (auto v = dialectOf(call).getArgOffsetsAttrHelper().getAttr(call)) return v.asArrayRef();
  return {};
}
void setArgumentOffsets(Operation *call, ArrayRef<int64_t> offsets) {
  dialectOf(call).getArgOffsetsAttrHelper().setAttr(call, DenseI64ArrayAttr::get(call->getContext(), offsets));
}

static bool isPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// A barrier whose phase expects no arrival would complete before its copies land.
LogicalResult TmaBarriersType::verify(function_ref<InFlightDiagnostic()> emitError, unsigned slots, unsigned arrivals) {
  if (slots == 0 || arrivals == 0) return emitError() << "tma_barriers needs at least one slot and one arrival a phase";
  return success();
}

LogicalResult BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError, ArrayRef<unsigned> sizePerThread,
                                        ArrayRef<unsigned> threadsPerWarp, ArrayRef<unsigned> warpsPerCTA,
                                        ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError() << "blocked layout parameters must all have the rank's length";
  unsigned lanes = 1;
  for (unsigned t : threadsPerWarp) lanes *= t;
  if (static_cast<int>(lanes) != cudaThreadsPerWarp())
    return emitError() << "threadsPerWarp must multiply to " << cudaThreadsPerWarp() << ", not " << lanes;
  for (unsigned v : llvm::concat<const unsigned>(sizePerThread, threadsPerWarp, warpsPerCTA))
    if (!isPowerOfTwo(v)) return emitError() << "blocked layout sizes must be powers of two";
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  if (src.getShape() != dst.getShape() || src.getElementType() != dst.getElementType())
    return emitOpError("must keep the shape and element type");
  return success();
}

LogicalResult AddPtrAlongOp::verify() {
  auto ptr = getPtr().getType(), rest = getRest().getType();
  if (ptr.getShape() != rest.getShape() || ptr.getEncoding() != rest.getEncoding())
    return emitOpError("needs offsets of the pointers' shape and layout");
  if (static_cast<int64_t>(getDim()) >= ptr.getRank()) return emitOpError("has no dimension ") << getDim();
  return success();
}

LogicalResult LocalPtrOp::verify() {
  ir::BufferType buf = getBuffer().getType();
  if (!isSharedMemory(buf.getSpace())) return emitOpError("needs a shared-memory buffer");
  RankedTensorType block = buf.getBlockType();
  auto ptr = dyn_cast<ir::PointerType>(ir::elementTypeOf(getType()));
  if (!ptr || ptr.getPointeeType() != block.getElementType() || ptr.getMemorySpace() != buf.getSpace())
    return emitOpError("result must be pointers into the buffer's memory (smem, or dsmem for a remote buffer) to its element type");
  if (getIndices().empty()) {
    if (ir::shapeOf(getType()) != block.getShape()) return emitOpError("without indices the result has the buffer's shape");
    return success();
  }
  if (static_cast<int64_t>(getIndices().size()) != block.getRank())
    return emitOpError("needs ") << block.getRank() << " indices, got " << getIndices().size();
  ArrayRef<int64_t> shape = ir::shapeOf(getIndices()[0].getType());
  for (Value i : getIndices()) {
    if (!isa<IntegerType>(ir::elementTypeOf(i.getType()))) return emitOpError("indices must be integers");
    if (ir::shapeOf(i.getType()) != shape) return emitOpError("indices must all have one shape");
  }
  if (ir::shapeOf(getType()) != shape) return emitOpError("result shape must be the indices' shape");
  return success();
}

LogicalResult CopyOp::verify() {
  bool toLocal = isa<ir::BufferType>(getDst().getType());
  Type global = toLocal ? getSrc().getType() : getDst().getType();
  Type local = toLocal ? getDst().getType() : getSrc().getType();
  auto buf = dyn_cast<ir::BufferType>(local);
  auto ptr = dyn_cast<ir::PointerType>(ir::elementTypeOf(global));
  if (!buf || !ptr || isa<ir::BufferType>(global))
    return emitOpError("one operand must be a block of global pointers and the other a buffer");
  if (ptr.getPointeeType() != buf.getBlockType().getElementType()) return emitOpError("element types differ");
  if (ir::shapeOf(global) != buf.getBlockType().getShape()) return emitOpError("the pointer block and the buffer differ in shape");
  return success();
}

LogicalResult LocalLoadOp::verify() { return ir::verifyWholeBufferRead(*this, getBuffer().getType(), getType()); }

LogicalResult WarpSpecializeOp::verify() {
  size_t workers = getWorkerRegions().size();
  if (getWorkerNumWarps().size() != workers || getWorkerNumRegs().size() != workers)
    return emitOpError("needs one warp count and one register count per worker region");
  for (int32_t w : getWorkerNumWarps())
    if (w <= 0 || (w & (w - 1)) != 0) return emitOpError("worker warp counts must be powers of two");
  for (int32_t r : getWorkerNumRegs())
    if (r < 24 || r > 256 || r % 8 != 0) return emitOpError("worker register counts must be multiples of 8 in 24..256");
  auto yieldOf = [](Region &r) { return dyn_cast<PartitionYieldOp>(r.front().getTerminator()); };
  auto defaultYield = yieldOf(getDefaultRegion());
  if (!defaultYield || TypeRange(defaultYield.getValues()) != getResultTypes())
    return emitOpError("the default region must yield the op's result types");
  for (Region &r : getWorkerRegions()) {
    auto y = yieldOf(r);
    if (!y || !y.getValues().empty()) return emitOpError("worker regions yield nothing");
  }
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  RankedTensorType staged = getRing().getType().getStaged();
  auto ptr = cast<ir::PointerType>(getPtr().getType().getElementType());
  if (getPtr().getType().getShape() != staged.getShape() || ptr.getPointeeType() != staged.getElementType())
    return emitOpError("the pointers must have the ring's tile shape and element type");
  if (auto mask = dyn_cast_or_null<RankedTensorType>(getMask() ? getMask().getType() : Type()); mask && mask.getShape() != staged.getShape())
    return emitOpError("the mask must have the tile's shape");
  if (auto slot = getSlot(); slot && static_cast<int64_t>(*slot) >= static_cast<int64_t>(getRing().getType().getSlots()))
    return emitOpError("slot ") << *slot << " is outside the ring's " << getRing().getType().getSlots() << " slots";
  if (auto behind = getSlotsBehind()) {
    if (getSlot()) return emitOpError("takes a slot or slots_behind, not both");
    if (static_cast<int64_t>(*behind) >= static_cast<int64_t>(getRing().getType().getSlots()))
      return emitOpError("slots_behind must be between 0 and the ring's slots - 1");
  }
  if (!getStrides().empty() && static_cast<int64_t>(getStrides().size()) != getPtr().getType().getRank())
    return emitOpError("takes one stride per dimension of the tile, or none");
  return success();
}

LogicalResult TensorMapOp::verify() {
  if (getShape().size() != 2 || getStrides().size() != 2) return emitOpError("takes the two extents and strides of a 2-D tensor");
  if (getBox().size() != 2 || getBox()[0] < 1 || getBox()[0] > 256 || getBox()[1] < 1 || getBox()[1] > 256)
    return emitOpError("box extents must be between 1 and 256, one per dimension");
  const int32_t swizzle = getSwizzleBytes();
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128) return emitOpError("swizzle_bytes must be 0, 32, 64 or 128");
  return success();
}

LogicalResult TmaCopyOp::verify() {
  RankedTensorType staged = getRing().getType().getStaged();
  if (staged.getRank() != 2 || getCoords().size() != 2) return emitOpError("copies 2-D blocks: two coordinates");
  const unsigned slots = getRing().getType().getSlots();
  if (getBarriers().getType().getSlots() != slots) return emitOpError("needs one barrier per slot of the ring");
  if (auto slot = getSlot(); slot && *slot >= slots)
    return emitOpError("slot ") << *slot << " is outside the ring's " << slots << " slots";
  if (auto behind = getSlotsBehind()) {
    if (getSlot()) return emitOpError("takes a slot or slots_behind, not both");
    if (*behind >= slots) return emitOpError("slots_behind must be between 0 and the ring's slots - 1");
  }
  return success();
}

bool slotHoldsOperand(RankedTensorType staged, unsigned opIdx) {
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(staged.getEncoding());
  if (!blocked || staged.getRank() != 2 || !staged.getElementType().isIntOrFloat() || staged.getElementType().getIntOrFloatBitWidth() != 16)
    return false;
  const unsigned contiguous = blocked.getOrder()[0];
  if (blocked.getSizePerThread()[contiguous] % 8 != 0) return false;  // 16-byte chunks
  return opIdx == 1 || contiguous == 1;
}

LogicalResult CopyAsyncToSharedOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType()), dst = cast<RankedTensorType>(getDst().getType());
  if (src.getShape() != dst.getShape() || src.getEncoding() != dst.getEncoding())
    return emitOpError("source and destination pointers must have one shape and layout");
  if (ir::pointerSpaceOf(src) != MemorySpace::Global || ir::pointerSpaceOf(dst) != MemorySpace::Shared)
    return emitOpError("copies from global to shared memory");
  if (cast<ir::PointerType>(src.getElementType()).getPointeeType() != cast<ir::PointerType>(dst.getElementType()).getPointeeType())
    return emitOpError("source and destination must hold one element type");
  if (getMask() && cast<RankedTensorType>(getMask().getType()).getShape() != src.getShape()) return emitOpError("mask must have the tile's shape");
  return success();
}

LogicalResult BufferOperandOp::verify() {
  auto buffer = cast<ir::BufferType>(getBuffer().getType());
  RankedTensorType tile = buffer.getBlockType(), staged = getView().getType().getStaged();
  if (getView().getType().getSlots() != 1) return emitOpError("must be a ring of one slot");
  if (tile.getRank() != 2 || buffer.getSpace() != MemorySpace::Shared) return emitOpError("needs a 2-D shared-memory buffer");
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(staged.getEncoding());
  auto operand = dyn_cast<DotOperandLayoutAttr>(getView().getType().getOperand().getEncoding());
  if (!blocked || !operand || staged.getElementType() != tile.getElementType()) return emitOpError("must view the buffer's elements as a dot operand");
  // The buffer's rows run along its dimension 0 and its 16-byte chunks along dimension 1:
  // staged chunks along dimension 0 mean the staged tile is the transpose.
  const bool transposed = blocked.getOrder()[0] == 0;
  if (staged.getShape() != (transposed ? ArrayRef<int64_t>{tile.getShape()[1], tile.getShape()[0]} : tile.getShape()))
    return emitOpError("the staged tile must be the buffer's or its transpose");
  if (!slotHoldsOperand(staged, operand.getOpIdx())) return emitOpError("the buffer's arrangement cannot serve this operand");
  if (!isOperandBuffer(allocOf(getBuffer()))) return emitOpError("needs a buffer laid out for dot operands (tle_gpu.operand_buffer)");
  return success();
}

LogicalResult RingViewOp::verify() {
  OperandRingType from = getRing().getType(), to = getView().getType();
  if (from.getSlots() != to.getSlots()) return emitOpError("must keep the ring's slots");
  RankedTensorType a = from.getStaged(), b = to.getStaged();
  const bool same = a == b;
  const bool transposed = a.getRank() == 2 && b.getShape() == ArrayRef<int64_t>{a.getShape()[1], a.getShape()[0]} &&
                          a.getElementType() == b.getElementType() &&
                          transposedBlockedLayout(a.getEncoding(), {1, 0}, false) == b.getEncoding();
  if (!same && !transposed) return emitOpError("the view's staged tile must be the ring's or its transpose");
  auto layoutA = dyn_cast<DotOperandLayoutAttr>(from.getOperand().getEncoding());
  auto layoutB = dyn_cast<DotOperandLayoutAttr>(to.getOperand().getEncoding());
  if (!layoutA || !layoutB || to.getOperand().getShape() != b.getShape()) return emitOpError("must be read as a dot operand of the staged tile's shape");
  if (!slotHoldsOperand(a, layoutA.getOpIdx()) || !slotHoldsOperand(b, layoutB.getOpIdx()))
    return emitOpError("the slot's arrangement must serve both operands");
  return success();
}

LogicalResult RingReadOp::verify() {
  if (getType() != getRing().getType().getOperand()) return emitOpError("result must be the ring's operand type");
  return success();
}

LogicalResult DotsWaitOp::verify() {
  if (getInputs().getTypes() != getResults().getTypes()) return emitOpError("results must have the inputs' types");
  return success();
}

LogicalResult RingDotOp::verify() {
  if (getType() != getC().getType()) return emitOpError("result must have the accumulator's type");
  if (auto ring = dyn_cast<OperandRingType>(getA().getType())) {
    if (!isa<DotOperandLayoutAttr>(ring.getOperand().getEncoding())) return emitOpError("a's ring must hold dot operands");
  } else if (!isa<RankedTensorType>(getA().getType())) {
    return emitOpError("a must be a tile or an operand ring");
  }
  return success();
}

static LogicalResult verifyStaging(Operation *op, RankedTensorType src, RankedTensorType dst) {
  if (src.getShape() != dst.getShape() || src.getElementType() != dst.getElementType())
    return op->emitOpError("must keep the shape and element type");
  if (!isa<DotOperandLayoutAttr>(dst.getEncoding())) return op->emitOpError("result must be in a dot-operand layout");
  return success();
}

LogicalResult StageOperandOp::verify() { return verifyStaging(*this, getSrc().getType(), getType()); }

LogicalResult StageOperandsOp::verify() {
  if (failed(verifyStaging(*this, getA().getType(), getResultA().getType())) ||
      failed(verifyStaging(*this, getB().getType(), getResultB().getType())))
    return failure();
  return success();
}

}  // namespace tle::gpu
