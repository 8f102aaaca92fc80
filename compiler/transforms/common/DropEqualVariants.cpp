// tle-drop-equal-variants: a variant of a kernel (tle-specialize-parameters) whose code, once
// the target's passes have run, is the code of the variant the launcher tries next, under
// assumptions that variant also makes, gains nothing: every argument it accepts reaches the
// same code one check later. It goes, and the rest are renumbered in order.
#include "transforms/common/Passes.h"

#include "ir/Dialect.h"
#include "ir/KernelSettings.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <map>

namespace tle::common {

#define GEN_PASS_DEF_DROPEQUALVARIANTS
#include "transforms/common/Passes.h.inc"

using namespace mlir;

namespace {

// The attributes that say what the function is, not which variant: all but its name, its
// place among the variants and its parameters' divisibility (the launcher checks those; the
// code already reflects them).
DictionaryAttr codeAttributes(func::FuncOp f, StringRef variantName) {
  NamedAttrList kept;
  for (NamedAttribute a : f->getAttrs())
    if (a.getName() != f.getSymNameAttrName() && a.getName() != variantName && a.getName() != f.getArgAttrsAttrName())
      kept.push_back(a);
  return kept.getDictionary(f.getContext());
}

DictionaryAttr parameterAttributes(func::FuncOp f, unsigned i, StringRef divisibilityName) {
  NamedAttrList kept;
  for (NamedAttribute a : cast<FunctionOpInterface>(f.getOperation()).getArgAttrs(i))
    if (a.getName() != divisibilityName) kept.push_back(a);
  return kept.getDictionary(f.getContext());
}

bool sameCode(func::FuncOp a, func::FuncOp b, ir::TleDialect &tle) {
  const StringRef variantName = tle.getVariantAttrHelper().getName();
  const StringRef divisibilityName = tle.getDivisibilityAttrHelper().getName();
  if (a.getFunctionType() != b.getFunctionType() || codeAttributes(a, variantName) != codeAttributes(b, variantName))
    return false;
  for (unsigned i = 0; i < a.getNumArguments(); ++i)
    if (parameterAttributes(a, i, divisibilityName) != parameterAttributes(b, i, divisibilityName)) return false;
  return OperationEquivalence::isRegionEquivalentTo(&a.getBody(), &b.getBody(), OperationEquivalence::Flags::None);
}

// Whether every argument list `stronger` accepts, `weaker` accepts too (same parameters).
bool assumesNoMore(func::FuncOp weaker, func::FuncOp stronger) {
  for (unsigned i = 0; i < weaker.getNumArguments(); ++i) {
    const unsigned need = ir::parameterDivisibility(weaker, i), have = ir::parameterDivisibility(stronger, i);
    if (need > 1 && have % need != 0) return false;
  }
  return true;
}

struct DropEqualVariantsPass : impl::DropEqualVariantsBase<DropEqualVariantsPass> {
  void runOnOperation() override {
    auto &tle = *getContext().getOrLoadDialect<ir::TleDialect>();
    // Each launcher's kernels in the order it tries them: the variants by number, the
    // generic kernel last.
    std::map<std::string, SmallVector<func::FuncOp>> groups;
    for (auto f : getOperation().getOps<func::FuncOp>())
      if (!ir::dispatchSymbol(f).empty()) groups[ir::dispatchSymbol(f)].push_back(f);
    for (auto &[symbol, kernels] : groups) {
      llvm::stable_sort(kernels, [](func::FuncOp a, func::FuncOp b) {
        const unsigned x = ir::variantIndex(a), y = ir::variantIndex(b);
        return (x == 0 ? ~0u : x) < (y == 0 ? ~0u : y);
      });
      for (size_t i = 0; i + 1 < kernels.size();) {
        if (sameCode(kernels[i], kernels[i + 1], tle) && assumesNoMore(kernels[i + 1], kernels[i])) {
          kernels[i].erase();
          kernels.erase(kernels.begin() + static_cast<std::ptrdiff_t>(i));
          if (i > 0) --i;  // the one before may now equal its new successor
        } else {
          ++i;
        }
      }
      if (kernels.size() == 1) {
        // Only the generic kernel is left: a kernel launched on its own.
        tle.getDispatchAttrHelper().removeAttr(kernels.front());
        tle.getVariantAttrHelper().removeAttr(kernels.front());
        continue;
      }
      for (size_t i = 0; i + 1 < kernels.size(); ++i) {
        kernels[i].setSymName(ir::variantSymbol(symbol, static_cast<unsigned>(i + 1)));
        ir::setDispatch(kernels[i], symbol, static_cast<unsigned>(i + 1));
      }
    }
  }
};

}  // namespace

}  // namespace tle::common
