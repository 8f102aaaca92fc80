// TLE-Struct for Ascend DSAs, local buffers and the vector unit: tle.dsa.alloc, copy,
// to_tensor, to_buffer, hint, and add / sub / mul / div / max / min on UB buffers (the
// cube unit's matmul and subview are in DsaCube.cpp).
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"
#include "ir/DsaDialect.h"

namespace tle::sema {

namespace {

MemorySpace spaceOf(LoweringContext &cx, const Value &v, SourceRange r) {
  if (v.kind != Value::Kind::Builtin || v.text.rfind("tle.dsa.space.", 0) != 0)
    cx.fail(r, DiagId::TypeMismatch, "a DSA memory space is one of tle.dsa.ascend.UB, L1, L0A, L0B, L0C; got " + v.describe());
  return *memorySpaceNamed(v.text.substr(14));
}

void requireBuffer(LoweringContext &cx, const Value &v, SourceRange r, const std::string &what) {
  if (!v.isRuntime() || !v.type.isBuffer || !isAscendBuffer(v.type.space))
    cx.fail(r, DiagId::TypeMismatch, what + " must be a buffer from tle.dsa.alloc, got " +
                                         withArticle(v.isRuntime() ? v.type.str() : v.describe()));
}

// tle.dsa.alloc(shape, dtype, mem_addr_space).
Value alloc(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.dsa.alloc", {{"shape", true}, {"dtype", true}, {"mem_addr_space", true}}, c.args, c.at, &where);
  std::vector<int64_t> shape;
  for (int64_t n : shapeArgAny(cx, *a[0], where[0])) {
    if (n <= 0) cx.fail(where[0], DiagId::ShapeMismatch, "buffer dimensions must be positive, got " + std::to_string(n));
    shape.push_back(n);
  }
  DType d = cx.requireDType(*a[1], where[1], "the dtype");
  MemorySpace space = spaceOf(cx, *a[2], where[2]);
  int64_t bytes = (bitWidth(d) + 7) / 8;
  for (int64_t n : shape) bytes *= n;
  const TargetInfo &dsa = cx.target();
  int64_t capacity = dsa.memorySpace(space)->capacityBytes;
  if (bytes > capacity)
    cx.fail(c.at, DiagId::ShapeMismatch, "a buffer of " + std::to_string(bytes) + " bytes exceeds the " + std::to_string(capacity / 1024) +
                                             " KiB of " + std::string(memorySpaceName(space)) + " on " + dsa.name());
  TType t;
  t.dtype = d;
  t.isBuffer = true;
  t.blockShape = shape;
  t.space = space;
  return Value::ofRuntime(cx.builder().create<tle::ir::AllocOp>(cx.loc(c.at), cx.irType(t)).getResult(), t);
}

// Copy sizes: one integer scalar per buffer dimension, compile-time ones within the buffer.
std::vector<mlir::Value> copySizes(LoweringContext &cx, const Value &sizesArg, const Value &local, SourceRange r) {
  std::vector<Value> sizes = sizesArg.kind == Value::Kind::Tuple ? sizesArg.elements : std::vector<Value>{sizesArg};
  if (sizes.size() != local.type.blockShape.size())
    cx.fail(r, DiagId::ShapeMismatch, "tle.dsa.copy needs one size per buffer dimension (" +
                                          std::to_string(local.type.blockShape.size()) + "), got " + std::to_string(sizes.size()));
  std::vector<mlir::Value> sizeIr;
  TType i32;
  i32.dtype = DType::I32;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const Value &s = sizes[i];
    if (!s.isRuntime()) {
      int64_t n = cx.requireInt(s, r, "a copy size");
      if (n <= 0 || n > local.type.blockShape[i])
        cx.fail(r, DiagId::ShapeMismatch, "copy size " + std::to_string(n) + " in dimension " + std::to_string(i) +
                                              " is outside 1.." + std::to_string(local.type.blockShape[i]));
    }
    Value v = s.isRuntime() ? s : cx.toRuntime(s, r, &i32);
    if (v.type.isBlock() || v.type.isPointer || !isInt(v.type.dtype))
      cx.fail(r, DiagId::TypeMismatch, "copy sizes must be integer scalars");
    sizeIr.push_back(v.type.dtype == DType::I32 ? v.ir : cx.cast(v, DType::I32, r).ir);
  }
  return sizeIr;
}

// tle.dsa.copy(src, dst, shape): global memory to a local buffer or back, or L1 to L0A / L0B.
Value copy(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.dsa.copy", {{"src", true}, {"dst", true}, {"shape", true}}, c.args, c.at, &where);
  bool srcBuf = a[0]->isRuntime() && a[0]->type.isBuffer, dstBuf = a[1]->isRuntime() && a[1]->type.isBuffer;
  if (!srcBuf && !dstBuf)
    cx.fail(c.at, DiagId::TypeMismatch, "tle.dsa.copy copies between global memory and a local buffer, or from L1 to L0A/L0B; "
                                        "neither operand is a buffer");
  bool cubeOperand = srcBuf && dstBuf;  // L1 -> L0A / L0B, the cube's operand path (MTE1)
  if (cubeOperand) {
    requireBuffer(cx, *a[0], where[0], "the source");
    requireBuffer(cx, *a[1], where[1], "the destination");
    MemorySpace from = a[0]->type.space, to = a[1]->type.space;
    if (from != MemorySpace::L1 || (to != MemorySpace::L0A && to != MemorySpace::L0B))
      cx.fail(c.at, DiagId::TypeMismatch, "tle.dsa.copy between two buffers only moves L1 to L0A or L0B (the cube's operand path); got " +
                                              std::string(memorySpaceName(from)) + " to " + std::string(memorySpaceName(to)));
    if (a[0]->type.blockShape != a[1]->type.blockShape || a[0]->type.dtype != a[1]->type.dtype)
      cx.fail(c.at, DiagId::ShapeMismatch, "the buffers (" + a[0]->type.str() + " and " + a[1]->type.str() +
                                               ") must have one shape and element type");
  }
  const Value &local = srcBuf && !cubeOperand ? *a[0] : *a[1];
  const Value &global = srcBuf && !cubeOperand ? *a[1] : *a[0];
  requireBuffer(cx, local, srcBuf ? where[0] : where[1], "the local operand");
  if (!cubeOperand && (!global.isRuntime() || !global.type.isPointer))
    cx.fail(srcBuf ? where[1] : where[0], DiagId::TypeMismatch, "the global operand of tle.dsa.copy must be a block of pointers");
  MemorySpace space = local.type.space;
  if (!cubeOperand && (space == MemorySpace::L0A || space == MemorySpace::L0B))
    cx.fail(srcBuf ? where[0] : where[1], DiagId::TypeMismatch,
            "global memory cannot be copied to or from " + std::string(memorySpaceName(space)) + " directly; stage it through an L1 buffer");
  if (!cubeOperand && space == MemorySpace::L0C && !srcBuf)
    cx.fail(where[1], DiagId::TypeMismatch, "L0C receives cube (matrix) results only; it cannot be loaded from global memory");
  if (!cubeOperand && (global.type.shape != local.type.blockShape || global.type.dtype != local.type.dtype))
    cx.fail(c.at, DiagId::ShapeMismatch, "the pointer block (" + global.type.str() + ") and the buffer (" + local.type.str() +
                                             ") must have one shape and element type");
  std::vector<mlir::Value> sizeIr = copySizes(cx, *a[2], local, where[2]);
  cx.builder().create<tle::dsa::CopyOp>(cx.loc(c.at), a[0]->ir, a[1]->ir, sizeIr, mlir::Value());
  return Value::none();
}

// tle.dsa.to_tensor(buffer, writable=False): a UB buffer as a block.
Value toTensor(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.dsa.to_tensor", {{"buffer", true}, {"writable", false}}, c.args, c.at, &where);
  requireBuffer(cx, *a[0], where[0], "tle.dsa.to_tensor's operand");
  if (a[0]->type.space != MemorySpace::UB)
    cx.fail(where[0], DiagId::TypeMismatch, "tle.dsa.to_tensor needs a UB buffer, got " + withArticle(a[0]->type.str()));
  TType t;
  t.dtype = a[0]->type.dtype;
  t.shape = a[0]->type.blockShape;
  bool writable = a[1] && cx.truthy(*a[1], where[1]);
  return Value::ofRuntime(cx.builder().create<tle::dsa::ToTensorOp>(cx.loc(c.at), cx.irType(t), a[0]->ir, writable).getResult(), t);
}

// tle.dsa.to_buffer(tensor, space): a block placed in a UB buffer.
Value toBuffer(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "tle.dsa.to_buffer", {{"tensor", true}, {"space", true}}, c.args, c.at, &where);
  const Value &x = *a[0];
  if (!x.isRuntime() || !x.type.isBlock() || x.type.isPointer)
    cx.fail(where[0], DiagId::TypeMismatch, "tle.dsa.to_buffer needs a block of numbers, got " + withArticle(x.isRuntime() ? x.type.str() : x.describe()));
  MemorySpace space = spaceOf(cx, *a[1], where[1]);
  if (space != MemorySpace::UB)
    cx.fail(where[1], DiagId::TypeMismatch, "tle.dsa.to_buffer can place a block only in UB, not " + std::string(memorySpaceName(space)));
  TType t;
  t.dtype = x.type.dtype;
  t.isBuffer = true;
  t.blockShape = x.type.shape;
  t.space = space;
  return Value::ofRuntime(cx.builder().create<tle::dsa::ToBufferOp>(cx.loc(c.at), cx.irType(t), x.ir).getResult(), t);
}

// `with tle.dsa.hint(inter_no_alias=True):` -- compile-time keywords only.
Value hint(LoweringContext &cx, BuiltinCall &c) {
  CallArgs &args = c.args;
  if (!args.positional.empty()) cx.fail(args.positionalRanges[0], DiagId::ArgumentMismatch, "tle.dsa.hint takes keyword arguments only");
  for (size_t k = 0; k < args.keywords.size(); ++k)
    if (args.keywords[k].second.isRuntime())
      cx.fail(args.keywordRanges[k], DiagId::NotConstexpr, "keyword arguments to tle.dsa.hint are only supported for constant values");
  return Value::ofBuiltin("tle.dsa.hint.instance");
}

// add / sub / mul / div / max / min (lhs, rhs, out): the vector unit works on UB only.
Value vectorOp(LoweringContext &cx, BuiltinCall &c) {
  std::vector<SourceRange> where;
  std::string fn = "tle.dsa." + c.member;
  auto a = bindArgs(cx, fn, {{"lhs", true}, {"rhs", true}, {"out", true}}, c.args, c.at, &where);
  const char *names[] = {"lhs", "rhs", "out"};
  for (size_t i = 0; i < 3; ++i) {
    requireBuffer(cx, *a[i], where[i], fn + "'s '" + names[i] + "'");
    if (a[i]->type.space != MemorySpace::UB)
      cx.fail(where[i], DiagId::TypeMismatch, fn + " runs on the vector unit, which reads UB buffers only; '" + names[i] +
                                                  "' is " + withArticle(a[i]->type.str()));
    if (a[i]->type != a[2]->type)
      cx.fail(where[i], DiagId::ShapeMismatch, fn + "'s operands must have one shape and element type: " + a[i]->type.str() +
                                                   " and " + a[2]->type.str());
  }
  mlir::OpBuilder &b = cx.builder();
  b.create<tle::dsa::ElementwiseOp>(cx.loc(c.at), b.getStringAttr(c.member), a[0]->ir, a[1]->ir, a[2]->ir);
  return Value::none();
}

}  // namespace

void registerDsaStructBuiltins(BuiltinRegistry &r) {
  r.add("tle.dsa.alloc", alloc);
  r.add("tle.dsa.copy", copy);
  r.add("tle.dsa.to_tensor", toTensor);
  r.add("tle.dsa.to_buffer", toBuffer);
  r.add("tle.dsa.hint", hint);
  for (const char *op : {"add", "sub", "mul", "div", "max", "min"}) r.add(std::string("tle.dsa.") + op, vectorOp);
  // Other tle.dsa values (the hint's `with` value) are called as vector-unit operations,
  // whose argument binding rejects them; the memory spaces (tle.dsa.ascend.UB, ...) are
  // arguments, not functions.
  r.addFamily("tle.dsa.", vectorOp, /*except=*/"tle.dsa.space.");
}

}  // namespace tle::sema
