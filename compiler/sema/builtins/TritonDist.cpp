// Triton-distributed's signal and symmetric-memory primitives (imported as `dl`):
// dl.rank, num_ranks, wait, notify, consume_token, symm_at.
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

namespace tle::sema {

namespace {

TType i32Type() {
  TType t;
  t.dtype = DType::I32;
  return t;
}

void requireSignalPtr(LoweringContext &cx, const Value &v, SourceRange r, const std::string &fn) {
  if (!v.isRuntime() || !v.type.isPointer || v.type.space != MemorySpace::Global)
    cx.fail(r, DiagId::TypeMismatch, fn + " needs a pointer to global signals, got " + withArticle(v.isRuntime() ? v.type.str() : v.describe()));
  if (v.type.dtype != DType::I32 && v.type.dtype != DType::I64 && v.type.dtype != DType::U32 && v.type.dtype != DType::U64)
    cx.fail(r, DiagId::TypeMismatch, fn + ": signals are 32- or 64-bit integers, got a pointer to " + std::string(dtypeName(v.type.dtype)));
}

// A string option: `dflt` when absent or None, else one of `allowed`.
std::string oneOf(LoweringContext &cx, const std::optional<Value> &v, SourceRange r, const char *dflt,
                  std::initializer_list<const char *> allowed, const std::string &what) {
  if (!v || v->kind == Value::Kind::None) return std::string(dflt);
  if (v->kind == Value::Kind::Str)
    for (const char *ok : allowed)
      if (v->text == ok) return v->text;
  std::string list;
  for (const char *ok : allowed) list += (list.empty() ? "'" : ", '") + std::string(ok) + "'";
  cx.fail(r, DiagId::ConstantError, what + " must be one of " + list + ", got " + (v->kind == Value::Kind::Str ? "'" + v->text + "'" : v->describe()));
}

Value rankOrNumRanks(LoweringContext &cx, BuiltinCall &c) {
  bindArgs(cx, "dl." + c.member, {}, c.args, c.at);
  mlir::OpBuilder &b = cx.builder();
  mlir::Location l = cx.loc(c.at);
  mlir::Value r = c.member == "rank" ? mlir::Value(b.create<tle::ir::RankOp>(l, b.getI32Type()))
                                     : b.create<tle::ir::NumRanksOp>(l, b.getI32Type());
  return Value::ofRuntime(r, i32Type());
}

// The signal value of notify and wait, in the signals' own type (default 1).
Value signalValue(LoweringContext &cx, const std::optional<Value> &v, SourceRange where, SourceRange at, DType signals) {
  TType t;
  t.dtype = signals;
  Value value = v && v->kind != Value::Kind::None ? (v->isRuntime() ? cx.cast(*v, signals, where) : cx.toRuntime(*v, where, &t))
                                                  : cx.toRuntime(Value::ofInt(1), at, &t);
  if (value.type.isBlock()) cx.fail(where, DiagId::TypeMismatch, "the signal value must be a scalar");
  return value;
}

// dl.wait(barrierPtrs, numBarriers, scope="gpu", semantic="acquire", waitValue=1): a token.
Value wait(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "dl.wait",
                    {{"barrierPtrs", true}, {"numBarriers", true}, {"scope", false}, {"semantic", false}, {"waitValue", false}}, c.args,
                    c.at, &where);
  requireSignalPtr(cx, *a[0], where[0], "dl.wait");
  if (a[0]->type.isBlock())
    cx.fail(where[0], DiagId::TypeMismatch, "dl.wait takes the first of consecutive signals as a scalar pointer, got " + withArticle(a[0]->type.str()));
  Value count = cx.integerScalarI32(*a[1], where[1], "the signal count");
  std::string scope = oneOf(cx, a[2], where[2], "gpu", {"gpu", "sys"}, "the scope");
  std::string sem = oneOf(cx, a[3], where[3], "acquire", {"acquire", "relaxed"}, "the semantic");
  Value value = signalValue(cx, a[4], where[4], c.at, a[0]->type.dtype);
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::WaitOp>(cx.loc(c.at), b.getI32Type(), a[0]->ir, count.ir, value.ir, b.getStringAttr(scope),
                                      b.getStringAttr(sem));
  return Value::ofRuntime(op.getResult(), i32Type());
}

// dl.notify(ptr, rank, signal=1, sig_op="set", comm_scope="gpu").
Value notify(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "dl.notify", {{"ptr", true}, {"rank", true}, {"signal", false}, {"sig_op", false}, {"comm_scope", false}},
                    c.args, c.at, &where);
  requireSignalPtr(cx, *a[0], where[0], "dl.notify");
  if (a[0]->type.isBlock())
    cx.fail(where[0], DiagId::TypeMismatch, "dl.notify signals one scalar pointer, got " + withArticle(a[0]->type.str()));
  Value rank = cx.integerScalarI32(*a[1], where[1], "the rank");
  Value signal = signalValue(cx, a[2], where[2], c.at, a[0]->type.dtype);
  std::string sigOp = oneOf(cx, a[3], where[3], "set", {"set", "add"}, "sig_op");
  // "sys" (system scope) reaches the peer the same way as "intra_node".
  std::string scope = oneOf(cx, a[4], where[4], "gpu", {"gpu", "intra_node", "inter_node", "sys"}, "comm_scope");
  if (scope == "sys") scope = "intra_node";
  if (scope == "inter_node" && sigOp == "add")
    cx.fail(where[3].isValid() ? where[3] : c.at, DiagId::NotImplemented,
            "dl.notify(sig_op='add', comm_scope='inter_node'): NCCL's network path (GIN) writes values into another node's memory "
            "but adds only to its own signal objects; use sig_op='set' with a value that grows (an epoch)");
  mlir::OpBuilder &b = cx.builder();
  b.create<tle::ir::NotifyOp>(cx.loc(c.at), a[0]->ir, rank.ir, signal.ir, b.getStringAttr(sigOp), b.getStringAttr(scope));
  return Value::none();
}

// dl.consume_token(value, token): `value`, ordered after the wait that produced the token.
Value consumeToken(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "dl.consume_token", {{"value", true}, {"token", true}}, c.args, c.at, &where);
  if (!a[0]->isRuntime()) cx.fail(where[0], DiagId::TypeMismatch, "dl.consume_token needs a runtime value (usually a pointer)");
  if (!a[1]->isRuntime() || a[1]->type.isBlock() || a[1]->type.dtype != DType::I32)
    cx.fail(where[1], DiagId::TypeMismatch, "dl.consume_token needs the token returned by dl.wait");
  auto op = cx.builder().create<tle::ir::ConsumeTokenOp>(cx.loc(c.at), a[0]->ir.getType(), a[0]->ir, a[1]->ir);
  return Value::ofRuntime(op.getResult(), a[0]->type);
}

// dl.symm_at(ptr, rank): the same symmetric allocation on another rank.
Value symmAt(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "dl.symm_at", {{"ptr", true}, {"rank", true}}, c.args, c.at, &where);
  if (!a[0]->isRuntime() || !a[0]->type.isPointer || a[0]->type.space != MemorySpace::Global)
    cx.fail(where[0], DiagId::TypeMismatch, "dl.symm_at needs a pointer into a symmetric allocation, got " +
                                                withArticle(a[0]->isRuntime() ? a[0]->type.str() : a[0]->describe()));
  Value rank = cx.integerScalarI32(*a[1], where[1], "the rank");
  auto op = cx.builder().create<tle::ir::SymmAtOp>(cx.loc(c.at), a[0]->ir.getType(), a[0]->ir, rank.ir);
  return Value::ofRuntime(op.getResult(), a[0]->type);
}

}  // namespace

void registerTritonDistBuiltins(BuiltinRegistry &r) {
  r.add("dist.rank", rankOrNumRanks);
  r.add("dist.num_ranks", rankOrNumRanks);
  r.add("dist.wait", wait);
  r.add("dist.notify", notify);
  r.add("dist.consume_token", consumeToken);
  // dl.symm_at, and any other dl name (the module exports only these six).
  r.addFamily("dist.", symmAt);
}

}  // namespace tle::sema
