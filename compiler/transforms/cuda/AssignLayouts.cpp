// Layout assignment. Values that an elementwise op, a loop or a branch ties together must
// share one layout, so they form classes (union-find). Reductions and expand_dims relate
// classes through slice layouts. Dot results anchor their class to an mma layout, which
// sub-tiles taken from it in registers share. Memory accesses anchor their class to a
// coalesced blocked layout chosen from the axis analysis; slices then propagate from parents
// to children and back; what is left takes the default blocked layout. Where a slice
// relation is still broken, a tle.convert_layout is inserted.
#include "transforms/common/AxisInfo.h"
#include "transforms/cuda/LayoutChoices.h"
#include "transforms/cuda/Passes.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"
#include "ir/KernelSettings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <numeric>

namespace tle::cuda {

#define GEN_PASS_DEF_ASSIGNLAYOUTS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

bool isTensor(Value v) { return isa<RankedTensorType>(v.getType()); }

// Triton's default distribution: fill the fastest dimension with lanes first, then the
// next; warps likewise; what is left over replicates.
Attribute blockedLayout(MLIRContext *ctx, ArrayRef<int64_t> shape, ArrayRef<unsigned> order, unsigned perThread,
                        unsigned numWarps, unsigned threadsPerWarp) {
  size_t rank = shape.size();
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  spt[order[0]] = std::max<unsigned>(1, std::min<int64_t>(perThread, shape[order[0]]));
  unsigned lanes = threadsPerWarp, warps = numWarps;
  for (unsigned d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / spt[d]);
    unsigned t = std::min<int64_t>(lanes, room);
    tpw[d] = t;
    lanes /= t;
  }
  tpw[order[0]] *= lanes;  // more lanes than elements: the extra ones hold copies
  for (unsigned d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / (spt[d] * tpw[d]));
    unsigned w = std::min<int64_t>(warps, room);
    wpc[d] = w;
    warps /= w;
  }
  wpc[order.back()] *= warps;
  return gpu::BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
}

SmallVector<unsigned> rowMajorOrder(size_t rank) {
  SmallVector<unsigned> order;
  for (size_t i = rank; i-- > 0;) order.push_back(i);
  return order;
}

struct SliceEdge {
  Value child, parent;  // child's layout should be slice(dim, parent's layout)
  unsigned dim;
  Operation *op;        // expand_dims (child is its operand) or reduce (child is a result)
};

class LayoutSolver {
 public:
  LayoutSolver(func::FuncOp f, unsigned numWarps, const TargetInfo &target)
      : f_(f), numWarps_(numWarps), target_(target), axis_(f), ws_(gpu::warpSpecializeOf(f)) {}

  void run() {
    collect();
    for (Operation *op : memory_) {
      Value root = find(op->getOperand(0));
      largestAccess_[root] = std::max(largestAccess_[root], cast<RankedTensorType>(op->getOperand(0).getType()).getNumElements());
    }
    anchorDots();
    anchorAccumulatorSubtiles();
    anchorMemoryAccesses();
    propagate();
    for (auto &[v, root] : parent_)
      if (find(v) == v && !layout_.count(v)) layout_[v] = defaultFor(v);
    propagate();
    apply();
    setVectorWidths();
  }

 private:
  // ---- union-find ----
  Value find(Value v) {
    auto it = parent_.find(v);
    if (it == parent_.end()) {
      parent_[v] = v;
      return v;
    }
    if (it->second == v) return v;
    Value root = find(it->second);
    parent_[v] = root;
    return root;
  }
  void unite(Value a, Value b) {
    if (!isTensor(a) || !isTensor(b)) return;
    Value ra = find(a), rb = find(b);
    if (ra != rb) parent_[ra] = rb;
  }
  void uniteAll(ValueRange values) {
    Value first;
    for (Value v : values) {
      if (!isTensor(v)) continue;
      find(v);
      if (first) unite(first, v);
      else first = v;
    }
  }

  void collect() {
    f_.walk([&](Operation *op) {
      for (Value r : op->getResults())
        if (isTensor(r)) find(r);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument a : block.getArguments())
            if (isTensor(a)) find(a);

      if (auto e = dyn_cast<ir::ExpandDimsOp>(op)) {
        if (isTensor(e.getSrc())) slices_.push_back({e.getSrc(), e.getResult(), e.getAxis(), op});
        return;
      }
      if (auto t = dyn_cast<ir::TransOp>(op)) {
        if (isTensor(t.getSrc()) && isTensor(t.getResult())) transposes_.push_back(t);
        return;
      }
      if (auto r = dyn_cast<ir::ReduceOp>(op)) {
        uniteAll(r.getSrcs());
        uniteAll(r.getResults());
        if (!r.getResults().empty() && isTensor(r.getResult(0)))
          slices_.push_back({r.getResult(0), r.getSrcs()[0], r.getAxis(), op});
        return;
      }
      // Scanned operands are zipped together and keep their layout; gather reads its
      // indices where it writes the result; join's and split's halves have one type.
      if (auto scan = dyn_cast<ir::ScanOp>(op)) {
        SmallVector<Value> all(scan.getSrcs());
        all.append(scan.getResults().begin(), scan.getResults().end());
        uniteAll(all);
        return;
      }
      if (auto sort = dyn_cast<ir::SortOp>(op)) {
        uniteAll({sort.getSrc(), sort.getResult()});
        return;
      }
      if (auto histogram = dyn_cast<ir::HistogramOp>(op)) {  // the mask is read where the values are
        if (histogram.getMask()) uniteAll({histogram.getSrc(), histogram.getMask()});
        return;
      }
      if (auto gather = dyn_cast<ir::GatherOp>(op)) {
        uniteAll({gather.getIndices(), gather.getResult()});
        return;
      }
      if (auto raw = dyn_cast<ir::RawCallOp>(op)) {  // a block argument and its value after the call
        unsigned next = 0;
        for (Value a : raw.getArgs())
          if (isTensor(a)) uniteAll({a, raw.getResult(next++)});
        return;
      }
      if (auto local = dyn_cast<gpu::LocalPtrOp>(op)) {  // indices laid out as the pointers
        SmallVector<Value> all(local.getIndices());
        all.push_back(local.getResult());
        uniteAll(all);
        return;
      }
      if (auto insert = dyn_cast<ir::InsertTileOp>(op)) {
        uniteAll({insert.getSrc(), insert.getResult()});
        return;
      }
      if (auto join = dyn_cast<ir::JoinOp>(op)) {
        uniteAll({join.getLhs(), join.getRhs()});
        return;
      }
      if (auto split = dyn_cast<ir::SplitOp>(op)) {
        uniteAll({split.getLhs(), split.getRhs()});
        return;
      }
      if (auto extract = dyn_cast<ir::ExtractTileOp>(op)) {
        if (extract.getDynamicOffsets().empty()) extracts_.push_back(extract);
        return;
      }
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
        for (auto [i, init] : llvm::enumerate(loop.getInitArgs()))
          uniteAll({init, loop.getRegionIterArgs()[i], yield.getOperand(i), loop.getResult(i)});
        return;
      }
      if (auto branch = dyn_cast<scf::IfOp>(op)) {
        for (auto [i, res] : llvm::enumerate(branch.getResults())) {
          SmallVector<Value> tied{res};
          for (Region *r : {&branch.getThenRegion(), &branch.getElseRegion()})
            if (!r->empty()) tied.push_back(r->front().getTerminator()->getOperand(i));
          uniteAll(tied);
        }
        return;
      }
      if (auto loop = dyn_cast<scf::WhileOp>(op)) {
        auto cond = loop.getConditionOp();
        auto yield = cast<scf::YieldOp>(loop.getAfterBody()->getTerminator());
        for (auto [i, init] : llvm::enumerate(loop.getInits()))
          uniteAll({init, loop.getBeforeArguments()[i], yield.getOperand(i)});
        for (auto [i, arg] : llvm::enumerate(cond.getArgs()))
          uniteAll({arg, loop.getAfterArguments()[i], loop.getResult(i)});
        return;
      }
      if (auto dot = dyn_cast<ir::DotOp>(op)) {
        uniteAll({dot.getC(), dot.getResult()});
        dots_.push_back(dot);
        return;
      }
      if (isa<ir::LoadOp, ir::StoreOp, ir::AtomicRMWOp, ir::AtomicCASOp>(op)) {
        uniteAll(op->getOperands());
        uniteAll({op->getOperand(0), op->getNumResults() ? op->getResult(0) : op->getOperand(0)});
        if (isTensor(op->getOperand(0))) memory_.push_back(op);
        return;
      }
      // A copy from global pointers into a buffer reads like a load (its vector width makes
      // it a cp.async copy); the other direction keeps the default layout.
      if (auto copy = dyn_cast<gpu::CopyOp>(op); copy && isTensor(copy.getSrc())) {
        memory_.push_back(op);
        return;
      }
      if (isa<ir::AddPtrOp, ir::BroadcastOp, ir::AxisHintOp, ir::DescriptorBlockOp, arith::SelectOp>(op) || op->getDialect()->getNamespace() == "arith" ||
          op->getDialect()->getNamespace() == "math") {
        SmallVector<Value> all(op->getOperands());
        all.append(op->getResults().begin(), op->getResults().end());
        uniteAll(all);
        return;
      }
    });
  }

  // The warps of the partition that runs `op` (a warp_specialize worker has its own).
  unsigned warpsAt(Operation *op) {
    unsigned partition = ws_ ? gpu::partitionOf(op) : 0;
    if (partition == 0) return numWarps_;
    return static_cast<unsigned>(ws_.getWorkerNumWarps()[partition - 1]);
  }

  // A coalesced layout for the pointers of a memory access.
  Attribute coalescedFor(Operation *op) {
    auto type = cast<RankedTensorType>(op->getOperand(0).getType());
    Coalescing c = coalescingFor(type, axis_.lookup(op->getOperand(0)), warpsAt(op), target_);
    return blockedLayout(f_.getContext(), type.getShape(), c.order, c.perThread, warpsAt(op), target_.threadsPerWarp());
  }

  Attribute defaultFor(Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    Operation *at = v.getDefiningOp() ? v.getDefiningOp() : v.getParentBlock()->getParentOp();
    return blockedLayout(f_.getContext(), type.getShape(), rowMajorOrder(type.getRank()), 1, warpsAt(at), target_.threadsPerWarp());
  }

  // Tensor-core accumulators (mmaWarpsFor); a dot's class keeps the first layout it gets.
  void anchorDots() {
    for (ir::DotOp dot : dots_) {
      if (cast<RankedTensorType>(dot.getType()).getRank() != 2) continue;
      MmaWarps w = mmaWarpsFor(dot, warpsAt(dot), target_);
      Value root = find(dot.getResult());
      if (!layout_.count(root)) layout_[root] = gpu::MmaLayoutAttr::get(f_.getContext(), w.m, w.n, w.groupN);
    }
  }

  // A sub-tile of an accumulator at constant offsets (the halves of a subtiled epilogue)
  // keeps the accumulator's layout where that layout keeps the sub-tile's threads: each
  // thread selects registers it holds (gpu::extractsInRegisters), and the sub-tile is used
  // as the whole accumulator would be, stores included.
  void anchorAccumulatorSubtiles() {
    for (ir::ExtractTileOp e : extracts_) {
      auto mma = dyn_cast_or_null<gpu::MmaLayoutAttr>(layout_.lookup(find(e.getSrc())));
      Value result = find(e.getResult());
      if (mma && !layout_.count(result) && gpu::mmaTileKeepsThreads(mma, e.getType().getShape())) layout_[result] = mma;
    }
  }

  void anchorMemoryAccesses() {
    // Largest accesses first, each followed by propagation: a smaller access whose class is
    // already reached through a slice (a reduction's result being stored) keeps that layout
    // instead of paying for a conversion.
    std::vector<Operation *> order = memory_;
    std::stable_sort(order.begin(), order.end(), [](Operation *a, Operation *b) {
      auto ta = cast<RankedTensorType>(a->getOperand(0).getType()), tb = cast<RankedTensorType>(b->getOperand(0).getType());
      return std::make_pair(ta.getRank(), ta.getNumElements()) > std::make_pair(tb.getRank(), tb.getNumElements());
    });
    for (Operation *op : order) {
      Value root = find(op->getOperand(0));
      if (layout_.count(root)) continue;
      layout_[root] = coalescedFor(op);
      propagate();
    }
  }

  // A slice relation does not decide the layout of a class that holds a memory access larger
  // than the value it reaches (the gathered KV rows of sparse attention, indexed by a vector
  // also used on a dot's result): that access anchors its own coalesced layout, and the
  // smaller side is converted.
  bool holdsLargerAccess(Value root, Value reached) const {
    auto it = largestAccess_.find(root);
    return it != largestAccess_.end() && it->second > cast<RankedTensorType>(reached.getType()).getNumElements();
  }

  void propagate() {
    for (bool changed = true; changed;) {
      changed = false;
      // A transpose relabels a blocked layout: its operand and result take each other's,
      // except into a class with a memory access of its own, which keeps that access
      // coalesced (a tile transposed between a load and a store goes through shared memory).
      for (ir::TransOp t : transposes_) {
        Value src = find(t.getSrc()), result = find(t.getResult());
        bool hasSrc = layout_.count(src), hasResult = layout_.count(result);
        if (hasSrc && !hasResult && !largestAccess_.count(result)) {
          if (Attribute l = gpu::transposedBlockedLayout(layout_.lookup(src), t.getOrder(), false)) {
            layout_[result] = l;
            changed = true;
          }
        } else if (hasResult && !hasSrc && !largestAccess_.count(src)) {
          if (Attribute l = gpu::transposedBlockedLayout(layout_.lookup(result), t.getOrder(), true)) {
            layout_[src] = l;
            changed = true;
          }
        }
      }
      for (const SliceEdge &e : slices_) {
        Value child = find(e.child), parent = find(e.parent);
        bool hasChild = layout_.count(child), hasParent = layout_.count(parent);
        if ((hasParent && !hasChild && holdsLargerAccess(child, e.child)) ||
            (hasChild && !hasParent && holdsLargerAccess(parent, e.parent)))
          continue;
        if (hasParent && !hasChild) {
          layout_[child] = gpu::SliceLayoutAttr::get(f_.getContext(), e.dim, layout_[parent]);
          changed = true;
        } else if (hasChild && !hasParent) {
          if (auto s = dyn_cast<gpu::SliceLayoutAttr>(layout_[child]); s && s.getDim() == e.dim) {
            layout_[parent] = s.getParent();
            changed = true;
          }
        }
      }
    }
  }

  static Type withLayout(Type t, Attribute layout) {
    auto tensor = cast<RankedTensorType>(t);
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType(), layout);
  }

  void apply() {
    for (auto &[v, unused] : parent_) {
      Value value = v;
      value.setType(withLayout(value.getType(), layout_[find(value)]));
      // A tensor constant's value attribute carries the type too.
      if (auto constant = value.getDefiningOp<arith::ConstantOp>())
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          constant.setValueAttr(dense.reshape(cast<ShapedType>(value.getType())));
    }
    // Dot operands are converted into the mma fragments their accumulator needs.
    for (ir::DotOp dot : dots_) {
      Attribute accumulator = layout_[find(dot.getResult())];
      if (!isa<gpu::MmaLayoutAttr>(accumulator)) continue;
      for (unsigned i = 0; i < 2; ++i) {
        OpOperand &operand = dot->getOpOperand(i);
        Type element = cast<RankedTensorType>(operand.get().getType()).getElementType();
        Attribute wanted = gpu::DotOperandLayoutAttr::get(f_.getContext(), i, accumulator, element.getIntOrFloatBitWidth());
        // An operand made outside the dot's block (attention's loop-invariant Q) is
        // converted where it is made: once, not in every iteration.
        // Operands made in the dot's own block are converted just before it, so that all
        // the block's loads are issued before the first conversion waits on a barrier.
        OpBuilder b(dot);
        Operation *def = operand.get().getDefiningOp();
        Block *home = def ? def->getBlock() : cast<BlockArgument>(operand.get()).getOwner();
        if (home != dot->getBlock()) {
          if (def) b.setInsertionPointAfter(def);
          else b.setInsertionPointToStart(home);
        }
        Location loc = dot.getLoc();
        if (auto named = dyn_cast<NameLoc>(loc)) loc = named.getChildLoc();  // not named after the dot's result
        Value converted = b.create<gpu::ConvertLayoutOp>(loc, withLayout(operand.get().getType(), wanted), operand.get());
        operand.set(converted);
      }
    }
    // Broken slice relations become conversions.
    for (const SliceEdge &e : slices_) {
      Attribute parentLayout = layout_[find(e.parent)];
      Attribute wanted = gpu::SliceLayoutAttr::get(f_.getContext(), e.dim, parentLayout);
      if (layout_[find(e.child)] == wanted) continue;
      if (auto expand = dyn_cast<ir::ExpandDimsOp>(e.op)) {
        OpBuilder b(expand);
        Value converted = b.create<gpu::ConvertLayoutOp>(expand.getLoc(), withLayout(e.child.getType(), wanted), e.child);
        expand.getSrcMutable().assign(converted);
      } else {
        auto reduce = cast<ir::ReduceOp>(e.op);
        OpBuilder b(reduce);
        b.setInsertionPointAfter(reduce);
        for (Value result : reduce.getResults()) {
          Type classType = result.getType();
          result.setType(withLayout(classType, wanted));
          auto convert = b.create<gpu::ConvertLayoutOp>(reduce.getLoc(), classType, result);
          result.replaceAllUsesExcept(convert.getResult(), convert);
        }
      }
    }
  }

  // The widest access that registers, memory contiguity, alignment and mask allow.
  void setVectorWidths() {
    for (Operation *op : memory_) {
      unsigned vec = 1;
      Value ptr = op->getOperand(0);
      auto type = cast<RankedTensorType>(ptr.getType());
      std::optional<std::pair<unsigned, unsigned>> fastest = registerRunDimension(type.getEncoding());
      if (fastest && isa<gpu::CopyOp>(op)) {
        // Into a row-major buffer: a vector must run along the last dimension to land on
        // consecutive bytes there.
        auto [fast, perThread] = *fastest;
        if (fast == type.getRank() - 1) vec = std::max<unsigned>(1, vectorWidthFor(type, axis_.lookup(ptr), fast, perThread, target_));
      } else if (fastest && isa<ir::LoadOp, ir::StoreOp>(op)) {
        auto [fast, perThread] = *fastest;
        int64_t v = vectorWidthFor(type, axis_.lookup(ptr), fast, perThread, target_);
        // A mask (or `other`) not provably uniform over a vector does not shorten it: the
        // access checks each vector's mask at run time and falls back to elements only where
        // it is mixed (the tail of an odd size), instead of going element by element
        // everywhere.
        int64_t uniform = v;
        Value mask = isa<ir::LoadOp>(op) ? cast<ir::LoadOp>(op).getMask() : cast<ir::StoreOp>(op).getMask();
        if (mask) uniform = std::min<int64_t>(uniform, axis_.lookup(mask).constancy[fast]);
        if (auto load = dyn_cast<ir::LoadOp>(op); load && load.getOther())
          uniform = std::min<int64_t>(uniform, axis_.lookup(load.getOther()).constancy[fast]);
        vec = std::max<int64_t>(1, v);
        if (uniform < v) gpu::setMaskPerElement(op);
        // An mma accumulator stored to global memory: the lanes of a quad trade registers so
        // that each holds a 16-byte vector (store_exchanged), where memory and the mask allow
        // that width; four column pairs cost one store instead of four.
        auto mma = dyn_cast<gpu::MmaLayoutAttr>(type.getEncoding());
        if (mma && isa<ir::StoreOp>(op) && ir::pointerSpaceOf(type) == MemorySpace::Global && fast == 1 && v == perThread) {
          unsigned wide = vectorWidthFor(type, axis_.lookup(ptr), fast, exchangedRunElements(mma, type.getShape()), target_);
          if (wide > v && (!mask || axis_.lookup(mask).constancy[fast] >= wide)) vec = wide;
        }
      }
      gpu::setVectorWidth(op, static_cast<int>(vec));
    }
  }

  func::FuncOp f_;
  unsigned numWarps_;
  const TargetInfo &target_;
  common::AxisAnalysis axis_;
  llvm::DenseMap<Value, Value> parent_;
  llvm::DenseMap<Value, Attribute> layout_;
  std::vector<SliceEdge> slices_;
  std::vector<Operation *> memory_;
  std::vector<ir::TransOp> transposes_;
  std::vector<ir::ExtractTileOp> extracts_;  // at constant offsets
  llvm::DenseMap<Value, int64_t> largestAccess_;  // per class root: its largest memory access (elements)
  std::vector<ir::DotOp> dots_;
  gpu::WarpSpecializeOp ws_;  // the kernel's, if any
};

struct AssignLayoutsPass : impl::AssignLayoutsBase<AssignLayoutsPass> {
  using AssignLayoutsBase::AssignLayoutsBase;

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    LayoutSolver(f, ir::numWarps(f, numWarps), ir::targetOf(f, target)).run();
  }
};

}  // namespace

}  // namespace tle::cuda
