// Printing and assertions: tl.device_print (and Python's print, which Triton maps to it),
// tl.device_assert and runtime `assert` statements (tle.print, tle.assert), and
// tl.static_print, which prints while the kernel is compiled.
#include "sema/Lowering.h"

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

void FunctionLowering::deviceAssert(const Value &condition, const std::string &message, const std::optional<Value> &mask,
                                    SourceRange at) {
  if (!condition.isRuntime() && truthy(condition, at)) return;  // statically true: nothing to check
  Value c = condition.isRuntime() ? condition : toRuntime(condition, at);
  if (c.type.isPointer || c.type.isBlockPtr || c.type.isBuffer || c.type.isTensorDesc)
    fail(at, DiagId::TypeMismatch, "an assertion needs a condition (a scalar or a block of numbers), got " + withArticle(c.type.str()));
  if (c.type.dtype != DType::I1) c = cast(c, DType::I1, at);
  if (mask && mask->kind != Value::Kind::None) {  // lanes outside the mask are not checked
    Value m = toRuntime(*mask, at);
    if (m.type.isPointer || m.type.isBlockPtr || m.type.isBuffer || m.type.isTensorDesc)
      fail(at, DiagId::TypeMismatch, "an assertion's mask must be a condition, got " + withArticle(m.type.str()));
    if (m.type.dtype != DType::I1) m = cast(m, DType::I1, at);
    c = binary(ast::BinaryOp::BitOr, c, unary(ast::UnaryOp::Invert, m, at), at, at, at);  // broadcasts both
  }
  builder_.create<tle::ir::AssertOp>(loc(at), c.ir, builder_.getStringAttr(message));
}

Value FunctionLowering::debugging(const std::string &name, CallArgs &args, SourceRange at) {
  std::vector<SourceRange> where;
  if (name == "triton.language.static_print") {
    std::string sep = " ", end;
    for (size_t k = 0; k < args.keywords.size(); ++k) {
      const auto &[key, v] = args.keywords[k];
      if ((key == "sep" || key == "end") && v.kind == Value::Kind::Str) (key == "sep" ? sep : end) = v.text;
      else if (key != "file" && key != "flush")
        fail(args.keywordRanges[k], DiagId::ArgumentMismatch, "tl.static_print has no parameter '" + key + "'");
    }
    std::string text;
    for (size_t i = 0; i < args.positional.size(); ++i) text += (i ? sep : "") + display(args.positional[i], false);
    diags_.report(DiagId::StaticPrint, at, text + end);
    return Value::none();
  }
  if (name == "triton.language.device_assert") {
    auto a = bindArgs(*this, "tl.device_assert", {{"cond", true}, {"msg", false}, {"mask", false}}, args, at, &where);
    std::string msg;
    if (a[1] && a[1]->kind != Value::Kind::None) {
      if (a[1]->kind != Value::Kind::Str) fail(where[1], DiagId::TypeMismatch, "the assertion message must be a string, got " + a[1]->describe());
      msg = a[1]->text;
    }
    deviceAssert(*a[0], msg, a[2], where[0]);
    return Value::none();
  }
  // tl.device_print(prefix, *args, hex=False); Python's print(prefix, *args) is the same.
  std::string fn = name == "print" ? "print (tl.device_print)" : "tl.device_print";
  bool hex = false;
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const auto &[key, v] = args.keywords[k];
    if (key == "hex") hex = truthy(v, args.keywordRanges[k]);
    else if (key == "prefix" && args.positional.empty()) args.positional.push_back(v), args.positionalRanges.push_back(args.keywordRanges[k]);
    else fail(args.keywordRanges[k], DiagId::ArgumentMismatch, fn + " has no parameter '" + key + "' (its parameters: prefix, *args, hex)");
  }
  if (args.positional.empty()) fail(at, DiagId::ArgumentMismatch, fn + " needs a string prefix as its first argument");
  const Value &prefixArg = args.positional[0];
  if (prefixArg.kind != Value::Kind::Str)
    fail(args.positionalRanges[0], DiagId::TypeMismatch, fn + " needs a string prefix as its first argument, got " +
                                                             (prefixArg.isRuntime() ? withArticle(prefixArg.type.str()) : prefixArg.describe()));
  std::string prefix = prefixArg.text;
  for (unsigned char ch : prefix)
    if (ch < 0x20 || ch > 0x7e)
      fail(args.positionalRanges[0], DiagId::ConstantError, fn + "'s prefix must be printable ASCII text");
  if (prefix.size() > 2 && prefix[0] != ' ') prefix = " " + prefix;  // as Triton does
  std::vector<mlir::Value> operands;
  std::vector<int32_t> isSigned;
  for (size_t i = 1; i < args.positional.size(); ++i) {
    const Value &v = args.positional[i];
    SourceRange r = args.positionalRanges[i];
    if (!v.isRuntime() && !v.isNumber())
      fail(r, DiagId::TypeMismatch, fn + " prints numbers, blocks and pointers, not " + withArticle(v.describe()));
    Value x = toRuntime(v, r);
    if (x.type.isBlockPtr || x.type.isBuffer || x.type.isTensorDesc)
      fail(r, DiagId::TypeMismatch, fn + " cannot print " + withArticle(x.type.str()));
    operands.push_back(x.ir);
    isSigned.push_back(!x.type.isPointer && isInt(x.type.dtype) && !isUnsigned(x.type.dtype) && x.type.dtype != DType::I1);
  }
  builder_.create<tle::ir::PrintOp>(loc(at), builder_.getStringAttr(prefix), hex, operands, builder_.getDenseI32ArrayAttr(isSigned));
  return Value::none();
}

}  // namespace tle::sema
