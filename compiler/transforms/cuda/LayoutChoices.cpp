#include "transforms/cuda/LayoutChoices.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace tle::cuda {

using namespace mlir;

namespace {

// The dot whose A operand `v` flows into through element-wise ops, if any.
ir::DotOp dotFedThroughA(Value v, int depth = 0) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (auto dot = dyn_cast<ir::DotOp>(user)) {
      if (use.getOperandNumber() == 0) return dot;
      continue;
    }
    if (depth < 32 && user->getNumResults() == 1 && user->getNumRegions() == 0)
      if (ir::DotOp d = dotFedThroughA(user->getResult(0), depth + 1)) return d;
  }
  return {};
}

// Whether wgmma could take the dot at all: sm_90a, whole warpgroups, 16-bit operands and an
// fp32 accumulator.
bool wgmmaTypes(ir::DotOp dot, unsigned numWarps, const TargetInfo &target) {
  if (!target.has(Feature::Wgmma) || numWarps % 4 != 0) return false;
  Type a = cast<RankedTensorType>(dot.getA().getType()).getElementType();
  return (a.isF16() || a.isBF16()) && cast<RankedTensorType>(dot.getType()).getElementType().isF32();
}

// On sm_90a a dot of 16-bit operands with an fp32 accumulator whose rows split evenly into
// 64-row warpgroup tiles takes every warp along M: Hopper's wgmma computes 64 x N per
// warpgroup, and its accumulator is exactly that Mma layout.
bool warpgroupShaped(ir::DotOp dot, unsigned numWarps, const TargetInfo &target) {
  if (!wgmmaTypes(dot, numWarps, target)) return false;
  auto type = cast<RankedTensorType>(dot.getType());
  return type.getDimSize(0) % (16 * numWarps) == 0 && wgmmaColumns(MmaWarps{numWarps, 1, 0}, type.getDimSize(1));
}

// With too few rows for every warpgroup along M (64 rows on 8 warps), the warpgroups along M
// take what the rows allow and the others split N in blocks of whole instructions, as
// Triton's MMAv3 does; mma.sync would otherwise take the dot.
std::optional<MmaWarps> warpgroupsAlongN(ir::DotOp dot, unsigned numWarps, const TargetInfo &target) {
  if (!wgmmaTypes(dot, numWarps, target)) return std::nullopt;
  auto type = cast<RankedTensorType>(dot.getType());
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  for (unsigned warpsM = numWarps / 2; warpsM >= 4; warpsM /= 2) {
    if (m % (16 * warpsM) != 0) continue;
    MmaWarps w{warpsM, numWarps / warpsM, static_cast<unsigned>(std::min<int64_t>(n / (numWarps / warpsM), 256))};
    if (wgmmaColumns(w, n)) return w;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

MmaWarps mmaWarpsOf(gpu::MmaLayoutAttr layout) { return MmaWarps{layout.getWarpsM(), layout.getWarpsN(), layout.getGroupN()}; }

bool wgmmaColumns(MmaWarps w, int64_t n) {
  if (w.m % 4 != 0) return false;
  if (w.groupN == 0) return w.n == 1 && (isWgmmaWidth(n) || n % 256 == 0);
  return isWgmmaWidth(w.groupN) && n % (int64_t(w.groupN) * w.n) == 0;
}

bool fillsMmaFragments(MmaWarps w, unsigned opIdx, ArrayRef<int64_t> shape) {
  if (shape[0] % 16 || shape[1] % 16) return false;
  if (opIdx == 0) return shape[0] % (16 * w.m) == 0;
  return w.groupN == 0 ? shape[1] % (8 * w.n) == 0 : shape[1] % (int64_t(w.groupN) * w.n) == 0;
}

bool isWgmmaWidth(int64_t n) { return n == 16 || n == 32 || n == 64 || n == 128 || n == 256; }

bool wgmmaReadableA(int64_t k) { return k % 64 == 0 || k == 32; }

bool isChainedDot(ir::DotOp dot) {
  if (dotFedThroughA(dot.getResult())) return true;
  auto f = dot->getParentOfType<FunctionOpInterface>();
  bool fed = false;
  if (f)
    f->walk([&](ir::DotOp other) {
      if (!fed && dotFedThroughA(other.getResult()) == dot) fed = true;
    });
  return fed;
}

MmaWarps mmaWarpsFor(ir::DotOp dot, unsigned numWarps, const TargetInfo &target) {
  auto type = cast<RankedTensorType>(dot.getType());
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  MmaWarps w;
  if (warpgroupShaped(dot, numWarps, target)) {
    w.m = numWarps;  // whole warpgroups along M: the dot can run on wgmma (dot.cuh)
  } else if (std::optional<MmaWarps> split = warpgroupsAlongN(dot, numWarps, target)) {
    return *split;
  } else if (isChainedDot(dot)) {
    // Then the first accumulator's registers are already the second dot's A fragments.
    w.m = static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>(numWarps, m / 16)));
    w.n = numWarps / w.m;
  }
  while (w.m * w.n < numWarps) {
    if (m / 16 / w.m >= n / 16 / w.n && w.m < m / 16) w.m *= 2;
    else w.n *= 2;
  }
  return w;
}

std::optional<std::pair<unsigned, unsigned>> registerRunDimension(Attribute layout) {
  if (auto b = dyn_cast<gpu::BlockedLayoutAttr>(layout)) return std::make_pair(b.getOrder()[0], b.getSizePerThread()[b.getOrder()[0]]);
  if (isa<gpu::MmaLayoutAttr>(layout)) return std::make_pair(1u, 2u);
  if (auto s = dyn_cast<gpu::SliceLayoutAttr>(layout)) {
    auto parent = registerRunDimension(s.getParent());
    if (!parent || parent->first == s.getDim()) return std::nullopt;
    return std::make_pair(parent->first > s.getDim() ? parent->first - 1 : parent->first, parent->second);
  }
  return std::nullopt;
}

unsigned elementBytes(Type t) { return static_cast<unsigned>(ir::elementBytes(t)); }

Coalescing coalescingFor(RankedTensorType type, const common::AxisInfo &info, unsigned numWarps, const TargetInfo &target) {
  Coalescing c;
  c.order.resize(type.getRank());
  std::iota(c.order.begin(), c.order.end(), 0);
  // Most contiguous dimension first; ties keep row-major (last dimension fastest).
  std::stable_sort(c.order.begin(), c.order.end(), [&](unsigned a, unsigned b) {
    if (info.contiguity[a] != info.contiguity[b]) return info.contiguity[a] > info.contiguity[b];
    return a > b;
  });
  unsigned bytes = elementBytes(type);
  int64_t alignElems = std::max<int64_t>(1, info.divisibility[c.order[0]] / bytes);
  int64_t perThread = std::min<int64_t>({info.contiguity[c.order[0]], alignElems, std::max<int64_t>(1, target.vectorBytes() / bytes)});
  int64_t threads = int64_t(target.threadsPerWarp()) * numWarps;
  c.perThread = static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>(perThread, type.getNumElements() / threads)));
  return c;
}

unsigned vectorWidthFor(RankedTensorType type, const common::AxisInfo &info, unsigned fast, unsigned perThread, const TargetInfo &target) {
  unsigned bytes = elementBytes(type);
  int64_t v = std::min<int64_t>({perThread, type.getShape()[fast], info.contiguity[fast],
                                 std::max<int64_t>(1, info.divisibility[fast] / bytes), std::max<int64_t>(1, target.vectorBytes() / bytes)});
  while (v > 1 && (v & (v - 1))) --v;
  return static_cast<unsigned>(std::max<int64_t>(1, v));
}

}  // namespace tle::cuda
