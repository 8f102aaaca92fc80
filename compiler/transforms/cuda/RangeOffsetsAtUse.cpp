// tle-range-offsets-at-use: an address that tle-carry-pointer-bases rebuilds in a loop body
// (an addptr marked tle_gpu.widen_at_use) from offsets `range * stride + rest`, the range along
// one dimension of the tile, becomes tle_gpu.addptr_along: the range's part is computed from
// each element's coordinate where the address is needed. Across the loop a thread then keeps
// `rest` and the stride instead of an offset per element: tutorial 03's B tile, read one
// column a thread (k * stride_bk + n * stride_bn), keeps one offset instead of one per row
// of the tile (128x256x64 on 8 warps: 64; 80 -> 137 TFLOP/s at 4095^3 on an H200).
//
//   %o = addi(broadcast(muli(expand_dims(make_range), splat(%s))), %rest)
//   %p = addptr(%base, %o) {widen_at_use}         =>   %p = addptr_along(%base, %s, %rest) {dim, start}
//
// The 32-bit sum and its widening are the ones the addptr computed: the rewrite is exact.
#include "transforms/cuda/Passes.h"

#include "transforms/common/SplatScalar.h"
#include "transforms/cuda/LayoutChoices.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace tle::cuda {

#define GEN_PASS_DEF_RANGEOFFSETSATUSE
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// A tile whose elements are `start` plus their index along `dim`.
struct RangeAlong {
  int32_t dim = 0;
  int32_t start = 0;
};

// `v` without the ops of kinds `Peeled` (each with one `src`) that define it, in any order:
// ops that keep its elements' values.
template <class... Peeled>
Value through(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<Peeled...>(op)) break;
    v = op->getOperand(0);
  }
  return v;
}

// `v` without the ops that only repeat or redistribute its elements.
Value throughBroadcasts(Value v) { return through<ir::BroadcastOp, gpu::ConvertLayoutOp, ir::AxisHintOp>(v); }

// `v` as a make_range expanded to a tile of its rank and repeated along the other dimensions.
std::optional<RangeAlong> rangeAlong(Value v) {
  Value expanded = throughBroadcasts(v);
  auto shape = cast<RankedTensorType>(expanded.getType()).getShape();
  // The range runs along the one dimension longer than 1.
  if (llvm::count_if(shape, [](int64_t n) { return n != 1; }) != 1) return std::nullopt;
  RangeAlong range;
  range.dim = static_cast<int32_t>(llvm::find_if(shape, [](int64_t n) { return n != 1; }) - shape.begin());
  auto make = through<ir::ExpandDimsOp, gpu::ConvertLayoutOp, ir::AxisHintOp>(expanded).getDefiningOp<ir::MakeRangeOp>();
  if (!make) return std::nullopt;
  range.start = make.getStart();
  return range;
}

// The i32 scalar in every lane of `v`: a splat's source, or a splat constant's value.
OpFoldResult uniformScalar(Value v) {
  OpFoldResult scalar = common::splatScalar(throughBroadcasts(v));
  if (auto value = dyn_cast_if_present<Value>(scalar)) return value.getType().isInteger(32) ? scalar : OpFoldResult();
  if (auto attr = dyn_cast_if_present<Attribute>(scalar)) return cast<TypedAttr>(attr).getType().isInteger(32) ? scalar : OpFoldResult();
  return {};
}

// A range along one dimension times a uniform stride.
struct RangeTerm {
  RangeAlong range;
  OpFoldResult stride;
};

// `term` as a range times a uniform stride (a bare range: stride 1).
std::optional<RangeTerm> rangeTimesStride(Value term, Builder &b) {
  Value product = throughBroadcasts(term);
  if (auto mul = product.getDefiningOp<arith::MulIOp>()) {
    for (auto [range, stride] : {std::pair{mul.getLhs(), mul.getRhs()}, std::pair{mul.getRhs(), mul.getLhs()}}) {
      std::optional<RangeAlong> along = rangeAlong(range);
      if (!along) continue;
      if (OpFoldResult scalar = uniformScalar(stride)) return RangeTerm{*along, scalar};
    }
    return std::nullopt;
  }
  if (std::optional<RangeAlong> along = rangeAlong(product)) return RangeTerm{*along, b.getI32IntegerAttr(1)};
  return std::nullopt;
}

// Erases `v`'s defining op and the ops only it used, where nothing else reads them.
void eraseUnused(Value v) {
  SmallVector<Operation *> work;
  llvm::SmallPtrSet<Operation *, 16> erased;  // an op can be reached twice (addi(%x, %x))
  if (Operation *op = v.getDefiningOp()) work.push_back(op);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (erased.contains(op) || !op->use_empty() || !isMemoryEffectFree(op) || op->getNumRegions() != 0) continue;
    SmallVector<Operation *> sources;
    for (Value operand : op->getOperands())
      if (Operation *source = operand.getDefiningOp()) sources.push_back(source);
    erased.insert(op);
    op->erase();
    work.append(sources.begin(), sources.end());
  }
}

// Whether `loop` copies operands to shared memory by cp.async. There ptxas hoisted the
// products of tle::addptr_widening_along out of the loop as 64-bit widened offsets, two
// registers an element, and spilled them (SASS of tutorial 03's free-size 128x128x32 kernel).
bool copiesAsynchronously(scf::ForOp loop) {
  return loop.getBody()->walk([](Operation *op) {
    return gpu::isAsyncCopy(op) || isa<gpu::AsyncCopyOp>(op) ? WalkResult::interrupt() : WalkResult::advance();
  }).wasInterrupted();
}

// How many elements along `dim` a thread of `tile`'s blocked layout holds (0: not blocked).
// With one, the range's part of the offsets is one value a thread: nothing to save.
int64_t elementsPerThreadAlong(RankedTensorType tile, int32_t dim) {
  auto blocked = dyn_cast_or_null<gpu::BlockedLayoutAttr>(tile.getEncoding());
  if (!blocked) return 0;
  return blocked.getSizePerThread()[dim] * std::max<int64_t>(1, tile.getDimSize(dim) / elementsCoveredAlong(blocked, dim));
}

void rewrite(ir::AddPtrOp addptr) {
  auto loop = addptr->getParentOfType<scf::ForOp>();
  if (!loop || copiesAsynchronously(loop)) return;
  auto offsetType = dyn_cast<RankedTensorType>(addptr.getOffset().getType());
  if (!offsetType || !offsetType.getElementType().isInteger(32)) return;
  auto sum = addptr.getOffset().getDefiningOp<arith::AddIOp>();
  if (!sum) return;
  OpBuilder b(addptr);
  for (auto [term, rest] : {std::pair{sum.getRhs(), sum.getLhs()}, std::pair{sum.getLhs(), sum.getRhs()}}) {
    std::optional<RangeTerm> split = rangeTimesStride(term, b);
    if (!split || elementsPerThreadAlong(offsetType, split->range.dim) < 2) continue;
    Value stride = dyn_cast<Value>(split->stride);
    if (!stride) stride = b.create<arith::ConstantOp>(addptr.getLoc(), cast<IntegerAttr>(cast<Attribute>(split->stride)));
    auto along = b.create<gpu::AddPtrAlongOp>(addptr.getLoc(), addptr.getType(), addptr.getPtr(), stride, rest,
                                              b.getI32IntegerAttr(split->range.dim), b.getI32IntegerAttr(split->range.start));
    addptr.replaceAllUsesWith(along.getResult());
    Value offset = addptr.getOffset();
    addptr.erase();
    eraseUnused(offset);
    return;
  }
}

struct RangeOffsetsAtUsePass : impl::RangeOffsetsAtUseBase<RangeOffsetsAtUsePass> {
  void runOnOperation() override {
    SmallVector<ir::AddPtrOp> rebuilt;
    getOperation().walk([&](ir::AddPtrOp addptr) {
      if (gpu::widensAtUse(addptr)) rebuilt.push_back(addptr);
    });
    for (ir::AddPtrOp addptr : rebuilt) rewrite(addptr);
  }
};

}  // namespace

}  // namespace tle::cuda
