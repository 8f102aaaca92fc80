#include "frontend/AstBuilder.h"

#include "frontend/LogicalLines.h"
#include "support/Utf8.h"

#include <cstdio>
#include <map>

namespace tle {

using namespace ast;
using P = TleParser;
using antlr4::ParserRuleContext;
using antlr4::Token;

namespace {

bool isLayoutToken(size_t type) {
  return type == P::NEWLINE || type == P::INDENT || type == P::DEDENT || type == Token::EOF;
}

class Builder {
public:
  Builder(antlr4::TokenStream &tokens, FileId file, DiagnosticEngine &diags)
      : tokens_(tokens), file_(file), diags_(diags) {}

  void fileInput(P::File_inputContext *ctx, StmtList &out) {
    for (P::StmtContext *s : ctx->stmt()) stmt(s, out);
  }

private:
  // ---- positions ----
  SourceRange range(Token *t) const { return tokenRange(*t, file_); }
  // From the first token of `ctx` to its last real token: a block's closing DEDENT and
  // NEWLINE are zero-width markers at the next line and must not stretch the range.
  SourceRange range(ParserRuleContext *ctx) const {
    Token *start = ctx->getStart();
    Token *stop = ctx->getStop();
    if (!stop || stop->getTokenIndex() < start->getTokenIndex()) return SourceRange(tokenBegin(*start, file_));
    size_t i = stop->getTokenIndex();
    while (i > start->getTokenIndex() && isLayoutToken(tokens_.get(i)->getType())) --i;
    return {tokenBegin(*start, file_), tokenEnd(*tokens_.get(i), file_)};
  }

  // ---- statements ----
  void stmt(P::StmtContext *ctx, StmtList &out);
  void simpleStmts(P::Simple_stmtsContext *ctx, StmtList &out);
  StmtPtr simpleStmt(P::Simple_stmtContext *ctx);
  StmtPtr exprStmt(P::Expr_stmtContext *ctx);
  StmtPtr importStmt(P::Import_stmtContext *ctx);
  StmtPtr compoundStmt(P::Compound_stmtContext *ctx);
  StmtPtr ifStmt(P::If_stmtContext *ctx);
  StmtPtr funcdef(P::FuncdefContext *ctx, ExprList decorators, SourceRange fullRange);
  std::unique_ptr<HostStmt> hostStmt(const std::string &keyword, SourceRange r);
  ExprPtr hostExpr(const std::string &keyword, SourceRange r);
  void suite(P::SuiteContext *ctx, StmtList &out);
  void elseClause(P::Else_clauseContext *ctx, StmtList &out) {
    if (ctx) suite(ctx->suite(), out);
  }

  // ---- expressions ----
  ExprPtr test(P::TestContext *ctx);
  ExprPtr testNocond(P::Test_nocondContext *ctx);
  ExprPtr orTest(P::Or_testContext *ctx);
  ExprPtr andTest(P::And_testContext *ctx);
  ExprPtr notTest(P::Not_testContext *ctx);
  ExprPtr comparison(P::ComparisonContext *ctx);
  ExprPtr expr(P::ExprContext *ctx);
  ExprPtr xorExpr(P::Xor_exprContext *ctx);
  ExprPtr andExpr(P::And_exprContext *ctx);
  ExprPtr shiftExpr(P::Shift_exprContext *ctx);
  ExprPtr arithExpr(P::Arith_exprContext *ctx);
  ExprPtr term(P::TermContext *ctx);
  ExprPtr factor(P::FactorContext *ctx);
  ExprPtr power(P::PowerContext *ctx);
  ExprPtr atomExpr(P::Atom_exprContext *ctx);
  ExprPtr atom(P::AtomContext *ctx);
  ExprPtr starExpr(P::Star_exprContext *ctx);
  ExprPtr lambda(ParserRuleContext *ctx, P::Lambda_paramsContext *params, ExprPtr body);
  ExprPtr strings(P::StringAtomContext *ctx);
  ExprPtr subscriptList(P::SubscriptlistContext *ctx);
  ExprPtr subscript(P::SubscriptContext *ctx);
  void callArgs(P::ArglistContext *ctx, SourceRange parens, Call &call);
  std::vector<Comprehension> compFor(P::Comp_forContext *ctx);
  ExprPtr testOrStar(antlr4::tree::ParseTree *child);
  // A comma-separated sequence: one element without a trailing comma is that element,
  // anything else a Tuple.
  ExprPtr sequence(ParserRuleContext *ctx, bool allowStarAlone);
  ExprList elements(ParserRuleContext *ctx);
  void params(const std::vector<antlr4::tree::ParseTree *> &paramCtxs, std::vector<Param> &out, bool isLambda);

  template <typename Sub>
  ExprPtr leftAssoc(ParserRuleContext *ctx, ExprPtr (Builder::*build)(Sub *), BinaryOp (*opOf)(size_t));

  // ---- checks ----
  void checkTarget(Expr &e, const char *what);
  void checkCall(Call &call, const std::vector<antlr4::tree::ParseTree *> &argCtxs);
  void checkParams(const std::vector<Param> &ps);
  std::string decodeString(Token *tok, Constant::Type &type, bool &isRaw, bool &isF);

  antlr4::TokenStream &tokens_;
  FileId file_;
  DiagnosticEngine &diags_;
  int functionDepth_ = 0;
  int jitDepth_ = 0;  // inside a @jit function: host-only Python is an error there
  std::vector<bool> loopStack_;  // innermost scope last; a function starts a new scope
};

// ============================================================================ statements

void Builder::stmt(P::StmtContext *ctx, StmtList &out) {
  if (auto *s = ctx->simple_stmts()) return simpleStmts(s, out);
  if (StmtPtr s = compoundStmt(ctx->compound_stmt())) out.push_back(std::move(s));
}

void Builder::simpleStmts(P::Simple_stmtsContext *ctx, StmtList &out) {
  for (P::Simple_stmtContext *s : ctx->simple_stmt())
    if (StmtPtr st = simpleStmt(s)) out.push_back(std::move(st));
}

StmtPtr Builder::simpleStmt(P::Simple_stmtContext *ctx) {
  SourceRange r = range(ctx);
  if (auto *e = ctx->expr_stmt()) return exprStmt(e);
  if (auto *ret = ctx->return_stmt()) {
    auto s = std::make_unique<Return>(r);
    if (auto *v = ret->testlist_star_expr()) s->value = sequence(v, false);
    if (functionDepth_ == 0) diags_.report(DiagId::ReturnOutsideFunction, r, "'return' outside function");
    return s;
  }
  if (auto *imp = ctx->import_stmt()) return importStmt(imp);
  if (ctx->raise_stmt()) return hostStmt("raise", r);
  if (ctx->global_stmt()) return hostStmt("global", r);
  if (ctx->nonlocal_stmt()) return hostStmt("nonlocal", r);
  if (ctx->del_stmt()) return hostStmt("del", r);
  if (ctx->pass_stmt()) return std::make_unique<Pass>(r);
  if (ctx->break_stmt() || ctx->continue_stmt()) {
    bool isBreak = ctx->break_stmt() != nullptr;
    if (loopStack_.empty() || !loopStack_.back())
      diags_.report(DiagId::LoopControlOutsideLoop, r,
                    std::string("'") + (isBreak ? "break" : "continue") + "' outside loop");
    if (isBreak) return std::make_unique<Break>(r);
    return std::make_unique<Continue>(r);
  }
  auto *as = ctx->assert_stmt();
  auto s = std::make_unique<Assert>(r);
  s->test = test(as->test(0));
  if (as->test().size() > 1) s->msg = test(as->test(1));
  return s;
}

static BinaryOp augOp(size_t type) {
  switch (type) {
  case P::ADD_ASSIGN: return BinaryOp::Add;
  case P::SUB_ASSIGN: return BinaryOp::Sub;
  case P::MUL_ASSIGN: return BinaryOp::Mul;
  case P::MATMUL_ASSIGN: return BinaryOp::MatMul;
  case P::DIV_ASSIGN: return BinaryOp::Div;
  case P::MOD_ASSIGN: return BinaryOp::Mod;
  case P::AND_ASSIGN: return BinaryOp::BitAnd;
  case P::OR_ASSIGN: return BinaryOp::BitOr;
  case P::XOR_ASSIGN: return BinaryOp::BitXor;
  case P::LSHIFT_ASSIGN: return BinaryOp::LShift;
  case P::RSHIFT_ASSIGN: return BinaryOp::RShift;
  case P::POWER_ASSIGN: return BinaryOp::Pow;
  default: return BinaryOp::FloorDiv;
  }
}

StmtPtr Builder::exprStmt(P::Expr_stmtContext *ctx) {
  SourceRange r = range(ctx);
  if (auto *ann = dynamic_cast<P::AnnAssignStmtContext *>(ctx)) {
    auto s = std::make_unique<AnnAssign>(r);
    s->target = sequence(ann->testlist_star_expr(), false);
    if (isa<Tuple>(s->target.get()) || isa<List>(s->target.get()))
      diags_.report(DiagId::InvalidAssignTarget, s->target->range, "only a single target (not a tuple) can be annotated");
    else
      checkTarget(*s->target, "annotated assignment");
    s->annotation = test(ann->annassign()->test());
    if (auto *v = ann->annassign()->testlist_star_expr()) s->value = sequence(v, false);
    return s;
  }
  if (auto *aug = dynamic_cast<P::AugAssignStmtContext *>(ctx)) {
    auto s = std::make_unique<AugAssign>(r);
    s->target = sequence(aug->testlist_star_expr(), false);
    s->op = augOp(aug->augassign()->getStart()->getType());
    Expr *t = s->target.get();
    if (!isa<Name>(t) && !isa<Attribute>(t) && !isa<Subscript>(t))
      diags_.report(DiagId::InvalidAssignTarget, t->range, "illegal expression for augmented assignment");
    s->value = sequence(aug->testlist(), false);
    return s;
  }
  if (auto *as = dynamic_cast<P::AssignStmtContext *>(ctx)) {
    auto s = std::make_unique<Assign>(r);
    auto parts = as->testlist_star_expr();
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      s->targets.push_back(sequence(parts[i], true));
      checkTarget(*s->targets.back(), "assignment");
    }
    s->value = sequence(parts.back(), false);
    return s;
  }
  auto *only = static_cast<P::ExprOnlyStmtContext *>(ctx);
  auto s = std::make_unique<ExprStmt>(r);
  s->value = sequence(only->testlist_star_expr(), false);
  return s;
}

static std::string dottedName(P::Dotted_nameContext *ctx) {
  std::string name;
  for (auto *n : ctx->NAME()) name += (name.empty() ? "" : ".") + n->getText();
  return name;
}

StmtPtr Builder::importStmt(P::Import_stmtContext *ctx) {
  SourceRange r = range(ctx);
  if (auto *imp = dynamic_cast<P::ImportNameContext *>(ctx)) {
    auto s = std::make_unique<Import>(r);
    for (P::Dotted_as_nameContext *d : imp->dotted_as_name()) {
      Alias a;
      a.name = dottedName(d->dotted_name());
      if (d->NAME()) a.asname = d->NAME()->getText();
      a.range = range(d);
      s->names.push_back(std::move(a));
    }
    return s;
  }
  auto s = std::make_unique<ImportFrom>(r);
  std::vector<P::Import_dotsContext *> dots;
  P::Import_targetsContext *targets;
  if (auto *from = dynamic_cast<P::ImportFromContext *>(ctx)) {
    dots = from->import_dots();
    s->module = dottedName(from->dotted_name());
    targets = from->import_targets();
  } else {
    auto *rel = static_cast<P::ImportFromRelativeContext *>(ctx);
    dots = rel->import_dots();
    targets = rel->import_targets();
  }
  for (auto *d : dots) s->level += d->ELLIPSIS() ? 3 : 1;
  if (targets->STAR()) {
    s->names.push_back({"*", "", range(targets)});
  } else {
    for (P::Import_as_nameContext *n : targets->import_as_names()->import_as_name()) {
      Alias a;
      a.name = n->NAME(0)->getText();
      if (n->NAME().size() > 1) a.asname = n->NAME(1)->getText();
      a.range = range(n);
      s->names.push_back(std::move(a));
    }
  }
  return s;
}

void Builder::suite(P::SuiteContext *ctx, StmtList &out) {
  if (auto *s = ctx->simple_stmts()) return simpleStmts(s, out);
  for (P::StmtContext *s : ctx->stmt()) stmt(s, out);
}

StmtPtr Builder::ifStmt(P::If_stmtContext *ctx) {
  auto top = std::make_unique<If>(range(ctx));
  top->test = test(ctx->test());
  suite(ctx->suite(), top->body);
  If *last = top.get();
  for (P::Elif_clauseContext *elif : ctx->elif_clause()) {
    auto nested = std::make_unique<If>(SourceRange(tokenBegin(*elif->getStart(), file_), top->range.end));
    nested->test = test(elif->test());
    suite(elif->suite(), nested->body);
    If *raw = nested.get();
    last->orelse.push_back(std::move(nested));
    last = raw;
  }
  elseClause(ctx->else_clause(), last->orelse);
  return top;
}

StmtPtr Builder::compoundStmt(P::Compound_stmtContext *ctx) {
  SourceRange r = range(ctx);
  if (auto *i = ctx->if_stmt()) return ifStmt(i);
  if (auto *w = ctx->while_stmt()) {
    auto s = std::make_unique<While>(r);
    s->test = test(w->test());
    loopStack_.push_back(true);
    suite(w->suite(), s->body);
    loopStack_.pop_back();
    elseClause(w->else_clause(), s->orelse);
    return s;
  }
  if (auto *f = ctx->for_stmt()) {
    auto s = std::make_unique<For>(r);
    s->target = sequence(f->exprlist(), true);
    checkTarget(*s->target, "'for' target");
    s->iter = sequence(f->testlist(), false);
    loopStack_.push_back(true);
    suite(f->suite(), s->body);
    loopStack_.pop_back();
    elseClause(f->else_clause(), s->orelse);
    return s;
  }
  if (auto *w = ctx->with_stmt()) {
    auto s = std::make_unique<With>(r);
    for (P::With_itemContext *item : w->with_item()) {
      WithItem wi;
      wi.contextExpr = test(item->test());
      if (auto *e = item->expr()) {
        wi.optionalVars = expr(e);
        checkTarget(*wi.optionalVars, "'with' target");
      }
      s->items.push_back(std::move(wi));
    }
    suite(w->suite(), s->body);
    return s;
  }
  if (auto *f = ctx->funcdef()) return funcdef(f, {}, r);
  if (auto *t = ctx->try_stmt()) {
    auto s = hostStmt("try", r);
    suite(t->suite(), s->body);
    return s;
  }
  if (ctx->classdef()) return hostStmt("class", r);
  if (ctx->async_stmt()) return hostStmt("async", r);
  auto *dec = ctx->decorated();
  ExprList decorators;
  for (P::DecoratorContext *d : dec->decorator()) decorators.push_back(test(d->test()));
  if (auto *f = dec->funcdef()) return funcdef(f, std::move(decorators), r);
  return hostStmt(dec->classdef() ? "class" : "async", r);
}

// Python that only host code may use: kept in the AST (a top-level `try`'s body binds
// module-level names), and an error inside a @jit function.
std::unique_ptr<HostStmt> Builder::hostStmt(const std::string &keyword, SourceRange r) {
  if (jitDepth_ > 0) diags_.report(DiagId::UnsupportedSyntax, r, hostOnlyMessage(keyword));
  auto s = std::make_unique<HostStmt>(r);
  s->keyword = keyword;
  return s;
}

ExprPtr Builder::hostExpr(const std::string &keyword, SourceRange r) {
  if (jitDepth_ > 0) diags_.report(DiagId::UnsupportedSyntax, r, hostOnlyMessage(keyword));
  auto e = std::make_unique<HostExpr>(r);
  e->keyword = keyword;
  return e;
}

StmtPtr Builder::funcdef(P::FuncdefContext *ctx, ExprList decorators, SourceRange fullRange) {
  auto f = std::make_unique<FunctionDef>(fullRange);
  f->name = ctx->NAME()->getText();
  f->nameRange = range(ctx->NAME()->getSymbol());
  f->decorators = std::move(decorators);
  if (auto *pl = ctx->parameters()->paramlist()) {
    auto paramCtxs = pl->param();
    std::vector<antlr4::tree::ParseTree *> ps(paramCtxs.begin(), paramCtxs.end());
    params(ps, f->params, false);
  }
  if (auto *ret = ctx->test()) f->returns = test(ret);
  bool jit = hasJitDecorator(f->decorators);
  ++functionDepth_;
  jitDepth_ += jit;
  loopStack_.push_back(false);
  suite(ctx->suite(), f->body);
  loopStack_.pop_back();
  jitDepth_ -= jit;
  --functionDepth_;
  return f;
}

// Both `def` parameters and lambda parameters: NAME [':' ann] ['=' default], '*' [NAME],
// '**' NAME, '/'. Walks the children so one routine serves both rule shapes.
void Builder::params(const std::vector<antlr4::tree::ParseTree *> &ctxs, std::vector<Param> &out, bool isLambda) {
  bool afterStar = false;
  for (antlr4::tree::ParseTree *pt : ctxs) {
    auto *ctx = static_cast<ParserRuleContext *>(pt);
    Param p;
    p.range = range(ctx);
    size_t first = ctx->getStart()->getType();
    if (first == P::SLASH) {
      // Marks every parameter so far as positional-only.
      Param marker;
      marker.name = "/";
      marker.range = p.range;
      marker.positionalOnly = true;
      out.push_back(std::move(marker));
      continue;
    }
    if (first == P::STAR) p.kind = Param::Kind::VarArgs;
    if (first == P::POWER) p.kind = Param::Kind::KwArgs;
    size_t last = 0;
    for (antlr4::tree::ParseTree *child : ctx->children) {
      if (auto *term = dynamic_cast<antlr4::tree::TerminalNode *>(child)) {
        last = term->getSymbol()->getType();
        if (last == P::NAME) p.name = term->getText();
        continue;
      }
      if (auto *t = dynamic_cast<P::TestContext *>(child)) {
        if (last == P::COLON) p.annotation = test(t);
        else p.defaultValue = test(t);
      }
    }
    p.keywordOnly = afterStar && p.kind == Param::Kind::Normal;
    if (p.kind == Param::Kind::VarArgs) afterStar = true;
    out.push_back(std::move(p));
  }
  (void)isLambda;
  // Apply '/' and drop its marker: parameters before it are positional-only.
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].name != "/" || !out[i].positionalOnly) continue;
    if (i == 0) {
      diags_.report(DiagId::ParameterOrder, out[i].range, "at least one parameter must precede '/'");
    } else {
      for (size_t j = 0; j < i; ++j) out[j].positionalOnly = true;
    }
    for (size_t j = 0; j < i; ++j)
      if (out[j].kind != Param::Kind::Normal || out[j].keywordOnly) {
        diags_.report(DiagId::ParameterOrder, out[i].range, "'/' must come before '*'");
        break;
      }
    out.erase(out.begin() + static_cast<long>(i));
    for (size_t k = i; k < out.size(); ++k)
      if (out[k].name == "/" && out[k].positionalOnly)
        diags_.report(DiagId::ParameterOrder, out[k].range, "'/' may appear only once");
    break;
  }
  checkParams(out);
}

void Builder::checkParams(const std::vector<Param> &ps) {
  std::map<std::string, SourceRange> seen;
  bool sawDefault = false, sawVarArgs = false, sawKwArgs = false;
  for (size_t i = 0; i < ps.size(); ++i) {
    const Param &p = ps[i];
    if (sawKwArgs) {
      diags_.report(DiagId::ParameterOrder, p.range, "parameters cannot follow the '**' parameter");
      return;
    }
    if (!p.name.empty()) {
      auto [it, fresh] = seen.emplace(p.name, p.range);
      if (!fresh)
        diags_.report(DiagId::DuplicateParameter, p.range, "duplicate parameter '" + p.name + "' in function definition")
            .note(it->second, "'" + p.name + "' first declared here");
    }
    if (p.kind == Param::Kind::VarArgs) {
      if (sawVarArgs) diags_.report(DiagId::ParameterOrder, p.range, "'*' may appear only once");
      sawVarArgs = true;
      if (p.name.empty() && (i + 1 == ps.size() || ps[i + 1].kind != Param::Kind::Normal))
        diags_.report(DiagId::ParameterOrder, p.range, "named parameters must follow a bare '*'");
      continue;
    }
    if (p.kind == Param::Kind::KwArgs) {
      sawKwArgs = true;
      continue;
    }
    if (p.keywordOnly) continue;
    if (p.defaultValue) sawDefault = true;
    else if (sawDefault)
      diags_.report(DiagId::ParameterOrder, p.range,
                    "parameter '" + p.name + "' without a default follows a parameter with a default");
  }
}

// =========================================================================== expressions

ExprPtr Builder::testOrStar(antlr4::tree::ParseTree *child) {
  if (auto *t = dynamic_cast<P::TestContext *>(child)) return test(t);
  if (auto *s = dynamic_cast<P::Star_exprContext *>(child)) return starExpr(s);
  if (auto *e = dynamic_cast<P::ExprContext *>(child)) return expr(e);
  return nullptr;
}

ExprList Builder::elements(ParserRuleContext *ctx) {
  ExprList out;
  for (antlr4::tree::ParseTree *child : ctx->children)
    if (ExprPtr e = testOrStar(child)) out.push_back(std::move(e));
  return out;
}

ExprPtr Builder::sequence(ParserRuleContext *ctx, bool allowStarAlone) {
  bool hasComma = false;
  for (antlr4::tree::ParseTree *child : ctx->children)
    if (auto *term = dynamic_cast<antlr4::tree::TerminalNode *>(child))
      hasComma |= term->getSymbol()->getType() == P::COMMA;
  ExprList elts = elements(ctx);
  if (elts.size() == 1 && !hasComma) {
    if (isa<Starred>(elts[0].get()) && !allowStarAlone)
      diags_.report(DiagId::SyntaxError, elts[0]->range, "cannot use a starred expression here");
    return std::move(elts[0]);
  }
  auto t = std::make_unique<Tuple>(range(ctx));
  t->elts = std::move(elts);
  return t;
}

ExprPtr Builder::test(P::TestContext *ctx) {
  if (auto *h = ctx->host_expr()) return hostExpr(h->YIELD() ? "yield" : ":=", range(h));
  if (auto *l = ctx->lambdef()) {
    ExprPtr body = test(l->test());
    return lambda(l, l->lambda_params(), std::move(body));
  }
  auto ors = ctx->or_test();
  if (ors.size() == 1) return orTest(ors[0]);
  auto e = std::make_unique<IfExp>(range(ctx));
  e->body = orTest(ors[0]);
  e->test = orTest(ors[1]);
  e->orelse = test(ctx->test());
  return e;
}

ExprPtr Builder::testNocond(P::Test_nocondContext *ctx) {
  if (auto *l = ctx->lambdef_nocond()) {
    ExprPtr body = testNocond(l->test_nocond());
    return lambda(l, l->lambda_params(), std::move(body));
  }
  return orTest(ctx->or_test());
}

ExprPtr Builder::lambda(ParserRuleContext *ctx, P::Lambda_paramsContext *ps, ExprPtr body) {
  auto l = std::make_unique<Lambda>(range(ctx));
  if (ps) {
    auto paramCtxs = ps->lambda_param();
    std::vector<antlr4::tree::ParseTree *> pcs(paramCtxs.begin(), paramCtxs.end());
    params(pcs, l->params, true);
  }
  l->body = std::move(body);
  return l;
}

ExprPtr Builder::orTest(P::Or_testContext *ctx) {
  auto parts = ctx->and_test();
  if (parts.size() == 1) return andTest(parts[0]);
  auto e = std::make_unique<BoolOpExpr>(range(ctx));
  e->op = BoolOp::Or;
  for (auto *p : parts) e->values.push_back(andTest(p));
  return e;
}

ExprPtr Builder::andTest(P::And_testContext *ctx) {
  auto parts = ctx->not_test();
  if (parts.size() == 1) return notTest(parts[0]);
  auto e = std::make_unique<BoolOpExpr>(range(ctx));
  e->op = BoolOp::And;
  for (auto *p : parts) e->values.push_back(notTest(p));
  return e;
}

ExprPtr Builder::notTest(P::Not_testContext *ctx) {
  if (auto *c = ctx->comparison()) return comparison(c);
  auto e = std::make_unique<UnaryOpExpr>(range(ctx));
  e->op = UnaryOp::Not;
  e->operand = notTest(ctx->not_test());
  return e;
}

ExprPtr Builder::comparison(P::ComparisonContext *ctx) {
  auto operands = ctx->expr();
  if (operands.size() == 1) return expr(operands[0]);
  auto e = std::make_unique<Compare>(range(ctx));
  e->left = expr(operands[0]);
  auto ops = ctx->comp_op();
  for (size_t i = 0; i < ops.size(); ++i) {
    P::Comp_opContext *op = ops[i];
    size_t t0 = op->getStart()->getType();
    bool two = op->getStop() != op->getStart();
    CmpOp k;
    switch (t0) {
    case P::LT: k = CmpOp::Lt; break;
    case P::GT: k = CmpOp::Gt; break;
    case P::EQ: k = CmpOp::Eq; break;
    case P::GE: k = CmpOp::GtE; break;
    case P::LE: k = CmpOp::LtE; break;
    case P::NE: k = CmpOp::NotEq; break;
    case P::IN: k = CmpOp::In; break;
    case P::NOT: k = CmpOp::NotIn; break;
    default: k = two ? CmpOp::IsNot : CmpOp::Is; break;
    }
    e->ops.push_back(k);
    e->comparators.push_back(expr(operands[i + 1]));
  }
  return e;
}

// Builds `a op b op c` as ((a op b) op c), each node spanning from `a` to its right
// operand. Walks the children once (operand, operator, operand, ...): asking ANTLR for
// the i-th operator is linear, and long sums would become quadratic.
template <typename Sub>
ExprPtr Builder::leftAssoc(ParserRuleContext *ctx, ExprPtr (Builder::*build)(Sub *), BinaryOp (*opOf)(size_t)) {
  ExprPtr left;
  SourceLoc begin;
  size_t pendingOp = 0;
  for (antlr4::tree::ParseTree *child : ctx->children) {
    auto *operand = dynamic_cast<Sub *>(child);
    if (!operand) {
      if (auto *term = dynamic_cast<antlr4::tree::TerminalNode *>(child)) pendingOp = term->getSymbol()->getType();
      else pendingOp = static_cast<ParserRuleContext *>(child)->getStart()->getType();
      continue;
    }
    ExprPtr right = (this->*build)(operand);
    if (!left) {
      // From the operand's context, so that `(a + b) * c` starts at the parenthesis.
      begin = range(operand).begin;
      left = std::move(right);
      continue;
    }
    auto b = std::make_unique<BinOp>(SourceRange(begin, range(operand).end));
    b->op = opOf(pendingOp);
    b->left = std::move(left);
    b->right = std::move(right);
    left = std::move(b);
  }
  return left;
}

static BinaryOp binaryOpFor(size_t token) {
  switch (token) {
  case P::PIPE: return BinaryOp::BitOr;
  case P::CARET: return BinaryOp::BitXor;
  case P::AMP: return BinaryOp::BitAnd;
  case P::LSHIFT: return BinaryOp::LShift;
  case P::RSHIFT: return BinaryOp::RShift;
  case P::PLUS: return BinaryOp::Add;
  case P::MINUS: return BinaryOp::Sub;
  case P::STAR: return BinaryOp::Mul;
  case P::SLASH: return BinaryOp::Div;
  case P::PERCENT: return BinaryOp::Mod;
  case P::FLOORDIV: return BinaryOp::FloorDiv;
  default: return BinaryOp::MatMul;
  }
}

ExprPtr Builder::expr(P::ExprContext *ctx) { return leftAssoc(ctx, &Builder::xorExpr, binaryOpFor); }
ExprPtr Builder::xorExpr(P::Xor_exprContext *ctx) { return leftAssoc(ctx, &Builder::andExpr, binaryOpFor); }
ExprPtr Builder::andExpr(P::And_exprContext *ctx) { return leftAssoc(ctx, &Builder::shiftExpr, binaryOpFor); }
ExprPtr Builder::shiftExpr(P::Shift_exprContext *ctx) { return leftAssoc(ctx, &Builder::arithExpr, binaryOpFor); }
ExprPtr Builder::arithExpr(P::Arith_exprContext *ctx) { return leftAssoc(ctx, &Builder::term, binaryOpFor); }
ExprPtr Builder::term(P::TermContext *ctx) { return leftAssoc(ctx, &Builder::factor, binaryOpFor); }

ExprPtr Builder::factor(P::FactorContext *ctx) {
  if (auto *p = ctx->power()) return power(p);
  auto e = std::make_unique<UnaryOpExpr>(range(ctx));
  size_t t = ctx->getStart()->getType();
  e->op = t == P::PLUS ? UnaryOp::UAdd : t == P::MINUS ? UnaryOp::USub : UnaryOp::Invert;
  e->operand = factor(ctx->factor());
  return e;
}

ExprPtr Builder::power(P::PowerContext *ctx) {
  ExprPtr base = atomExpr(ctx->atom_expr());
  if (!ctx->factor()) return base;
  auto e = std::make_unique<BinOp>(range(ctx));
  e->op = BinaryOp::Pow;
  e->left = std::move(base);
  e->right = factor(ctx->factor());
  return e;
}

ExprPtr Builder::starExpr(P::Star_exprContext *ctx) {
  auto s = std::make_unique<Starred>(range(ctx));
  s->value = expr(ctx->expr());
  return s;
}

ExprPtr Builder::atomExpr(P::Atom_exprContext *ctx) {
  if (ctx->AWAIT()) return hostExpr("await", range(ctx));
  ExprPtr e = atom(ctx->atom());
  SourceLoc begin = range(ctx->atom()).begin;  // includes an opening parenthesis
  for (P::TrailerContext *tr : ctx->trailer()) {
    SourceRange r(begin, range(tr).end);
    if (auto *call = dynamic_cast<P::CallTrailerContext *>(tr)) {
      auto c = std::make_unique<Call>(r);
      c->func = std::move(e);
      if (auto *args = call->arglist()) callArgs(args, range(call), *c);
      e = std::move(c);
    } else if (auto *sub = dynamic_cast<P::SubscriptTrailerContext *>(tr)) {
      auto s = std::make_unique<Subscript>(r);
      s->value = std::move(e);
      s->slice = subscriptList(sub->subscriptlist());
      e = std::move(s);
    } else {
      auto *attr = static_cast<P::AttributeTrailerContext *>(tr);
      auto a = std::make_unique<Attribute>(r);
      a->value = std::move(e);
      a->attr = attr->NAME()->getText();
      a->attrRange = range(attr->NAME()->getSymbol());
      e = std::move(a);
    }
  }
  return e;
}

ExprPtr Builder::subscriptList(P::SubscriptlistContext *ctx) {
  auto subs = ctx->subscript();
  if (subs.size() == 1 && ctx->COMMA().empty()) return subscript(subs[0]);
  auto t = std::make_unique<Tuple>(range(ctx));
  for (auto *s : subs) t->elts.push_back(subscript(s));
  return t;
}

ExprPtr Builder::subscript(P::SubscriptContext *ctx) {
  if (ctx->COLON().empty()) {
    if (auto *s = ctx->star_expr()) return starExpr(s);
    return test(ctx->test(0));
  }
  auto s = std::make_unique<Slice>(range(ctx));
  int colons = 0;
  for (antlr4::tree::ParseTree *child : ctx->children) {
    if (auto *term = dynamic_cast<antlr4::tree::TerminalNode *>(child)) {
      if (term->getSymbol()->getType() == P::COLON) ++colons;
      continue;
    }
    ExprPtr v = test(static_cast<P::TestContext *>(child));
    (colons == 0 ? s->lower : colons == 1 ? s->upper : s->step) = std::move(v);
  }
  return s;
}

void Builder::callArgs(P::ArglistContext *ctx, SourceRange parens, Call &call) {
  std::vector<antlr4::tree::ParseTree *> argCtxs;
  for (P::ArgumentContext *arg : ctx->argument()) {
    argCtxs.push_back(arg);
    if (auto *g = dynamic_cast<P::GeneratorArgumentContext *>(arg)) {
      // As in Python, a sole generator argument `f(x for x in y)` spans the call's parentheses.
      bool sole = ctx->argument().size() == 1 && ctx->COMMA().empty();
      auto gen = std::make_unique<GeneratorExp>(sole ? parens : range(arg));
      gen->elt = test(g->test());
      gen->generators = compFor(g->comp_for());
      if (!sole)
        diags_.report(DiagId::SyntaxError, gen->range, "a generator expression must be parenthesized");
      call.args.push_back(std::move(gen));
    } else if (auto *k = dynamic_cast<P::KeywordArgumentContext *>(arg)) {
      Keyword kw;
      kw.arg = k->NAME()->getText();
      kw.argRange = range(k->NAME()->getSymbol());
      kw.value = test(k->test());
      kw.range = range(arg);
      call.keywords.push_back(std::move(kw));
    } else if (auto *d = dynamic_cast<P::DoubleStarArgumentContext *>(arg)) {
      Keyword kw;
      kw.value = test(d->test());
      kw.range = range(arg);
      call.keywords.push_back(std::move(kw));
    } else if (auto *s = dynamic_cast<P::StarArgumentContext *>(arg)) {
      auto st = std::make_unique<Starred>(range(arg));
      st->value = test(s->test());
      call.args.push_back(std::move(st));
    } else {
      call.args.push_back(test(static_cast<P::PositionalArgumentContext *>(arg)->test()));
    }
  }
  checkCall(call, argCtxs);
}

void Builder::checkCall(Call &, const std::vector<antlr4::tree::ParseTree *> &argCtxs) {
  bool sawKeyword = false, sawKwUnpack = false;
  std::map<std::string, SourceRange> seen;
  for (antlr4::tree::ParseTree *pt : argCtxs) {
    auto *arg = static_cast<P::ArgumentContext *>(pt);
    SourceRange r = range(arg);
    if (auto *k = dynamic_cast<P::KeywordArgumentContext *>(arg)) {
      sawKeyword = true;
      std::string name = k->NAME()->getText();
      auto [it, fresh] = seen.emplace(name, r);
      if (!fresh)
        diags_.report(DiagId::DuplicateKeyword, r, "keyword argument '" + name + "' repeated")
            .note(it->second, "first given here");
    } else if (dynamic_cast<P::DoubleStarArgumentContext *>(arg)) {
      sawKwUnpack = true;
    } else if (dynamic_cast<P::StarArgumentContext *>(arg)) {
      if (sawKwUnpack)
        diags_.report(DiagId::ArgumentOrder, r, "iterable argument unpacking follows keyword argument unpacking");
    } else if (sawKwUnpack) {
      diags_.report(DiagId::ArgumentOrder, r, "positional argument follows keyword argument unpacking");
    } else if (sawKeyword) {
      diags_.report(DiagId::ArgumentOrder, r, "positional argument follows keyword argument");
    }
  }
}

std::vector<Comprehension> Builder::compFor(P::Comp_forContext *ctx) {
  std::vector<Comprehension> gens;
  while (ctx) {
    Comprehension c;
    c.range = range(ctx);
    c.target = sequence(ctx->exprlist(), true);
    checkTarget(*c.target, "comprehension target");
    c.iter = orTest(ctx->or_test());
    P::Comp_iterContext *it = ctx->comp_iter();
    ctx = nullptr;
    while (it) {
      if (auto *f = it->comp_for()) {
        ctx = f;
        break;
      }
      P::Comp_ifContext *cif = it->comp_if();
      c.ifs.push_back(testNocond(cif->test_nocond()));
      it = cif->comp_iter();
    }
    gens.push_back(std::move(c));
  }
  return gens;
}

ExprPtr Builder::atom(P::AtomContext *ctx) {
  SourceRange r = range(ctx);
  if (auto *paren = dynamic_cast<P::ParenAtomContext *>(ctx)) {
    P::Testlist_compContext *tc = paren->testlist_comp();
    if (!tc) {
      auto t = std::make_unique<Tuple>(r);
      t->parenthesized = true;
      return t;
    }
    if (auto *cf = tc->comp_for()) {
      auto g = std::make_unique<GeneratorExp>(r);
      g->elt = testOrStar(tc->children[0]);
      g->generators = compFor(cf);
      return g;
    }
    ExprPtr inner = sequence(tc, false);
    if (auto *t = dyn_cast<Tuple>(inner.get())) {
      t->range = r;
      t->parenthesized = true;
    }
    return inner;
  }
  if (auto *list = dynamic_cast<P::ListAtomContext *>(ctx)) {
    P::Testlist_compContext *tc = list->testlist_comp();
    if (tc && tc->comp_for()) {
      auto c = std::make_unique<ListComp>(r);
      c->elt = testOrStar(tc->children[0]);
      c->generators = compFor(tc->comp_for());
      return c;
    }
    auto l = std::make_unique<List>(r);
    if (tc) l->elts = elements(tc);
    return l;
  }
  if (auto *brace = dynamic_cast<P::BraceAtomContext *>(ctx)) {
    P::DictorsetmakerContext *m = brace->dictorsetmaker();
    if (!m) return std::make_unique<Dict>(r);
    auto item = [&](P::Dict_itemContext *di, Dict &d) {
      if (di->POWER()) {
        d.keys.push_back(nullptr);
        d.values.push_back(expr(di->expr()));
      } else {
        d.keys.push_back(test(di->test(0)));
        d.values.push_back(test(di->test(1)));
      }
    };
    if (auto *dc = dynamic_cast<P::DictCompContext *>(m)) {
      auto c = std::make_unique<DictComp>(r);
      P::Dict_itemContext *di = dc->dict_item();
      if (di->POWER()) {
        diags_.report(DiagId::SyntaxError, range(di), "dict unpacking cannot be used in a dict comprehension");
        c->key = expr(di->expr());
        c->value = std::make_unique<Constant>(range(di));
      } else {
        c->key = test(di->test(0));
        c->value = test(di->test(1));
      }
      c->generators = compFor(dc->comp_for());
      return c;
    }
    if (auto *dd = dynamic_cast<P::DictDisplayContext *>(m)) {
      auto d = std::make_unique<Dict>(r);
      for (auto *di : dd->dict_item()) item(di, *d);
      return d;
    }
    if (auto *sc = dynamic_cast<P::SetCompContext *>(m)) {
      auto c = std::make_unique<SetComp>(r);
      c->elt = testOrStar(sc->children[0]);
      c->generators = compFor(sc->comp_for());
      return c;
    }
    auto s = std::make_unique<Set>(r);
    s->elts = elements(m);
    return s;
  }
  if (auto *name = dynamic_cast<P::NameAtomContext *>(ctx)) {
    auto n = std::make_unique<Name>(r);
    n->id = name->NAME()->getText();
    return n;
  }
  if (auto *s = dynamic_cast<P::StringAtomContext *>(ctx)) return strings(s);
  auto c = std::make_unique<Constant>(r);
  auto stripUnderscores = [](std::string s) {
    s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
    return s;
  };
  if (dynamic_cast<P::IntegerAtomContext *>(ctx)) {
    c->type = Constant::Type::Int;
    c->value = stripUnderscores(ctx->getText());
  } else if (dynamic_cast<P::FloatAtomContext *>(ctx)) {
    c->type = Constant::Type::Float;
    c->value = stripUnderscores(ctx->getText());
  } else if (dynamic_cast<P::EllipsisAtomContext *>(ctx)) {
    c->type = Constant::Type::Ellipsis;
  } else if (dynamic_cast<P::NoneAtomContext *>(ctx)) {
    c->type = Constant::Type::None;
  } else {
    c->type = Constant::Type::Bool;
    c->value = ctx->getText();
  }
  return c;
}

// Adjacent literals concatenate, as in Python; mixing bytes and str is an error.
ExprPtr Builder::strings(P::StringAtomContext *ctx) {
  auto c = std::make_unique<Constant>(range(ctx));
  bool first = true;
  std::vector<std::pair<std::string, bool>> parts;  // (text, is an f-string part)
  for (antlr4::tree::TerminalNode *node : ctx->STRING()) {
    Constant::Type type;
    bool raw = false, fstr = false;
    std::string value = decodeString(node->getSymbol(), type, raw, fstr);
    if (first) {
      c->type = type;
      c->isRaw = raw;
    } else if (type != c->type) {
      diags_.report(DiagId::SyntaxError, range(node->getSymbol()), "cannot mix bytes and non-bytes literals");
    }
    c->isFString |= fstr;
    parts.emplace_back(std::move(value), fstr);
    first = false;
  }
  // In an f-string made of several literals, the braces of the plain ones are text.
  for (const auto &[text, fstr] : parts) {
    if (!c->isFString || fstr) {
      c->value += text;
      continue;
    }
    for (char ch : text) c->value += (ch == '{' || ch == '}') ? std::string(2, ch) : std::string(1, ch);
  }
  return c;
}

std::string Builder::decodeString(Token *tok, Constant::Type &type, bool &isRaw, bool &isF) {
  std::string text = tok->getText();
  size_t q = text.find_first_of("'\"");
  std::string prefix = text.substr(0, q);
  type = Constant::Type::String;
  for (char ch : prefix) {
    char lc = static_cast<char>(ch | 0x20);
    if (lc == 'r') isRaw = true;
    if (lc == 'b') type = Constant::Type::Bytes;
    if (lc == 'f') isF = true;
  }
  size_t quoteLen = text.compare(q, 3, std::string(3, text[q])) == 0 && text.size() - q >= 6 ? 3 : 1;
  std::string body = text.substr(q + quoteLen, text.size() - q - 2 * quoteLen);
  if (isRaw) return body;

  SourceLoc start = tokenBegin(*tok, file_);
  // Position of body[i] in the file, for escape warnings.
  auto locOf = [&](size_t i) {
    SourceLoc afterQuote = advancePast(start, std::string_view(text).substr(0, q + quoteLen));
    return advancePast(afterQuote, std::string_view(body).substr(0, i));
  };
  auto hexValue = [](const std::string &digits, size_t n, uint32_t &out) {
    if (digits.size() < n) return false;
    out = 0;
    for (size_t k = 0; k < n; ++k) {
      char d = digits[k];
      int v = d >= '0' && d <= '9' ? d - '0' : (d | 0x20) >= 'a' && (d | 0x20) <= 'f' ? (d | 0x20) - 'a' + 10 : -1;
      if (v < 0) return false;
      out = out * 16 + static_cast<uint32_t>(v);
    }
    return true;
  };

  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    char ch = body[i];
    if (ch != '\\' || i + 1 >= body.size()) {
      out.push_back(ch);
      continue;
    }
    char e = body[++i];
    switch (e) {
    case '\n': break;  // line continuation inside the literal
    case '\\': out.push_back('\\'); break;
    case '\'': out.push_back('\''); break;
    case '"': out.push_back('"'); break;
    case 'a': out.push_back('\a'); break;
    case 'b': out.push_back('\b'); break;
    case 'f': out.push_back('\f'); break;
    case 'n': out.push_back('\n'); break;
    case 'r': out.push_back('\r'); break;
    case 't': out.push_back('\t'); break;
    case 'v': out.push_back('\v'); break;
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
      unsigned v = 0;
      size_t k = 0;
      while (k < 3 && i < body.size() && body[i] >= '0' && body[i] <= '7') v = v * 8 + (body[i++] - '0'), ++k;
      --i;
      if (type == Constant::Type::Bytes) out.push_back(static_cast<char>(v & 0xFF));
      else out += utf8::encode(v);
      break;
    }
    case 'N':
      if (type == Constant::Type::Bytes) goto unknown;
      diags_.report(DiagId::SyntaxError, SourceRange(locOf(i - 1), locOf(i + 1)),
                    "named Unicode escapes (\\N{...}) are not supported; use \\u or \\U");
      out += "\\N";
      break;
    case 'x': case 'u': case 'U': {
      size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      uint32_t v;
      bool bytesUnicode = type == Constant::Type::Bytes && e != 'x';
      if (!bytesUnicode && hexValue(body.substr(i + 1, n), n, v) && v <= 0x10FFFF) {
        if (type == Constant::Type::Bytes) out.push_back(static_cast<char>(v));
        else out += utf8::encode(v);
        i += n;
        break;
      }
      if (!bytesUnicode) {
        diags_.report(DiagId::SyntaxError, SourceRange(locOf(i - 1), locOf(std::min(body.size(), i + 1 + n))),
                      std::string("invalid \\") + e + " escape in string literal");
        break;
      }
      goto unknown;
    }
    default:
    unknown: {
      // Python keeps an unknown escape as written and warns (a SyntaxWarning since 3.12).
      size_t pos = i;
      char32_t c = utf8::decode(body, pos);
      std::string shown = utf8::encode(c);
      diags_.report(DiagId::InvalidEscape, SourceRange(locOf(i - 1), locOf(pos)),
                    "invalid escape sequence '\\" + shown + "'; use a raw string (r\"...\") or '\\\\'");
      out.push_back('\\');
      out.append(body, i, pos - i);
      i = pos - 1;
    }
    }
  }
  return out;
}

void Builder::checkTarget(Expr &e, const char *what) {
  auto checkElements = [&](ExprList &elts) {
    const Expr *firstStar = nullptr;
    for (ExprPtr &x : elts) {
      if (isa<Starred>(x.get())) {
        if (firstStar) {
          diags_.report(DiagId::InvalidAssignTarget, x->range, "multiple starred expressions in assignment")
              .note(firstStar->range, "first starred target here");
          return;
        }
        firstStar = x.get();
      }
      checkTarget(*x, what);
    }
  };
  switch (e.kind) {
  case Expr::Kind::Name:
  case Expr::Kind::Attribute:
  case Expr::Kind::Subscript:
    return;
  case Expr::Kind::Tuple:
    checkElements(static_cast<Tuple &>(e).elts);
    return;
  case Expr::Kind::List:
    checkElements(static_cast<List &>(e).elts);
    return;
  case Expr::Kind::Starred:
    checkTarget(*static_cast<Starred &>(e).value, what);
    return;
  default:
    break;
  }
  const char *desc = "expression";
  switch (e.kind) {
  case Expr::Kind::Constant: desc = "literal"; break;
  case Expr::Kind::Call: desc = "function call"; break;
  case Expr::Kind::Compare: desc = "comparison"; break;
  case Expr::Kind::Lambda: desc = "lambda"; break;
  case Expr::Kind::IfExp: desc = "conditional expression"; break;
  case Expr::Kind::Dict: desc = "dict literal"; break;
  case Expr::Kind::Set: desc = "set display"; break;
  case Expr::Kind::ListComp: desc = "list comprehension"; break;
  case Expr::Kind::SetComp: desc = "set comprehension"; break;
  case Expr::Kind::DictComp: desc = "dict comprehension"; break;
  case Expr::Kind::GeneratorExp: desc = "generator expression"; break;
  default: break;
  }
  std::string msg = std::string("cannot assign to ") + desc;
  bool plainAssignment = std::string(what) == "assignment";
  if (plainAssignment && (e.kind == Expr::Kind::Compare || e.kind == Expr::Kind::Call)) msg += "; did you mean '=='?";
  diags_.report(DiagId::InvalidAssignTarget, e.range, msg);
}

}  // namespace

void buildAst(TleParser::File_inputContext *chunk, antlr4::TokenStream &tokens, FileId file, DiagnosticEngine &diags,
              ast::StmtList &out) {
  Builder(tokens, file, diags).fileInput(chunk, out);
}

}  // namespace tle
