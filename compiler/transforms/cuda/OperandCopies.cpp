#include "transforms/cuda/OperandCopies.h"

#include "transforms/cuda/LayoutChoices.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tle::cuda {

using namespace mlir;

bool isZeroOrAbsent(Value other) {
  if (!other) return true;
  auto c = other.getDefiningOp<arith::ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
  if (!dense || !dense.isSplat()) return false;
  Attribute v = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(v)) return f.getValue().isPosZero();
  if (auto i = dyn_cast<IntegerAttr>(v)) return i.getValue().isZero();
  return false;
}

gpu::AsyncCopyOp createOperandCopy(OpBuilder &b, ir::LoadOp load, Value ring, IntegerAttr slot, llvm::DenseSet<Location> &warned) {
  warnEvictionNotCopied(load, warned);
  Value mask = load.getMask();
  if (auto splat = mask ? mask.getDefiningOp<ir::SplatOp>() : ir::SplatOp()) mask = splat.getSrc();
  auto copy = b.create<gpu::AsyncCopyOp>(load.getLoc(), ring, load.getPtr(), mask, /*strides=*/ValueRange(), slot,
                                           /*slots_behind=*/IntegerAttr());
  if (mask && isa<RankedTensorType>(mask.getType()) && gpu::maskPerElement(load)) gpu::setMaskPerElement(copy);
  if (gpu::isTmaCopy(load)) gpu::setTmaCopy(copy, true);
  return copy;
}

void warnEvictionNotCopied(ir::LoadOp load, llvm::DenseSet<Location> &warned) {
  std::optional<StringRef> eviction = load.getEviction();
  if (!eviction || (*eviction != "evict_first" && *eviction != "evict_last") || !warned.insert(load.getLoc()).second) return;
  load.emitWarning() << "eviction_policy='" << *eviction
                     << "' is not applied: this load is copied to shared memory by cp.async, which has no eviction priority";
}

int64_t scratchEstimate(Operation *op) {
  if (!isa<gpu::ConvertLayoutOp, gpu::StageOperandOp, gpu::StageOperandsOp, ir::TransOp, ir::ReshapeOp, ir::JoinOp, ir::SplitOp,
           ir::GatherOp, ir::ExtractTileOp, ir::InsertTileOp, ir::SortOp, ir::HistogramOp, ir::ExclusiveCumsumOp, ir::ReduceOp,
           ir::ScanOp>(op))
    return 0;
  // A relabelling of registers (a transpose between permuted layouts, a sub-tile that keeps
  // its threads) needs no scratch; counting it would cost the ring a slot.
  if (gpu::rearrangesInRegisters(op)) return 0;
  int64_t bytes = 0;
  auto widen = [&](Type t) {
    if (auto tile = dyn_cast<RankedTensorType>(t)) bytes = std::max(bytes, ir::tileBytes(tile));
  };
  for (Type t : op->getOperandTypes()) widen(t);
  for (Type t : op->getResultTypes()) widen(t);
  return isa<gpu::StageOperandOp, gpu::StageOperandsOp>(op) ? 4 * bytes : 2 * bytes;
}

int64_t fixedSharedBytes(Operation *op) {
  if (auto alloc = dyn_cast<ir::AllocOp>(op)) {
    auto buffer = cast<ir::BufferType>(alloc.getType());
    return buffer.getSpace() == MemorySpace::Shared ? ir::alignTo(ir::tileBytes(buffer.getBlockType()), 16) : 0;
  }
  if (auto ring = dyn_cast<gpu::OperandRingOp>(op)) return ring.getType().getSlots() * gpu::ringSlotBytes(ring.getType());
  return 0;
}

bool writesBetween(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op; op = op->getNextNode()) {
    WalkResult result = op->walk([](Operation *inner) {
      if (isa<gpu::AsyncCopyOp>(inner)) return WalkResult::advance();
      auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
      if (effects ? effects.hasEffect<MemoryEffects::Write>() : !inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted()) return true;
    if (op == to) break;
  }
  return false;
}

std::optional<unsigned> operandConversion(gpu::ConvertLayoutOp c, bool copiedFromSource) {
  auto layout = dyn_cast<gpu::DotOperandLayoutAttr>(c.getType().getEncoding());
  auto mma = layout ? dyn_cast<gpu::MmaLayoutAttr>(layout.getParent()) : gpu::MmaLayoutAttr();
  if (!mma || layout.getBits() != 16 || c->use_empty()) return std::nullopt;
  const unsigned opIdx = layout.getOpIdx();
  if (!fillsMmaFragments(mmaWarpsOf(mma), opIdx, c.getType().getShape())) return std::nullopt;
  if (copiedFromSource && !gpu::slotHoldsOperand(c.getSrc().getType(), opIdx)) return std::nullopt;
  for (Operation *user : c->getUsers()) {
    auto dot = dyn_cast<ir::DotOp>(user);
    if (!dot || dot.getA() == dot.getB() || dot->getOperand(opIdx) != c.getResult() || gpu::enclosingRingLoop(dot)) return std::nullopt;
  }
  return opIdx;
}

}  // namespace tle::cuda
