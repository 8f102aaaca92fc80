// The abstract syntax tree of a .tle file, in plain C++.
//
// Node names and fields mirror Python's `ast` module (Triton's own code generator walks
// that tree, so its semantics map one to one), with two simplifications: f-strings stay
// string constants, and a function's parameters are one ordered list. No ANTLR type
// appears here. Every node carries the half-open source range it was parsed from.
#pragma once

#include "support/SourceLocation.h"

#include <cassert>
#include <memory>
#include <string>
#include <vector>

namespace tle::ast {

// ---- operators -----------------------------------------------------------------------
enum class BinaryOp { Add, Sub, Mul, MatMul, Div, FloorDiv, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd };
enum class UnaryOp { Invert, Not, UAdd, USub };
enum class BoolOp { And, Or };
enum class CmpOp { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

const char *spelling(BinaryOp op);  // "+", "//", ...
const char *spelling(UnaryOp op);   // "~", "not", ...
const char *spelling(BoolOp op);
const char *spelling(CmpOp op);

// ---- base ----------------------------------------------------------------------------
class Node {
public:
  SourceRange range;

protected:
  explicit Node(SourceRange r) : range(r) {}
};

// ---- expressions ---------------------------------------------------------------------
class Expr : public Node {
public:
  enum class Kind {
    Name, Constant, Attribute, Subscript, Slice, Call, Starred, BinOp, UnaryOp, BoolOp,
    Compare, IfExp, Lambda, Tuple, List, Set, Dict, ListComp, SetComp, DictComp, GeneratorExp,
    HostExpr,
  };
  const Kind kind;
  virtual ~Expr() = default;

protected:
  Expr(Kind k, SourceRange r) : Node(r), kind(k) {}
};

using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

template <typename T> bool isa(const Expr *e) { return e && e->kind == T::kKind; }
template <typename T> T *dyn_cast(Expr *e) { return isa<T>(e) ? static_cast<T *>(e) : nullptr; }
template <typename T> const T *dyn_cast(const Expr *e) { return isa<T>(e) ? static_cast<const T *>(e) : nullptr; }

#define TLE_EXPR(NAME) \
  static constexpr Kind kKind = Kind::NAME; \
  explicit NAME(SourceRange r) : Expr(kKind, r) {}

class Name : public Expr {
public:
  TLE_EXPR(Name)
  std::string id;
};

class Constant : public Expr {
public:
  TLE_EXPR(Constant)
  enum class Type { Int, Float, String, Bytes, Bool, None, Ellipsis } type = Type::None;
  // Int: the digits as written without '_' (decimal, or 0x/0o/0b prefixed); Float: the
  // spelling without '_'; String/Bytes: the value with escapes decoded; Bool: "True"/"False".
  std::string value;
  bool isFString = false;  // f"..." is kept as written; sema rejects or formats it
  bool isRaw = false;
};

class Attribute : public Expr {
public:
  TLE_EXPR(Attribute)
  ExprPtr value;
  std::string attr;
  SourceRange attrRange;
};

class Subscript : public Expr {
public:
  TLE_EXPR(Subscript)
  ExprPtr value;
  ExprPtr slice;  // a Tuple for x[a, b]; Slice nodes for a:b:c
};

class Slice : public Expr {
public:
  TLE_EXPR(Slice)
  ExprPtr lower, upper, step;  // each may be null
};

struct Keyword {
  std::string arg;  // empty for **mapping
  SourceRange argRange;
  ExprPtr value;
  SourceRange range;
};

class Call : public Expr {
public:
  TLE_EXPR(Call)
  ExprPtr func;
  ExprList args;  // may contain Starred
  std::vector<Keyword> keywords;
};

class Starred : public Expr {
public:
  TLE_EXPR(Starred)
  ExprPtr value;
};

class BinOp : public Expr {
public:
  TLE_EXPR(BinOp)
  ExprPtr left;
  BinaryOp op = BinaryOp::Add;
  ExprPtr right;
};

class UnaryOpExpr : public Expr {
public:
  static constexpr Kind kKind = Kind::UnaryOp;
  explicit UnaryOpExpr(SourceRange r) : Expr(kKind, r) {}
  UnaryOp op = UnaryOp::USub;
  ExprPtr operand;
};

class BoolOpExpr : public Expr {
public:
  static constexpr Kind kKind = Kind::BoolOp;
  explicit BoolOpExpr(SourceRange r) : Expr(kKind, r) {}
  BoolOp op = BoolOp::And;
  ExprList values;  // two or more
};

class Compare : public Expr {
public:
  TLE_EXPR(Compare)
  ExprPtr left;
  std::vector<CmpOp> ops;  // a < b <= c: ops {Lt, LtE}, comparators {b, c}
  ExprList comparators;
};

class IfExp : public Expr {
public:
  TLE_EXPR(IfExp)
  ExprPtr test, body, orelse;
};

struct Param {
  enum class Kind { Normal, VarArgs, KwArgs } kind = Kind::Normal;
  std::string name;
  SourceRange range;
  ExprPtr annotation;    // may be null
  ExprPtr defaultValue;  // may be null
  bool keywordOnly = false;    // after `*` or `*args`
  bool positionalOnly = false; // before `/`
};

class Lambda : public Expr {
public:
  TLE_EXPR(Lambda)
  std::vector<Param> params;
  ExprPtr body;
};

class Tuple : public Expr {
public:
  TLE_EXPR(Tuple)
  ExprList elts;
  bool parenthesized = false;
};

class List : public Expr {
public:
  TLE_EXPR(List)
  ExprList elts;
};

class Set : public Expr {
public:
  TLE_EXPR(Set)
  ExprList elts;
};

class Dict : public Expr {
public:
  TLE_EXPR(Dict)
  ExprList keys;  // a null key means `**value`
  ExprList values;
};

struct Comprehension {
  ExprPtr target;
  ExprPtr iter;
  ExprList ifs;
  SourceRange range;
};

class ListComp : public Expr {
public:
  TLE_EXPR(ListComp)
  ExprPtr elt;
  std::vector<Comprehension> generators;
};

class SetComp : public Expr {
public:
  TLE_EXPR(SetComp)
  ExprPtr elt;
  std::vector<Comprehension> generators;
};

class GeneratorExp : public Expr {
public:
  TLE_EXPR(GeneratorExp)
  ExprPtr elt;
  std::vector<Comprehension> generators;
};

class DictComp : public Expr {
public:
  TLE_EXPR(DictComp)
  ExprPtr key, value;
  std::vector<Comprehension> generators;
};

// `yield`, `await` or `:=`: Python that tlec reads as host code only; inside a @jit function
// it is an error (checkKernelSyntax).
class HostExpr : public Expr {
public:
  TLE_EXPR(HostExpr)
  std::string keyword;  // "yield", "await" or ":="
};

#undef TLE_EXPR

// ---- statements ----------------------------------------------------------------------
class Stmt : public Node {
public:
  enum class Kind {
    FunctionDef, Return, Assign, AugAssign, AnnAssign, For, While, If, With, Assert,
    Import, ImportFrom, ExprStmt, Pass, Break, Continue, HostStmt,
  };
  const Kind kind;
  virtual ~Stmt() = default;

protected:
  Stmt(Kind k, SourceRange r) : Node(r), kind(k) {}
};

using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

template <typename T> bool isa(const Stmt *s) { return s && s->kind == T::kKind; }
template <typename T> T *dyn_cast(Stmt *s) { return isa<T>(s) ? static_cast<T *>(s) : nullptr; }
template <typename T> const T *dyn_cast(const Stmt *s) { return isa<T>(s) ? static_cast<const T *>(s) : nullptr; }

#define TLE_STMT(NAME) \
  static constexpr Kind kKind = Kind::NAME; \
  explicit NAME(SourceRange r) : Stmt(kKind, r) {}

class FunctionDef : public Stmt {
public:
  TLE_STMT(FunctionDef)
  std::string name;
  SourceRange nameRange;
  ExprList decorators;
  std::vector<Param> params;
  ExprPtr returns;  // may be null
  StmtList body;
};

class Return : public Stmt {
public:
  TLE_STMT(Return)
  ExprPtr value;  // may be null
};

class Assign : public Stmt {
public:
  TLE_STMT(Assign)
  ExprList targets;  // a = b = c has two targets
  ExprPtr value;
};

class AugAssign : public Stmt {
public:
  TLE_STMT(AugAssign)
  ExprPtr target;
  BinaryOp op = BinaryOp::Add;
  ExprPtr value;
};

class AnnAssign : public Stmt {
public:
  TLE_STMT(AnnAssign)
  ExprPtr target;
  ExprPtr annotation;
  ExprPtr value;  // may be null
};

class For : public Stmt {
public:
  TLE_STMT(For)
  ExprPtr target;
  ExprPtr iter;
  StmtList body;
  StmtList orelse;
};

class While : public Stmt {
public:
  TLE_STMT(While)
  ExprPtr test;
  StmtList body;
  StmtList orelse;
};

class If : public Stmt {
public:
  TLE_STMT(If)
  ExprPtr test;
  StmtList body;
  StmtList orelse;  // `elif` is an If inside orelse, as in Python
};

struct WithItem {
  ExprPtr contextExpr;
  ExprPtr optionalVars;  // may be null
};

class With : public Stmt {
public:
  TLE_STMT(With)
  std::vector<WithItem> items;
  StmtList body;
};

class Assert : public Stmt {
public:
  TLE_STMT(Assert)
  ExprPtr test;
  ExprPtr msg;  // may be null
};

struct Alias {
  std::string name;    // dotted for `import a.b`
  std::string asname;  // empty when absent
  SourceRange range;
};

class Import : public Stmt {
public:
  TLE_STMT(Import)
  std::vector<Alias> names;
};

class ImportFrom : public Stmt {
public:
  TLE_STMT(ImportFrom)
  std::string module;  // empty for `from . import x`
  unsigned level = 0;  // leading dots
  std::vector<Alias> names;  // a single "*" for `import *`
};

class ExprStmt : public Stmt {
public:
  TLE_STMT(ExprStmt)
  ExprPtr value;
};

class Pass : public Stmt {
public:
  TLE_STMT(Pass)
};

class Break : public Stmt {
public:
  TLE_STMT(Break)
};

class Continue : public Stmt {
public:
  TLE_STMT(Continue)
};

// `class`, `try`, `raise`, `global`, `nonlocal`, `del` or an `async` statement: Python that
// tlec reads as host code only; inside a @jit function it is an error (checkKernelSyntax).
class HostStmt : public Stmt {
public:
  TLE_STMT(HostStmt)
  std::string keyword;
  StmtList body;  // a `try`'s body (the path on which nothing raises); empty otherwise
};

#undef TLE_STMT

// Whether a decorator list holds `@jit`, `@triton.jit`, `@tle.jit(...)`, ...
bool hasJitDecorator(const ExprList &decorators);

// What the error for a host-only construct (HostStmt or HostExpr keyword) inside a kernel says.
std::string hostOnlyMessage(const std::string &keyword);

struct Module {
  FileId file = kNoFile;
  std::string name;  // the file name as given
  StmtList body;
};

}  // namespace tle::ast
