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

}  // namespace tle::ast
