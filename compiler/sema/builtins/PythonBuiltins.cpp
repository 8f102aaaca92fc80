// Python's builtins in a kernel (min, max, len, int, float, bool, abs, isinstance, dtype
// queries) and Triton's compile-time helpers (cdiv, next_power_of_2, constexpr); names that
// are only valid elsewhere (range outside a for, decorators) fail here.
#include "sema/builtins/Builtins.h"
#include "sema/builtins/Registry.h"

#include <cmath>

namespace tle::sema {

namespace {

// range(), tl.range(), tl.static_range(): lowered by the for statement itself.
Value onlyAsLoopIterable(LoweringContext &cx, BuiltinCall &c) {
  cx.fail(c.at, DiagId::UnsupportedInKernel, c.member + "() can only be used as the iterable of a 'for' loop");
}

Value notSupportedYet(LoweringContext &cx, BuiltinCall &c) {
  cx.fail(c.at, DiagId::NotImplemented, c.name + "() is not supported in kernels yet");
}

Value decorator(LoweringContext &cx, BuiltinCall &c) {
  cx.fail(c.at, DiagId::UnsupportedInKernel, c.name + " is a decorator/configuration and cannot be called inside a kernel");
}

// min(a, b, ...) / max(...), or of one tuple.
Value pythonMinMax(LoweringContext &cx, BuiltinCall &c) {
  std::vector<Value> items = c.args.positional;
  if (items.size() == 1 && items[0].kind == Value::Kind::Tuple) items = items[0].elements;
  if (items.empty()) cx.fail(c.at, DiagId::ArgumentMismatch, c.name + "() needs at least one argument");
  Value best = items[0];
  for (size_t i = 1; i < items.size(); ++i) {
    // On runtime values Python's min/max mean tl.minimum/tl.maximum, as in Triton.
    if (items[i].isRuntime() || best.isRuntime()) {
      best = cx.minMax(c.name == "max", best, items[i], false, c.at);
      continue;
    }
    Value less;
    std::string err;
    if (!foldCompare(c.name == "min" ? ast::CmpOp::Lt : ast::CmpOp::Gt, items[i], best, less, err))
      cx.fail(c.at, DiagId::TypeMismatch, "cannot compare " + items[i].describe() + " and " + best.describe());
    if (less.boolValue) best = items[i];
  }
  return best;
}

Value len(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "len()", {{"obj", true}}, c.args, c.at);
  if (a[0]->kind == Value::Kind::Tuple) return Value::ofInt(static_cast<int64_t>(a[0]->elements.size()));
  if (a[0]->kind == Value::Kind::Str) return Value::ofInt(static_cast<int64_t>(a[0]->text.size()));
  if (a[0]->isRuntime() && a[0]->type.isBlock()) return Value::ofInt(a[0]->type.shape[0]);
  cx.fail(c.at, DiagId::TypeMismatch, "len() of " + a[0]->describe());
}

Value floatOfString(LoweringContext &cx, const std::string &text, SourceRange at) {
  std::string t = text;
  for (char &ch : t) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (t == "inf" || t == "+inf" || t == "infinity") return Value::ofFloat(HUGE_VAL);
  if (t == "-inf" || t == "-infinity") return Value::ofFloat(-HUGE_VAL);
  if (t == "nan" || t == "+nan" || t == "-nan") return Value::ofFloat(std::nan(""));
  char *end = nullptr;
  double d = std::strtod(text.c_str(), &end);
  if (end && *end == '\0' && !text.empty()) return Value::ofFloat(d);
  cx.fail(at, DiagId::ConstantError, "could not convert string to float: '" + text + "'");
}

// int(x), float(x), bool(x), abs(x): compile-time conversions; abs of a runtime value is tl.abs.
Value numberConversion(LoweringContext &cx, BuiltinCall &c) {
  const std::string &name = c.name;
  auto a = bindArgs(cx, name + "()", {{"x", true}}, c.args, c.at);
  const Value &x = *a[0];
  if (x.isRuntime()) {
    if (name == "abs") {
      CallArgs inner;
      inner.positional = {x};
      inner.positionalRanges = {c.at};
      return callBuiltin(cx, Value::ofBuiltin("triton.language.abs"), inner, c.at);
    }
    cx.fail(c.at, DiagId::NotConstexpr, name + "() needs a compile-time value; use .to(...) on runtime values");
  }
  if (name == "float" && x.kind == Value::Kind::Str) return floatOfString(cx, x.text, c.at);
  double f = x.kind == Value::Kind::Float ? x.floatValue : static_cast<double>(x.kind == Value::Kind::Bool ? x.boolValue : x.intValue);
  if (!x.isNumber()) {
    if (name == "bool") return Value::ofBool(cx.truthy(x, c.at));
    cx.fail(c.at, DiagId::TypeMismatch, name + "() of " + x.describe());
  }
  if (name == "int") return Value::ofInt(static_cast<int64_t>(f));
  if (name == "float") return Value::ofFloat(f);
  if (name == "bool") return Value::ofBool(f != 0);
  if (x.kind == Value::Kind::Float) return Value::ofFloat(std::fabs(f));
  return Value::ofInt(static_cast<int64_t>(std::llabs(static_cast<long long>(f))));
}

Value isInstance(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "isinstance()", {{"obj", true}, {"classinfo", true}}, c.args, c.at);
  std::vector<Value> classes = a[1]->kind == Value::Kind::Tuple ? a[1]->elements : std::vector<Value>{*a[1]};
  for (const Value &cls : classes) {
    if (cls.kind != Value::Kind::Builtin) cx.fail(c.at, DiagId::TypeMismatch, "isinstance() needs types, got " + cls.describe());
    const std::string &t = cls.text;
    const Value &o = *a[0];
    bool match = (t == "int" && (o.kind == Value::Kind::Int || o.kind == Value::Kind::Bool)) ||
                 (t == "float" && o.kind == Value::Kind::Float) || (t == "bool" && o.kind == Value::Kind::Bool) ||
                 (t == "str" && o.kind == Value::Kind::Str) ||
                 ((t == "tuple" || t == "list") && o.kind == Value::Kind::Tuple) ||
                 (t == "triton.language.constexpr" && !o.isRuntime()) ||
                 (t == "triton.language.tensor_descriptor" && o.isRuntime() && o.type.isTensorDesc) ||
                 (t == "triton.language.tensor" && o.isRuntime() && !o.type.isTensorDesc && !o.type.isBlockPtr &&
                  !o.type.isBuffer);
    if (match) return Value::ofBool(true);
  }
  return Value::ofBool(false);
}

// tl.float16.is_floating() and the other dtype queries.
Value dtypeQuery(LoweringContext &cx, BuiltinCall &c) {
  bindArgs(cx, c.name, {{"self", true}}, c.args, c.at);
  DType d = c.fn.boundArgs[0].dtype;
  std::string q = c.name.substr(6);
  bool r = q == "is_floating" ? isFloat(d) : q == "is_int" ? isInt(d) : q == "is_int_signed" ? isInt(d) && !isUnsigned(d)
         : q == "is_int_unsigned" ? isUnsigned(d) : q == "is_fp8" ? isFp8(d) : q == "is_bf16" ? d == DType::BF16
         : q == "is_fp16" ? d == DType::FP16 : q == "is_fp32" ? d == DType::FP32 : d == DType::FP64;
  return Value::ofBool(r);
}

Value cdiv(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "cdiv", {{"x", true}, {"div", true}}, c.args, c.at);
  Value sum = cx.binary(ast::BinaryOp::Add, *a[0], *a[1], c.at, c.at, c.at);
  sum = cx.binary(ast::BinaryOp::Sub, sum, Value::ofInt(1), c.at, c.at, c.at);
  return cx.binary(ast::BinaryOp::FloorDiv, sum, *a[1], c.at, c.at, c.at);
}

Value nextPowerOf2(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "triton.next_power_of_2", {{"n", true}}, c.args, c.at);
  int64_t n = cx.requireInt(*a[0], c.at, "next_power_of_2's argument");
  int64_t p = 1;
  while (p < n && p < (int64_t(1) << 62)) p <<= 1;
  return Value::ofInt(p);
}

Value constexprValue(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "tl.constexpr", {{"value", true}}, c.args, c.at);
  if (a[0]->isRuntime()) cx.fail(c.at, DiagId::NotConstexpr, "tl.constexpr() needs a compile-time value");
  return *a[0];
}

// `with tle.pipeline_group(n):` groups loads for pipelining. tlec pipelines by its own plan
// (tle-plan-async-copies), so the grouping is not honoured: a warning says so.
Value pipelineGroup(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "tle.pipeline_group", {{"group", true}}, c.args, c.at);
  cx.requireInt(*a[0], c.at, "the pipeline group");
  cx.diags().report(DiagId::IgnoredHint, c.at,
                    "tle.pipeline_group is not honoured by tlec yet; the loads in it are pipelined by tlec's own plan");
  return Value::ofBuiltin("tle.pipeline_group.instance");
}

}  // namespace

// tl.dtype("uint32"): a dtype by Triton's name for it (int1, int8 ... uint64, fp8e4nv ...,
// fp16, bf16, fp32, fp64).
Value dtypeByName(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.dtype", {{"name", true}}, c.args, c.at, &where);
  if (a[0]->kind != Value::Kind::Str) cx.fail(where[0], DiagId::TypeMismatch, "tl.dtype needs a dtype name (a string), got " + a[0]->describe());
  const std::string &name = a[0]->text;
  // Triton spells integers "int32"/"uint32" and floats "fp32"/"bf16".
  std::optional<DType> d = dtypeFromTlName(name);
  if (d && isFloat(*d)) d = std::nullopt;
  if (!d) {
    d = dtypeFromName(name);
    if (d && !isFloat(*d)) d = std::nullopt;
  }
  if (!d)
    cx.fail(where[0], DiagId::ConstantError, "'" + name + "' is not a dtype name; Triton's are int1, int8, int16, int32, int64, uint8, "
                                             "uint16, uint32, uint64, fp8e4nv, fp8e5, fp8e4b15, fp8e4b8, fp8e5b16, fp16, bf16, fp32, fp64");
  return Value::ofDType(*d);
}

void registerPythonBuiltins(BuiltinRegistry &r) {
  r.add("triton.language.dtype", dtypeByName);
  r.add("range", onlyAsLoopIterable);
  for (const char *name : {"triton.language.static_range", "triton.language.range", "tle.range"}) r.add(name, onlyAsLoopIterable);
  r.add("min", pythonMinMax);
  r.add("max", pythonMinMax);
  r.add("len", len);
  for (const char *name : {"int", "float", "bool", "abs"}) r.add(name, numberConversion);
  r.add("isinstance", isInstance);
  r.addFamily("dtype.", dtypeQuery);
  for (const char *name : {"tuple", "list", "str"}) r.add(name, notSupportedYet);
  r.add("triton.cdiv", cdiv);
  r.add("triton.language.cdiv", cdiv);
  r.add("triton.next_power_of_2", nextPowerOf2);
  for (const char *name : {"triton.jit", "triton.autotune", "triton.heuristics", "triton.Config"}) r.add(name, decorator);
  r.add("triton.language.constexpr", constexprValue);
  r.add("tle.pipeline_group", pipelineGroup);
}

}  // namespace tle::sema
