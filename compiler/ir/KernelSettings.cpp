#include "ir/KernelSettings.h"

#include "ir/Dialect.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tle::ir {

using namespace mlir;

namespace {

TleDialect &dialect(Operation *op) { return *op->getContext()->getOrLoadDialect<TleDialect>(); }

Operation *kernelOf(Operation *op) {
  if (isa<FunctionOpInterface>(op)) return op;
  if (auto f = op->getParentOfType<FunctionOpInterface>()) return f;
  return op;
}

}  // namespace

unsigned numWarps(Operation *op, unsigned override) {
  if (override) return override;
  if (auto n = dialect(op).getNumWarpsAttrHelper().getAttr(kernelOf(op))) return n.getInt();
  return kDefaultNumWarps;
}

unsigned numStages(Operation *op, unsigned override) {
  if (override) return override;
  if (auto n = dialect(op).getNumStagesAttrHelper().getAttr(kernelOf(op))) return n.getInt();
  return kDefaultNumStages;
}

bool numStagesAsked(Operation *loop, unsigned override) {
  return override != 0 || ownNumStages(loop).has_value() || static_cast<bool>(dialect(loop).getNumStagesAttrHelper().getAttr(kernelOf(loop)));
}

unsigned clusterSize(Operation *op) {
  if (auto n = dialect(op).getClusterSizeAttrHelper().getAttr(kernelOf(op))) return static_cast<unsigned>(n.getInt());
  return 1;
}

void setClusterSize(Operation *kernel, unsigned blocks) {
  dialect(kernel).getClusterSizeAttrHelper().setAttr(kernel, Builder(kernel->getContext()).getI32IntegerAttr(static_cast<int32_t>(blocks)));
}

unsigned meshRanks(Operation *op) {
  if (auto n = dialect(op).getMeshRanksAttrHelper().getAttr(kernelOf(op))) return static_cast<unsigned>(n.getInt());
  return 0;
}

void setMeshRanks(Operation *kernel, unsigned ranks) {
  dialect(kernel).getMeshRanksAttrHelper().setAttr(kernel, Builder(kernel->getContext()).getI32IntegerAttr(static_cast<int32_t>(ranks)));
}

unsigned meshNodes(Operation *op) {
  if (auto n = dialect(op).getMeshNodesAttrHelper().getAttr(kernelOf(op))) return static_cast<unsigned>(n.getInt());
  return 1;
}

void setMeshNodes(Operation *kernel, unsigned nodes) {
  dialect(kernel).getMeshNodesAttrHelper().setAttr(kernel, Builder(kernel->getContext()).getI32IntegerAttr(static_cast<int32_t>(nodes)));
}

std::string dispatchSymbol(Operation *kernel) {
  if (auto s = dialect(kernel).getDispatchAttrHelper().getAttr(kernelOf(kernel))) return s.getValue().str();
  return "";
}

unsigned variantIndex(Operation *kernel) {
  if (auto n = dialect(kernel).getVariantAttrHelper().getAttr(kernelOf(kernel))) return static_cast<unsigned>(n.getInt());
  return 0;
}

void setDispatch(Operation *kernel, const std::string &symbol, unsigned variant) {
  Builder b(kernel->getContext());
  dialect(kernel).getDispatchAttrHelper().setAttr(kernel, b.getStringAttr(symbol));
  dialect(kernel).getVariantAttrHelper().setAttr(kernel, b.getI32IntegerAttr(static_cast<int32_t>(variant)));
}

std::string variantSymbol(const std::string &dispatch, unsigned variant) { return dispatch + "__s" + std::to_string(variant); }

std::optional<unsigned> ownNumStages(Operation *loop) {
  if (auto n = dialect(loop).getNumStagesAttrHelper().getAttr(loop)) return static_cast<unsigned>(n.getInt());
  return std::nullopt;
}

unsigned loopNumStages(Operation *loop, unsigned kernelStages) { return ownNumStages(loop).value_or(kernelStages); }

void setLoopNumStages(Operation *loop, unsigned numStages) {
  dialect(loop).getNumStagesAttrHelper().setAttr(loop, Builder(loop->getContext()).getI32IntegerAttr(static_cast<int32_t>(numStages)));
}

void setLoopUnrollFactor(Operation *loop, unsigned factor) {
  dialect(loop).getUnrollFactorAttrHelper().setAttr(loop, Builder(loop->getContext()).getI32IntegerAttr(static_cast<int32_t>(factor)));
}

std::optional<unsigned> loopUnrollFactor(Operation *loop) {
  if (auto n = dialect(loop).getUnrollFactorAttrHelper().getAttr(loop)) return static_cast<unsigned>(n.getInt());
  return std::nullopt;
}

const TargetInfo &targetOf(Operation *op, const std::string &override) {
  if (const TargetInfo *t = override.empty() ? nullptr : findTarget(override)) return *t;
  if (auto name = dialect(op).getTargetAttrHelper().getAttr(kernelOf(op)))
    if (const TargetInfo *t = findTarget(name.getValue().str())) return *t;
  return defaultTarget();
}

void setKernelSettings(Operation *kernel, unsigned numWarps, unsigned numStages, const TargetInfo &target) {
  TleDialect &d = dialect(kernel);
  Builder b(kernel->getContext());
  d.getKernelAttrHelper().setAttr(kernel, b.getUnitAttr());
  d.getNumWarpsAttrHelper().setAttr(kernel, b.getI32IntegerAttr(static_cast<int32_t>(numWarps)));
  // Recorded only when given, so that a pass can tell a request from the default.
  if (numStages != 0) d.getNumStagesAttrHelper().setAttr(kernel, b.getI32IntegerAttr(static_cast<int32_t>(numStages)));
  d.getTargetAttrHelper().setAttr(kernel, b.getStringAttr(target.name()));
}

}  // namespace tle::ir

namespace tle::ir {

namespace {

Attribute parameterAttr(Operation *kernel, unsigned index, StringAttr name) {
  auto f = dyn_cast<FunctionOpInterface>(kernel);
  return f ? f.getArgAttr(index, name) : Attribute();
}

}  // namespace

std::string parameterName(Operation *kernel, unsigned index) {
  auto name = dyn_cast_or_null<StringAttr>(parameterAttr(kernel, index, dialect(kernel).getNameAttrHelper().getName()));
  return name ? name.getValue().str() : "";
}

unsigned parameterDivisibility(Operation *kernel, unsigned index) {
  auto d = dyn_cast_or_null<IntegerAttr>(parameterAttr(kernel, index, dialect(kernel).getDivisibilityAttrHelper().getName()));
  return d ? static_cast<unsigned>(d.getInt()) : 1;
}

void setParameterDivisibility(Operation *kernel, unsigned index, unsigned divisibility) {
  auto f = cast<FunctionOpInterface>(kernel);
  f.setArgAttr(index, dialect(kernel).getDivisibilityAttrHelper().getName(),
               Builder(kernel->getContext()).getI32IntegerAttr(static_cast<int32_t>(divisibility)));
}

bool parameterReadonly(Operation *kernel, unsigned index) {
  return parameterAttr(kernel, index, dialect(kernel).getReadonlyAttrHelper().getName()) != nullptr;
}

DictionaryAttr parameterAttributes(MLIRContext *ctx, const std::string &name, unsigned divisibility, bool readonly, bool isUnsigned) {
  TleDialect &d = *ctx->getOrLoadDialect<TleDialect>();
  Builder b(ctx);
  NamedAttrList attrs;
  if (divisibility > 1) attrs.append(d.getDivisibilityAttrHelper().getName(), b.getI32IntegerAttr(static_cast<int32_t>(divisibility)));
  if (readonly) attrs.append(d.getReadonlyAttrHelper().getName(), b.getUnitAttr());
  if (isUnsigned) attrs.append(d.getUnsignedAttrHelper().getName(), b.getUnitAttr());
  attrs.append(d.getNameAttrHelper().getName(), b.getStringAttr(name));
  return attrs.getDictionary(ctx);
}

}  // namespace tle::ir
