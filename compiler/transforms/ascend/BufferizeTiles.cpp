#include "transforms/ascend/AffineIndex.h"
#include "transforms/ascend/LoopRewrite.h"
#include "transforms/ascend/Passes.h"
#include "transforms/PassDiagnostics.h"

#include "ir/Dialect.h"
#include "ir/DsaDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <map>


namespace tle::ascend {

#define GEN_PASS_DEF_BUFFERIZETILES
#include "transforms/ascend/Passes.h.inc"

using namespace mlir;

namespace {

bool isTile(Value v) { return isa<RankedTensorType>(v.getType()); }

// The vector instruction of an element-wise arithmetic op on two tiles.
std::optional<StringRef> binaryKind(Operation *op) {
  if (isa<arith::AddFOp, arith::AddIOp>(op)) return StringRef("add");
  if (isa<arith::SubFOp, arith::SubIOp>(op)) return StringRef("sub");
  if (isa<arith::MulFOp, arith::MulIOp>(op)) return StringRef("mul");
  if (isa<arith::DivFOp, arith::DivSIOp>(op)) return StringRef("div");
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(op)) return StringRef("max");
  if (isa<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(op)) return StringRef("min");
  if (isa<arith::AndIOp>(op)) return StringRef("and");
  if (isa<arith::OrIOp>(op)) return StringRef("or");
  return std::nullopt;
}

std::optional<StringRef> unaryKind(Operation *op) {
  if (isa<math::ExpOp>(op)) return StringRef("exp");
  if (isa<math::LogOp>(op)) return StringRef("ln");
  if (isa<math::AbsFOp, math::AbsIOp>(op)) return StringRef("abs");
  if (isa<math::SqrtOp>(op)) return StringRef("sqrt");
  if (isa<math::RsqrtOp>(op)) return StringRef("rsqrt");
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::FPToSIOp>(op)) return StringRef("cast");
  return std::nullopt;
}

// The vector instruction for sqrt, exp, ... of a scalar float.
std::optional<StringRef> scalarMathKind(Operation *op) {
  if (isa<math::ExpOp>(op)) return StringRef("exp");
  if (isa<math::LogOp>(op)) return StringRef("ln");
  if (isa<math::SqrtOp>(op)) return StringRef("sqrt");
  if (isa<math::RsqrtOp>(op)) return StringRef("rsqrt");
  return std::nullopt;
}

// What a 1-D tle.reduce computes, when its combine region is one vector reduction.
std::optional<StringRef> reductionKind(ir::ReduceOp reduce) {
  Block &body = reduce.getCombineOp().front();
  if (body.getOperations().size() != 2) return std::nullopt;
  Operation &combine = body.front();
  if (combine.getNumOperands() != 2 || combine.getOperand(0) != body.getArgument(0) || combine.getOperand(1) != body.getArgument(1))
    return std::nullopt;
  if (!isa<FloatType>(combine.getResult(0).getType())) return std::nullopt;  // the vector unit reduces floats
  if (isa<arith::AddFOp>(combine)) return StringRef("reduce_sum");
  if (isa<arith::MaxNumFOp, arith::MaximumFOp>(combine)) return StringRef("reduce_max");
  if (isa<arith::MinNumFOp, arith::MinimumFOp>(combine)) return StringRef("reduce_min");
  return std::nullopt;
}

// The tle/ascendc/scan.h scan a tle.scan computes, when its combine region is one sum,
// product, maximum or minimum of its two arguments.
std::optional<StringRef> scanKind(ir::ScanOp scan) {
  Block &body = scan.getCombineOp().front();
  if (body.getOperations().size() != 2) return std::nullopt;
  Operation &combine = body.front();
  if (combine.getNumOperands() != 2 || combine.getNumResults() != 1) return std::nullopt;
  Value a = body.getArgument(0), x = body.getArgument(1);
  bool inOrder = combine.getOperand(0) == a && combine.getOperand(1) == x;
  bool swapped = combine.getOperand(0) == x && combine.getOperand(1) == a;
  if (!inOrder && !(swapped && combine.hasTrait<OpTrait::IsCommutative>())) return std::nullopt;
  if (isa<arith::AddFOp, arith::AddIOp>(combine)) return StringRef("sum");
  if (isa<arith::MulFOp, arith::MulIOp>(combine)) return StringRef("prod");
  if (isa<arith::MaxNumFOp, arith::MaxSIOp>(combine)) return StringRef("max_num");
  if (isa<arith::MinNumFOp, arith::MinSIOp>(combine)) return StringRef("min_num");
  if (isa<arith::MaximumFOp>(combine)) return StringRef("max");
  if (isa<arith::MinimumFOp>(combine)) return StringRef("min");
  return std::nullopt;
}

struct BufferizeTilesPass : impl::BufferizeTilesBase<BufferizeTilesPass> {
  DenseMap<Value, Value> bufferOf;  // a data tile -> the UB buffer holding it
  DenseMap<Operation *, SmallVector<Value>> carriedBy;  // a rebuilt loop or branch -> per old iter arg or result, its buffer (or null)
  DenseMap<Operation *, SmallVector<Value>> passedBy;   // a rebuilt while loop -> per old result, its buffer (or null)
  // The cube path: loads that only feed a dot go to L1; how many of their K elements are
  // valid (null: all); accumulators carried in L0C and whether an iteration starts them.
  DenseSet<Operation *> dotOperandLoads;
  DenseMap<Value, Value> kExtentOf;
  DenseMap<Value, Value> freshOf;
  DenseMap<Value, Value> bitMaskOf;  // a mask tile computed from data -> its bit mask in UB
  SmallVector<Operation *> replaced;
  bool failedAny = false;

  void fail(Operation *op, const Twine &why) {
    emitUnsupported(op) << why;
    failedAny = true;
  }

  Value allocate(OpBuilder &b, Location loc, RankedTensorType tile, MemorySpace space = MemorySpace::UB) {
    return b.create<ir::AllocOp>(loc, ir::BufferType::get(b.getContext(), tile, space));
  }

  bool inCube(Value buffer) {
    auto t = dyn_cast_or_null<ir::BufferType>(buffer ? buffer.getType() : Type());
    return t && t.getSpace() != MemorySpace::UB;
  }

  // A dot's operand straight from global memory into L1, for the cube. A mask may cut the K
  // dimension only (a K tail: the matmul then takes that many); M and N tails come from
  // Triton's `% M` rows, which tle-ascend-resolve-global-access reads in segments.
  void loadDotOperand(ir::LoadOp load, unsigned operand) {
    OpBuilder b(load);
    Location loc = load.getLoc();
    auto tile = cast<RankedTensorType>(load.getType());
    if (tile.getRank() != 2 || tile.getDimSize(0) % 16 != 0 || tile.getDimSize(1) % 16 != 0)
      return fail(load, "a dot's operands on Ascend are 2-D tiles with sizes that are multiples of 16");
    Value buffer = allocate(b, loc, tile, MemorySpace::L1);
    unsigned kDim = operand == 0 ? 1 : 0;
    SmallVector<Value> sizes;
    for (int64_t n : tile.getShape()) sizes.push_back(b.create<arith::ConstantIntOp>(loc, n, 32));
    if (load.getMask()) {
      auto rectangle = rectangleOf(load.getMask(), b);
      if (!rectangle || (*rectangle)[1 - kDim])
        return fail(load, "a mask on a dot operand may only cut the K dimension on Ascend (tails along M or N: use `% M` as Triton's "
                          "matmul does)");
      if (Value k = (*rectangle)[kDim]) {
        sizes[kDim] = k;
        kExtentOf[load.getResult()] = k;
      }
      // What masked-off K elements would hold: the matmul does not read them.
      if (load.getOther() && !isUniformZero(load.getOther())) return fail(load, "a dot operand's `other` must be 0 on Ascend");
    }
    b.create<dsa::CopyOp>(loc, load.getPtr(), buffer, sizes, Value());
    bufferOf[load.getResult()] = buffer;
    replaced.push_back(load);
  }

  // The L0C buffer a loop carries `result` in when the loop's yield is its only use: a dot
  // that starts from zeros each iteration writes straight into it.
  Value carriedL0CFor(Value result) {
    if (!result.hasOneUse()) return Value();
    OpOperand &use = *result.getUses().begin();
    auto yield = dyn_cast<scf::YieldOp>(use.getOwner());
    if (!yield || !carriedBy.count(yield->getParentOp())) return Value();
    Value carried = carriedBy[yield->getParentOp()][use.getOperandNumber()];
    return carried && cast<ir::BufferType>(carried.getType()).getSpace() == MemorySpace::L0C ? carried : Value();
  }

  // tl.dot on the cube: L1 -> L0A/L0B, Mmad into the accumulator's L0C buffer (in place).
  void dot(ir::DotOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value a = bufferOf.lookup(op.getA()), bl = bufferOf.lookup(op.getB());
    auto aType = cast<RankedTensorType>(op.getA().getType()), bType = cast<RankedTensorType>(op.getB().getType());
    if (!a || !bl || cast<ir::BufferType>(a.getType()).getSpace() != MemorySpace::L1 ||
        cast<ir::BufferType>(bl.getType()).getSpace() != MemorySpace::L1)
      return fail(op, "on Ascend, tl.dot's operands must be tiles loaded from global memory (they go to L1 for the cube)");
    Value c = bufferOf.lookup(op.getC()), fresh;
    if (c) {
      if (cast<ir::BufferType>(c.getType()).getSpace() != MemorySpace::L0C)
        return fail(op, "on Ascend, tl.dot accumulates into zeros or into the result of another tl.dot carried by a loop");
      fresh = freshOf.lookup(op.getC());
    } else if (isUniformZero(op.getC())) {
      c = carriedL0CFor(op.getResult());
      if (!c) c = allocate(b, loc, cast<RankedTensorType>(op.getType()), MemorySpace::L0C);
    } else {
      return fail(op, "on Ascend, tl.dot accumulates into zeros or into the result of another tl.dot carried by a loop");
    }
    Value k = kExtentOf.lookup(op.getA());
    if (!k) k = kExtentOf.lookup(op.getB());
    Value fullK = b.create<arith::ConstantIntOp>(loc, aType.getDimSize(1), 32);
    Value a0 = allocate(b, loc, aType, MemorySpace::L0A), b0 = allocate(b, loc, bType, MemorySpace::L0B);
    Value m = b.create<arith::ConstantIntOp>(loc, aType.getDimSize(0), 32), n = b.create<arith::ConstantIntOp>(loc, bType.getDimSize(1), 32);
    b.create<dsa::CopyOp>(loc, a, a0, ValueRange{m, k ? k : fullK}, Value());
    b.create<dsa::CopyOp>(loc, bl, b0, ValueRange{k ? k : fullK, n}, Value());
    bool init = !fresh && !bufferOf.count(op.getC());
    b.create<dsa::MatmulOp>(loc, a0, b0, c, init, k, fresh);
    bufferOf[op.getResult()] = c;
    replaced.push_back(op);
  }

  Value vector(OpBuilder &b, Location loc, StringRef kind, ValueRange inputs, Value out, Value scratch = Value(),
               Value count = Value()) {
    b.create<dsa::VectorOp>(loc, b.getStringAttr(kind), inputs, out, scratch, count);
    return out;
  }

  // out[0, count) = in[0, count) (all of it without `count`): multiplying by one keeps every
  // float exactly (signed zeros and NaNs included); integers add zero.
  void copyElements(OpBuilder &b, Location loc, Value in, Value out, Value count = Value()) {
    Type element = cast<ir::BufferType>(in.getType()).getBlockType().getElementType();
    Value identity = isa<FloatType>(element) ? b.create<arith::ConstantOp>(loc, b.getFloatAttr(element, 1.0)).getResult()
                                             : b.create<arith::ConstantOp>(loc, b.getIntegerAttr(element, 0)).getResult();
    vector(b, loc, isa<FloatType>(element) ? "muls" : "adds", {in, identity}, out, Value(), count);
  }

  // A scalar in a one-block (32-byte) UB buffer, for the instructions that only take buffers.
  Value scalarBuffer(OpBuilder &b, Location loc, Type element) {
    int64_t lanes = 32 / (element.getIntOrFloatBitWidth() / 8);
    return allocate(b, loc, RankedTensorType::get({lanes}, element));
  }

  // The buffer holding tile `v` for `user`: its own, or a uniform tile written out.
  Value bufferFor(OpBuilder &b, Value v, Operation *user) {
    if (Value buffer = bufferOf.lookup(v)) return buffer;
    if (Value scalar = uniformValue(v, b)) {
      Value buffer = allocate(b, user->getLoc(), cast<RankedTensorType>(v.getType()));
      return vector(b, user->getLoc(), "duplicate", scalar, buffer);
    }
    auto tile = cast<RankedTensorType>(v.getType());
    if (auto convert = v.getDefiningOp<arith::SIToFPOp>()) {  // an index tile as floats: the indices, cast
      Value indices = bufferFor(b, convert.getIn(), user);
      if (!indices) return Value();
      return vector(b, user->getLoc(), "cast", indices, allocate(b, user->getLoc(), tile));
    }
    // A 1-D index tile used as data: start + i * stride, from CreateVecIndex.
    if (auto index = affineIndexOf(v, b); index && tile.getRank() == 1 && tile.getElementType().isInteger(32) && !index->base &&
                                          !index->wraps_any() && index->strides[0] && constantInt(index->strides[0])) {
      Location loc = user->getLoc();
      auto asI32 = [&](Value x) -> Value {
        if (!x) return b.create<arith::ConstantIntOp>(loc, 0, 32);
        return x.getType().isInteger(32) ? x : b.create<arith::TruncIOp>(loc, b.getI32Type(), x).getResult();
      };
      int64_t stride = *constantInt(index->strides[0]);
      Value buffer = allocate(b, loc, tile);
      if (stride == 1) return vector(b, loc, "index", asI32(index->offset), buffer);
      vector(b, loc, "index", asI32(Value()), buffer);
      Value scaled = vector(b, loc, "muls", {buffer, b.create<arith::ConstantIntOp>(loc, stride, 32)}, allocate(b, loc, tile));
      return vector(b, loc, "adds", {scaled, asI32(index->offset)}, allocate(b, loc, tile));
    }
    fail(user, "this tile is computed from indices (tl.arange) in a way the Ascend backend cannot compute as data yet; "
               "use it in addresses or masks");
    return Value();
  }

  // The memory engines copy whole windows with no cache policy: say so for hints that ask
  // for one (or for an asynchronous load: every copy here is asynchronous, ordered by flags).
  void warnDroppedHints(Operation *op, bool isAsync, bool isVolatile, StringAttr cache, StringAttr eviction) {
    if (isAsync) op->emitWarning() << "is_async=True has no separate meaning on Ascend: every copy runs on its own pipe";
    if (isVolatile) op->emitWarning() << "volatile=True is not honoured on Ascend yet";
    if (cache && !cache.getValue().empty())
      op->emitWarning() << "cache_modifier=\"" << cache.getValue() << "\" is not honoured on Ascend";
    if (eviction && !eviction.getValue().empty() && eviction.getValue() != "evict_normal")
      op->emitWarning() << "eviction_policy=\"" << eviction.getValue() << "\" is not honoured on Ascend";
  }

  void loadTile(ir::LoadOp load) {
    warnDroppedHints(load, load.getIsAsync(), load.getIsVolatile(), load.getCacheAttr(), load.getEvictionAttr());
    if (dotOperandLoads.count(load)) {
      auto dotUser = cast<ir::DotOp>(*load.getResult().getUsers().begin());
      return loadDotOperand(load, dotUser.getA() == load.getResult() ? 0 : 1);
    }
    OpBuilder b(load);
    Location loc = load.getLoc();
    auto tile = cast<RankedTensorType>(load.getType());
    if (isa<ir::PointerType>(tile.getElementType())) return fail(load, "loading pointers from global memory");
    Value buffer = allocate(b, loc, tile);
    SmallVector<Value> sizes;
    Value pad;
    if (load.getMask()) {
      auto rectangle = rectangleOf(load.getMask(), b);
      if (!rectangle) return fail(load, "this mask is not `index < bound` per dimension (a rectangle of the tile)");
      for (auto [d, e] : llvm::enumerate(*rectangle))
        sizes.push_back(e ? e : b.create<arith::ConstantIntOp>(loc, tile.getDimSize(d), 32).getResult());
      if (load.getOther()) {
        pad = uniformValue(load.getOther(), b);
        if (!pad) return fail(load, "`other` must be one value for every element");
        vector(b, loc, "duplicate", pad, buffer);
      }
    } else {
      for (int64_t n : tile.getShape()) sizes.push_back(b.create<arith::ConstantIntOp>(loc, n, 32));
    }
    b.create<dsa::CopyOp>(loc, load.getPtr(), buffer, sizes, pad);
    bufferOf[load.getResult()] = buffer;
    replaced.push_back(load);
  }

  void storeTile(ir::StoreOp store) {
    warnDroppedHints(store, false, false, store.getCacheAttr(), store.getEvictionAttr());
    OpBuilder b(store);
    Location loc = store.getLoc();
    auto tile = cast<RankedTensorType>(store.getValue().getType());
    Value buffer = bufferFor(b, store.getValue(), store);
    if (!buffer) return;
    SmallVector<Value> sizes;
    std::optional<SmallVector<Value>> rectangle;
    if (store.getMask() && !(rectangle = rectangleOf(store.getMask(), b)))
      return fail(store, "this mask is not `index < bound` per dimension (a rectangle of the tile)");
    for (int64_t d = 0; d < tile.getRank(); ++d) {
      Value e = rectangle ? (*rectangle)[d] : Value();
      sizes.push_back(e ? e : b.create<arith::ConstantIntOp>(loc, tile.getDimSize(d), 32).getResult());
    }
    b.create<dsa::CopyOp>(loc, buffer, store.getPtr(), sizes, Value());
    replaced.push_back(store);
  }

  void elementwise(Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto tile = cast<RankedTensorType>(op->getResult(0).getType());
    Value out;
    if (llvm::any_of(op->getOperands(), [&](Value v) { return inCube(bufferOf.lookup(v)); }) &&
        !isa<arith::TruncFOp, arith::ExtFOp>(op))
      return fail(op, "element-wise work on a tl.dot result needs the vector cores: mixed cube and vector kernels are not "
                      "supported on Ascend yet");
    if (auto kind = binaryKind(op)) {
      Value lhs = op->getOperand(0), rhs = op->getOperand(1);
      bool lhsData = bufferOf.count(lhs), rhsData = bufferOf.count(rhs);
      Value lhsScalar = lhsData ? Value() : uniformValue(lhs, b), rhsScalar = rhsData ? Value() : uniformValue(rhs, b);
      bool commutes = llvm::is_contained({"add", "mul", "max", "min"}, *kind);
      out = allocate(b, loc, tile);
      if (lhsData && rhsScalar && commutes) {
        vector(b, loc, (*kind + "s").str(), {bufferOf[lhs], rhsScalar}, out);
      } else if (rhsData && lhsScalar && commutes) {
        vector(b, loc, (*kind + "s").str(), {bufferOf[rhs], lhsScalar}, out);
      } else if (lhsData && rhsScalar && *kind == "sub" && isa<FloatType>(rhsScalar.getType())) {
        Value negated = b.create<arith::NegFOp>(loc, rhsScalar);  // x - s = x + (-s), exactly
        vector(b, loc, "adds", {bufferOf[lhs], negated}, out);
      } else {
        Value l = bufferFor(b, lhs, op), r = bufferFor(b, rhs, op);
        if (!l || !r) return;
        vector(b, loc, *kind, {l, r}, out);
      }
    } else if (isa<arith::TruncFOp, arith::ExtFOp>(op) && inCube(bufferOf.lookup(op->getOperand(0)))) {
      // A cube result leaves L0C through the fixpipe, which converts it: the cast happens there.
      if (!llvm::all_of(op->getResult(0).getUsers(), [](Operation *u) { return isa<ir::StoreOp>(u); }))
        return fail(op, "a converted tl.dot result can only be stored on Ascend yet");
      out = bufferOf[op->getOperand(0)];
    } else if (auto kind = unaryKind(op)) {
      Value in = bufferFor(b, op->getOperand(0), op);
      if (!in) return;
      out = vector(b, loc, *kind, in, allocate(b, loc, tile));
    } else if (auto exp2 = dyn_cast<math::Exp2Op>(op)) {  // 2^x = e^(x ln 2)
      Value in = bufferFor(b, exp2.getOperand(), op);
      if (!in) return;
      auto element = cast<FloatType>(tile.getElementType());
      Value ln2 = b.create<arith::ConstantOp>(loc, b.getFloatAttr(element, 0.69314718055994530942));
      Value scaled = vector(b, loc, "muls", {in, ln2}, allocate(b, loc, tile));
      out = vector(b, loc, "exp", scaled, allocate(b, loc, tile));
    } else if (auto neg = dyn_cast<arith::NegFOp>(op)) {
      Value in = bufferFor(b, neg.getOperand(), op);
      if (!in) return;
      Value minusOne = b.create<arith::ConstantOp>(loc, b.getFloatAttr(tile.getElementType(), -1.0));
      out = vector(b, loc, "muls", {in, minusOne}, allocate(b, loc, tile));
    } else {
      return fail(op, "'" + op->getName().getStringRef() + "' on tiles has no Ascend vector lowering yet");
    }
    bufferOf[op->getResult(0)] = out;
    replaced.push_back(op);
  }

  // A scalar through global memory: a one-element window of a one-block buffer.
  void loadScalar(ir::LoadOp load) {
    OpBuilder b(load);
    Location loc = load.getLoc();
    Value buffer = scalarBuffer(b, loc, load.getType());
    Value one = b.create<arith::ConstantIntOp>(loc, 1, 32);
    Value count = load.getMask() ? b.create<arith::SelectOp>(loc, load.getMask(), one, b.create<arith::ConstantIntOp>(loc, 0, 32)).getResult() : one;
    if (load.getOther()) vector(b, loc, "duplicate", load.getOther(), buffer);
    Value zero = b.create<arith::ConstantIntOp>(loc, 0, 32);
    b.create<dsa::CopyInOp>(loc, buffer, load.getPtr(), zero, ValueRange{}, ValueRange{count}, Value(), Value(), Value(), Value(), Value());
    load.getResult().replaceAllUsesWith(b.create<dsa::ReadScalarOp>(loc, load.getType(), buffer).getResult());
    replaced.push_back(load);
  }

  void storeScalar(ir::StoreOp store) {
    OpBuilder b(store);
    Location loc = store.getLoc();
    Value buffer = vector(b, loc, "duplicate", store.getValue(), scalarBuffer(b, loc, store.getValue().getType()));
    Value one = b.create<arith::ConstantIntOp>(loc, 1, 32);
    Value count = store.getMask() ? b.create<arith::SelectOp>(loc, store.getMask(), one, b.create<arith::ConstantIntOp>(loc, 0, 32)).getResult() : one;
    Value zero = b.create<arith::ConstantIntOp>(loc, 0, 32);
    b.create<dsa::CopyOutOp>(loc, buffer, store.getPtr(), zero, ValueRange{}, ValueRange{count});
    replaced.push_back(store);
  }

  // The compare instructions write one bit per element and work on whole 256-byte repeats.
  bool compareFits(Operation *op, RankedTensorType tile) {
    if (tile.getNumElements() * tile.getElementTypeBitWidth() / 8 % 256 == 0) return true;
    fail(op, "comparisons of data on Ascend work on tiles of a multiple of 256 bytes (" + Twine(256 * 8 / tile.getElementTypeBitWidth()) +
                 " elements of this type)");
    return false;
  }

  // A comparison of data tiles (or a data tile and a scalar): a bit mask in UB, one bit per
  // element, for Select.
  void compare(Operation *op) {
    static const std::map<arith::CmpFPredicate, StringRef> floats = {
        {arith::CmpFPredicate::OLT, "lt"}, {arith::CmpFPredicate::OGT, "gt"}, {arith::CmpFPredicate::OEQ, "eq"},
        {arith::CmpFPredicate::OLE, "le"}, {arith::CmpFPredicate::OGE, "ge"}, {arith::CmpFPredicate::UNE, "ne"}};
    StringRef mode;
    if (auto f = dyn_cast<arith::CmpFOp>(op)) {
      auto it = floats.find(f.getPredicate());
      if (it == floats.end()) return fail(op, "this float comparison has no Ascend compare mode");
      mode = it->second;
    } else {
      return fail(op, "comparisons of integer data have no Ascend lowering yet");
    }
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto operandTile = cast<RankedTensorType>(op->getOperand(0).getType());
    if (!compareFits(op, operandTile)) return;
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    bool swapped = false;
    if (!bufferOf.count(lhs)) {  // s < x is x > s
      std::swap(lhs, rhs);
      swapped = true;
    }
    if (swapped) {
      static const std::map<StringRef, StringRef> mirrored = {{"lt", "gt"}, {"gt", "lt"}, {"le", "ge"}, {"ge", "le"}, {"eq", "eq"}, {"ne", "ne"}};
      mode = mirrored.at(mode);
    }
    Value mask = allocate(b, loc, RankedTensorType::get({operandTile.getNumElements() / 8}, b.getI8Type()));
    if (Value scalar = uniformValue(rhs, b)) {
      vector(b, loc, ("compares_" + mode).str(), {bufferOf[lhs], scalar}, mask);
    } else {
      Value r = bufferFor(b, rhs, op);
      if (!r) return;
      vector(b, loc, ("compare_" + mode).str(), {bufferOf[lhs], r}, mask);
    }
    bitMaskOf[op->getResult(0)] = mask;
    replaced.push_back(op);
  }

  // tl.where(mask, a, b) with a data-dependent mask: Select by the compare's bits.
  void selectByBits(arith::SelectOp op, Value mask) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto tile = cast<RankedTensorType>(op.getType());
    if (!compareFits(op, tile)) return;
    Value out = allocate(b, loc, tile);
    Value onTrue = bufferFor(b, op.getTrueValue(), op);
    if (!onTrue) return;
    if (Value scalar = bufferOf.count(op.getFalseValue()) ? Value() : uniformValue(op.getFalseValue(), b)) {
      vector(b, loc, "selects", {mask, onTrue, scalar}, out);
    } else {
      Value onFalse = bufferFor(b, op.getFalseValue(), op);
      if (!onFalse) return;
      vector(b, loc, "select", {mask, onTrue, onFalse}, out);
    }
    bufferOf[op.getResult()] = out;
    replaced.push_back(op);
  }

  // tl.where(mask, a, b) with a 1-D rectangular mask: b everywhere, then a over the extent.
  void select(arith::SelectOp op) {
    if (Value bits = bitMaskOf.lookup(op.getCondition())) return selectByBits(op, bits);
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto tile = cast<RankedTensorType>(op.getType());
    if (!isTile(op.getCondition())) {  // one choice for the whole tile: a branch fills the result
      Value out = allocate(b, loc, tile);
      auto branch = b.create<scf::IfOp>(loc, TypeRange{}, op.getCondition(), /*withElseRegion=*/true);
      for (auto [region, chosen] : {std::pair(&branch.getThenRegion(), op.getTrueValue()), std::pair(&branch.getElseRegion(), op.getFalseValue())}) {
        OpBuilder inside = OpBuilder::atBlockTerminator(&region->front());
        if (Value scalar = !bufferOf.count(chosen) ? uniformValue(chosen, inside) : Value()) {
          vector(inside, loc, "duplicate", scalar, out);
          continue;
        }
        Value from = bufferFor(inside, chosen, op);
        if (!from) return;
        copyElements(inside, loc, from, out);
      }
      bufferOf[op.getResult()] = out;
      replaced.push_back(op);
      return;
    }
    if (tile.getRank() != 1)
      return fail(op, "tl.where on Ascend takes a 1-D tile and a mask `index < bound` for now");
    auto rectangle = rectangleOf(op.getCondition(), b);
    if (!rectangle) return fail(op, "this mask is not `index < bound` (a prefix of the tile)");
    Value extent = (*rectangle)[0];
    Value out = allocate(b, loc, tile);
    auto fill = [&](Value v, Value count) -> bool {
      if (Value buffer = bufferOf.lookup(v)) {
        copyElements(b, loc, buffer, out, count);
        return true;
      }
      if (Value scalar = uniformValue(v, b)) {
        vector(b, loc, "duplicate", scalar, out, Value(), count);
        return true;
      }
      fail(op, "this tile is computed from indices (tl.arange), which the Ascend backend keeps as scalars");
      return false;
    };
    if (!fill(op.getFalseValue(), Value())) return;
    if (!fill(op.getTrueValue(), extent)) return;
    bufferOf[op.getResult()] = out;
    replaced.push_back(op);
  }

  // sqrt, exp, ... of a scalar: the scalar unit has no such instructions; one vector block does.
  void scalarMath(Operation *op, StringRef kind) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type element = op->getResult(0).getType();
    Value in = vector(b, loc, "duplicate", op->getOperand(0), scalarBuffer(b, loc, element));
    Value out = vector(b, loc, kind, in, scalarBuffer(b, loc, element));
    op->getResult(0).replaceAllUsesWith(b.create<dsa::ReadScalarOp>(loc, element, out).getResult());
    replaced.push_back(op);
  }

  // Iter arg `i` of `loop` is a dot accumulator: zeros in, the dot's result yielded back, and
  // either its only use the dot's `c` or no use at all (`acc = tl.dot(a, b)`: each iteration
  // starts from zeros and the loop keeps the last product).
  bool isAccumulator(scf::ForOp loop, unsigned i) {
    Value arg = loop.getRegionIterArgs()[i];
    auto dotOp = loop.getBody()->getTerminator()->getOperand(i).getDefiningOp<ir::DotOp>();
    if (!dotOp || !isUniformZero(loop.getInitArgs()[i]) || !dotOp.getResult().hasOneUse()) return false;
    return (dotOp.getC() == arg && arg.hasOneUse()) || (arg.use_empty() && isUniformZero(dotOp.getC()));
  }

  // Each of `olds` with a buffer in `buffers` becomes a view of that buffer (made by `b`),
  // each other one, in order, the next of `scalars`: how a loop or branch rebuilt to carry
  // only scalars rewires its arguments and results.
  void rewire(OpBuilder &b, Location loc, ValueRange olds, ArrayRef<Value> buffers, ValueRange scalars) {
    unsigned scalarIndex = 0;
    for (auto [i, old] : llvm::enumerate(olds)) {
      if (!buffers[i]) {
        old.replaceAllUsesWith(scalars[scalarIndex++]);
        continue;
      }
      Value view = b.create<dsa::ToTensorOp>(loc, old.getType(), buffers[i], false);
      bufferOf[view] = buffers[i];
      replaced.push_back(view.getDefiningOp());
      old.replaceAllUsesWith(view);
    }
  }

  // A loop that carries tiles carries buffers instead: one per tile, written before the loop
  // (its initial value) and at the end of each iteration (what the body yields).
  void carryBuffers(scf::ForOp loop) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    SmallVector<Value> carried(loop.getInitArgs().size());
    SmallVector<Value> scalarInits;
    for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
      if (!isTile(init)) {
        scalarInits.push_back(init);
        continue;
      }
      if (isAccumulator(loop, i)) {  // zeros, then each iteration's dot adds in place
        carried[i] = allocate(b, loc, cast<RankedTensorType>(init.getType()), MemorySpace::L0C);
        continue;
      }
      carried[i] = allocate(b, loc, cast<RankedTensorType>(init.getType()));
      Value buffer = bufferOf.lookup(init);
      if (buffer && inCube(buffer)) return fail(loop, "on Ascend, a tl.dot result can start a loop's carried tile only as zeros");
      if (buffer) copyElements(b, loc, buffer, carried[i]);
      else if (Value scalar = uniformValue(init, b)) vector(b, loc, "duplicate", scalar, carried[i]);
      else return fail(loop, "this loop carries a tile computed from indices (tl.arange)");
    }
    scf::ForOp rebuilt = rehomeLoopBody(loop, scalarInits);
    OpBuilder inside = OpBuilder::atBlockBegin(rebuilt.getBody());
    unsigned scalarIndex = 0;
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (carried[i]) {  // the tile as of this iteration: the carried buffer
        Value view = inside.create<dsa::ToTensorOp>(loc, arg.getType(), carried[i], false);
        bufferOf[view] = carried[i];
        if (cast<ir::BufferType>(carried[i].getType()).getSpace() == MemorySpace::L0C && !arg.use_empty())
          freshOf[view] = inside.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, rebuilt.getInductionVar(), rebuilt.getLowerBound());
        replaced.push_back(view.getDefiningOp());
        arg.replaceAllUsesWith(view);
      } else {
        arg.replaceAllUsesWith(rebuilt.getRegionIterArgs()[scalarIndex++]);
      }
    }
    carriedBy[rebuilt] = carried;
    OpBuilder after(rebuilt->getBlock(), std::next(rebuilt->getIterator()));
    rewire(after, loc, loop.getResults(), carried, rebuilt.getResults());
    loop.erase();
  }

  // A branch that yields tiles: a UB buffer per tile result, written by each branch's yield
  // (yieldCarried), read after it; the rebuilt branch yields the scalars only.
  void branchBuffers(scf::IfOp branch) {
    OpBuilder b(branch);
    Location loc = branch.getLoc();
    SmallVector<Value> carried(branch.getNumResults());
    SmallVector<Type> scalarTypes;
    for (auto [i, result] : llvm::enumerate(branch.getResults())) {
      if (!isTile(result)) {
        scalarTypes.push_back(result.getType());
        continue;
      }
      if (StringRef why = unbufferable(result); !why.empty())
        return fail(branch, "a branch that yields " + why + " has no Ascend lowering yet" +
                                (why == "a mask tile" ? "" : ": choose a scalar offset in the branch and add it after"));
      carried[i] = allocate(b, loc, cast<RankedTensorType>(result.getType()));
    }
    auto rebuilt = b.create<scf::IfOp>(loc, scalarTypes, branch.getCondition(), /*withElseRegion=*/true);
    rebuilt->setAttrs(branch->getAttrs());
    for (auto [from, to] : {std::pair(&branch.getThenRegion(), &rebuilt.getThenRegion()), std::pair(&branch.getElseRegion(), &rebuilt.getElseRegion())}) {
      to->getBlocks().clear();
      to->getBlocks().splice(to->end(), from->getBlocks());
    }
    carriedBy[rebuilt] = carried;
    OpBuilder after(rebuilt->getBlock(), std::next(rebuilt->getIterator()));
    rewire(after, loc, branch.getResults(), carried, rebuilt.getResults());
    branch.erase();
  }

  // Why a tile cannot live in a buffer of its own across a loop or branch (empty: it can).
  static StringRef unbufferable(Value tile) {
    Type element = cast<RankedTensorType>(tile.getType()).getElementType();
    if (element.isInteger(1)) return "a mask tile";
    if (isa<ir::PointerType>(element) || feedsAddress(tile)) return "a tile of pointers or offsets";
    return "";
  }

  // A while loop that carries tiles: a UB buffer per tile it carries into `before` (the
  // state, written by `after`'s yield) and per tile `before` passes on to `after` and out of
  // the loop (written by the scf.condition). The rebuilt loop carries the scalars only.
  void whileBuffers(scf::WhileOp loop) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    SmallVector<Value> state(loop.getInits().size()), passed(loop.getNumResults());
    SmallVector<Value> scalarInits;
    SmallVector<Type> scalarTypes;
    for (auto [i, init] : llvm::enumerate(loop.getInits())) {
      if (!isTile(init)) {
        scalarInits.push_back(init);
        continue;
      }
      if (StringRef why = unbufferable(loop.getBeforeArguments()[i]); !why.empty())
        return fail(loop, "a while loop that carries " + why + " has no Ascend lowering yet");
      Value buffer = bufferFor(b, init, loop);
      if (!buffer) return;
      if (inCube(buffer)) return fail(loop, "on Ascend, a while loop cannot carry a tl.dot result");
      state[i] = allocate(b, loc, cast<RankedTensorType>(init.getType()));
      copyElements(b, loc, buffer, state[i]);
    }
    for (auto [i, result] : llvm::enumerate(loop.getResults())) {
      if (!isTile(result)) {
        scalarTypes.push_back(result.getType());
        continue;
      }
      if (StringRef why = unbufferable(loop.getAfterArguments()[i]); !why.empty())
        return fail(loop, "a while loop that carries " + why + " has no Ascend lowering yet");
      passed[i] = allocate(b, loc, cast<RankedTensorType>(result.getType()));
    }
    auto rebuilt = b.create<scf::WhileOp>(loc, scalarTypes, scalarInits, nullptr, nullptr);
    rebuilt->setAttrs(loop->getAttrs());
    // Each region's block: tile arguments become views of their buffers, scalar ones the new
    // block's arguments; the old block's ops move over.
    auto rehome = [&](Block &from, Block &to, ArrayRef<Value> buffers) {
      OpBuilder inside = OpBuilder::atBlockBegin(&to);
      rewire(inside, loc, from.getArguments(), buffers, to.getArguments());
      to.getOperations().splice(to.end(), from.getOperations());
    };
    rehome(loop.getBefore().front(), rebuilt.getBefore().front(), state);
    rehome(loop.getAfter().front(), rebuilt.getAfter().front(), passed);
    carriedBy[rebuilt] = state;  // after's yield writes the state
    passedBy[rebuilt] = passed;  // before's scf.condition writes what it passes on
    OpBuilder after(rebuilt->getBlock(), std::next(rebuilt->getIterator()));
    rewire(after, loc, loop.getResults(), passed, rebuilt.getResults());
    loop.erase();
  }

  // What a terminator of a rebuilt loop or branch passes on: each of `values` with a buffer
  // in `buffers` is copied into it (before `terminator`), the others are returned, in order,
  // for the new terminator; nullopt after a failure (`cubeError`: a tl.dot result, which the
  // vector units cannot move).
  std::optional<SmallVector<Value>> writeCarried(Operation *terminator, ValueRange values, ArrayRef<Value> buffers, StringRef cubeError) {
    OpBuilder b(terminator);
    SmallVector<Value> scalars;
    for (auto [i, v] : llvm::enumerate(values)) {
      if (!buffers[i]) {
        scalars.push_back(v);
        continue;
      }
      Value buffer = bufferFor(b, v, terminator);
      if (!buffer) return std::nullopt;
      if (buffer == buffers[i]) continue;
      if (inCube(buffer) || inCube(buffers[i])) {
        fail(v.getDefiningOp() ? v.getDefiningOp() : terminator, cubeError);
        return std::nullopt;
      }
      copyElements(b, terminator->getLoc(), buffer, buffers[i]);
    }
    return scalars;
  }

  // The scf.condition of a while loop whileBuffers rebuilt: tiles go into their buffers.
  void conditionCarried(scf::ConditionOp condition, ArrayRef<Value> passed) {
    auto scalars = writeCarried(condition, condition.getArgs(), passed, "on Ascend, a while loop cannot carry a tl.dot result");
    if (!scalars) return;
    OpBuilder(condition).create<scf::ConditionOp>(condition.getLoc(), condition.getCondition(), *scalars);
    condition.erase();
  }

  // The yield of a loop or branch rebuilt to carry scalars only: tiles go into their buffers.
  void yieldCarried(scf::YieldOp yield, ArrayRef<Value> carried) {
    StringRef cubeError = isa<scf::IfOp>(yield->getParentOp())
                              ? "on Ascend, a branch cannot yield a tl.dot result"
                              : "on Ascend, a loop carries a tl.dot result only as the next tl.dot's accumulator, or as a product it "
                                "recomputes from zeros each iteration";
    auto scalars = writeCarried(yield, yield.getOperands(), carried, cubeError);
    if (!scalars) return;
    OpBuilder(yield).create<scf::YieldOp>(yield.getLoc(), *scalars);
    yield.erase();
  }

  // A TLE-Raw AscendC function: tiles go by their UB buffers, and the buffers after the call
  // are the call's results (a tile still used elsewhere is copied first, so that the call
  // cannot change it).
  void rawCall(ir::RawCallOp call) {
    if (call.getLanguage() != "ascendc") return fail(call, "only AscendC raw functions run on Ascend");
    OpBuilder b(call);
    Location loc = call.getLoc();
    SmallVector<Value> args;
    unsigned result = 0;
    for (Value arg : call.getArgs()) {
      if (!isTile(arg)) {
        args.push_back(arg);
        continue;
      }
      Value buffer = bufferFor(b, arg, call);
      if (!buffer) return;
      if (bufferOf.count(arg) && !arg.hasOneUse()) {
        Value copy = allocate(b, loc, cast<RankedTensorType>(arg.getType()));
        copyElements(b, loc, buffer, copy);
        buffer = copy;
      }
      args.push_back(buffer);
      if (result < call.getNumResults()) bufferOf[call.getResult(result++)] = buffer;
    }
    b.create<dsa::RawCallOp>(loc, args, call.getCalleeAttr(), call.getCodeAttr());
    replaced.push_back(call);
  }

  void reduceTile(ir::ReduceOp reduce) {
    auto kind = reductionKind(reduce);
    auto src = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
    if (reduce.getSrcs().size() != 1 || src.getRank() > 2 || !kind)
      return fail(reduce, "the Ascend backend reduces one 1-D or 2-D float tile with sum, max or min only");
    OpBuilder b(reduce);
    Location loc = reduce.getLoc();
    Value in = bufferFor(b, reduce.getSrcs()[0], reduce);
    if (!in) return;
    if (src.getRank() == 2) {  // along one axis: a 1-D tile of per-row or per-column results
      int64_t rows = src.getDimSize(0), columns = src.getDimSize(1);
      if (columns * src.getElementTypeBitWidth() / 8 % 32 != 0)
        return fail(reduce, "rows of a reduced tile must be a multiple of 32 bytes on Ascend (each row is one vector operand)");
      StringRef op = kind->drop_front(strlen("reduce_"));
      auto result = cast<RankedTensorType>(reduce.getResult(0).getType());
      Value out = allocate(b, loc, result);
      if (reduce.getAxis() == 0) {  // columns: the rows combined element by element
        vector(b, loc, ("reduce_columns_" + op).str(), in, out);
      } else {  // rows: one reduction per row, each result gathered into element r
        int64_t lanes = 32 / (src.getElementTypeBitWidth() / 8);
        Value scratch = allocate(b, loc, RankedTensorType::get({rows * lanes + columns}, src.getElementType()));
        vector(b, loc, ("reduce_rows_" + op).str(), in, out, scratch);
      }
      bufferOf[reduce.getResult(0)] = out;
      replaced.push_back(reduce);
      return;
    }
    // The result lands in element 0 of a 32-byte buffer; the instruction needs a scratch
    // buffer as large as its input.
    Type element = src.getElementType();
    int64_t lanes = 32 / (element.getIntOrFloatBitWidth() / 8);
    Value out = allocate(b, loc, RankedTensorType::get({lanes}, element));
    Value scratch = allocate(b, loc, src);
    vector(b, loc, *kind, in, out, scratch);
    Value scalar = b.create<dsa::ReadScalarOp>(loc, element, out);
    reduce.getResult(0).replaceAllUsesWith(scalar);
    replaced.push_back(reduce);
  }

  // tle.scan of one 1-D or 2-D tile: tle/ascendc/scan.h on the scalar unit, into a buffer of
  // its own ("scan_<kind>", "_columns" along axis 0 of a 2-D tile, "_reverse").
  void scanTile(ir::ScanOp scan) {
    auto kind = scanKind(scan);
    auto src = cast<RankedTensorType>(scan.getSrcs()[0].getType());
    if (scan.getSrcs().size() != 1 || src.getRank() > 2 || !kind)
      return fail(scan, "the Ascend backend scans one 1-D or 2-D tile with a sum, product, maximum or minimum only");
    OpBuilder b(scan);
    Value in = bufferFor(b, scan.getSrcs()[0], scan);
    if (!in) return;
    Value out = allocate(b, scan.getLoc(), src);
    std::string name = ("scan_" + *kind).str();
    if (src.getRank() == 2 && scan.getAxis() == 0) name += "_columns";
    if (scan.getReverse()) name += "_reverse";
    vector(b, scan.getLoc(), name, in, out);
    bufferOf[scan.getResult(0)] = out;
    replaced.push_back(scan);
  }

  void toBuffer(dsa::ToBufferOp op) {
    OpBuilder b(op);
    Value in = bufferFor(b, op.getSrc(), op);
    if (!in) return;
    if (op.getSrc().hasOneUse()) {  // nothing else reads the tile: the new buffer can be its storage
      op.getResult().replaceAllUsesWith(in);
    } else {  // a copy, so that writes through the new buffer leave the tile unchanged
      auto tile = op.getSrc().getType();
      Type element = tile.getElementType();
      Value out = allocate(b, op.getLoc(), tile);
      if (isa<FloatType>(element))
        vector(b, op.getLoc(), "muls", {in, b.create<arith::ConstantOp>(op.getLoc(), b.getFloatAttr(element, 1.0))}, out);
      else
        vector(b, op.getLoc(), "adds", {in, b.create<arith::ConstantOp>(op.getLoc(), b.getIntegerAttr(element, 0))}, out);
      op.getResult().replaceAllUsesWith(out);
    }
    replaced.push_back(op);
  }

  void runOnOperation() override {
    bufferOf.clear();  // one pass object may run on several kernels
    replaced.clear();
    carriedBy.clear();
    passedBy.clear();
    dotOperandLoads.clear();
    kExtentOf.clear();
    freshOf.clear();
    bitMaskOf.clear();
    failedAny = false;
    getOperation().walk([&](ir::LoadOp load) {
      if (load.getResult().hasOneUse() && isa<ir::DotOp>(*load.getResult().getUsers().begin()) &&
          cast<ir::DotOp>(*load.getResult().getUsers().begin()).getC() != load.getResult())
        dotOperandLoads.insert(load);
    });
    SmallVector<Operation *> ops;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : ops) {
      if (failedAny) break;
      if (auto load = dyn_cast<ir::LoadOp>(op)) {
        if (isTile(load.getResult())) loadTile(load);
        else if (isTile(load.getPtr())) fail(op, "a tile of pointers with a scalar result");
        else loadScalar(load);
      } else if (auto store = dyn_cast<ir::StoreOp>(op)) {
        if (isTile(store.getValue())) storeTile(store);
        else if (isTile(store.getPtr())) fail(op, "a scalar stored through a tile of pointers has no Ascend lowering");
        else storeScalar(store);
      } else if (auto loop = dyn_cast<scf::ForOp>(op);
                 loop && llvm::any_of(loop.getInitArgs(), [](Value v) { return isTile(v); })) {
        carryBuffers(loop);
      } else if (auto branch = dyn_cast<scf::IfOp>(op); branch && llvm::any_of(branch.getResults(), [](Value v) { return isTile(v); })) {
        branchBuffers(branch);
      } else if (auto loop = dyn_cast<scf::WhileOp>(op);
                 loop && (llvm::any_of(loop->getOperands(), isTile) || llvm::any_of(loop->getResults(), isTile))) {
        whileBuffers(loop);
      } else if (auto condition = dyn_cast<scf::ConditionOp>(op); condition && passedBy.count(condition->getParentOp())) {
        conditionCarried(condition, passedBy[condition->getParentOp()]);
      } else if (auto yield = dyn_cast<scf::YieldOp>(op); yield && carriedBy.count(yield->getParentOp())) {
        yieldCarried(yield, carriedBy[yield->getParentOp()]);
      } else if (auto choice = dyn_cast<arith::SelectOp>(op); choice && isTile(choice.getResult()) &&
                 (bufferOf.count(choice.getTrueValue()) || bufferOf.count(choice.getFalseValue()))) {
        select(choice);
      } else if (isa<arith::CmpFOp, arith::CmpIOp>(op) && isTile(op->getResult(0)) &&
                 llvm::any_of(op->getOperands(), [&](Value v) { return bufferOf.count(v); })) {
        compare(op);
      } else if (op->getNumResults() == 1 && isa<FloatType>(op->getResult(0).getType()) && scalarMathKind(op)) {
        scalarMath(op, *scalarMathKind(op));
      } else if (auto reduce = dyn_cast<ir::ReduceOp>(op)) {
        reduceTile(reduce);
      } else if (auto scan = dyn_cast<ir::ScanOp>(op)) {
        scanTile(scan);
      } else if (auto d = dyn_cast<ir::DotOp>(op)) {
        dot(d);
      } else if (auto raw = dyn_cast<ir::RawCallOp>(op)) {
        rawCall(raw);
      } else if (auto view = dyn_cast<dsa::ToTensorOp>(op)) {
        bufferOf[view.getResult()] = view.getBuffer();
        replaced.push_back(op);
      } else if (auto toBuf = dyn_cast<dsa::ToBufferOp>(op)) {
        toBuffer(toBuf);
      } else if (auto ew = dyn_cast<dsa::ElementwiseOp>(op)) {
        OpBuilder b(op);
        vector(b, op->getLoc(), ew.getKind(), {ew.getLhs(), ew.getRhs()}, ew.getOut());
        replaced.push_back(op);
      } else if (isa<scf::ForOp, scf::WhileOp, scf::IfOp, scf::YieldOp>(op)) {
        if (llvm::any_of(op->getOperands(), [&](Value v) { return isTile(v) && bufferOf.count(v); }) ||
            llvm::any_of(op->getResults(), [](Value v) { return isTile(v); }))
          fail(op, "tiles carried through loops or branches of this form are not supported on Ascend yet");
      } else if (isa<ir::AddPtrOp>(op) && bufferOf.count(op->getOperand(1))) {
        fail(op, "pointers computed from loaded values (a gather) have no Ascend lowering");
      } else if (op->getNumResults() == 1 && isTile(op->getResult(0)) &&
                 llvm::any_of(op->getOperands(), [&](Value v) { return bufferOf.count(v); })) {
        elementwise(op);
      } else if (llvm::any_of(op->getOperands(), [&](Value v) { return bufferOf.count(v); }) &&
                 !isa<dsa::CopyOp, dsa::VectorOp>(op)) {
        fail(op, "'" + op->getName().getStringRef() + "' on tiles has no Ascend vector lowering yet");
      }
    }
    if (failedAny) return signalPassFailure();
    for (Operation *op : llvm::reverse(replaced)) {
      for (Value r : op->getResults())
        if (!r.use_empty()) {  // a data tile still used by something kept: a bug above
          op->emitError("internal: a bufferized tile is still used");
          return signalPassFailure();
        }
      op->erase();
    }
    // Buffers nothing uses take no memory (a kernel may allocate before it has code).
    getOperation().walk([](ir::AllocOp alloc) {
      if (alloc.getResult().use_empty()) alloc.erase();
    });
  }
};

}  // namespace

}  // namespace tle::ascend
