// Python's operators on compile-time values (ints, floats, bools, strings, tuples,
// dtypes, None), with Python's semantics: floor division and modulo round toward
// negative infinity, `/` is true division, ints are checked for 64-bit overflow.
#include "sema/LoweringContext.h"

#include <cmath>

namespace tle::sema {

using ast::BinaryOp;
using ast::CmpOp;
using ast::UnaryOp;

namespace {

bool isIntLike(const Value &v) { return v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool; }
int64_t asInt(const Value &v) { return v.kind == Value::Kind::Bool ? v.boolValue : v.intValue; }
double asFloat(const Value &v) {
  return v.kind == Value::Kind::Float ? v.floatValue : static_cast<double>(asInt(v));
}

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t floorMod(int64_t a, int64_t b) {
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

bool equalValues(const Value &a, const Value &b) {
  if (a.isNumber() && b.isNumber())
    return isIntLike(a) && isIntLike(b) ? asInt(a) == asInt(b) : asFloat(a) == asFloat(b);
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case Value::Kind::None: case Value::Kind::Ellipsis: return true;
  case Value::Kind::Str: return a.text == b.text;
  case Value::Kind::DType: return a.dtype == b.dtype && a.dtypeIsPointer == b.dtypeIsPointer;
  case Value::Kind::Tuple:
    if (a.elements.size() != b.elements.size()) return false;
    for (size_t i = 0; i < a.elements.size(); ++i)
      if (!equalValues(a.elements[i], b.elements[i])) return false;
    return true;
  case Value::Kind::Module: case Value::Kind::Builtin: return a.text == b.text;
  case Value::Kind::Function: return a.function == b.function;
  default: return false;
  }
}

}  // namespace

bool foldBinary(BinaryOp op, const Value &a, const Value &b, Value &out, std::string &error) {
  using K = Value::Kind;
  if (a.kind == K::Str && b.kind == K::Str && op == BinaryOp::Add) {
    out = Value::ofStr(a.text + b.text);
    return true;
  }
  if (a.kind == K::Tuple && b.kind == K::Tuple && op == BinaryOp::Add) {
    std::vector<Value> e = a.elements;
    e.insert(e.end(), b.elements.begin(), b.elements.end());
    out = Value::ofTuple(std::move(e));
    return true;
  }
  if ((a.kind == K::Str || a.kind == K::Tuple) && isIntLike(b) && op == BinaryOp::Mul) {
    int64_t n = std::max<int64_t>(0, asInt(b));
    if (n > 1 << 20) {
      error = "repetition count too large";
      return true;
    }
    if (a.kind == K::Str) {
      std::string s;
      for (int64_t i = 0; i < n; ++i) s += a.text;
      out = Value::ofStr(s);
    } else {
      std::vector<Value> e;
      for (int64_t i = 0; i < n; ++i) e.insert(e.end(), a.elements.begin(), a.elements.end());
      out = Value::ofTuple(std::move(e));
    }
    return true;
  }
  if (!a.isNumber() || !b.isNumber()) return false;

  if (isIntLike(a) && isIntLike(b) && op != BinaryOp::Div && op != BinaryOp::MatMul) {
    int64_t x = asInt(a), y = asInt(b), r = 0;
    bool overflow = false;
    bool bothBool = a.kind == K::Bool && b.kind == K::Bool;
    switch (op) {
    case BinaryOp::Add: overflow = __builtin_add_overflow(x, y, &r); break;
    case BinaryOp::Sub: overflow = __builtin_sub_overflow(x, y, &r); break;
    case BinaryOp::Mul: overflow = __builtin_mul_overflow(x, y, &r); break;
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod:
      if (y == 0) {
        error = op == BinaryOp::Mod ? "integer modulo by zero" : "integer division by zero";
        return true;
      }
      if (x == INT64_MIN && y == -1) {
        overflow = true;
        break;
      }
      r = op == BinaryOp::FloorDiv ? floorDiv(x, y) : floorMod(x, y);
      break;
    case BinaryOp::Pow:
      if (y < 0) {
        out = Value::ofFloat(std::pow(static_cast<double>(x), static_cast<double>(y)));
        return true;
      }
      r = 1;
      for (int64_t i = 0; i < y && !overflow; ++i) overflow = __builtin_mul_overflow(r, x, &r);
      break;
    case BinaryOp::LShift:
      if (y < 0) {
        error = "negative shift count";
        return true;
      }
      overflow = y >= 63 ? x != 0 : (x > (INT64_MAX >> y) || x < (INT64_MIN >> y));
      r = overflow ? 0 : static_cast<int64_t>(static_cast<uint64_t>(x) << y);
      break;
    case BinaryOp::RShift:
      if (y < 0) {
        error = "negative shift count";
        return true;
      }
      r = y >= 63 ? (x < 0 ? -1 : 0) : x >> y;
      break;
    case BinaryOp::BitAnd: r = x & y; break;
    case BinaryOp::BitOr: r = x | y; break;
    case BinaryOp::BitXor: r = x ^ y; break;
    default: return false;
    }
    if (overflow) {
      error = "integer overflow in constant expression (values are 64-bit at compile time)";
      return true;
    }
    bool bitwise = op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor;
    out = bothBool && bitwise ? Value::ofBool(r != 0) : Value::ofInt(r);
    return true;
  }

  double x = asFloat(a), y = asFloat(b);
  switch (op) {
  case BinaryOp::Add: out = Value::ofFloat(x + y); return true;
  case BinaryOp::Sub: out = Value::ofFloat(x - y); return true;
  case BinaryOp::Mul: out = Value::ofFloat(x * y); return true;
  case BinaryOp::Div:
    if (y == 0) {
      error = "division by zero";
      return true;
    }
    out = Value::ofFloat(x / y);
    return true;
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    if (y == 0) {
      error = op == BinaryOp::Mod ? "float modulo by zero" : "float floor division by zero";
      return true;
    }
    double m = std::fmod(x, y);
    if (m != 0 && ((m < 0) != (y < 0))) m += y;
    out = Value::ofFloat(op == BinaryOp::Mod ? m : std::floor((x - m) / y + 0.5));
    return true;
  }
  case BinaryOp::Pow: out = Value::ofFloat(std::pow(x, y)); return true;
  default:
    error = std::string("unsupported operand types for ") + ast::spelling(op) + ": '" + a.describe() + "' and '" +
            b.describe() + "'";
    return true;
  }
}

bool foldCompare(CmpOp op, const Value &a, const Value &b, Value &out, std::string &error) {
  using K = Value::Kind;
  switch (op) {
  case CmpOp::Is:
  case CmpOp::IsNot: {
    bool same = (a.kind == K::None && b.kind == K::None) || (a.kind == b.kind && equalValues(a, b) &&
                                                               (a.kind == K::Bool || a.kind == K::DType ||
                                                                a.kind == K::Module || a.kind == K::Function));
    out = Value::ofBool(op == CmpOp::Is ? same : !same);
    return true;
  }
  case CmpOp::Eq: out = Value::ofBool(equalValues(a, b)); return true;
  case CmpOp::NotEq: out = Value::ofBool(!equalValues(a, b)); return true;
  case CmpOp::In:
  case CmpOp::NotIn: {
    bool found = false;
    if (b.kind == K::Tuple) {
      for (const Value &e : b.elements) found |= equalValues(a, e);
    } else if (b.kind == K::Str && a.kind == K::Str) {
      found = b.text.find(a.text) != std::string::npos;
    } else {
      error = "'in' needs a tuple, list or string on its right, not " + b.describe();
      return true;
    }
    out = Value::ofBool(op == CmpOp::In ? found : !found);
    return true;
  }
  default: break;
  }
  int c;
  if (a.isNumber() && b.isNumber()) {
    if (isIntLike(a) && isIntLike(b)) c = asInt(a) < asInt(b) ? -1 : asInt(a) > asInt(b);
    else c = asFloat(a) < asFloat(b) ? -1 : asFloat(a) > asFloat(b);
  } else if (a.kind == K::Str && b.kind == K::Str) {
    c = a.text.compare(b.text);
  } else {
    return false;
  }
  bool r = op == CmpOp::Lt ? c < 0 : op == CmpOp::LtE ? c <= 0 : op == CmpOp::Gt ? c > 0 : c >= 0;
  out = Value::ofBool(r);
  return true;
}

bool foldUnary(UnaryOp op, const Value &v, Value &out, std::string &error) {
  switch (op) {
  case UnaryOp::Not:
    if (v.kind == Value::Kind::Runtime) return false;
    switch (v.kind) {
    case Value::Kind::None: out = Value::ofBool(true); break;
    case Value::Kind::Bool: out = Value::ofBool(!v.boolValue); break;
    case Value::Kind::Int: out = Value::ofBool(v.intValue == 0); break;
    case Value::Kind::Float: out = Value::ofBool(v.floatValue == 0); break;
    case Value::Kind::Str: out = Value::ofBool(v.text.empty()); break;
    case Value::Kind::Tuple: out = Value::ofBool(v.elements.empty()); break;
    default: out = Value::ofBool(false); break;
    }
    return true;
  case UnaryOp::USub:
    if (isIntLike(v)) {
      if (asInt(v) == INT64_MIN) {
        error = "integer overflow in constant expression";
        return true;
      }
      out = Value::ofInt(-asInt(v));
      return true;
    }
    if (v.kind == Value::Kind::Float) {
      out = Value::ofFloat(-v.floatValue);
      return true;
    }
    return false;
  case UnaryOp::UAdd:
    if (isIntLike(v)) out = Value::ofInt(asInt(v));
    else if (v.kind == Value::Kind::Float) out = v;
    else return false;
    return true;
  case UnaryOp::Invert:
    if (!isIntLike(v)) return false;
    out = Value::ofInt(~asInt(v));
    return true;
  }
  return false;
}

}  // namespace tle::sema
