// Software pipelining: in a loop that feeds tl.dot from global memory, each such load is
// issued `depth` iterations ahead, so the memory latency overlaps tensor-core work instead
// of stalling the warp at the top of every iteration. With depth 1:
//
//   a0 = load(ptrs(lb), mask(lb) & lb < ub)              // prologue
//   for i (..., a = a0):
//     a_next = load(ptrs(i + step), mask(i + step) & i + step < ub)
//     acc = dot(a, ...)
//     yield ..., a_next
//
// The pointers and masks ahead are the load's own address computation cloned with the
// induction variable advanced and the carried values advanced as many times (the loop's
// pure updates of them, cloned over what it yields); pure address updates that the source
// writes after the dot are moved up to feed it. Where the carried values serve those
// addresses alone and every load goes `depth` ahead, the loop carries them `depth`
// iterations ahead instead and loads at them directly, as Triton's pipeliner does. Depth
// is the loop's tle_gpu.async_depth when every such tile goes to shared memory
// asynchronously (tle-plan-async-copies), and 1 otherwise: a tile in registers costs
// registers for every iteration it waits; the loop then carries `depth` tiles per load. Loops whose num_stages (tl.range(num_stages=) or
// --num-stages) is 1 are left alone, and so are register tiles beyond kMaxBytesPerThread per
// thread and tiles read element by element (readsByElements). A loop with no dot-feeding load that asks for stages itself (tl.range(num_stages=))
// gets its tile loads one iteration ahead, past its stores, as Triton pipelines it.
#include "transforms/cuda/Passes.h"


#include "ir/Dialect.h"
#include "ir/GpuDialect.h"
#include "ir/KernelSettings.h"
#include "transforms/common/AxisInfo.h"
#include "transforms/cuda/LayoutChoices.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace tle::cuda {

#define GEN_PASS_DEF_PREFETCHLOADS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// More than this many bytes of prefetched tile per thread costs more in spills than the
// overlap gains (the accumulator and the operands already live in registers).
constexpr int64_t kMaxBytesPerThread = 128;
// In a loop without dots, nothing else holds registers for the whole loop: the softmax
// tutorial's row loop gained with 256 bytes per thread ahead (16384 columns on 8 warps,
// 2716 -> 3700 GB/s) and lost with 512 (16384 on 4 warps: 2690 -> 2415, spilled).
constexpr int64_t kMaxStreamingBytesPerThread = 256;
constexpr llvm::StringLiteral kUnmovableUpdates =
    "the loop's updates of its addresses cannot move ahead of its loads, so they are not issued ahead of their iteration";

// Does `load`'s value reach operand a or b of a tl.dot in its block, through conversions
// only?
bool feedsDot(Operation *load) {
  SmallVector<Value> work{load->getResult(0)};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user->getBlock() != load->getBlock()) continue;
      if (isa<ir::DotOp>(user) && use.getOperandNumber() < 2) return true;
      if (isa<gpu::ConvertLayoutOp, ir::TransOp, arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::ExtSIOp,
              arith::TruncIOp>(user))
        work.push_back(user->getResult(0));
    }
  }
  return false;
}

bool isMovable(Operation *op) { return op->getNumRegions() == 0 && isMemoryEffectFree(op); }

// Ops of one block, in the order they stand there.
SmallVector<Operation *> inBlockOrder(const llvm::SetVector<Operation *> &ops) {
  SmallVector<Operation *> ordered(ops.begin(), ops.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

// The ops of `body` that `root`'s operands are computed from, in block order; fails when one
// of them has side effects or regions.
LogicalResult addressSlice(Operation *root, Block *body, llvm::SetVector<Operation *> &slice) {
  SmallVector<Value> work(root->getOperands());
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || slice.contains(def)) continue;
    if (!isMovable(def)) return failure();
    slice.insert(def);
    work.append(def->getOperands().begin(), def->getOperands().end());
  }
  SmallVector<Operation *> ordered = inBlockOrder(slice);
  slice = llvm::SetVector<Operation *>(ordered.begin(), ordered.end());
  return success();
}

// Do the carried values `state` (iter_arg numbers) serve only the addresses of `loads` and
// their own updates? Everything computed from them inside the loop must end in those loads
// or in the values the loop yields for them, and the loop's results for them are unused.
bool servesLoadsOnly(scf::ForOp loop, const llvm::SetVector<unsigned> &state, ArrayRef<Operation *> loads) {
  Block *body = loop.getBody();
  Operation *yield = body->getTerminator();
  SmallVector<Value> work;
  for (unsigned i : state) {
    if (!loop.getResult(i).use_empty()) return false;
    work.push_back(loop.getRegionIterArgs()[i]);
  }
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second) continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user == yield) {
        if (!state.contains(use.getOperandNumber())) return false;
        continue;
      }
      if (llvm::is_contained(loads, user)) continue;
      if (user->getBlock() != body || !isMovable(user)) return false;
      work.append(user->getResults().begin(), user->getResults().end());
    }
  }
  return true;
}

int64_t bytesPerThread(Operation *load, int64_t threads) {
  auto type = dyn_cast<RankedTensorType>(load->getResult(0).getType());
  if (!type || !type.getElementType().isIntOrFloat()) return 0;
  int64_t bits = type.getNumElements() * type.getElementType().getIntOrFloatBitWidth();
  return bits / 8 / threads;
}

// A tile read in accesses narrower than the target's widest vector (no stride or alignment
// known: the generic variant of a kernel) keeps an address, a predicate and a register per
// element; issued an iteration ahead, it holds all of them twice. Loaded in their own
// iteration, tutorial 03's 16 configs at 4095^3 on an H200 ran 1.0-3.4x faster with both
// operands so read, and 0.85-6.5x (14 of 16 faster) with B alone (docs/perf.md, thirtieth
// session).
bool readsByElements(ir::LoadOp load, const common::AxisAnalysis &axis, const TargetInfo &t, unsigned warps) {
  auto ptrType = dyn_cast<RankedTensorType>(load.getPtr().getType());
  return ptrType && narrowerThanWidest(ptrType, predictedAccess(ptrType, axis.lookup(load.getPtr()), warps, t).vector, t);
}

// The kernel of `op` is the generic variant of several (--specialize=auto), the one the
// launcher runs when the arguments meet no specialized variant's assumptions.
bool isGenericVariant(Operation *op) {
  Operation *kernel = op->getParentOfType<func::FuncOp>();
  return !ir::dispatchSymbol(kernel).empty() && ir::variantIndex(kernel) == 0;
}

struct PrefetchLoadsPass : impl::PrefetchLoadsBase<PrefetchLoadsPass> {
  using PrefetchLoadsBase::PrefetchLoadsBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    const int64_t defaultStages = ir::numStages(func, numStages);
    const TargetInfo &t = ir::targetOf(func, target);
    const unsigned warps = ir::numWarps(func, numWarps);
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); });  // inner loops first
    for (scf::ForOp loop : loops) {
      int64_t stages = ir::loopNumStages(loop, defaultStages);
      if (stages < 2) continue;
      Shortfall shortfall{ir::numStagesAsked(loop, numStages) ? stages : 0};
      pipeline(loop, t, warps, ir::ownNumStages(loop).has_value(), shortfall);
    }
  }

  // What a loop asked for (num_stages given, not the default) and did not get: a warning at
  // the load or loop that falls short, with why.
  struct Shortfall {
    int64_t asked;  // 0: nothing asked, nothing said

    void load(Location at, const Twine &why, int64_t ahead) const {
      if (asked == 0 || ahead >= asked - 1) return;
      emitWarning(at) << "num_stages=" << asked << " is not honoured for this load: " << why << ", so it is loaded "
                      << (ahead == 0 ? "in its own iteration (num_stages=1)" : "one iteration ahead (num_stages=2)");
    }
    void loop(scf::ForOp loop, const Twine &why) const {
      if (asked != 0) loop.emitWarning() << "num_stages=" << asked << " is not honoured here: " << why;
    }
  };

  // `ownStages`: the loop asked for stages itself (tl.range(num_stages=)). Where no load of
  // such a loop feeds a dot, its tile loads go one iteration ahead instead, as Triton
  // pipelines the loads of a loop with its own num_stages: even past the loop's stores (a
  // load of what the previous iteration stored would see the old value; docs/language.md).
  void pipeline(scf::ForOp loop, const TargetInfo &t, unsigned warps, bool ownStages, const Shortfall &shortfall) {
    const int64_t threads = int64_t(warps) * t.threadsPerWarp();
    // Facts of this loop's addresses as they stand now (an inner loop may have been rebuilt),
    // analysed once a register tile needs them.
    std::optional<common::AxisAnalysis> axis;
    auto step = loop.getStep().getDefiningOp<arith::ConstantOp>();
    const bool constantStep = step && isa<IntegerAttr>(step.getValue()) && cast<IntegerAttr>(step.getValue()).getInt() > 0;
    Block *body = loop.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    SmallVector<Operation *> loads;
    int64_t bytes = 0;
    for (Operation &op : body->without_terminator()) {
      if (!isa<ir::LoadOp>(op) || !isa<RankedTensorType>(op.getResult(0).getType()) || !feedsDot(&op)) continue;
      auto load = cast<ir::LoadOp>(op);
      if (load.getIsVolatile()) continue;
      // Tiles copied asynchronously take no registers: only the others count.
      bool async = gpu::isAsyncCopy(load);
      if (!async && !axis) axis.emplace(loop->getParentOfType<func::FuncOp>());
      if (!async && readsByElements(load, *axis, t, warps)) {
        shortfall.load(load.getLoc(),
                       Twine("its addresses are not known to be aligned and contiguous (it is read element by element") +
                           (isGenericVariant(loop) ? " in the generic variant, which runs for arguments no specialized variant fits)"
                                                   : ")"),
                       0);
        continue;
      }
      int64_t b = async ? 0 : bytesPerThread(&op, threads);
      if (bytes + b > kMaxBytesPerThread) {
        shortfall.load(load.getLoc(), "ahead of its iteration its tile would take more than " + Twine(kMaxBytesPerThread) +
                                          " bytes of registers a thread beside the other tiles in flight", 0);
        continue;
      }
      bytes += b;
      loads.push_back(&op);
    }
    const bool streaming = loads.empty() && ownStages;
    if (streaming) {
      for (Operation &op : body->without_terminator()) {
        auto load = dyn_cast<ir::LoadOp>(op);
        if (!load || !isa<RankedTensorType>(load.getType()) || load.getIsVolatile()) continue;
        llvm::SetVector<Operation *> slice;
        if (failed(addressSlice(load, body, slice))) continue;  // an address read from memory
        int64_t b = bytesPerThread(load, threads);
        if (b == 0 || bytes + b > kMaxStreamingBytesPerThread) continue;
        bytes += b;
        loads.push_back(load);
      }
    }
    if (loads.empty()) return;
    // A load moved ahead of this iteration's writes could miss what they store: only loops
    // that write no memory (and have no barriers or calls) are pipelined, and, streaming,
    // loops whose writes are stores.
    bool writes = false;
    body->walk([&](Operation *op) {
      if (op == yield.getOperation() || isa<ir::LoadOp>(op) || (streaming && isa<ir::StoreOp>(op))) return;
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      if (effects ? effects.hasEffect<MemoryEffects::Write>() : !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        writes = true;
    });
    if (writes) return shortfall.loop(loop, "the loop writes memory, so its loads are not issued ahead of its iteration");
    // Tiles in shared memory are requested as far ahead as planned; tiles in registers one
    // iteration ahead (each further one would hold another tile).
    SmallVector<int64_t> depths;
    for (Operation *load : loads) depths.push_back(gpu::isAsyncCopy(load) ? gpu::asyncDepth(loop).value_or(1) : 1);
    int64_t depth = 1;
    for (int64_t d : depths) depth = std::max(depth, d);
    if (!constantStep && depth > 1)  // i + depth * step needs the step
      return shortfall.loop(loop, "the loop's step is not a constant, so its loads are not issued ahead of their iteration");
    Operation *insertionPoint = loads.front();

    // Each load's address computation, and the yielded values it will read in place of the
    // carried ones.
    SmallVector<llvm::SetVector<Operation *>> slices(loads.size());
    for (auto [load, slice] : llvm::zip(loads, slices))
      if (failed(addressSlice(load, body, slice)))
        return shortfall.loop(loop, "an address is read from memory in the loop, so its loads are not issued ahead of their iteration");
    // The carried values the addresses depend on, directly or through the updates that
    // the loop yields for them (a pointer advanced each iteration), and those updates.
    llvm::SetVector<unsigned> state;  // iter_arg numbers
    auto noteLeaves = [&](Operation *op) {
      for (Value v : op->getOperands())
        if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == body && arg.getArgNumber() > 0)
          state.insert(arg.getArgNumber() - 1);
    };
    for (auto [load, slice] : llvm::zip(loads, slices)) {
      noteLeaves(load);
      for (Operation *op : slice) noteLeaves(op);
    }
    llvm::SetVector<Operation *> update;  // computes the yielded values of `state`
    for (size_t i = 0; i < state.size(); ++i) {  // grows while iterating
      Operation *def = yield.getOperand(state[i]).getDefiningOp();
      if (!def || def->getBlock() != body) continue;
      llvm::SetVector<Operation *> ops;
      if (failed(addressSlice(def, body, ops))) return shortfall.loop(loop, kUnmovableUpdates);
      ops.insert(def);
      for (Operation *op : ops) {
        // At depth 1 the updates already above the loads stay where they are, unexamined.
        bool after = insertionPoint->isBeforeInBlock(op) || op == insertionPoint;
        if (depth == 1 && !after) continue;
        if (llvm::is_contained(loads, op) || !isMovable(op)) return shortfall.loop(loop, kUnmovableUpdates);
        if (update.insert(op) && depth > 1) noteLeaves(op);
      }
    }
    // The updates computed after the insertion point must move above it; only pure ops
    // that do not depend on the loads themselves can.
    for (Operation *op : inBlockOrder(update))
      if (insertionPoint->isBeforeInBlock(op)) op->moveBefore(insertionPoint);
    SmallVector<Operation *> updateOps = inBlockOrder(update);

    Location loc = loop.getLoc();
    // The carried state one iteration later: the updates cloned over `state` at `iv`.
    auto advance = [&](OpBuilder &b, IRMapping current, Value iv) {
      current.map(loop.getInductionVar(), iv);
      for (Operation *op : updateOps) b.clone(*op, current);
      IRMapping next;
      for (unsigned i : state) next.map(loop.getRegionIterArgs()[i], current.lookupOrDefault(yield.getOperand(i)));
      return next;
    };
    auto ivPlus = [&](OpBuilder &b, Value iv, int64_t iterations) -> Value {
      if (iterations == 0) return iv;
      if (iterations == 1) return b.create<arith::AddIOp>(loc, iv, loop.getStep());
      auto stepValue = cast<IntegerAttr>(step.getValue());
      Value offset = b.create<arith::ConstantOp>(loc, IntegerAttr::get(stepValue.getType(), stepValue.getInt() * iterations));
      return b.create<arith::AddIOp>(loc, iv, offset);
    };

    // Prologue: the tiles of iterations lb .. lb + (depth - 1) step, before the loop.
    OpBuilder b(loop);
    IRMapping state0;
    for (unsigned i : state) state0.map(loop.getRegionIterArgs()[i], loop.getInitArgs()[i]);
    SmallVector<SmallVector<Value>> prologueByDepth;
    for (int64_t d = 0; d < depth; ++d) {
      Value iv = ivPlus(b, loop.getLowerBound(), d);
      Value valid = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, iv, loop.getUpperBound());
      SmallVector<Value> tiles;
      for (auto [load, slice, loadDepth] : llvm::zip(loads, slices, depths)) {
        if (d >= loadDepth) {
          tiles.push_back({});
          continue;
        }
        IRMapping map = state0;
        map.map(loop.getInductionVar(), iv);
        tiles.push_back(clonePredicated(b, load, slice, map, valid));
      }
      prologueByDepth.push_back(tiles);
      if (d + 1 < depth) state0 = advance(b, state0, iv);
    }
    // Carried per load: its tiles of iterations i, i+1, ..., i+depth-1 (its own depth).
    SmallVector<Value> prologue;
    SmallVector<size_t> firstCarried;  // each load's first carried value
    for (size_t l = 0; l < loads.size(); ++l) {
      firstCarried.push_back(prologue.size());
      for (int64_t d = 0; d < depths[l]; ++d) prologue.push_back(prologueByDepth[d][l]);
    }

    // Where the carried addresses serve the loads alone, the loop carries them `depth`
    // iterations ahead instead (their initial values advanced past the prologue): each
    // iteration then advances each address once, where cloning the updates would compute
    // the address of i + depth from that of i beside it (twice the arithmetic, and nvcc
    // copies the carried registers every iteration).
    const bool shifted = depth > 1 && llvm::all_equal(depths) && servesLoadsOnly(loop, state, loads);
    SmallVector<Value> shiftedInits;
    if (shifted) {
      IRMapping ahead = advance(b, state0, ivPlus(b, loop.getLowerBound(), depth - 1));
      for (unsigned i : state) shiftedInits.push_back(ahead.lookup(loop.getRegionIterArgs()[i]));
    }

    IRRewriter rewriter(loop.getContext());
    auto newLoop = loop.replaceWithAdditionalYields(
        rewriter, prologue, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &yb, Location, ArrayRef<BlockArgument> carried) {
          // Iteration i+depth's tiles, requested before this iteration's dot.
          yb.setInsertionPoint(insertionPoint);
          SmallVector<IRMapping> ahead(depth + 1);  // ahead[d]: the state of iteration i+d
          // Shifted, the carried values are the state of i+depth themselves: ahead[depth]
          // stays empty (an unmapped value clones to itself).
          if (!shifted) {
            for (unsigned i : state) ahead[1].map(loop.getRegionIterArgs()[i], yield.getOperand(i));
            for (int64_t d = 1; d < depth; ++d)
              ahead[d + 1] = advance(yb, ahead[d], ivPlus(yb, loop.getInductionVar(), d));
          }
          llvm::DenseMap<int64_t, std::pair<Value, Value>> nextAt;  // depth -> (its iteration, whether it exists)
          SmallVector<Value> yielded;
          for (auto [l, load, slice] : llvm::enumerate(loads, slices)) {
            int64_t d = depths[l];
            auto [it, fresh] = nextAt.try_emplace(d);
            if (fresh) {
              Value next = ivPlus(yb, loop.getInductionVar(), d);
              it->second = {next, yb.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, next, loop.getUpperBound())};
            }
            IRMapping map = ahead[d];
            map.map(loop.getInductionVar(), it->second.first);
            Value tile = clonePredicated(yb, load, slice, map, it->second.second);
            for (int64_t k = 1; k < d; ++k) yielded.push_back(carried[firstCarried[l] + k]);
            yielded.push_back(tile);
            load->getResult(0).replaceAllUsesWith(carried[firstCarried[l]]);
          }
          return yielded;
        });
    if (failed(newLoop)) return;
    // Tiles that wait in registers go one iteration ahead whatever was asked.
    for (auto [load, loadDepth] : llvm::zip(loads, depths)) {
      if (streaming)
        shortfall.load(load->getLoc(), "it feeds no dot, and such tiles wait in registers", loadDepth);
      else if (!gpu::isAsyncCopy(load))
        shortfall.load(load->getLoc(),
                       "its tile reaches the dot through registers (only tiles of 16-bit or fp8 elements in 16-byte chunks, "
                       "of whole mma fragments, with no `other` but zero, are copied into shared memory asynchronously)",
                       loadDepth);
    }
    if (shifted) {
      auto forOp = cast<scf::ForOp>(newLoop->getOperation());
      for (auto [i, init] : llvm::zip(state, shiftedInits)) forOp.getInitArgsMutable()[i].assign(init);
    }
    // The in-loop loads and whatever only computed their addresses are gone.
    for (Operation *load : loads) load->erase();
    llvm::SetVector<Operation *> addressOps;
    for (auto &slice : slices) addressOps.insert(slice.begin(), slice.end());
    SmallVector<Operation *> dead = inBlockOrder(addressOps);
    for (Operation *op : llvm::reverse(dead))  // users before their operands
      if (op->use_empty()) op->erase();
  }

  // A copy of `load` and its address computation under `map`, whose mask also requires
  // `valid`.
  static Value clonePredicated(OpBuilder &b, Operation *load, const llvm::SetVector<Operation *> &slice, IRMapping &map,
                               Value valid) {
    for (Operation *op : slice) b.clone(*op, map);
    auto original = cast<ir::LoadOp>(load);
    auto ptrType = cast<RankedTensorType>(original.getPtr().getType());
    auto maskType = RankedTensorType::get(ptrType.getShape(), b.getI1Type(), ptrType.getEncoding());
    Value mask = b.create<ir::SplatOp>(load->getLoc(), maskType, valid);
    if (Value own = original.getMask()) mask = b.create<arith::AndIOp>(load->getLoc(), map.lookupOrDefault(own), mask);
    auto copy = cast<ir::LoadOp>(b.clone(*load, map));
    copy.getMaskMutable().assign(mask);
    return copy.getResult();
  }
};

}  // namespace

}  // namespace tle::cuda
