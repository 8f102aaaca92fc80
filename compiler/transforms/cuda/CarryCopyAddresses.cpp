// tle-carry-copy-addresses: a loop that computes the pointers of its asynchronous operand
// copies from its induction variable (tutorial 09's `offs_k = ki * BLOCK_K + arange`,
// `a_ptrs = a_ptr + (... + offs_k[None, :] * stride_ak)`) carries them instead, advanced by
// their uniform step each iteration, as tutorial 03 writes it (`a_ptrs += BLOCK_K * stride_ak`):
//
//   scf.for %k = %lb to %ub step %s {              %p0 = <the address computation at %k = %lb>
//     %p = <address computation of %k>     =>      scf.for %k ... iter_args(%p = %p0) {
//     ... = load %p {tle_gpu.async_copy}             ... = load %p {tle_gpu.async_copy}
//   }                                                yield addptr(%p, splat(%s * slope))
//                                                  }
//
// The slope is how far the pointers move per unit of the induction variable, the same scalar
// in every lane (built from the strides the offsets multiply, before the loop). Rebuilt, each
// chunk's address is a 64-bit product of a 32-bit offset, and ptxas chained a warp's chunk
// addresses through one another (persistent 128x256x64 on an H200: 18% of its stall samples
// at the barrier, against Triton's 7%); carried, each is one add. The addresses are the same
// wherever the source's 32-bit offsets do not overflow (where they do, the source's own
// addresses wrap). Only the copies tle-plan-async-copies planned: a pointer tile carried in
// registers for a register load holds a 64-bit address per element across the loop.
#include "transforms/cuda/Passes.h"

#include "transforms/common/SplatScalar.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace tle::cuda {

#define GEN_PASS_DEF_CARRYCOPYADDRESSES
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// How the values of one loop body change with its induction variable: each value's slope (the
// change per unit of the induction variable, as a scalar of its element type, in elements for
// pointers) where it is affine with the same slope in every lane. The slopes, and the
// loop-invariant scalars they multiply, are built before the loop.
class Slopes {
public:
  explicit Slopes(scf::ForOp loop) : loop(loop), before(loop) {}

  // Null: `v` does not change with the induction variable. Nullopt: not affine in it with a
  // uniform slope (or computed from carried values or memory).
  std::optional<Value> slopeOf(Value v) {
    if (auto it = memo.find(v); it != memo.end()) return it->second;
    std::optional<Value> s = compute(v);
    memo[v] = s;
    return s;
  }

  // Whether `v` is the same in every iteration: defined outside the loop, or computed inside
  // it by pure ops from such values.
  bool isInvariant(Value v) {
    if (loop.isDefinedOutsideOfLoop(v)) return true;
    if (auto it = invariant.find(v); it != invariant.end()) return it->second;
    Operation *def = v.getDefiningOp();
    bool result = def && def->getBlock() == loop.getBody() && def->getNumRegions() == 0 && isMemoryEffectFree(def) &&
                  llvm::all_of(def->getOperands(), [&](Value o) { return isInvariant(o); });
    invariant[v] = result;
    return result;
  }

  // An invariant value available before the loop: itself, or its computation cloned there.
  Value hoisted(Value v) {
    if (loop.isDefinedOutsideOfLoop(v)) return v;
    if (Value mapped = outside.lookupOrNull(v)) return mapped;
    Operation *def = v.getDefiningOp();
    for (Value o : def->getOperands()) outside.map(o, hoisted(o));
    before.clone(*def, outside);
    return outside.lookup(v);
  }

  OpBuilder &builder() { return before; }

private:
  // The scalar an invariant tile holds in every lane, before the loop; null when it is not
  // uniform (a splat or a splat constant, through reshaping ops).
  Value uniformScalar(Value v) {
    if (!isa<RankedTensorType>(v.getType())) return hoisted(v);
    while (Operation *def = v.getDefiningOp()) {
      if (isa<ir::ExpandDimsOp, ir::BroadcastOp, ir::AxisHintOp, gpu::ConvertLayoutOp>(def)) {
        v = def->getOperand(0);
        continue;
      }
      // A constant is made before the loop; a splat's source is hoisted there.
      Value scalar = common::splatScalarValue(v, before);
      return scalar ? hoisted(scalar) : nullptr;
    }
    return nullptr;
  }

  // a + b (or a - b), either null for 0; an i32 slope is widened where it meets an i64 one.
  Value combine(Location loc, Value a, Value b, bool subtract) {
    if (!b) return a;
    if (a && a.getType() != b.getType()) {
      Type i64 = before.getI64Type();
      if (a.getType() != i64) a = before.createOrFold<arith::ExtSIOp>(loc, i64, a);
      if (b.getType() != i64) b = before.createOrFold<arith::ExtSIOp>(loc, i64, b);
    }
    if (subtract) {
      Value zero = before.create<arith::ConstantOp>(loc, before.getZeroAttr(b.getType()));
      return before.createOrFold<arith::SubIOp>(loc, a ? a : zero, b);
    }
    return a ? before.createOrFold<arith::AddIOp>(loc, a, b) : b;
  }

  std::optional<Value> compute(Value v) {
    if (v == loop.getInductionVar())
      return before.create<arith::ConstantOp>(loop.getLoc(), before.getIntegerAttr(v.getType(), 1)).getResult();
    if (isInvariant(v)) return Value();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != loop.getBody()) return std::nullopt;  // a carried value, or nested
    Location loc = def->getLoc();
    if (isa<ir::SplatOp, ir::ExpandDimsOp, ir::BroadcastOp, ir::AxisHintOp, gpu::ConvertLayoutOp>(def))
      return slopeOf(def->getOperand(0));
    if (isa<arith::ExtSIOp>(def)) {
      std::optional<Value> s = slopeOf(def->getOperand(0));
      if (!s || !*s) return s;
      return before.createOrFold<arith::ExtSIOp>(loc, getElementTypeOrSelf(v.getType()), *s);
    }
    if (isa<arith::AddIOp, arith::SubIOp, ir::AddPtrOp>(def)) {
      std::optional<Value> a = slopeOf(def->getOperand(0)), b = slopeOf(def->getOperand(1));
      if (!a || !b) return std::nullopt;
      return combine(loc, *a, *b, isa<arith::SubIOp>(def));
    }
    if (isa<arith::MulIOp>(def)) {
      // Affine only while one factor is invariant; its uniform value scales the other's slope.
      Value lhs = def->getOperand(0), rhs = def->getOperand(1);
      if (isInvariant(lhs)) std::swap(lhs, rhs);
      if (!isInvariant(rhs)) return std::nullopt;
      std::optional<Value> s = slopeOf(lhs);
      if (!s) return std::nullopt;
      Value factor = uniformScalar(rhs);
      if (!factor) return std::nullopt;
      return before.createOrFold<arith::MulIOp>(loc, *s, factor);
    }
    return std::nullopt;
  }

  scf::ForOp loop;
  OpBuilder before;
  IRMapping outside;
  llvm::DenseMap<Value, std::optional<Value>> memo;
  llvm::DenseMap<Value, bool> invariant;
};

// The ops of the loop body that `root` is computed from, in block order; fails on one with
// effects or regions (the address must be recomputable before the loop).
LogicalResult addressSlice(Value root, Block *body, llvm::SetVector<Operation *> &slice) {
  SmallVector<Value> work{root};
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || slice.contains(def)) continue;
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def)) return failure();
    slice.insert(def);
    work.append(def->getOperands().begin(), def->getOperands().end());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  slice = llvm::SetVector<Operation *>(ordered.begin(), ordered.end());
  return success();
}

// Erases `root` and, then, the ops of `body` that only it used, once unused and pure.
void eraseDeadSlice(Operation *root, Block *body) {
  llvm::SetVector<Operation *> work;
  work.insert(root);
  while (!work.empty()) {
    Operation *o = work.pop_back_val();
    if (!o || !o->use_empty() || !isMemoryEffectFree(o) || o->getNumRegions() != 0) continue;
    SmallVector<Value> operands(o->getOperands());
    o->erase();
    for (Value v : operands)
      if (Operation *d = v.getDefiningOp(); d && d->getBlock() == body) work.insert(d);
  }
}

void carryCopyAddresses(scf::ForOp loop) {
  Block *body = loop.getBody();
  Operation *before = loop->getPrevNode();  // the ops after it, up to the loop, are this pass's
  struct Carried {
    ir::LoadOp load;
    Value start;  // the pointers at the first iteration
    Value step;   // the scalar added to every lane each iteration
    Location loc; // the source's address computation, which the advance stands for
  };
  SmallVector<Carried> carried;
  Slopes slopes(loop);
  for (Operation &op : body->without_terminator()) {
    auto load = dyn_cast<ir::LoadOp>(op);
    if (!load || !gpu::isAsyncCopy(load) || !isa<RankedTensorType>(load.getPtr().getType())) continue;
    if (gpu::isTmaCopy(load)) continue;  // copied as a descriptor's block: no per-element addresses
    Value ptr = load.getPtr();
    Operation *def = ptr.getDefiningOp();
    if (!def || def->getBlock() != body) continue;  // carried already, or invariant
    std::optional<Value> slope = slopes.slopeOf(ptr);
    llvm::SetVector<Operation *> slice;
    if (!slope || !*slope || failed(addressSlice(ptr, body, slice))) continue;
    OpBuilder &b = slopes.builder();
    IRMapping first;
    first.map(loop.getInductionVar(), loop.getLowerBound());
    for (Operation *o : slice) {
      // At the lower bound, `k * BLOCK_K` and the like fold to constants.
      Operation *clone = b.clone(*o, first);
      SmallVector<Value> folded;
      // A fold in place (a commutative op's constant moved right) may enable another.
      for (int attempt = 0; attempt < 2 && folded.empty(); ++attempt)
        if (failed(b.tryFold(clone, folded))) break;
      if (!folded.empty()) {
        first.map(o->getResults(), folded);
        clone->erase();
      }
    }
    Value loopStep = loop.getStep();
    if (loopStep.getType() != slope->getType()) loopStep = b.createOrFold<arith::ExtSIOp>(loop.getLoc(), slope->getType(), loopStep);
    Value step = b.createOrFold<arith::MulIOp>(loop.getLoc(), *slope, loopStep);
    carried.push_back({load, first.lookup(ptr), step, def->getLoc()});
  }
  // What the slopes built for addresses left alone goes again.
  auto eraseUnusedBefore = [before](Operation *loopOp) {
    for (Operation *o = loopOp->getPrevNode(); o && o != before;) {
      Operation *prev = o->getPrevNode();
      if (o->use_empty() && isMemoryEffectFree(o) && o->getNumRegions() == 0) o->erase();
      o = prev;
    }
  };
  if (carried.empty()) return eraseUnusedBefore(loop);

  SmallVector<Value> starts;
  for (const Carried &c : carried) starts.push_back(c.start);
  IRRewriter rewriter(loop.getContext());
  auto grown = loop.replaceWithAdditionalYields(
      rewriter, starts, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &yb, Location, ArrayRef<BlockArgument> args) {
        SmallVector<Value> advanced;
        for (auto [c, arg] : llvm::zip(carried, args)) {
          Value oldPtr = c.load.getPtr();
          c.load.getPtrMutable().assign(arg);
          auto type = cast<RankedTensorType>(arg.getType());
          auto offsets = RankedTensorType::get(type.getShape(), c.step.getType(), type.getEncoding());
          // Named after the pointers it advances (a_ptrs_step), where the source named them.
          Location stepLoc = c.loc;
          if (auto named = dyn_cast<NameLoc>(c.loc))
            stepLoc = NameLoc::get(yb.getStringAttr(named.getName().str() + "_step"), named.getChildLoc());
          Value splat = yb.create<ir::SplatOp>(stepLoc, offsets, c.step);
          advanced.push_back(yb.create<ir::AddPtrOp>(c.loc, type, arg, splat));
          // The body may have moved into the grown loop: its block is the load's.
          eraseDeadSlice(oldPtr.getDefiningOp(), c.load->getBlock());
        }
        return advanced;
      });
  eraseUnusedBefore(succeeded(grown) ? grown->getOperation() : loop.getOperation());
}

struct CarryCopyAddressesPass : impl::CarryCopyAddressesBase<CarryCopyAddressesPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (gpu::asyncDepth(loop)) loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) carryCopyAddresses(loop);
  }
};

}  // namespace

}  // namespace tle::cuda
