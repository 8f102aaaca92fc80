// Printing and assertions: tl.device_print (and Python's print, which Triton maps to it),
// tl.device_assert and runtime `assert` statements (tle.print, tle.assert), and
// tl.static_print and tl.static_assert, which act while the kernel is compiled.
#include "sema/builtins/Builtins.h"
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

#include <cmath>
#include <cstdio>

namespace tle::sema {

namespace {

// Python's repr of a float: the shortest text that reads back as the same double.
std::string floatRepr(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

// What Python's print shows for a compile-time value (`repr` inside tuples).
std::string display(const Value &v, bool nested) {
  switch (v.kind) {
  case Value::Kind::None: return "None";
  case Value::Kind::Bool: return v.boolValue ? "True" : "False";
  case Value::Kind::Int: return std::to_string(v.intValue);
  case Value::Kind::Float: return floatRepr(v.floatValue);
  case Value::Kind::Str: return nested ? "'" + v.text + "'" : v.text;
  case Value::Kind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < v.elements.size(); ++i) s += (i ? ", " : "") + display(v.elements[i], true);
    return s + (v.elements.size() == 1 ? ",)" : ")");
  }
  case Value::Kind::DType: return v.dtypeIsPointer ? v.describe() : dtypeName(v.dtype);
  default: return v.describe();
  }
}

}  // namespace

void deviceAssert(LoweringContext &cx, const Value &condition, const std::string &message, const std::optional<Value> &mask,
                  SourceRange at) {
  if (!condition.isRuntime() && cx.truthy(condition, at)) return;  // statically true: nothing to check
  Value c = condition.isRuntime() ? condition : cx.toRuntime(condition, at);
  if (c.type.isPointer || c.type.isBlockPtr || c.type.isBuffer || c.type.isTensorDesc)
    cx.fail(at, DiagId::TypeMismatch, "an assertion needs a condition (a scalar or a block of numbers), got " + withArticle(c.type.str()));
  if (c.type.dtype != DType::I1) c = cx.cast(c, DType::I1, at);
  if (mask && mask->kind != Value::Kind::None) {  // lanes outside the mask are not checked
    Value m = cx.toRuntime(*mask, at);
    if (m.type.isPointer || m.type.isBlockPtr || m.type.isBuffer || m.type.isTensorDesc)
      cx.fail(at, DiagId::TypeMismatch, "an assertion's mask must be a condition, got " + withArticle(m.type.str()));
    if (m.type.dtype != DType::I1) m = cx.cast(m, DType::I1, at);
    c = cx.binary(ast::BinaryOp::BitOr, c, cx.unary(ast::UnaryOp::Invert, m, at), at, at, at);  // broadcasts both
  }
  mlir::OpBuilder &b = cx.builder();
  b.create<tle::ir::AssertOp>(cx.loc(at), c.ir, b.getStringAttr(message));
}

namespace {

// tl.static_print(*values, sep=" ", end=""): a note while the kernel is compiled.
Value staticPrint(LoweringContext &cx, BuiltinCall &c) {
  CallArgs &args = c.args;
  SourceRange at = c.at;
  std::string sep = " ", end;
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const auto &[key, v] = args.keywords[k];
    if ((key == "sep" || key == "end") && v.kind == Value::Kind::Str) (key == "sep" ? sep : end) = v.text;
    else if (key != "file" && key != "flush")
      cx.fail(args.keywordRanges[k], DiagId::ArgumentMismatch, "tl.static_print has no parameter '" + key + "'");
  }
  std::string text;
  for (size_t i = 0; i < args.positional.size(); ++i) text += (i ? sep : "") + display(args.positional[i], false);
  cx.diags().report(DiagId::StaticPrint, at, text + end);
  return Value::none();
}

Value staticAssert(LoweringContext &cx, BuiltinCall &c) {
  auto a = bindArgs(cx, "tl.static_assert", {{"cond", true}, {"msg", false}}, c.args, c.at);
  if (a[0]->isRuntime()) cx.fail(c.at, DiagId::NotConstexpr, "tl.static_assert needs a compile-time condition");
  if (!cx.truthy(*a[0], c.at)) {
    std::string msg = "static assertion failed";
    if (a[1] && a[1]->kind == Value::Kind::Str && !a[1]->text.empty()) msg += ": " + a[1]->text;
    cx.fail(c.at, DiagId::StaticAssertFailed, msg);
  }
  return Value::none();
}

// tl.device_assert(cond, msg="", mask=None).
Value deviceAssertCall(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tl.device_assert", {{"cond", true}, {"msg", false}, {"mask", false}}, c.args, at, &where);
  std::string msg;
  if (a[1] && a[1]->kind != Value::Kind::None) {
    if (a[1]->kind != Value::Kind::Str) cx.fail(where[1], DiagId::TypeMismatch, "the assertion message must be a string, got " + a[1]->describe());
    msg = a[1]->text;
  }
  deviceAssert(cx, *a[0], msg, a[2], where[0]);
  return Value::none();
}

// tl.device_print(prefix, *args, hex=False); Python's print(prefix, *args) is the same.
Value devicePrint(LoweringContext &cx, BuiltinCall &c) {
  CallArgs &args = c.args;
  SourceRange at = c.at;
  std::string fn = c.name == "print" ? "print (tl.device_print)" : "tl.device_print";
  bool hex = false;
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const auto &[key, v] = args.keywords[k];
    if (key == "hex") hex = cx.truthy(v, args.keywordRanges[k]);
    else if (key == "prefix" && args.positional.empty()) args.positional.push_back(v), args.positionalRanges.push_back(args.keywordRanges[k]);
    else cx.fail(args.keywordRanges[k], DiagId::ArgumentMismatch, fn + " has no parameter '" + key + "' (its parameters: prefix, *args, hex)");
  }
  if (args.positional.empty()) cx.fail(at, DiagId::ArgumentMismatch, fn + " needs a string prefix as its first argument");
  const Value &prefixArg = args.positional[0];
  if (prefixArg.kind != Value::Kind::Str)
    cx.fail(args.positionalRanges[0], DiagId::TypeMismatch, fn + " needs a string prefix as its first argument, got " +
                                                                (prefixArg.isRuntime() ? withArticle(prefixArg.type.str()) : prefixArg.describe()));
  std::string prefix = prefixArg.text;
  for (unsigned char ch : prefix)
    if (ch < 0x20 || ch > 0x7e)
      cx.fail(args.positionalRanges[0], DiagId::ConstantError, fn + "'s prefix must be printable ASCII text");
  if (prefix.size() > 2 && prefix[0] != ' ') prefix = " " + prefix;  // as Triton does
  std::vector<mlir::Value> operands;
  std::vector<int32_t> isSigned;
  for (size_t i = 1; i < args.positional.size(); ++i) {
    const Value &v = args.positional[i];
    SourceRange r = args.positionalRanges[i];
    if (!v.isRuntime() && !v.isNumber())
      cx.fail(r, DiagId::TypeMismatch, fn + " prints numbers, blocks and pointers, not " + withArticle(v.describe()));
    Value x = cx.toRuntime(v, r);
    if (x.type.isBlockPtr || x.type.isBuffer || x.type.isTensorDesc)
      cx.fail(r, DiagId::TypeMismatch, fn + " cannot print " + withArticle(x.type.str()));
    operands.push_back(x.ir);
    isSigned.push_back(!x.type.isPointer && isInt(x.type.dtype) && !isUnsigned(x.type.dtype) && x.type.dtype != DType::I1);
  }
  mlir::OpBuilder &b = cx.builder();
  b.create<tle::ir::PrintOp>(cx.loc(at), b.getStringAttr(prefix), hex, operands, b.getDenseI32ArrayAttr(isSigned));
  return Value::none();
}

}  // namespace

void registerDebugBuiltins(BuiltinRegistry &r) {
  r.add("print", devicePrint);
  r.addTlOrMethod("device_print", devicePrint);
  r.addTlOrMethod("device_assert", deviceAssertCall);
  r.addTlOrMethod("static_print", staticPrint);
  r.add("triton.language.static_assert", staticAssert);
}

}  // namespace tle::sema
