// tle-carry-pointer-bases: a loop that carries a tile of pointers and advances it by one
// scalar in every lane (tutorial 03's `a_ptrs += BLOCK_K * stride_ak`) carries that scalar
// pointer instead, where the tile is read element by element and the kernel's tiles need more
// registers than a thread has: the tile is its start's offsets added to the scalar, rebuilt in
// the body, each 32-bit offset widened where it is added (tle_gpu.widen_at_use). A thread then
// keeps one 32-bit offset per element across the loop instead of a 64-bit address (tutorial
// 03 at 128x128x32 on 4 warps: 32 of them per operand).
//
//   %p0 = addptr(splat(%a), %off)                    %p0 = addptr(splat(%a), %off)
//   scf.for iter_args(%p = %p0) {                    scf.for iter_args(%b = %a) {
//     ... = load %p                           =>       %p = addptr(splat(%b), %off)
//     yield addptr(%p, splat(%step))                   ... = load %p
//   }                                                  yield addptr(%b, %step)
//                                                    }
//
// The addresses are the same 64-bit sums in another order (each offset is widened on its
// own, as before), so the rewrite is exact. Where registers suffice the carried tile stays:
// rebuilding it costs a multiply-add per element per iteration, and the extra registers ptxas
// then took cost resident blocks (docs/perf.md, thirtieth session).
#include "transforms/cuda/Passes.h"

#include "transforms/common/SplatScalar.h"
#include "transforms/cuda/LayoutChoices.h"
#include "transforms/cuda/RegisterBudget.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"
#include "ir/KernelSettings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tle::cuda {

#define GEN_PASS_DEF_CARRYPOINTERBASES
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// A tile of pointers as a scalar pointer splat and the offset tiles added to it, in order.
struct SplitPointers {
  Value base;
  SmallVector<Value> offsets;
};

std::optional<SplitPointers> splitPointers(Value tile) {
  SplitPointers split;
  while (auto add = tile.getDefiningOp<ir::AddPtrOp>()) {
    if (!isa<RankedTensorType>(add.getOffset().getType())) return std::nullopt;
    split.offsets.push_back(add.getOffset());
    tile = add.getPtr();
  }
  auto splat = tile.getDefiningOp<ir::SplatOp>();
  if (!splat || !isa<ir::PointerType>(splat.getSrc().getType())) return std::nullopt;
  split.base = splat.getSrc();
  std::reverse(split.offsets.begin(), split.offsets.end());
  return split;
}

// Whether the pointers `v` (and the pointers computed from them by addptr) are read or
// written only element by element (vectors narrower than the target's widest), and at least
// once.
bool accessedByElements(Value v, Operation *yield, const TargetInfo &t) {
  bool any = false;
  SmallVector<Value> work{v};
  while (!work.empty()) {
    Value p = work.pop_back_val();
    for (Operation *user : p.getUsers()) {
      if (user == yield) continue;
      if (auto add = dyn_cast<ir::AddPtrOp>(user); add && add.getPtr() == p) {
        work.push_back(add.getResult());
      } else if (isa<ir::LoadOp, ir::StoreOp>(user) && user->getOperand(0) == p) {
        if (!narrowerThanWidest(cast<RankedTensorType>(p.getType()), gpu::vectorWidth(user), t)) return false;
        any = true;
      } else {
        return false;
      }
    }
  }
  return any;
}

// The tile of pointers `offsets` away from the scalar `base`, each offset widened where it is
// added; `splat` is the op that reads `base`.
Value rebuild(OpBuilder &b, Location loc, Value base, RankedTensorType type, ArrayRef<Value> offsets, Operation *&splat) {
  Value tile = b.create<ir::SplatOp>(loc, type, base);
  splat = tile.getDefiningOp();
  for (Value offset : offsets) {
    tile = b.create<ir::AddPtrOp>(loc, type, tile, offset);
    gpu::setWidensAtUse(tile.getDefiningOp());
  }
  return tile;
}

void carryBases(scf::ForOp loop, const TargetInfo &t) {
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !isa<ir::PointerType>(type.getElementType())) continue;
    auto advance = yield.getOperand(index).getDefiningOp<ir::AddPtrOp>();
    if (!advance || advance.getPtr() != arg || advance->getBlock() != body) continue;
    std::optional<SplitPointers> start = splitPointers(loop.getInitArgs()[index]);
    if (!start || !accessedByElements(arg, yield, t)) continue;
    OpBuilder b(advance);
    Value step = common::splatScalarValue(advance.getOffset(), b);
    if (!step) continue;
    // The loop carries the scalar: its start, its type, and the advanced scalar yielded.
    Value result = loop.getResult(index);
    loop->setOperand(loop.getNumControlOperands() + index, start->base);
    arg.setType(start->base.getType());
    result.setType(start->base.getType());
    b.setInsertionPointToStart(body);
    Operation *splat = nullptr;
    Value rebuilt = rebuild(b, arg.getLoc(), arg, type, start->offsets, splat);
    arg.replaceAllUsesExcept(rebuilt, splat);
    b.setInsertionPoint(yield);
    yield->setOperand(index, b.create<ir::AddPtrOp>(advance.getLoc(), start->base.getType(), arg, step));
    if (advance->use_empty()) advance.erase();
    if (!result.use_empty()) {
      b.setInsertionPointAfter(loop);
      Value after = rebuild(b, loop.getLoc(), result, type, start->offsets, splat);
      result.replaceAllUsesExcept(after, splat);
    }
  }
}

struct CarryPointerBasesPass : impl::CarryPointerBasesBase<CarryPointerBasesPass> {
  using CarryPointerBasesBase::CarryPointerBasesBase;

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    const TargetInfo &t = ir::targetOf(f, target);
    const int64_t threads = static_cast<int64_t>(ir::numWarps(f, numWarps)) * t.threadsPerWarp();
    if (threads <= 0 || t.registersPerThread() <= 0) return;
    // The accumulators and the operands read element by element, with their addresses.
    if (estimatedDotKernelRegisters(f, t, threads) <= t.registersPerThread()) return;
    SmallVector<scf::ForOp> loops;
    f.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) carryBases(loop, t);
  }
};

}  // namespace

}  // namespace tle::cuda
