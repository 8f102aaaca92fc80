#include "transforms/ascend/Passes.h"

#include "ir/Dialect.h"
#include "ir/KernelSettings.h"
#include "target/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tle::ascend {

#define GEN_PASS_DEF_SPLITTILES
#include "transforms/ascend/Passes.h.inc"

using namespace mlir;

namespace {

// The one tile size of an element-wise kernel, or 0 when the kernel is not one (another
// shape, an op that is not element-wise, a side effect that chunks would repeat).
int64_t elementwiseTileSize(func::FuncOp kernel) {
  int64_t size = -1;
  bool ok = true;
  auto shapeOk = [&](Type t) {
    auto tile = dyn_cast<RankedTensorType>(t);
    if (!tile) return true;
    if (tile.getRank() != 1) return false;
    if (size < 0) size = tile.getDimSize(0);
    return tile.getDimSize(0) == size;
  };
  kernel.walk([&](Operation *op) {
    if (op == kernel.getOperation()) return;
    bool allowed = isa<func::ReturnOp, ir::ProgramIdOp, ir::NumProgramsOp, ir::SplatOp, ir::AddPtrOp, arith::ConstantOp>(op) ||
                   op->getDialect()->getNamespace() == "arith" || op->getDialect()->getNamespace() == "math";
    if (auto range = dyn_cast<ir::MakeRangeOp>(op)) allowed = range.getStart() == 0;
    if (auto load = dyn_cast<ir::LoadOp>(op)) allowed = true;
    if (auto store = dyn_cast<ir::StoreOp>(op)) allowed = isa<RankedTensorType>(store.getValue().getType());  // scalar stores would repeat
    if (auto constant = dyn_cast<arith::ConstantOp>(op); constant && isa<RankedTensorType>(constant.getType()))
      allowed = isa<SplatElementsAttr>(constant.getValue());
    if (!allowed) ok = false;
    for (Type t : op->getResultTypes()) ok = ok && shapeOk(t);
    for (Type t : op->getOperandTypes()) ok = ok && shapeOk(t);
  });
  return ok && size > 0 ? size : 0;
}

// UB the data tiles would take with none reused: an upper bound of what the plan needs.
int64_t dataBytes(func::FuncOp kernel) {
  int64_t bytes = 0;
  kernel.walk([&](Operation *op) {
    if (isa<ir::MakeRangeOp, ir::SplatOp, ir::AddPtrOp, arith::ConstantOp, arith::CmpIOp>(op)) return;
    for (Type t : op->getResultTypes())
      if (auto tile = dyn_cast<RankedTensorType>(t); tile && tile.getElementType().isIntOrFloat() && !tile.getElementType().isInteger(1))
        bytes += tile.getNumElements() * tile.getElementTypeBitWidth() / 8;
  });
  return bytes;
}

struct SplitTilesPass : impl::SplitTilesBase<SplitTilesPass> {
  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    const MemorySpaceInfo *ub = ir::targetOf(kernel).memorySpace(MemorySpace::UB);
    int64_t n = elementwiseTileSize(kernel);
    if (!ub || n == 0) return;
    int64_t bytes = dataBytes(kernel);
    int64_t chunks = 1;
    // Leave room for alignment padding and the masks' temporaries.
    while (bytes / chunks > ub->capacityBytes * 7 / 8 && n / (chunks * 2) >= 64) chunks *= 2;
    if (chunks == 1) return;
    int64_t chunk = n / chunks;

    // The body moves into `for c in range(chunks)`; every tile becomes its chunk.
    Block &body = kernel.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    Location loc = kernel.getLoc();
    Value zero = b.create<arith::ConstantIntOp>(loc, 0, 32), one = b.create<arith::ConstantIntOp>(loc, 1, 32);
    Value count = b.create<arith::ConstantIntOp>(loc, chunks, 32);
    auto loop = b.create<scf::ForOp>(loc, zero, count, one);
    Block *loopBody = loop.getBody();
    Operation *terminator = body.getTerminator();
    loopBody->getOperations().splice(loopBody->begin(), body.getOperations(), std::next(loop->getIterator()), terminator->getIterator());
    OpBuilder inside = OpBuilder::atBlockBegin(loopBody);
    Value first = inside.create<arith::MulIOp>(loc, loop.getInductionVar(), inside.create<arith::ConstantIntOp>(loc, chunk, 32));
    SmallVector<ir::MakeRangeOp> ranges;
    loop.walk([&](Operation *op) {
      for (Value result : op->getResults())
        if (auto tile = dyn_cast<RankedTensorType>(result.getType()))
          result.setType(RankedTensorType::get({chunk}, tile.getElementType(), tile.getEncoding()));
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
          constant.setValueAttr(SplatElementsAttr::get(cast<ShapedType>(constant.getType()), splat.getSplatValue<Attribute>()));
      if (auto range = dyn_cast<ir::MakeRangeOp>(op)) ranges.push_back(range);
    });
    for (ir::MakeRangeOp range : ranges) {  // arange(0, N) -> arange(0, N/k) + c N/k
      range.setEnd(chunk);
      OpBuilder after(range->getBlock(), std::next(range->getIterator()));
      Value shift = after.create<ir::SplatOp>(loc, range.getType(), first);
      auto moved = after.create<arith::AddIOp>(loc, range.getResult(), shift);
      range.getResult().replaceAllUsesExcept(moved, moved);
    }
  }
};

}  // namespace

}  // namespace tle::ascend
