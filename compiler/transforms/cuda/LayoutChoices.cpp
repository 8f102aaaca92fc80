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

// The other dot of a chain: the one `dot`'s result feeds as A, or the one that feeds `dot`'s A.
ir::DotOp chainPartner(ir::DotOp dot) {
  if (ir::DotOp next = dotFedThroughA(dot.getResult())) return next;
  ir::DotOp previous;
  if (auto f = dot->getParentOfType<FunctionOpInterface>())
    f->walk([&](ir::DotOp other) {
      if (!previous && other != dot && dotFedThroughA(other.getResult()) == dot) previous = other;
    });
  return previous;
}

// The accumulator registers a thread may hold for the first dot of a chain whose warpgroups
// repeat its rows: the repeated work grows with them while the exchange saved does not.
// Measured on the attention sweep's 64-row tiles on 8 warps (H200, N_CTX 4096, TFLOP/s, N
// split -> rows of Q K^T repeated, P V split): 16 and 32 registers (64 x 32 and 64 x 64
// tiles) gained in 7 of 8 rows (d = 128 causal 64x64 231 -> 256, 64x32 205 -> 243; d = 64
// causal 64x32 161 -> 182) and lost 2% in one; 64 (64 x 128, d = 128) lost 307 -> 271.
constexpr int64_t kRepeatedAccumulatorRegisters = 32;

// The first dot of a chain (attention's Q K^T, whose P feeds P V's A) with too few rows for
// every warpgroup still takes every warp along M, as Triton's MMAv3 does for a dot whose
// result reaches another dot: the warpgroups past the rows repeat its tile, so each row's
// softmax statistics and its P stay within one warp, where warpgroups splitting N exchange
// them through shared memory, with barriers, every iteration. The chain's second dot splits
// N between the warpgroups (warpgroupsAlongN): each already holds all of P, its A, for its
// rows, so P reaches it without leaving its threads.
std::optional<MmaWarps> repeatedWarpgroups(ir::DotOp dot, unsigned numWarps, const TargetInfo &target) {
  if (!wgmmaTypes(dot, numWarps, target)) return std::nullopt;
  ir::DotOp next = dotFedThroughA(dot.getResult());
  if (!next || !wgmmaTypes(next, numWarps, target)) return std::nullopt;
  auto type = cast<RankedTensorType>(dot.getType()), other = cast<RankedTensorType>(next.getType());
  const int64_t m = type.getDimSize(0);
  if (m % 64 != 0 || m >= 16 * int64_t(numWarps) || other.getDimSize(0) != m) return std::nullopt;
  const MmaWarps w{numWarps, 1, 0};
  if (!wgmmaColumns(w, type.getDimSize(1)) || !warpgroupsAlongN(next, numWarps, target)) return std::nullopt;
  if (type.getDimSize(1) / 2 > kRepeatedAccumulatorRegisters) return std::nullopt;  // 64 rows' fp32 over a warpgroup
  return w;
}

}  // namespace

// Whether wgmma could take the dot at all: sm_90a, whole warpgroups, 16-bit operands (or
// fp8 of one format, read from shared memory only) and an fp32 accumulator.
bool wgmmaTypes(ir::DotOp dot, unsigned numWarps, const TargetInfo &target) {
  if (!target.has(Feature::Wgmma) || numWarps % 4 != 0) return false;
  Type a = cast<RankedTensorType>(dot.getA().getType()).getElementType();
  Type b = cast<RankedTensorType>(dot.getB().getType()).getElementType();
  const bool inputs = a.isF16() || a.isBF16() || (ir::isFp8(a) && a == b);
  return inputs && cast<RankedTensorType>(dot.getType()).getElementType().isF32();
}

MmaWarps mmaWarpsOf(gpu::MmaLayoutAttr layout) { return MmaWarps{layout.getWarpsM(), layout.getWarpsN(), layout.getGroupN()}; }

bool wgmmaColumns(MmaWarps w, int64_t n) {
  if (w.m % 4 != 0) return false;
  if (w.groupN == 0) return w.n == 1 && (isWgmmaWidth(n) || n % 256 == 0);
  return isWgmmaWidth(w.groupN) && n % (int64_t(w.groupN) * w.n) == 0;
}

SmallVector<int64_t, 2> operandUnits(ArrayRef<int64_t> shape, unsigned opIdx, Type element) {
  SmallVector<int64_t, 2> units(shape);
  if (element.getIntOrFloatBitWidth() == 8) {
    int64_t &k = units[opIdx == 0 ? 1 : 0];
    k = k % 2 ? 0 : k / 2;  // no whole 16-bit unit: fills nothing
  }
  return units;
}

bool fillsMmaFragments(MmaWarps w, unsigned opIdx, ArrayRef<int64_t> shape) {
  if (shape[0] % 16 || shape[1] % 16 || shape[0] == 0 || shape[1] == 0) return false;
  // The warps past an A tile's rows repeat it (working_warps in dot.cuh).
  if (opIdx == 0) return shape[0] % (16 * std::min<int64_t>(w.m, shape[0] / 16)) == 0;
  return w.groupN == 0 ? shape[1] % (8 * w.n) == 0 : shape[1] % (int64_t(w.groupN) * w.n) == 0;
}

bool isWgmmaWidth(int64_t n) { return n == 16 || n == 32 || n == 64 || n == 128 || n == 256; }

bool wgmmaReadableAlongK(int64_t k) { return k % 64 == 0 || k == 32; }

bool isChainedDot(ir::DotOp dot) { return static_cast<bool>(chainPartner(dot)); }

MmaWarps mmaWarpsFor(ir::DotOp dot, unsigned numWarps, const TargetInfo &target) {
  auto type = cast<RankedTensorType>(dot.getType());
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  MmaWarps w;
  if (warpgroupShaped(dot, numWarps, target)) {
    w.m = numWarps;  // whole warpgroups along M: the dot can run on wgmma (dot.cuh)
  } else if (std::optional<MmaWarps> repeated = repeatedWarpgroups(dot, numWarps, target)) {
    return *repeated;
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

unsigned exchangedRunElements(gpu::MmaLayoutAttr layout, ArrayRef<int64_t> shape) {
  // Mma in layout.cuh: register bits for the column pair and the lower 8 rows, the columns
  // past the warps' 8-column blocks and the rows past the warps' 16-row blocks.
  auto bits = [](int64_t extent, int64_t covered) { return extent > covered ? llvm::Log2_64(extent / covered) : 0; };
  unsigned regBits = 2 + bits(shape[1], 8 * int64_t(layout.getWarpsN())) + bits(shape[0], 16 * int64_t(layout.getWarpsM()));
  unsigned steps = std::min(2u, regBits - 1);
  return 2u << steps;
}

unsigned elementBytes(Type t) { return static_cast<unsigned>(ir::elementBytes(t)); }

int64_t elementsCoveredAlong(gpu::BlockedLayoutAttr layout, unsigned dim) {
  return int64_t(layout.getSizePerThread()[dim]) * layout.getThreadsPerWarp()[dim] * layout.getWarpsPerCTA()[dim];
}

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

bool narrowerThanWidest(RankedTensorType ptrType, unsigned vector, const TargetInfo &target) {
  return int64_t(vector) * elementBytes(ptrType) < target.vectorBytes();
}

PredictedAccess predictedAccess(RankedTensorType ptrType, const common::AxisInfo &info, unsigned numWarps, const TargetInfo &target) {
  Coalescing c = coalescingFor(ptrType, info, numWarps, target);
  const unsigned fast = c.order[0];
  const unsigned perThread = std::max<unsigned>(1, std::min<int64_t>(c.perThread, ptrType.getShape()[fast]));
  return {fast, vectorWidthFor(ptrType, info, fast, perThread, target)};
}

}  // namespace tle::cuda
