#include "frontend/Ast.h"

namespace tle::ast {

const char *spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::MatMul: return "@";
  case BinaryOp::Div: return "/";
  case BinaryOp::FloorDiv: return "//";
  case BinaryOp::Mod: return "%";
  case BinaryOp::Pow: return "**";
  case BinaryOp::LShift: return "<<";
  case BinaryOp::RShift: return ">>";
  case BinaryOp::BitOr: return "|";
  case BinaryOp::BitXor: return "^";
  case BinaryOp::BitAnd: return "&";
  }
  return "?";
}

const char *spelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Invert: return "~";
  case UnaryOp::Not: return "not";
  case UnaryOp::UAdd: return "+";
  case UnaryOp::USub: return "-";
  }
  return "?";
}

const char *spelling(BoolOp op) { return op == BoolOp::And ? "and" : "or"; }

const char *spelling(CmpOp op) {
  switch (op) {
  case CmpOp::Eq: return "==";
  case CmpOp::NotEq: return "!=";
  case CmpOp::Lt: return "<";
  case CmpOp::LtE: return "<=";
  case CmpOp::Gt: return ">";
  case CmpOp::GtE: return ">=";
  case CmpOp::Is: return "is";
  case CmpOp::IsNot: return "is not";
  case CmpOp::In: return "in";
  case CmpOp::NotIn: return "not in";
  }
  return "?";
}

bool hasJitDecorator(const ExprList &decorators) {
  for (const ExprPtr &d : decorators) {
    const Expr *e = d.get();
    if (auto *c = dyn_cast<Call>(e)) e = c->func.get();
    if (auto *a = dyn_cast<Attribute>(e); a && a->attr == "jit") return true;
    if (auto *n = dyn_cast<Name>(e); n && n->id == "jit") return true;
  }
  return false;
}

std::string hostOnlyMessage(const std::string &keyword) {
  if (keyword == "class") return "'class' definitions are not supported in kernels";
  if (keyword == "try") return "'try' statements are not supported in kernels: kernels cannot raise or catch exceptions";
  if (keyword == "raise") return "'raise' is not supported in kernels; use tl.static_assert or tl.device_assert";
  if (keyword == "global" || keyword == "nonlocal") return "'" + keyword + "' declarations are not supported in kernels";
  if (keyword == "del") return "'del' statements are not supported in kernels";
  if (keyword == "yield") return "generators ('yield') are not supported in kernels";
  if (keyword == "async" || keyword == "await") return "'async' and 'await' are not supported in kernels";
  return "assignment expressions (':=') are not supported in kernels";
}

}  // namespace tle::ast
