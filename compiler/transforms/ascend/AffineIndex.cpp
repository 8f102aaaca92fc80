#include "transforms/ascend/AffineIndex.h"

#include "ir/Dialect.h"
#include "transforms/common/SplatScalar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

namespace tle::ascend {

using namespace mlir;

namespace {

unsigned widthOf(Value v) { return v.getType().getIntOrFloatBitWidth(); }

// Both at the wider of their widths (index arithmetic mixes i32 offsets and i64 strides).
std::pair<Value, Value> widen(OpBuilder &b, Value x, Value y) {
  if (widthOf(x) < widthOf(y)) x = b.create<arith::ExtSIOp>(x.getLoc(), y.getType(), x);
  else if (widthOf(y) < widthOf(x)) y = b.create<arith::ExtSIOp>(y.getLoc(), x.getType(), y);
  return {x, y};
}

std::optional<int64_t> constantOf(Value v) {
  APInt value;
  if (v && matchPattern(v, m_ConstantInt(&value))) return value.getSExtValue();
  return std::nullopt;
}

// Constants fold as they are combined, so that strides stay recognisable (stride 1 columns).
Value add(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x) return y;
  if (!y) return x;
  auto [l, r] = widen(b, x, y);
  if (auto cl = constantOf(l), cr = constantOf(r); cl && cr)
    return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(l.getType(), *cl + *cr));
  return b.create<arith::AddIOp>(loc, l, r);
}

Value negate(OpBuilder &b, Location loc, Value x) {
  if (!x) return x;
  if (auto c = constantOf(x)) return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(x.getType(), -*c));
  Value zero = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(x.getType(), 0));
  return b.create<arith::SubIOp>(loc, zero, x);
}

Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x || !y) return Value();
  auto [l, r] = widen(b, x, y);
  if (auto cl = constantOf(l), cr = constantOf(r); cl && cr)
    return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(l.getType(), *cl * *cr));
  return b.create<arith::MulIOp>(loc, l, r);
}

Value castInt(OpBuilder &b, Location loc, Value x, Type to, bool isSigned) {
  if (!x || x.getType() == to) return x;
  if (widthOf(x) > to.getIntOrFloatBitWidth()) return b.create<arith::TruncIOp>(loc, to, x);
  if (isSigned) return b.create<arith::ExtSIOp>(loc, to, x);
  return b.create<arith::ExtUIOp>(loc, to, x);
}

bool isUniform(const AffineIndex &a) {
  return llvm::all_of(a.strides, [](Value s) { return !s; });
}

// l += r (or l -= r). A wrapped dimension takes no other contribution along it.
bool combine(OpBuilder &b, Location loc, AffineIndex &l, const AffineIndex &r, bool subtract) {
  auto sign = [&](Value v) { return subtract ? negate(b, loc, v) : v; };
  for (size_t d = 0; d < l.strides.size(); ++d) {
    if (r.wraps[d] && (subtract || l.strides[d])) return false;
    if (l.wraps[d] && r.strides[d]) return false;
  }
  l.offset = add(b, loc, l.offset, sign(r.offset));
  for (size_t d = 0; d < l.strides.size(); ++d) {
    if (r.wraps[d]) {
      l.wraps[d] = r.wraps[d];
      l.wrapStarts[d] = r.wrapStarts[d];
      l.strides[d] = r.strides[d];
    } else if (!l.wraps[d]) {
      l.strides[d] = add(b, loc, l.strides[d], sign(r.strides[d]));
    }
  }
  return true;
}

}  // namespace

std::optional<int64_t> constantInt(Value v) {
  APInt value;
  if (v && matchPattern(v, m_ConstantInt(&value))) return value.getSExtValue();
  return std::nullopt;
}

bool isUniformZero(Value tile) {
  if (auto splat = tile.getDefiningOp<ir::SplatOp>()) tile = splat.getSrc();
  return matchPattern(tile, m_AnyZeroFloat()) || matchPattern(tile, m_Zero());
}

bool feedsAddress(Value tile, bool throughBranches) {
  SmallVector<Value> work{tile};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (!seen.insert(x).second) continue;
    for (Operation *user : x.getUsers()) {
      if (isa<ir::AddPtrOp>(user)) return true;
      if (user->getNumResults() == 1 && isa<RankedTensorType>(user->getResult(0).getType()) && user->getNumRegions() == 0)
        work.push_back(user->getResult(0));
      auto branch = dyn_cast<scf::IfOp>(user->getParentOp());
      if (throughBranches && branch && isa<scf::YieldOp>(user))  // out of a branch
        for (OpOperand &use : x.getUses())
          if (use.getOwner() == user && use.getOperandNumber() < branch.getNumResults())
            work.push_back(branch.getResult(use.getOperandNumber()));
    }
  }
  return false;
}

namespace {

// A tile of two uniform tiles chosen by a scalar, or by a uniform mask (`tl.where(flag > 0,
// 3, 5)`, or a branch that canonicalization turned into a select).
arith::SelectOp uniformChoice(Value tile);

bool isUniform(Value tile) {
  if (tile.getDefiningOp<ir::SplatOp>()) return true;
  if (auto constant = tile.getDefiningOp<arith::ConstantOp>()) return isa<SplatElementsAttr>(constant.getValue());
  return static_cast<bool>(uniformChoice(tile));
}

arith::SelectOp uniformChoice(Value tile) {
  auto select = tile.getDefiningOp<arith::SelectOp>();
  if (!select || (isa<ShapedType>(select.getCondition().getType()) && !isUniform(select.getCondition()))) return {};
  return isUniform(select.getTrueValue()) && isUniform(select.getFalseValue()) ? select : arith::SelectOp();
}

}  // namespace

Value uniformValue(Value tile, OpBuilder &b) {
  if (Value scalar = common::splatScalarValue(tile, b)) return scalar;
  if (arith::SelectOp choice = uniformChoice(tile)) {
    Value condition = choice.getCondition();
    if (isa<ShapedType>(condition.getType())) condition = uniformValue(condition, b);  // a splat condition
    return b.create<arith::SelectOp>(tile.getLoc(), condition, uniformValue(choice.getTrueValue(), b),
                                     uniformValue(choice.getFalseValue(), b));
  }
  return Value();
}

std::optional<AffineIndex> affineIndexOf(Value tile, OpBuilder &b) {
  auto type = dyn_cast<RankedTensorType>(tile.getType());
  if (!type) return std::nullopt;
  int64_t rank = type.getRank();
  Location loc = tile.getLoc();
  Operation *def = tile.getDefiningOp();
  if (!def) return std::nullopt;
  AffineIndex out;
  out.strides.assign(rank, Value());
  out.wraps.assign(rank, Value());
  out.wrapStarts.assign(rank, Value());
  if (auto range = dyn_cast<ir::MakeRangeOp>(def)) {
    out.offset = b.create<arith::ConstantIntOp>(loc, range.getStart(), 32);
    out.strides[0] = b.create<arith::ConstantIntOp>(loc, 1, 32);
    return out;
  }
  if (isa<ir::SplatOp, arith::ConstantOp>(def)) {
    Value v = uniformValue(tile, b);
    if (!v) return std::nullopt;
    if (isa<ir::PointerType>(v.getType())) out.base = v;
    else if (v.getType().isInteger(1) || !v.getType().isIntOrIndex()) return std::nullopt;
    else out.offset = v;
    return out;
  }
  if (auto expand = dyn_cast<ir::ExpandDimsOp>(def)) {
    auto inner = affineIndexOf(expand.getSrc(), b);
    if (!inner) return std::nullopt;
    inner->strides.insert(inner->strides.begin() + expand.getAxis(), Value());
    inner->wraps.insert(inner->wraps.begin() + expand.getAxis(), Value());
    inner->wrapStarts.insert(inner->wrapStarts.begin() + expand.getAxis(), Value());
    return inner;
  }
  if (auto broadcast = dyn_cast<ir::BroadcastOp>(def)) {
    auto inner = affineIndexOf(broadcast.getSrc(), b);
    if (!inner) return std::nullopt;
    auto from = cast<RankedTensorType>(broadcast.getSrc().getType());
    for (int64_t d = 0; d < rank; ++d)
      if (from.getDimSize(d) == 1 && type.getDimSize(d) != 1) {
        if (inner->wraps[d]) return std::nullopt;  // a wrapped size-1 index: not worth a case
        inner->strides[d] = Value();               // one index, repeated
      }
    return inner;
  }
  if (auto addptr = dyn_cast<ir::AddPtrOp>(def)) {
    auto p = affineIndexOf(addptr.getPtr(), b), o = affineIndexOf(addptr.getOffset(), b);
    if (!p || !o || !p->base || o->base || !combine(b, loc, *p, *o, false)) return std::nullopt;
    return p;
  }
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    auto l = affineIndexOf(def->getOperand(0), b), r = affineIndexOf(def->getOperand(1), b);
    if (!l || !r || l->base || r->base || !combine(b, loc, *l, *r, isa<arith::SubIOp>(def))) return std::nullopt;
    return l;
  }
  if (isa<arith::MulIOp>(def)) {
    auto l = affineIndexOf(def->getOperand(0), b), r = affineIndexOf(def->getOperand(1), b);
    if (!l || !r || l->base || r->base) return std::nullopt;
    if (!isUniform(*r)) std::swap(l, r);
    if (!isUniform(*r)) return std::nullopt;  // a product of two varying indices
    Value factor = r->offset;
    l->offset = mul(b, loc, l->offset, factor);
    for (Value &s : l->strides) s = mul(b, loc, s, factor);
    return l;
  }
  if (auto rem = dyn_cast<arith::RemSIOp>(def)) {  // (start + i) % wrap along one dimension
    auto x = affineIndexOf(rem.getLhs(), b), m = affineIndexOf(rem.getRhs(), b);
    if (!x || !m || x->base || m->base || x->wraps_any() || !isUniform(*m) || !m->offset) return std::nullopt;
    int64_t varying = -1;
    for (int64_t d = 0; d < rank; ++d) {
      if (!x->strides[d]) continue;
      if (varying >= 0 || constantInt(x->strides[d]) != 1) return std::nullopt;
      varying = d;
    }
    if (varying < 0) return std::nullopt;
    AffineIndex wrapped = out;
    wrapped.strides[varying] = x->strides[varying];
    wrapped.wraps[varying] = m->offset;
    wrapped.wrapStarts[varying] = x->offset ? x->offset : b.create<arith::ConstantIntOp>(loc, 0, 32).getResult();
    return wrapped;
  }
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(def)) {
    auto inner = affineIndexOf(def->getOperand(0), b);
    if (!inner || inner->base || inner->wraps_any()) return std::nullopt;
    Type to = getElementTypeOrSelf(tile.getType());
    bool isSigned = !isa<arith::ExtUIOp>(def);
    inner->offset = castInt(b, loc, inner->offset, to, isSigned);
    for (Value &s : inner->strides) s = castInt(b, loc, s, to, isSigned);
    return inner;
  }
  return std::nullopt;
}

std::optional<SmallVector<Value>> rectangleOf(Value mask, OpBuilder &b) {
  auto type = dyn_cast<RankedTensorType>(mask.getType());
  if (!type) return std::nullopt;
  int64_t rank = type.getRank();
  Location loc = mask.getLoc();
  SmallVector<Value> extents(rank, Value());
  Operation *def = mask.getDefiningOp();
  if (!def) return std::nullopt;
  auto i32 = [&](int64_t v) -> Value { return b.create<arith::ConstantIntOp>(loc, v, 32); };
  auto clampToSize = [&](Value e, int64_t size) -> Value {
    e = castInt(b, loc, e, b.getI32Type(), true);
    e = b.create<arith::MaxSIOp>(loc, e, i32(0));
    return b.create<arith::MinSIOp>(loc, e, i32(size));
  };
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
    if (!dense) return std::nullopt;
    if (!dense.getSplatValue<bool>()) extents[0] = i32(0);
    return extents;
  }
  if (auto splat = dyn_cast<ir::SplatOp>(def)) {  // all or nothing
    extents[0] = b.create<arith::SelectOp>(loc, splat.getSrc(), i32(type.getDimSize(0)), i32(0));
    return extents;
  }
  if (auto expand = dyn_cast<ir::ExpandDimsOp>(def)) {
    auto inner = rectangleOf(expand.getSrc(), b);
    if (!inner) return std::nullopt;
    inner->insert(inner->begin() + expand.getAxis(), Value());
    return inner;
  }
  if (auto broadcast = dyn_cast<ir::BroadcastOp>(def)) {
    auto inner = rectangleOf(broadcast.getSrc(), b);
    if (!inner) return std::nullopt;
    auto from = cast<RankedTensorType>(broadcast.getSrc().getType());
    for (int64_t d = 0; d < rank; ++d)
      if (from.getDimSize(d) == 1 && type.getDimSize(d) != 1 && (*inner)[d])  // 0 or 1 -> none or all
        (*inner)[d] = b.create<arith::MulIOp>(loc, (*inner)[d], i32(type.getDimSize(d)));
    return inner;
  }
  if (auto both = dyn_cast<arith::AndIOp>(def)) {
    auto l = rectangleOf(both.getLhs(), b), r = rectangleOf(both.getRhs(), b);
    if (!l || !r) return std::nullopt;
    for (int64_t d = 0; d < rank; ++d)
      (*l)[d] = !(*l)[d] ? (*r)[d] : !(*r)[d] ? (*l)[d] : b.create<arith::MinSIOp>(loc, (*l)[d], (*r)[d]).getResult();
    return l;
  }
  auto compare = dyn_cast<arith::CmpIOp>(def);
  if (!compare) return std::nullopt;
  // index < bound (or bound > index, <=, >=): the index varies along one dimension, by 1.
  Value index = compare.getLhs(), bound = compare.getRhs();
  arith::CmpIPredicate p = compare.getPredicate();
  using P = arith::CmpIPredicate;
  if (p == P::sgt || p == P::ugt || p == P::sge || p == P::uge) {
    std::swap(index, bound);
    p = p == P::sgt ? P::slt : p == P::ugt ? P::ult : p == P::sge ? P::sle : P::ule;
  }
  if (p != P::slt && p != P::ult && p != P::sle && p != P::ule) return std::nullopt;
  auto idx = affineIndexOf(index, b);
  auto lim = affineIndexOf(bound, b);
  if (!idx || !lim || idx->base || lim->base || idx->wraps_any() || !isUniform(*lim)) return std::nullopt;
  int64_t varying = -1;
  for (int64_t d = 0; d < rank; ++d) {
    if (!idx->strides[d]) continue;
    if (varying >= 0 || constantInt(idx->strides[d]) != 1) return std::nullopt;
    varying = d;
  }
  // A uniform comparison: all or nothing, like a splat condition.
  Value limit = lim->offset ? lim->offset : i32(0);
  Value start = idx->offset ? idx->offset : i32(0);
  auto [l, s] = widen(b, limit, start);
  Value count = b.create<arith::SubIOp>(loc, l, s);
  if (p == P::sle || p == P::ule) count = b.create<arith::AddIOp>(loc, count, b.create<arith::ConstantOp>(loc, b.getIntegerAttr(count.getType(), 1)));
  if (varying < 0) {
    Value any = b.create<arith::CmpIOp>(loc, P::sgt, count, b.create<arith::ConstantOp>(loc, b.getIntegerAttr(count.getType(), 0)));
    extents[0] = b.create<arith::SelectOp>(loc, any, i32(type.getDimSize(0)), i32(0));
    return extents;
  }
  extents[varying] = clampToSize(count, type.getDimSize(varying));
  return extents;
}

}  // namespace tle::ascend
