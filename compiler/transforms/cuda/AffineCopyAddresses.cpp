// tle-affine-copy-addresses: which asynchronous operand copies read pointers that are affine
// in the element's indices, ptr[i, j] = ptr[0, 0] + i * s0 + j * s1 with s0, s1 the same for
// every thread (block pointers are: base + (offset + arange) * stride per dimension). Such a
// copy gets the strides, and the library computes each 16-byte chunk's address as the
// thread's first pointer plus a uniform offset: one address per thread stays live instead
// of one per chunk, and no chunk's address is a 64-bit multiply-add from its row index.
//
// The analysis is exact in 64-bit arithmetic (pointers wrap the same way), so it accepts
// sums, differences and products by uniform values of i64 tiles only; i32 tiles enter
// through the widening of a range or of a uniform value (or those reshaped), whose elements
// cannot have wrapped around. Pointers offset by i32 tiles (the pointer arithmetic of most
// tensor-of-pointers kernels) keep the per-chunk form.
#include "transforms/cuda/Passes.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace tle::cuda {

#define GEN_PASS_DEF_AFFINECOPYADDRESSES
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// A coefficient: `scale`, times `factor` when there is one (a uniform i64 scalar).
struct Coefficient {
  int64_t scale = 0;
  Value factor;

  bool isZero() const { return scale == 0; }
  friend bool operator==(const Coefficient &a, const Coefficient &b) { return a.scale == b.scale && a.factor == b.factor; }
};

// One coefficient per dimension: how much an element moves per step of each index.
using AffineForm = SmallVector<Coefficient, 2>;

AffineForm uniformForm(Value v) { return AffineForm(cast<RankedTensorType>(v.getType()).getRank()); }

std::optional<Coefficient> sum(Coefficient a, Coefficient b) {
  if (a.isZero()) return b;
  if (b.isZero()) return a;
  if (a.factor != b.factor) return std::nullopt;  // a sum of two run-time strides: not tracked
  Coefficient c{a.scale + b.scale, a.factor};
  if (c.isZero()) c.factor = Value();
  return c;
}

// a + b (a - b with `subtract`), dimension by dimension.
std::optional<AffineForm> sumOf(const AffineForm &a, AffineForm b, bool subtract) {
  AffineForm out;
  for (auto [x, y] : llvm::zip(a, b)) {
    if (subtract) y.scale = -y.scale;
    auto c = sum(x, y);
    if (!c) return std::nullopt;
    out.push_back(*c);
  }
  return out;
}

// The scalar every element of `v` equals, if `v` is a splat of one (or a splat constant).
std::optional<Coefficient> splatValue(Value v) {
  if (auto splat = v.getDefiningOp<ir::SplatOp>()) {
    if (!splat.getSrc().getType().isInteger(64)) return std::nullopt;
    return Coefficient{1, splat.getSrc()};
  }
  DenseIntElementsAttr dense;
  if (auto constant = v.getDefiningOp<arith::ConstantOp>())
    if ((dense = dyn_cast<DenseIntElementsAttr>(constant.getValue())) && dense.isSplat())
      return Coefficient{dense.getSplatValue<APInt>().getSExtValue(), Value()};
  return std::nullopt;
}

bool isI64Tile(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getElementType().isInteger(64);
}

// Whether every element of a narrow tile is what its affine form says, with no wrap-around:
// a range, a uniform value, or those reshaped.
bool cannotHaveWrapped(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def) return false;
  if (isa<ir::MakeRangeOp, ir::SplatOp>(def)) return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    return dense && dense.isSplat();
  }
  if (isa<ir::ExpandDimsOp, ir::BroadcastOp, ir::AxisHintOp, gpu::ConvertLayoutOp>(def)) return cannotHaveWrapped(def->getOperand(0));
  return false;
}

std::optional<AffineForm> affineForm(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !isa<RankedTensorType>(v.getType())) return std::nullopt;  // a loop-carried tile: not tracked
  if (isa<ir::SplatOp>(def)) return uniformForm(v);
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (dense && dense.isSplat()) return uniformForm(v);
    return std::nullopt;
  }
  if (isa<ir::MakeRangeOp>(def)) return AffineForm{Coefficient{1, Value()}};
  if (auto hint = dyn_cast<ir::AxisHintOp>(def)) return affineForm(hint.getSrc());
  if (auto convert = dyn_cast<gpu::ConvertLayoutOp>(def)) return affineForm(convert.getSrc());
  if (isa<arith::ExtSIOp, arith::ExtUIOp>(def)) {
    if (!cannotHaveWrapped(def->getOperand(0))) return std::nullopt;
    auto inner = affineForm(def->getOperand(0));
    // A narrow stride widened: its scalar is narrow too, and only i64 factors are tracked.
    if (inner && llvm::any_of(*inner, [](const Coefficient &c) { return static_cast<bool>(c.factor); })) return std::nullopt;
    return inner;
  }
  if (auto expand = dyn_cast<ir::ExpandDimsOp>(def)) {
    auto inner = affineForm(expand.getSrc());
    if (!inner) return std::nullopt;
    inner->insert(inner->begin() + expand.getAxis(), Coefficient{});
    return inner;
  }
  if (auto broadcast = dyn_cast<ir::BroadcastOp>(def)) {
    auto inner = affineForm(broadcast.getSrc());
    if (!inner || inner->size() != static_cast<size_t>(cast<RankedTensorType>(v.getType()).getRank())) return std::nullopt;
    // A size-1 dimension repeated: every index along it reads the same element.
    ArrayRef<int64_t> from = broadcast.getSrc().getType().getShape();
    for (size_t d = 0; d < inner->size(); ++d)
      if (from[d] == 1) (*inner)[d] = Coefficient{};
    return inner;
  }
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    if (!isI64Tile(v)) return std::nullopt;
    auto a = affineForm(def->getOperand(0)), b = affineForm(def->getOperand(1));
    if (!a || !b) return std::nullopt;
    return sumOf(*a, *b, isa<arith::SubIOp>(def));
  }
  if (isa<arith::MulIOp>(def)) {
    if (!isI64Tile(v)) return std::nullopt;
    for (int side = 0; side < 2; ++side) {
      auto factor = splatValue(def->getOperand(side));
      auto other = affineForm(def->getOperand(1 - side));
      if (!factor || !other) continue;
      AffineForm out;
      for (Coefficient c : *other) {
        if (c.isZero()) {
          out.push_back(c);
        } else if (!factor->factor) {
          Coefficient scaled{c.scale * factor->scale, factor->scale ? c.factor : Value()};
          out.push_back(scaled);
        } else if (!c.factor) {
          out.push_back(Coefficient{c.scale, factor->factor});
        } else {
          return std::nullopt;  // a product of two run-time values
        }
      }
      return out;
    }
    return std::nullopt;
  }
  if (auto add = dyn_cast<ir::AddPtrOp>(def)) {
    if (!isI64Tile(add.getOffset())) return std::nullopt;
    auto base = affineForm(add.getPtr()), offset = affineForm(add.getOffset());
    if (!base || !offset) return std::nullopt;
    return sumOf(*base, *offset, false);
  }
  return std::nullopt;
}

// The coefficients as i64 values: constants once, at the top of the kernel; a run-time
// stride times a constant where the copy is.
class StrideValues {
 public:
  explicit StrideValues(func::FuncOp f) : top_(&f.getBody().front(), f.getBody().front().begin()) {}

  Value get(OpBuilder &b, Location loc, const Coefficient &c) {
    if (!c.factor) return constant(loc, c.scale);
    if (c.scale == 1) return c.factor;
    return b.create<arith::MulIOp>(loc, c.factor, constant(loc, c.scale));
  }

 private:
  Value constant(Location loc, int64_t value) {
    Value &v = constants_[value];
    if (!v) v = top_.create<arith::ConstantOp>(loc, top_.getI64IntegerAttr(value));
    return v;
  }

  OpBuilder top_;
  llvm::DenseMap<int64_t, Value> constants_;
};

struct AffineCopyAddressesPass : impl::AffineCopyAddressesBase<AffineCopyAddressesPass> {
  void runOnOperation() override {
    StrideValues values(getOperation());
    getOperation().walk([&](gpu::AsyncCopyOp copy) {
      if (gpu::isTmaCopy(copy)) return;  // a descriptor's block, copied whole by tle-lower-tma-copies
      auto type = copy.getPtr().getType();
      // The library's form: a whole-tile mask (or none), a blocked 2-D tile.
      if (!copy.getStrides().empty() || type.getRank() != 2 || !isa_and_nonnull<gpu::BlockedLayoutAttr>(type.getEncoding())) return;
      if (copy.getMask() && isa<RankedTensorType>(copy.getMask().getType())) return;
      auto form = affineForm(copy.getPtr());
      if (!form) return;
      OpBuilder b(copy);
      SmallVector<Value> strides;
      for (const Coefficient &c : *form) strides.push_back(values.get(b, copy.getLoc(), c));
      copy.getStridesMutable().assign(strides);
    });
  }
};

}  // namespace

}  // namespace tle::cuda
