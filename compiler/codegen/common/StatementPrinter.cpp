#include "codegen/common/StatementPrinter.h"

#include "codegen/common/Naming.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

namespace tle::codegen {

using namespace mlir;

std::string StatementPrinter::claim(std::string name) {
  std::string candidate = name;
  for (int i = 2; !used_.insert(candidate).second; ++i) candidate = name + "_" + std::to_string(i);
  return candidate;
}

std::string StatementPrinter::newName(Value v, StringRef fallback) {
  std::string base;
  if (Operation *def = v.getDefiningOp())
    if (auto n = nameFromLocation(def->getLoc()); n && def->getNumResults() == 1) base = sanitize(*n, reserved_);
  if (base.empty()) base = fallback.str();
  std::string n = claim(base);
  names_[v] = n;
  return n;
}

std::ostringstream &StatementPrinter::line() {
  body_ << std::string(indent_ * 2, ' ');
  return body_;
}

std::vector<std::string> StatementPrinter::declareCarried(ValueRange inits, ValueRange carried, StringRef fallback) {
  std::vector<std::string> vars;
  for (auto [init, value] : llvm::zip(inits, carried)) {
    std::string name = newName(value, fallback);
    line() << variableType(value) << " " << name;
    if (init) body_ << " = " << expr(init);
    body_ << ";\n";
    vars.push_back(name);
  }
  return vars;
}

void StatementPrinter::assignCarried(const std::vector<std::string> &vars, ValueRange values) {
  // Through temporaries when a yielded value is itself a carried variable (a swap).
  bool needTemps = false;
  for (Value v : values)
    if (std::find(vars.begin(), vars.end(), expr(v)) != vars.end()) needTemps = true;
  std::vector<std::string> sources;
  for (Value v : values) {
    if (!needTemps) {
      sources.push_back(expr(v));
      continue;
    }
    std::string tmp = claim("next");
    line() << "const auto " << tmp << " = " << expr(v) << ";\n";
    sources.push_back(tmp);
  }
  for (size_t i = 0; i < vars.size(); ++i)
    if (vars[i] != sources[i]) line() << vars[i] << " = " << sources[i] << ";\n";
}

void StatementPrinter::forLoop(scf::ForOp f) {
  std::vector<std::string> vars = declareCarried(f.getInitArgs(), f.getRegionIterArgs(), "carried");
  beforeLoop(f);
  std::string iv = claim("i");
  names_[f.getInductionVar()] = iv;
  line() << "for (" << variableType(f.getInductionVar()) << " " << iv << " = " << expr(f.getLowerBound()) << "; " << iv << " < "
         << expr(f.getUpperBound()) << "; " << iv << " += " << expr(f.getStep()) << ") {\n";
  ++indent_;
  block(*f.getBody());
  assignCarried(vars, f.getBody()->getTerminator()->getOperands());
  endOfIteration(f);
  --indent_;
  line() << "}\n";
  for (auto [i, result] : llvm::enumerate(f.getResults())) names_[result] = vars[i];
}

void StatementPrinter::ifElse(scf::IfOp i) {
  std::vector<std::string> vars;
  for (Value result : i.getResults()) {
    std::string name = newName(result, "selected");
    line() << variableType(result) << " " << name << ";\n";
    vars.push_back(name);
  }
  line() << "if (" << expr(i.getCondition()) << ") {\n";
  ++indent_;
  block(i.getThenRegion().front());
  assignCarried(vars, i.getThenRegion().front().getTerminator()->getOperands());
  --indent_;
  if (!i.getElseRegion().empty()) {
    line() << "} else {\n";
    ++indent_;
    block(i.getElseRegion().front());
    assignCarried(vars, i.getElseRegion().front().getTerminator()->getOperands());
    --indent_;
  }
  line() << "}\n";
}

void StatementPrinter::whileLoop(scf::WhileOp w) {
  std::vector<std::string> before = declareCarried(w.getInits(), w.getBeforeArguments(), "state");
  SmallVector<Value> noInits(w.getAfterArguments().size());
  std::vector<std::string> after = declareCarried(noInits, w.getAfterArguments(), "value");
  line() << "while (true) {\n";
  ++indent_;
  block(w.getBefore().front());
  scf::ConditionOp cond = w.getConditionOp();
  assignCarried(after, cond.getArgs());
  line() << "if (!" << expr(cond.getCondition()) << ") break;\n";
  block(w.getAfter().front());
  assignCarried(before, w.getAfter().front().getTerminator()->getOperands());
  --indent_;
  line() << "}\n";
  for (auto [i, result] : llvm::enumerate(w.getResults())) names_[result] = after[i];
}

}  // namespace tle::codegen
