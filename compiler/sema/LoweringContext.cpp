// Diagnostics, locations, compile-time checks and argument binding of the lowering context
// (conversions and operators are in Operators.cpp).
#include "sema/LoweringContext.h"

namespace tle::sema {

void LoweringContext::fail(SourceRange at, DiagId id, const std::string &message) {
  diags_.report(id, at, message);
  throw LoweringFailed{};
}

mlir::Location LoweringContext::loc(SourceRange r) {
  return mlir::FileLineColLoc::get(builder_.getContext(), module().fileName, r.begin.line, r.begin.column);
}

bool LoweringContext::truthy(const Value &v, SourceRange at) {
  Value out;
  std::string error;
  if (v.isRuntime() || !foldUnary(ast::UnaryOp::Not, v, out, error))
    fail(at, DiagId::NotConstexpr, "this condition must be known at compile time, but it is a runtime " + v.describe());
  return !out.boolValue;
}

int64_t LoweringContext::requireInt(const Value &v, SourceRange at, const char *what) {
  if (v.kind == Value::Kind::Int) return v.intValue;
  if (v.kind == Value::Kind::Bool) return v.boolValue;
  if (v.isRuntime())
    fail(at, DiagId::NotConstexpr, std::string(what) + " must be a compile-time integer (tl.constexpr), but it is a runtime " +
                                       v.describe());
  fail(at, DiagId::TypeMismatch, std::string(what) + " must be an integer, got " + v.describe());
}

DType LoweringContext::requireDType(const Value &v, SourceRange at, const char *what) {
  if (v.kind != Value::Kind::DType)
    fail(at, DiagId::TypeMismatch, std::string(what) + " must be a dtype such as tl.float32, got " + v.describe());
  return v.dtype;
}

std::vector<std::optional<Value>> bindArgs(LoweringContext &cx, const std::string &fn, const std::vector<ParamSpec> &params,
                                           CallArgs &args, SourceRange at, std::vector<SourceRange> *ranges) {
  std::vector<std::optional<Value>> out(params.size());
  std::vector<SourceRange> where(params.size(), at);
  if (args.positional.size() > params.size())
    cx.fail(at, DiagId::ArgumentMismatch,
            fn + " takes at most " + std::to_string(params.size()) + " positional arguments, got " +
                std::to_string(args.positional.size()));
  for (size_t i = 0; i < args.positional.size(); ++i) {
    out[i] = args.positional[i];
    if (i < args.positionalRanges.size()) where[i] = args.positionalRanges[i];
  }
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const std::string &key = args.keywords[k].first;
    size_t i = 0;
    while (i < params.size() && key != params[i].name) ++i;
    if (i == params.size()) {
      std::string names;
      for (const ParamSpec &p : params) names += (names.empty() ? "" : ", ") + std::string(p.name);
      cx.fail(args.keywordRanges[k], DiagId::ArgumentMismatch,
              fn + " has no parameter '" + key + "' (its parameters: " + names + ")");
    }
    if (out[i]) cx.fail(args.keywordRanges[k], DiagId::ArgumentMismatch, fn + " got two values for '" + key + "'");
    out[i] = args.keywords[k].second;
    where[i] = args.keywordRanges[k];
  }
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].required && !out[i])
      cx.fail(at, DiagId::ArgumentMismatch, fn + " is missing its '" + params[i].name + "' argument");
  if (ranges) *ranges = where;
  return out;
}

}  // namespace tle::sema
