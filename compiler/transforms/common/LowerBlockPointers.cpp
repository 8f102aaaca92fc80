// Block pointers (tl.make_block_ptr) become ordinary tensors of pointers. A block pointer
// is its parts: base, shape and strides (fixed where it is made) and one offset per
// dimension (moved by tl.advance). Loops that carry block pointers carry their offsets
// instead. Loads and stores through them compute the pointer tensor
//   base + sum_d (offset_d + arange(block_d)) * stride_d
// in 64-bit (each offset and range widened first), masked on the dimensions named by boundary_check.
#include "transforms/common/Passes.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <limits>

namespace tle::common {

#define GEN_PASS_DEF_LOWERBLOCKPOINTERS
#include "transforms/common/Passes.h.inc"

using namespace mlir;

namespace {

struct BlockPointerParts {
  Value base;
  SmallVector<Value> shape, strides, offsets;
  RankedTensorType block;
  std::string padding = "zero";  // descriptors: what out-of-bounds loads read
};

class BlockPointerLowering {
 public:
  BlockPointerLowering(func::FuncOp f, bool markDescriptorBlocks) : f_(f), markDescriptorBlocks_(markDescriptorBlocks) {}

  LogicalResult run() {
    if (failed(rewriteBlock(f_.getBody().front()))) return failure();
    // Dead ops may use each other (and an old loop's block arguments): unlink all, then erase.
    for (Operation *op : dead_) op->dropAllReferences();
    for (Operation *op : dead_) op->dropAllUses();
    for (Operation *op : llvm::reverse(dead_)) op->erase();
    return success();
  }

 private:
  // Tensor descriptors (tl.make_tensor_descriptor) are block pointers without offsets.
  static bool isBlockPointer(Type t) { return isa<ir::BlockPointerType, ir::TensorDescType>(t); }

  LogicalResult rewriteBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (failed(rewrite(&op))) return failure();
    }
    return success();
  }

  LogicalResult rewrite(Operation *op) {
    if (auto make = dyn_cast<ir::MakeBlockPtrOp>(op)) {
      BlockPointerParts p;
      p.base = make.getBase();
      p.shape.assign(make.getShape().begin(), make.getShape().end());
      p.strides.assign(make.getStrides().begin(), make.getStrides().end());
      p.offsets.assign(make.getOffsets().begin(), make.getOffsets().end());
      p.block = cast<ir::BlockPointerType>(make.getType()).getBlockType();
      parts_[make.getResult()] = p;
      dead_.push_back(op);
      return success();
    }
    if (auto make = dyn_cast<ir::MakeTensorDescOp>(op)) {
      BlockPointerParts p;
      OpBuilder b(op);
      p.base = make.getBase();
      for (Value extent : make.getShape())
        p.shape.push_back(b.create<arith::ExtSIOp>(op->getLoc(), b.getI64Type(), extent));
      p.strides.assign(make.getStrides().begin(), make.getStrides().end());
      p.block = cast<ir::TensorDescType>(make.getType()).getBlockType();
      p.padding = make.getPadding().str();
      parts_[make.getResult()] = p;
      dead_.push_back(op);
      return success();
    }
    if (isa<ir::DescLoadOp, ir::DescStoreOp>(op)) {
      // Every dimension is bounds-checked: out of bounds reads the padding, writes nothing.
      OpBuilder b(op);
      BlockPointerParts p = parts_.lookup(op->getOperand(0));
      auto offsets = isa<ir::DescLoadOp>(op) ? cast<ir::DescLoadOp>(op).getOffsets() : cast<ir::DescStoreOp>(op).getOffsets();
      p.offsets.assign(offsets.begin(), offsets.end());
      SmallVector<int32_t> all;
      for (size_t d = 0; d < p.offsets.size(); ++d) all.push_back(static_cast<int32_t>(d));
      auto [ptrs, mask] = pointersAndMask(b, op->getLoc(), p, all);
      if (auto load = dyn_cast<ir::DescLoadOp>(op)) {
        if (markDescriptorBlocks_) ptrs = b.create<ir::DescriptorBlockOp>(op->getLoc(), ptrs.getType(), ptrs, p.base, p.shape, p.strides, p.offsets);
        Value other = padding(b, op->getLoc(), load.getType(), StringRef(p.padding));
        auto lowered = b.create<ir::LoadOp>(op->getLoc(), load.getType(), ptrs, mask, other, StringAttr(), StringAttr(),
                                            false, false);
        load.getResult().replaceAllUsesWith(lowered.getResult());
      } else {
        auto store = cast<ir::DescStoreOp>(op);
        b.create<ir::StoreOp>(op->getLoc(), ptrs, store.getValue(), mask, StringAttr(), StringAttr());
      }
      op->erase();
      return success();
    }
    if (auto advance = dyn_cast<ir::AdvanceOp>(op)) {
      BlockPointerParts p = parts_.lookup(advance.getPtr());
      OpBuilder b(op);
      for (auto [i, delta] : llvm::enumerate(advance.getOffsets()))
        p.offsets[i] = b.create<arith::AddIOp>(op->getLoc(), p.offsets[i], delta);
      parts_[advance.getResult()] = p;
      dead_.push_back(op);
      return success();
    }
    if (auto load = dyn_cast<ir::LoadBlockOp>(op)) {
      OpBuilder b(op);
      auto [ptrs, mask] = pointersAndMask(b, op->getLoc(), parts_.lookup(load.getPtr()), load.getBoundaryCheck());
      Value other;
      if (mask) other = padding(b, op->getLoc(), load.getType(), load.getPadding());
      auto lowered = b.create<ir::LoadOp>(op->getLoc(), load.getType(), ptrs, mask, other, load.getCacheAttr(),
                                          load.getEvictionAttr(), load.getIsVolatile(), false);
      load.getResult().replaceAllUsesWith(lowered.getResult());
      op->erase();
      return success();
    }
    if (auto store = dyn_cast<ir::StoreBlockOp>(op)) {
      OpBuilder b(op);
      auto [ptrs, mask] = pointersAndMask(b, op->getLoc(), parts_.lookup(store.getPtr()), store.getBoundaryCheck());
      b.create<ir::StoreOp>(op->getLoc(), ptrs, store.getValue(), mask, store.getCacheAttr(), store.getEvictionAttr());
      op->erase();
      return success();
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) return rewriteLoop(loop);
    for (Region &region : op->getRegions()) {
      for (Block &block : region) {
        for (BlockArgument arg : block.getArguments())
          if (isBlockPointer(arg.getType()))
            return op->emitError("block pointers carried through this construct are not supported by the CUDA backend");
        if (failed(rewriteBlock(block))) return failure();
      }
    }
    for (Value r : op->getResults())
      if (isBlockPointer(r.getType()))
        return op->emitError("block pointers produced by this construct are not supported by the CUDA backend");
    return success();
  }

  // A loop carrying block pointers carries their offsets instead.
  LogicalResult rewriteLoop(scf::ForOp loop) {
    bool carries = llvm::any_of(loop.getInitArgs(), [](Value v) { return isBlockPointer(v.getType()); });
    if (!carries) return rewriteBlock(*loop.getBody());
    SmallVector<Value> inits;
    for (Value init : loop.getInitArgs()) {
      if (!isBlockPointer(init.getType())) {
        inits.push_back(init);
        continue;
      }
      BlockPointerParts p = parts_.lookup(init);
      inits.append(p.offsets.begin(), p.offsets.end());
    }
    OpBuilder b(loop);
    auto newLoop = b.create<scf::ForOp>(loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(), loop.getStep(), inits);
    newLoop->setAttrs(loop->getAttrs());
    Block *body = newLoop.getBody();
    if (!body->empty()) body->getTerminator()->erase();  // an empty yield the builder may add
    // Old block arguments map onto the new ones.
    loop.getInductionVar().replaceAllUsesWith(newLoop.getInductionVar());
    unsigned next = 0;
    for (auto [init, arg] : llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs())) {
      if (!isBlockPointer(arg.getType())) {
        arg.replaceAllUsesWith(newLoop.getRegionIterArgs()[next++]);
        continue;
      }
      BlockPointerParts p = parts_.lookup(init);
      for (Value &offset : p.offsets) offset = newLoop.getRegionIterArgs()[next++];
      parts_[arg] = p;
    }
    body->getOperations().splice(body->end(), loop.getBody()->getOperations());
    if (failed(rewriteBlock(*body))) return failure();
    // The yield passes offsets; the base, shape and strides must not change in the loop.
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    SmallVector<Value> yielded;
    for (auto [i, v] : llvm::enumerate(yield.getOperands())) {
      if (!isBlockPointer(v.getType())) {
        yielded.push_back(v);
        continue;
      }
      BlockPointerParts carried = parts_.lookup(loop.getRegionIterArgs()[i]), now = parts_.lookup(v);
      if (carried.base != now.base || carried.shape != now.shape || carried.strides != now.strides)
        return yield.emitError("a loop-carried block pointer must only move with tl.advance inside the loop");
      yielded.append(now.offsets.begin(), now.offsets.end());
    }
    OpBuilder yb(yield);
    yb.create<scf::YieldOp>(yield.getLoc(), yielded);
    yield.erase();
    next = 0;
    for (auto [init, result] : llvm::zip(loop.getInitArgs(), loop.getResults())) {
      if (!isBlockPointer(result.getType())) {
        result.replaceAllUsesWith(newLoop.getResult(next++));
        continue;
      }
      BlockPointerParts p = parts_.lookup(init);
      for (Value &offset : p.offsets) offset = newLoop.getResult(next++);
      parts_[result] = p;
    }
    dead_.push_back(loop);
    return success();
  }

  Value padding(OpBuilder &b, Location loc, RankedTensorType type, std::optional<StringRef> kind) {
    Type e = type.getElementType();
    Attribute value;
    if (auto f = dyn_cast<FloatType>(e))
      value = FloatAttr::get(e, kind && *kind == "nan" ? std::numeric_limits<double>::quiet_NaN() : 0.0);
    else
      value = IntegerAttr::get(e, 0);
    return b.create<arith::ConstantOp>(loc, type, DenseElementsAttr::get(type, value));
  }

  std::pair<Value, Value> pointersAndMask(OpBuilder &b, Location loc, const BlockPointerParts &p,
                                          ArrayRef<int32_t> boundaryCheck) {
    ArrayRef<int64_t> shape = p.block.getShape();
    size_t rank = shape.size();
    Type i32 = b.getI32Type(), i64 = b.getI64Type(), i1 = b.getI1Type();
    auto tensorOf = [&](Type e) { return RankedTensorType::get(shape, e); };
    Value offsets, mask;
    for (size_t d = 0; d < rank; ++d) {
      // The indices along d, as a rank-`rank` tensor broadcast to the block.
      auto rangeType = RankedTensorType::get({shape[d]}, i32);
      Value range = b.create<ir::MakeRangeOp>(loc, rangeType, 0, static_cast<int32_t>(shape[d]));
      // Widened before the sum, as Triton does: the pointers are then affine in the indices
      // with the strides as coefficients (tle-affine-copy-addresses relies on it).
      auto wideType = RankedTensorType::get({shape[d]}, i64);
      Value offset = p.offsets[d];
      if (offset.getType() != i64) offset = b.create<arith::ExtSIOp>(loc, i64, offset);
      Value splat = b.create<ir::SplatOp>(loc, wideType, offset);
      Value wideRange = b.create<arith::ExtSIOp>(loc, wideType, range);
      Value wide = b.create<arith::AddIOp>(loc, splat, wideRange);
      auto expand = [&](Value v, Type e) {
        SmallVector<int64_t> unit(rank, 1);
        unit[d] = shape[d];
        for (size_t k = 0; k < rank; ++k) {
          if (k == d) continue;
          SmallVector<int64_t> s(cast<RankedTensorType>(v.getType()).getShape());
          s.insert(s.begin() + k, 1);
          v = b.create<ir::ExpandDimsOp>(loc, RankedTensorType::get(s, e), v, b.getI32IntegerAttr(static_cast<int32_t>(k)));
        }
        return b.create<ir::BroadcastOp>(loc, tensorOf(e), v).getResult();
      };
      Value scaled = b.create<arith::MulIOp>(loc, wide, b.create<ir::SplatOp>(loc, wide.getType(), p.strides[d]));
      Value term = expand(scaled, i64);
      offsets = offsets ? b.create<arith::AddIOp>(loc, offsets, term).getResult() : term;
      if (llvm::is_contained(boundaryCheck, static_cast<int32_t>(d))) {
        Value zero = b.create<arith::ConstantOp>(loc, wideType, DenseElementsAttr::get(wideType, b.getI64IntegerAttr(0)));
        Value low = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, wide, zero);
        Value high = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, wide,
                                             b.create<ir::SplatOp>(loc, wideType, p.shape[d]));
        Value inside = expand(b.create<arith::AndIOp>(loc, low, high), i1);
        mask = mask ? b.create<arith::AndIOp>(loc, mask, inside).getResult() : inside;
      }
    }
    auto ptrType = RankedTensorType::get(shape, p.base.getType());
    Value ptrs = b.create<ir::AddPtrOp>(loc, ptrType, b.create<ir::SplatOp>(loc, ptrType, p.base), offsets);
    return {ptrs, mask};
  }

  func::FuncOp f_;
  const bool markDescriptorBlocks_;
  llvm::DenseMap<Value, BlockPointerParts> parts_;
  std::vector<Operation *> dead_;
};

struct LowerBlockPointersPass : impl::LowerBlockPointersBase<LowerBlockPointersPass> {
  using LowerBlockPointersBase::LowerBlockPointersBase;
  void runOnOperation() override {
    if (failed(BlockPointerLowering(getOperation(), markDescriptorBlocks).run())) signalPassFailure();
  }
};

}  // namespace

}  // namespace tle::common
