// tl.split(tl.permute(tl.reshape(x, [..., 2, D/2, ...]), [..., 2 moved last])) takes the two
// halves of x along that dimension (EPILOGUE_SUBTILE of Triton's persistent matmul): written
// as two tle.extract_tile of x, a target can select them in place instead of moving every
// element three times.
#include "transforms/common/Passes.h"

#include "ir/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tle::common {

#define GEN_PASS_DEF_SPLITHALVESASTILES
#include "transforms/common/Passes.h.inc"

using namespace mlir;

namespace {

// The dimension of `reshape`'s operand that it halves into [2, size/2] and `trans` then moves
// last, keeping the other dimensions in order; nullopt when the three ops do something else.
std::optional<unsigned> halvedDimension(ir::ReshapeOp reshape, ir::TransOp trans) {
  ArrayRef<int64_t> whole = reshape.getSrc().getType().getShape();
  ArrayRef<int64_t> split = reshape.getType().getShape();
  ArrayRef<int32_t> order = trans.getOrder();
  const size_t rank = whole.size();
  if (split.size() != rank + 1 || order.size() != rank + 1 || order.back() < 0 || static_cast<size_t>(order.back()) >= rank) return std::nullopt;
  const unsigned d = order.back();
  for (size_t i = 0; i + 1 < order.size(); ++i)
    if (order[i] != static_cast<int32_t>(i < d ? i : i + 1)) return std::nullopt;
  for (size_t i = 0; i < rank; ++i) {
    if (i < d && split[i] != whole[i]) return std::nullopt;
    if (i > d && split[i + 1] != whole[i]) return std::nullopt;
  }
  if (split[d] != 2 || 2 * split[d + 1] != whole[d]) return std::nullopt;
  return d;
}

struct SplitHalvesAsTilesPass : impl::SplitHalvesAsTilesBase<SplitHalvesAsTilesPass> {
  void runOnOperation() override {
    SmallVector<ir::SplitOp> splits;
    getOperation().walk([&](ir::SplitOp s) { splits.push_back(s); });
    for (ir::SplitOp split : splits) {
      auto trans = split.getSrc().getDefiningOp<ir::TransOp>();
      auto reshape = trans ? trans.getSrc().getDefiningOp<ir::ReshapeOp>() : ir::ReshapeOp();
      if (!reshape) continue;
      std::optional<unsigned> d = halvedDimension(reshape, trans);
      if (!d) continue;
      auto whole = reshape.getSrc().getType();
      auto half = cast<RankedTensorType>(split.getLhs().getType());
      OpBuilder b(split);
      SmallVector<int64_t> offsets(whole.getRank(), 0);
      auto lhs = b.create<ir::ExtractTileOp>(split.getLoc(), half, reshape.getSrc(), ValueRange{}, b.getDenseI64ArrayAttr(offsets));
      offsets[*d] = whole.getDimSize(*d) / 2;
      // The split is named after its first result (a, b = tl.split(x)): the second half is not.
      Location rhsLoc = split.getLoc();
      if (auto named = dyn_cast<NameLoc>(rhsLoc)) rhsLoc = named.getChildLoc();
      auto rhs = b.create<ir::ExtractTileOp>(rhsLoc, half, reshape.getSrc(), ValueRange{}, b.getDenseI64ArrayAttr(offsets));
      split.getLhs().replaceAllUsesWith(lhs);
      split.getRhs().replaceAllUsesWith(rhs);
      split.erase();
      if (trans->use_empty()) trans.erase();
      if (reshape->use_empty()) reshape.erase();
    }
  }
};

}  // namespace

}  // namespace tle::common
