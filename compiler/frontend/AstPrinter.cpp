#include "frontend/AstPrinter.h"

#include <string>

namespace tle::ast {

namespace {

// Strings are shown with Python-style escapes so that one node stays on one line; bytes
// values also escape everything past ASCII, which is not text.
std::string quote(const std::string &s, bool bytes = false) {
  std::string out = "'";
  for (unsigned char c : s) {
    switch (c) {
    case '\\': out += "\\\\"; break;
    case '\'': out += "\\'"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20 || c == 0x7F || (bytes && c >= 0x80)) {
        static const char hex[] = "0123456789abcdef";
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  return out + "'";
}

class Printer {
public:
  Printer(std::ostream &out, PrintOptions options) : out_(out), options_(options) {}

  void module(const Module &m) {
    out_ << "Module " << quote(m.name) << '\n';
    for (const StmtPtr &s : m.body) stmt(1, "", *s);
  }

private:
  void indent(int depth) {
    for (int i = 0; i < depth; ++i) out_ << "  ";
  }
  // Starts a node line: indentation, optional "label: ", then the node's head.
  void open(int depth, const char *label, const std::string &head, SourceRange range) {
    indent(depth);
    if (label && *label) out_ << label << ": ";
    out_ << head;
    if (options_.locations && range.isValid())
      out_ << " <" << range.begin.line << ':' << range.begin.column << '-' << range.end.line << ':'
           << range.end.column << '>';
    out_ << '\n';
  }
  void block(int depth, const char *label, const StmtList &stmts) {
    if (stmts.empty()) return;
    indent(depth);
    out_ << label << ":\n";
    for (const StmtPtr &s : stmts) stmt(depth + 1, "", *s);
  }
  void optExpr(int depth, const char *label, const ExprPtr &e) {
    if (e) expr(depth, label, *e);
  }
  void params(int depth, const std::vector<Param> &ps) {
    for (const Param &p : ps) {
      std::string head = "param ";
      if (p.kind == Param::Kind::VarArgs) head += "*";
      if (p.kind == Param::Kind::KwArgs) head += "**";
      head += p.name;  // a bare `*` prints as "param *"
      if (p.positionalOnly) head += " positional-only";
      if (p.keywordOnly) head += " keyword-only";
      open(depth, "", head, p.range);
      optExpr(depth + 1, "annotation", p.annotation);
      optExpr(depth + 1, "default", p.defaultValue);
    }
  }
  void generators(int depth, const std::vector<Comprehension> &gens) {
    for (const Comprehension &g : gens) {
      open(depth, "", "comprehension", g.range);
      expr(depth + 1, "target", *g.target);
      expr(depth + 1, "iter", *g.iter);
      for (const ExprPtr &c : g.ifs) expr(depth + 1, "if", *c);
    }
  }

  void expr(int depth, const char *label, const Expr &e);
  void stmt(int depth, const char *label, const Stmt &s);

  std::ostream &out_;
  PrintOptions options_;
};

void Printer::expr(int d, const char *label, const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::HostExpr:
    open(d, label, "HostExpr " + static_cast<const HostExpr &>(e).keyword, e.range);
    return;
  case Expr::Kind::Name:
    open(d, label, "Name " + static_cast<const Name &>(e).id, e.range);
    return;
  case Expr::Kind::Constant: {
    const auto &c = static_cast<const Constant &>(e);
    std::string head = "Constant ";
    switch (c.type) {
    case Constant::Type::Int: head += "int " + c.value; break;
    case Constant::Type::Float: head += "float " + c.value; break;
    case Constant::Type::String: head += std::string(c.isFString ? "fstring " : "str ") + quote(c.value); break;
    case Constant::Type::Bytes: head += "bytes " + quote(c.value, true); break;
    case Constant::Type::Bool: head += "bool " + c.value; break;
    case Constant::Type::None: head += "None"; break;
    case Constant::Type::Ellipsis: head += "Ellipsis"; break;
    }
    open(d, label, head, e.range);
    return;
  }
  case Expr::Kind::Attribute: {
    const auto &a = static_cast<const Attribute &>(e);
    open(d, label, "Attribute ." + a.attr, e.range);
    expr(d + 1, "value", *a.value);
    return;
  }
  case Expr::Kind::Subscript: {
    const auto &s = static_cast<const Subscript &>(e);
    open(d, label, "Subscript", e.range);
    expr(d + 1, "value", *s.value);
    expr(d + 1, "slice", *s.slice);
    return;
  }
  case Expr::Kind::Slice: {
    const auto &s = static_cast<const Slice &>(e);
    open(d, label, "Slice", e.range);
    optExpr(d + 1, "lower", s.lower);
    optExpr(d + 1, "upper", s.upper);
    optExpr(d + 1, "step", s.step);
    return;
  }
  case Expr::Kind::Call: {
    const auto &c = static_cast<const Call &>(e);
    open(d, label, "Call", e.range);
    expr(d + 1, "func", *c.func);
    for (const ExprPtr &a : c.args) expr(d + 1, "arg", *a);
    for (const Keyword &k : c.keywords) {
      std::string kl = k.arg.empty() ? std::string("keyword **") : "keyword " + k.arg;
      expr(d + 1, kl.c_str(), *k.value);
    }
    return;
  }
  case Expr::Kind::Starred:
    open(d, label, "Starred", e.range);
    expr(d + 1, "value", *static_cast<const Starred &>(e).value);
    return;
  case Expr::Kind::BinOp: {
    const auto &b = static_cast<const BinOp &>(e);
    open(d, label, std::string("BinOp ") + spelling(b.op), e.range);
    expr(d + 1, "left", *b.left);
    expr(d + 1, "right", *b.right);
    return;
  }
  case Expr::Kind::UnaryOp: {
    const auto &u = static_cast<const UnaryOpExpr &>(e);
    open(d, label, std::string("UnaryOp ") + spelling(u.op), e.range);
    expr(d + 1, "operand", *u.operand);
    return;
  }
  case Expr::Kind::BoolOp: {
    const auto &b = static_cast<const BoolOpExpr &>(e);
    open(d, label, std::string("BoolOp ") + spelling(b.op), e.range);
    for (const ExprPtr &v : b.values) expr(d + 1, "value", *v);
    return;
  }
  case Expr::Kind::Compare: {
    const auto &c = static_cast<const Compare &>(e);
    std::string head = "Compare";
    for (CmpOp op : c.ops) head += std::string(" ") + spelling(op);
    open(d, label, head, e.range);
    expr(d + 1, "left", *c.left);
    for (const ExprPtr &v : c.comparators) expr(d + 1, "right", *v);
    return;
  }
  case Expr::Kind::IfExp: {
    const auto &i = static_cast<const IfExp &>(e);
    open(d, label, "IfExp", e.range);
    expr(d + 1, "test", *i.test);
    expr(d + 1, "body", *i.body);
    expr(d + 1, "orelse", *i.orelse);
    return;
  }
  case Expr::Kind::Lambda: {
    const auto &l = static_cast<const Lambda &>(e);
    open(d, label, "Lambda", e.range);
    params(d + 1, l.params);
    expr(d + 1, "body", *l.body);
    return;
  }
  case Expr::Kind::Tuple:
    open(d, label, "Tuple", e.range);
    for (const ExprPtr &v : static_cast<const Tuple &>(e).elts) expr(d + 1, "elt", *v);
    return;
  case Expr::Kind::List:
    open(d, label, "List", e.range);
    for (const ExprPtr &v : static_cast<const List &>(e).elts) expr(d + 1, "elt", *v);
    return;
  case Expr::Kind::Set:
    open(d, label, "Set", e.range);
    for (const ExprPtr &v : static_cast<const Set &>(e).elts) expr(d + 1, "elt", *v);
    return;
  case Expr::Kind::Dict: {
    const auto &m = static_cast<const Dict &>(e);
    open(d, label, "Dict", e.range);
    for (size_t i = 0; i < m.values.size(); ++i) {
      if (m.keys[i]) expr(d + 1, "key", *m.keys[i]);
      expr(d + 1, m.keys[i] ? "value" : "unpack", *m.values[i]);
    }
    return;
  }
  case Expr::Kind::ListComp: {
    const auto &c = static_cast<const ListComp &>(e);
    open(d, label, "ListComp", e.range);
    expr(d + 1, "elt", *c.elt);
    generators(d + 1, c.generators);
    return;
  }
  case Expr::Kind::SetComp: {
    const auto &c = static_cast<const SetComp &>(e);
    open(d, label, "SetComp", e.range);
    expr(d + 1, "elt", *c.elt);
    generators(d + 1, c.generators);
    return;
  }
  case Expr::Kind::GeneratorExp: {
    const auto &c = static_cast<const GeneratorExp &>(e);
    open(d, label, "GeneratorExp", e.range);
    expr(d + 1, "elt", *c.elt);
    generators(d + 1, c.generators);
    return;
  }
  case Expr::Kind::DictComp: {
    const auto &c = static_cast<const DictComp &>(e);
    open(d, label, "DictComp", e.range);
    expr(d + 1, "key", *c.key);
    expr(d + 1, "value", *c.value);
    generators(d + 1, c.generators);
    return;
  }
  }
}

void Printer::stmt(int d, const char *label, const Stmt &s) {
  switch (s.kind) {
  case Stmt::Kind::FunctionDef: {
    const auto &f = static_cast<const FunctionDef &>(s);
    open(d, label, "FunctionDef " + f.name, s.range);
    for (const ExprPtr &dec : f.decorators) expr(d + 1, "decorator", *dec);
    params(d + 1, f.params);
    optExpr(d + 1, "returns", f.returns);
    block(d + 1, "body", f.body);
    return;
  }
  case Stmt::Kind::Return:
    open(d, label, "Return", s.range);
    optExpr(d + 1, "value", static_cast<const Return &>(s).value);
    return;
  case Stmt::Kind::Assign: {
    const auto &a = static_cast<const Assign &>(s);
    open(d, label, "Assign", s.range);
    for (const ExprPtr &t : a.targets) expr(d + 1, "target", *t);
    expr(d + 1, "value", *a.value);
    return;
  }
  case Stmt::Kind::AugAssign: {
    const auto &a = static_cast<const AugAssign &>(s);
    open(d, label, std::string("AugAssign ") + spelling(a.op) + "=", s.range);
    expr(d + 1, "target", *a.target);
    expr(d + 1, "value", *a.value);
    return;
  }
  case Stmt::Kind::AnnAssign: {
    const auto &a = static_cast<const AnnAssign &>(s);
    open(d, label, "AnnAssign", s.range);
    expr(d + 1, "target", *a.target);
    expr(d + 1, "annotation", *a.annotation);
    optExpr(d + 1, "value", a.value);
    return;
  }
  case Stmt::Kind::For: {
    const auto &f = static_cast<const For &>(s);
    open(d, label, "For", s.range);
    expr(d + 1, "target", *f.target);
    expr(d + 1, "iter", *f.iter);
    block(d + 1, "body", f.body);
    block(d + 1, "orelse", f.orelse);
    return;
  }
  case Stmt::Kind::While: {
    const auto &w = static_cast<const While &>(s);
    open(d, label, "While", s.range);
    expr(d + 1, "test", *w.test);
    block(d + 1, "body", w.body);
    block(d + 1, "orelse", w.orelse);
    return;
  }
  case Stmt::Kind::If: {
    const auto &i = static_cast<const If &>(s);
    open(d, label, "If", s.range);
    expr(d + 1, "test", *i.test);
    block(d + 1, "body", i.body);
    block(d + 1, "orelse", i.orelse);
    return;
  }
  case Stmt::Kind::With: {
    const auto &w = static_cast<const With &>(s);
    open(d, label, "With", s.range);
    for (const WithItem &item : w.items) {
      expr(d + 1, "item", *item.contextExpr);
      optExpr(d + 2, "as", item.optionalVars);
    }
    block(d + 1, "body", w.body);
    return;
  }
  case Stmt::Kind::Assert: {
    const auto &a = static_cast<const Assert &>(s);
    open(d, label, "Assert", s.range);
    expr(d + 1, "test", *a.test);
    optExpr(d + 1, "msg", a.msg);
    return;
  }
  case Stmt::Kind::Import:
    open(d, label, "Import", s.range);
    for (const Alias &a : static_cast<const Import &>(s).names)
      open(d + 1, "", "alias " + a.name + (a.asname.empty() ? "" : " as " + a.asname), a.range);
    return;
  case Stmt::Kind::ImportFrom: {
    const auto &i = static_cast<const ImportFrom &>(s);
    open(d, label, "ImportFrom " + std::string(i.level, '.') + i.module, s.range);
    for (const Alias &a : i.names)
      open(d + 1, "", "alias " + a.name + (a.asname.empty() ? "" : " as " + a.asname), a.range);
    return;
  }
  case Stmt::Kind::ExprStmt:
    open(d, label, "Expr", s.range);
    expr(d + 1, "value", *static_cast<const ExprStmt &>(s).value);
    return;
  case Stmt::Kind::Pass: open(d, label, "Pass", s.range); return;
  case Stmt::Kind::Break: open(d, label, "Break", s.range); return;
  case Stmt::Kind::Continue: open(d, label, "Continue", s.range); return;
  case Stmt::Kind::HostStmt: {
    const auto &h = static_cast<const HostStmt &>(s);
    open(d, label, "HostStmt " + h.keyword, s.range);
    block(d + 1, "body", h.body);
    return;
  }
  }
}

}  // namespace

void print(const Module &module, std::ostream &out, PrintOptions options) {
  Printer(out, options).module(module);
}

}  // namespace tle::ast
