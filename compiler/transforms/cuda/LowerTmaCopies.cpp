// The copies tle-plan-tma-copies chose, made by TMA once the rings exist (after
// tle-keep-dots-in-flight has given them their last slot counts and slot choices). In a ring
// loop whose every copy is marked tle_gpu.tma_copy and reads a descriptor block:
//
//   %map = tle_gpu.tensor_map %a_ptr[%M, %K] strides [%K, 1] {box}   at the kernel's entry
//   %bars = tle_gpu.tma_barriers : <slots, rings>                      at the kernel's entry
//   tle_gpu.tma_copy %map[%row, %col] into %ring, %bars if %valid {slot = s}   before the loop
//   scf.for %i ...
//     tle_gpu.tma_wait %bars                   (was tle_gpu.async_wait: this slot's bytes landed, a barrier)
//     tle_gpu.tma_copy %map[...] into %ring, %bars if %valid {slots_behind = b}
//
// `valid` is whether the iteration the copy fetches exists: the copies are then exactly the
// waits, one phase of a slot's barrier per copy, and each slot's phases continue from one run
// of the loop to the next (a persistent kernel's tile loop runs the ring loop many times).
// The iteration a body copy fetches is i + (slots - slots_behind) steps: its slot is the one
// that iteration reads. The pointer arithmetic of the copies goes.
#include "transforms/cuda/Passes.h"

#include "transforms/cuda/TensorMaps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

#include <map>
#include <vector>

namespace tle::cuda {

#define GEN_PASS_DEF_LOWERTMACOPIES
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// Erases the definitions of `roots` and what only they used, once unused and pure. An op
// may be reached twice (two operands, two roots): each is erased once.
void eraseIfDead(ArrayRef<Value> roots) {
  llvm::SetVector<Operation *> work;
  for (Value v : roots)
    if (Operation *def = v ? v.getDefiningOp() : nullptr) work.insert(def);
  llvm::DenseSet<Operation *> erased;
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (erased.contains(op) || !op->use_empty() || op->getNumRegions() != 0 || !isMemoryEffectFree(op)) continue;
    SmallVector<Operation *> defs;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp()) defs.push_back(def);
    erased.insert(op);
    op->erase();
    for (Operation *def : defs)
      if (!erased.contains(def)) work.insert(def);
  }
}

class TmaLowering {
 public:
  explicit TmaLowering(func::FuncOp f) : f_(f), entry_(&f.getBody().front(), f.getBody().front().begin()) {}

  void run() {
    SmallVector<scf::ForOp> loops;
    f_.walk([&](scf::ForOp loop) {
      if (gpu::ringSlots(loop)) loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) lower(loop);
    // What stayed cp.async needs neither the marks nor the blocks.
    f_.walk([](gpu::AsyncCopyOp copy) { gpu::setTmaCopy(copy, false); });
    SmallVector<ir::DescriptorBlockOp> blocks;
    f_.walk([&](ir::DescriptorBlockOp b) { blocks.push_back(b); });
    for (ir::DescriptorBlockOp b : blocks) {
      b.getResult().replaceAllUsesWith(b.getPtrs());
      b.erase();
    }
  }

 private:
  // The loop's rings (not the resident ones, copied once and read by every iteration).
  static llvm::SetVector<Operation *> ringsOf(scf::ForOp loop) {
    llvm::SetVector<Operation *> rings;
    loop.getBody()->walk([&](Operation *op) {
      for (Value v : op->getOperands()) {
        if (auto view = v.getDefiningOp<gpu::RingViewOp>()) v = view.getRing();
        if (auto ring = v.getDefiningOp<gpu::OperandRingOp>(); ring && !gpu::isResident(ring.getType())) rings.insert(ring);
      }
    });
    return rings;
  }

  void lower(scf::ForOp loop) {
    const int slots = *gpu::ringSlots(loop);
    llvm::SetVector<Operation *> rings = ringsOf(loop);
    SmallVector<gpu::AsyncCopyOp> copies;
    // Each slot's barrier counts one arrival per ring a phase: every ring is copied once an
    // iteration.
    for (Operation *ring : rings) {
      int inLoop = 0;
      for (Operation *user : ring->getUsers())
        if (auto copy = dyn_cast<gpu::AsyncCopyOp>(user)) {
          copies.push_back(copy);
          if (loop->isAncestor(copy)) ++inLoop;
        }
      if (inLoop != 1) return;
    }
    if (copies.empty()) return;
    for (gpu::AsyncCopyOp copy : copies) {
      auto [block, transposed] = descriptorBlockOf(copy.getPtr());
      if (!gpu::isTmaCopy(copy) || !block) return;
      const bool inLoop = loop->isAncestor(copy);
      if (inLoop ? (copy.getSlot() || copy.getSlotsBehind().value_or(1) == 0 || copy->getBlock() != loop.getBody())
                 : !copy.getSlot())
        return;
      auto staged = cast<gpu::OperandRingType>(copy.getRing().getType()).getStaged();
      auto blockShape = cast<RankedTensorType>(block.getPtrs().getType()).getShape();
      if ((transposed ? SmallVector<int64_t>{staged.getShape()[1], staged.getShape()[0]} : SmallVector<int64_t>(staged.getShape())) !=
          SmallVector<int64_t>(blockShape))
        return;
    }
    // Nothing else in the loop may need cp.async's waits.
    bool others = false;
    loop.getBody()->walk([&](Operation *op) {
      if (isa<gpu::CopyAsyncToSharedOp, gpu::AsyncLoadOp>(op)) others = true;
      if (auto copy = dyn_cast<gpu::AsyncCopyOp>(op); copy && !llvm::is_contained(copies, copy)) others = true;
    });
    if (others) return;

    MLIRContext *ctx = f_.getContext();
    auto barriers = entry_.create<gpu::TmaBarriersOp>(loop.getLoc(), gpu::TmaBarriersType::get(ctx, slots, static_cast<unsigned>(rings.size())), IntegerAttr());
    for (gpu::AsyncCopyOp copy : copies) {
      auto [block, transposed] = descriptorBlockOf(copy.getPtr());
      OpBuilder b(copy);
      Value valid = exists(b, loop, copy, slots);
      auto tma = b.create<gpu::TmaCopyOp>(copy.getLoc(), mapFor(block), block.getOffsets(), copy.getRing(), barriers.getBarriers(),
                                          valid, copy.getSlotAttr(), copy.getSlotsBehindAttr(), transposed ? UnitAttr::get(ctx) : UnitAttr());
      (void)tma;
      SmallVector<Value> inputs{copy.getPtr(), copy.getMask()};
      inputs.append(copy.getStrides().begin(), copy.getStrides().end());
      copy.erase();
      eraseIfDead(inputs);
    }
    SmallVector<gpu::AsyncWaitOp> waits(loop.getBody()->getOps<gpu::AsyncWaitOp>());
    for (gpu::AsyncWaitOp wait : waits) {
      OpBuilder(wait).create<gpu::TmaWaitOp>(wait.getLoc(), barriers.getBarriers());
      wait.erase();
    }
    // The drain after the loop (after the branch that skips an empty loop, if any) has nothing left to wait for.
    Operation *holder = loop;
    Block *ringBlock = rings.front()->getBlock();
    while (holder && holder->getBlock() != ringBlock) holder = holder->getParentOp();
    if (auto drain = holder ? dyn_cast_or_null<gpu::AsyncDrainOp>(holder->getNextNode()) : gpu::AsyncDrainOp()) drain.erase();
    // A resident ring the dots read was copied by cp.async and waited for by the loop's
    // first wait, which is now the barriers': it has landed before the loop starts.
    bool resident = false;
    loop.getBody()->walk([&](gpu::RingDotOp dot) {
      for (Value v : SmallVector<Value>{dot.getA(), dot.getB()})
        if (auto ring = v.getDefiningOp<gpu::OperandRingOp>(); ring && gpu::isResident(ring.getType())) resident = true;
    });
    if (resident) OpBuilder(loop).create<gpu::AsyncWaitOp>(loop.getLoc(), IntegerAttr::get(IntegerType::get(ctx, 32), 0));
  }

  // Whether the iteration `copy` fetches exists: `lb + slot * step < ub` for a copy before
  // the loop, `iv + (slots - slots_behind) * step < ub` for one in it.
  // Named after the loaded tile (`a_needed`: the iteration that reads this copy of `a` runs).
  static Value exists(OpBuilder &b, scf::ForOp loop, gpu::AsyncCopyOp copy, int slots) {
    Location loc = copy.getLoc();
    auto named = [&](const char *suffix) -> Location {
      if (auto n = dyn_cast<NameLoc>(loc)) return NameLoc::get(b.getStringAttr(n.getName().str() + suffix), n.getChildLoc());
      return loc;
    };
    const bool inLoop = loop->isAncestor(copy);
    Value from = inLoop ? loop.getInductionVar() : loop.getLowerBound();
    const int64_t ahead = inLoop ? slots - copy.getSlotsBehind().value_or(1) : *copy.getSlot();
    Value iteration = from;
    if (ahead != 0) {
      Type type = loop.getStep().getType();
      Value distance;
      if (std::optional<int64_t> step = getConstantIntValue(loop.getStep()))
        distance = b.create<arith::ConstantOp>(loc, IntegerAttr::get(type, ahead * *step));
      else
        distance = b.create<arith::MulIOp>(loc, b.create<arith::ConstantOp>(loc, IntegerAttr::get(type, ahead)), loop.getStep());
      iteration = b.createOrFold<arith::AddIOp>(named("_iteration"), from, distance);
      eraseIfDead({distance});  // folded into a constant of its own
    }
    Value needed = b.createOrFold<arith::CmpIOp>(named("_needed"), arith::CmpIPredicate::slt, iteration, loop.getUpperBound());
    if (iteration != from) eraseIfDead({iteration});
    return needed;
  }

  // One tensor map per descriptor and box, at the kernel's entry.
  Value mapFor(ir::DescriptorBlockOp block) {
    auto ptrs = cast<RankedTensorType>(block.getPtrs().getType());
    Type element = cast<ir::PointerType>(ptrs.getElementType()).getPointeeType();
    TmaBox box = *tmaBoxFor(ptrs.getShape(), element);
    std::vector<const void *> key{block.getBase().getAsOpaquePointer()};
    for (Value v : block.getShape()) key.push_back(v.getAsOpaquePointer());
    for (Value v : block.getStrides()) key.push_back(v.getAsOpaquePointer());
    key.push_back(reinterpret_cast<const void *>(box.rows));
    key.push_back(reinterpret_cast<const void *>(box.boxCols));
    Value &slot = maps_[key];
    if (slot) return slot;
    auto clone = [&](ValueRange values) {
      SmallVector<Value> out;
      for (Value v : values) out.push_back(cloneAtEntry(entry_, v, cloned_));
      return out;
    };
    slot = entry_.create<gpu::TensorMapOp>(block.getLoc(), gpu::TensorMapType::get(f_.getContext()), cloneAtEntry(entry_, block.getBase(), cloned_),
                                           clone(block.getShape()), clone(block.getStrides()),
                                           entry_.getDenseI64ArrayAttr({box.rows, box.boxCols}), entry_.getI32IntegerAttr(box.swizzleBytes));
    return slot;
  }

  func::FuncOp f_;
  OpBuilder entry_;
  IRMapping cloned_;
  std::map<std::vector<const void *>, Value> maps_;  // by descriptor parts and box
};

struct LowerTmaCopiesPass : impl::LowerTmaCopiesBase<LowerTmaCopiesPass> {
  void runOnOperation() override { TmaLowering(getOperation()).run(); }
};

}  // namespace

}  // namespace tle::cuda
