#include "transforms/common/AxisInfo.h"

#include "ir/Dialect.h"
#include "ir/KernelSettings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

namespace tle::common {

using namespace mlir;

namespace {

constexpr int64_t kLargeDivisor = int64_t(1) << 30;

int64_t largestPowerOfTwoDividing(int64_t v) {
  if (v == 0) return kLargeDivisor;
  int64_t p = 1;
  while ((v % (p * 2)) == 0 && p < kLargeDivisor) p *= 2;
  return p;
}

size_t entries(Type t) { return std::max<size_t>(1, ir::shapeOf(t).size()); }

AxisInfo uniform(Type t, int64_t contiguity, int64_t divisibility, int64_t constancy) {
  AxisInfo a;
  a.contiguity.assign(entries(t), contiguity);
  a.divisibility.assign(entries(t), divisibility);
  a.constancy.assign(entries(t), constancy);
  return a;
}

// Nothing known beyond what one element tells.
AxisInfo unknown(Type t) { return uniform(t, 1, 1, 1); }

// A value that is the same everywhere, divisible by `divisibility`.
AxisInfo splatOf(Type t, int64_t divisibility) {
  AxisInfo a = uniform(t, 1, divisibility, 1);
  auto shape = ir::shapeOf(t);
  for (size_t d = 0; d < shape.size(); ++d) a.constancy[d] = shape[d];
  return a;
}

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

}  // namespace

AxisAnalysis::AxisAnalysis(Operation *function) {
  if (auto f = dyn_cast<func::FuncOp>(function)) {
    for (BlockArgument arg : f.getArguments()) {
      int64_t div = 1;
      if (unsigned hint = ir::parameterDivisibility(f, arg.getArgNumber()); hint > 1) div = hint;
      info_[arg] = splatOf(arg.getType(), div);
    }
  }
  for (Region &region : function->getRegions()) visitRegion(region);
}

void AxisAnalysis::visitRegion(Region &region) {
  for (Block &block : region)
    for (Operation &op : block) visit(&op);
}

// What holds for both a and b.
static AxisInfo join(const AxisInfo &a, const AxisInfo &b) {
  AxisInfo r = a;
  for (size_t d = 0; d < r.contiguity.size() && d < b.contiguity.size(); ++d) {
    r.contiguity[d] = std::gcd(a.contiguity[d], b.contiguity[d]);
    r.divisibility[d] = std::gcd(a.divisibility[d], b.divisibility[d]);
    r.constancy[d] = std::gcd(a.constancy[d], b.constancy[d]);
  }
  return r;
}

static bool sameInfo(const AxisInfo &a, const AxisInfo &b) {
  return a.contiguity == b.contiguity && a.divisibility == b.divisibility && a.constancy == b.constancy;
}

AxisInfo AxisAnalysis::lookup(Value v) const {
  auto it = info_.find(v);
  return it == info_.end() ? unknown(v.getType()) : it->second;
}

void AxisAnalysis::visit(Operation *op) {
  // Loops: the induction variable is lb + k*step; a carried value is what holds for its
  // initial value and for every value the body yields (iterated to a fixed point, so that
  // `ptrs += BLOCK * stride` keeps the contiguity and alignment of `ptrs`).
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    AxisInfo lb = lookup(loop.getLowerBound()), step = lookup(loop.getStep());
    info_[loop.getInductionVar()] = splatOf(loop.getInductionVar().getType(),
                                            gcd(lb.divisibility[0], step.divisibility[0]));
    for (auto [init, arg] : llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs())) info_[arg] = lookup(init);
    auto yield = loop.getBody()->getTerminator();
    for (int round = 0; round < 4; ++round) {
      visitRegion(loop.getRegion());
      bool stable = true;
      for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
        AxisInfo joined = join(lookup(arg), lookup(yield->getOperand(i)));
        if (!sameInfo(joined, lookup(arg))) stable = false;
        info_[arg] = joined;
      }
      if (stable) break;
      if (round == 3)
        for (BlockArgument arg : loop.getRegionIterArgs()) info_[arg] = unknown(arg.getType());
    }
    visitRegion(loop.getRegion());
    for (auto [arg, result] : llvm::zip(loop.getRegionIterArgs(), loop.getResults())) info_[result] = lookup(arg);
    return;
  }
  // A branch's result holds what both branches' yielded values hold (a pointer chosen by
  // `if`: its alignment stays known when both choices have it).
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    for (Region &region : op->getRegions()) visitRegion(region);
    if (branch.getElseRegion().empty()) return;
    for (auto [i, result] : llvm::enumerate(branch.getResults()))
      info_[result] = join(lookup(branch.thenYield().getOperand(i)), lookup(branch.elseYield().getOperand(i)));
    return;
  }
  if (op->getNumRegions() != 0) {
    for (Region &region : op->getRegions()) visitRegion(region);
    return;
  }
  if (op->getNumResults() != 1) return;
  Value result = op->getResult(0);
  Type type = result.getType();
  auto operand = [&](unsigned i) { return lookup(op->getOperand(i)); };
  std::optional<AxisInfo> out = llvm::TypeSwitch<Operation *, std::optional<AxisInfo>>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) -> std::optional<AxisInfo> {
        if (auto i = dyn_cast<IntegerAttr>(c.getValue())) return splatOf(type, largestPowerOfTwoDividing(i.getInt()));
        if (auto dense = dyn_cast<DenseIntElementsAttr>(c.getValue()); dense && dense.isSplat())
          return splatOf(type, largestPowerOfTwoDividing(dense.getSplatValue<APInt>().getSExtValue()));
        if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()); dense && dense.isSplat()) return splatOf(type, 1);
        return std::nullopt;
      })
      .Case<ir::MakeRangeOp>([&](ir::MakeRangeOp r) -> std::optional<AxisInfo> {
        AxisInfo a = uniform(type, r.getEnd() - r.getStart(), largestPowerOfTwoDividing(r.getStart()), 1);
        return a;
      })
      .Case<ir::SplatOp>([&](ir::SplatOp s) -> std::optional<AxisInfo> { return splatOf(type, operand(0).divisibility[0]); })
      // A peer's mapping of the symmetric heap is this rank's moved by a multiple of 4 GiB
      // (NCCL's LSA stride), and consume_token is its operand: the same facts.
      .Case<ir::SymmAtOp, ir::ConsumeTokenOp, ir::DescriptorBlockOp>([&](Operation *) -> std::optional<AxisInfo> { return operand(0); })
      .Case<ir::RemoteOp>([&](ir::RemoteOp r) -> std::optional<AxisInfo> {
        if (r.getSpace() == "device") return operand(0);
        return std::nullopt;
      })
      .Case<arith::AddIOp, ir::AddPtrOp>([&](Operation *) -> std::optional<AxisInfo> {
        AxisInfo a = operand(0), b = operand(1);
        int64_t scale = 1;
        if (auto ptr = dyn_cast<ir::PointerType>(ir::elementTypeOf(type)))
          scale = std::max<int64_t>(1, ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
        AxisInfo r = unknown(type);
        for (size_t d = 0; d < r.contiguity.size(); ++d) {
          r.contiguity[d] = std::max(gcd(a.contiguity[d], b.constancy[d]), gcd(b.contiguity[d], a.constancy[d]));
          r.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d] * scale);
          r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
        }
        return r;
      })
      .Case<arith::SubIOp>([&](Operation *) -> std::optional<AxisInfo> {
        AxisInfo a = operand(0), b = operand(1), r = unknown(type);
        for (size_t d = 0; d < r.contiguity.size(); ++d) {
          r.contiguity[d] = gcd(a.contiguity[d], b.constancy[d]);
          r.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
          r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
        }
        return r;
      })
      .Case<arith::MulIOp>([&](Operation *) -> std::optional<AxisInfo> {
        AxisInfo a = operand(0), b = operand(1), r = unknown(type);
        for (size_t d = 0; d < r.contiguity.size(); ++d) {
          r.divisibility[d] = std::min(kLargeDivisor, a.divisibility[d] * b.divisibility[d]);
          r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
        }
        return r;
      })
      .Case<arith::RemSIOp, arith::RemUIOp>([&](Operation *) -> std::optional<AxisInfo> {
        // (contiguous run) % m stays contiguous within runs that m divides.
        AxisInfo a = operand(0), b = operand(1), r = unknown(type);
        for (size_t d = 0; d < r.contiguity.size(); ++d) {
          bool bUniform = b.constancy[d] == (ir::shapeOf(type).empty() ? 1 : ir::shapeOf(type)[d]);
          r.contiguity[d] = bUniform ? gcd(a.contiguity[d], b.divisibility[d]) : 1;
          r.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
          r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
        }
        return r;
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp c) -> std::optional<AxisInfo> {
        // offsets < n (or >=) is constant over runs of consecutive offsets that start at a
        // multiple of n's divisor and over which n is constant. Not <= or >: with offsets
        // starting at n, the first of the run is n <= n and the next is not.
        AxisInfo a = operand(0), b = operand(1), r = unknown(type);
        using P = arith::CmpIPredicate;
        const P p = c.getPredicate();
        const bool splitsAtMultiple = p == P::slt || p == P::sge || p == P::ult || p == P::uge;
        for (size_t d = 0; d < r.contiguity.size(); ++d) {
          r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
          if (splitsAtMultiple && b.constancy[d] > 1)
            r.constancy[d] = std::max(r.constancy[d], gcd(b.constancy[d], gcd(a.contiguity[d], gcd(a.divisibility[d], b.divisibility[d]))));
        }
        return r;
      })
      .Case<arith::AndIOp, arith::OrIOp>([&](Operation *) -> std::optional<AxisInfo> {
        AxisInfo a = operand(0), b = operand(1), r = unknown(type);
        for (size_t d = 0; d < r.contiguity.size(); ++d) r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
        return r;
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp>(
          [&](Operation *) -> std::optional<AxisInfo> { return operand(0); })
      .Case<ir::AxisHintOp>([&](ir::AxisHintOp h) -> std::optional<AxisInfo> {
        // The programmer's facts, where they say more than the analysis found.
        AxisInfo a = operand(0);
        auto widen = [](SmallVector<int64_t, 4> &known, std::optional<ArrayRef<int64_t>> stated, bool powerOfTwo) {
          if (!stated) return;
          for (size_t d = 0; d < known.size() && d < stated->size(); ++d)
            known[d] = std::max(known[d], powerOfTwo ? largestPowerOfTwoDividing((*stated)[d]) : (*stated)[d]);
        };
        widen(a.divisibility, h.getDivisibility(), true);
        widen(a.contiguity, h.getContiguity(), false);
        widen(a.constancy, h.getConstancy(), false);
        return a;
      })
      .Case<ir::ExpandDimsOp>([&](ir::ExpandDimsOp e) -> std::optional<AxisInfo> {
        AxisInfo a = operand(0);
        if (ir::shapeOf(e.getSrc().getType()).empty()) return std::nullopt;
        unsigned axis = e.getAxis();
        // Along the new axis every element starts a run, so its divisibility must hold for
        // every element: the divisibility along a dimension whose runs are single elements
        // (then every element starts one), else nothing (inside a run of consecutive values
        // the second one is odd).
        int64_t everyElement = 1;
        for (size_t d = 0; d < a.contiguity.size(); ++d)
          if (a.contiguity[d] == 1) everyElement = std::max(everyElement, a.divisibility[d]);
        a.contiguity.insert(a.contiguity.begin() + axis, 1);
        a.divisibility.insert(a.divisibility.begin() + axis, everyElement);
        a.constancy.insert(a.constancy.begin() + axis, 1);
        return a;
      })
      .Case<ir::BroadcastOp>([&](ir::BroadcastOp b) -> std::optional<AxisInfo> {
        AxisInfo a = operand(0);
        auto from = ir::shapeOf(b.getSrc().getType()), to = ir::shapeOf(type);
        for (size_t d = 0; d < to.size(); ++d)
          if (from[d] == 1 && to[d] != 1) {
            a.contiguity[d] = 1;
            a.constancy[d] = to[d];
          }
        return a;
      })
      .Case<ir::TransOp>([&](ir::TransOp t) -> std::optional<AxisInfo> {
        // Result dimension i is operand dimension order[i], with its facts.
        AxisInfo a = operand(0), permuted;
        for (int32_t from : t.getOrder()) {
          if (from < 0 || static_cast<size_t>(from) >= a.contiguity.size()) return std::nullopt;
          permuted.contiguity.push_back(a.contiguity[from]);
          permuted.divisibility.push_back(a.divisibility[from]);
          permuted.constancy.push_back(a.constancy[from]);
        }
        return permuted;
      })
      .Default([](Operation *) { return std::nullopt; });
  info_[result] = out ? *out : unknown(type);
}

}  // namespace tle::common
