#include "codegen/cuda/CudaSpelling.h"

#include "codegen/common/Naming.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace tle::cuda {

using namespace mlir;

namespace {

using codegen::formatFloat;

std::string intList(ArrayRef<unsigned> values) {
  std::string s;
  for (unsigned v : values) s += (s.empty() ? "" : ", ") + std::to_string(v);
  return "tle::ints<" + s + ">";
}

std::string blockedSpelling(gpu::BlockedLayoutAttr b) {
  return "tle::Blocked<" + intList(b.getSizePerThread()) + ", " + intList(b.getThreadsPerWarp()) + ", " +
         intList(b.getWarpsPerCTA()) + ", " + intList(b.getOrder()) + ">";
}

}  // namespace

const std::set<std::string> &reservedWords() {
  static const std::set<std::string> words = {
    "auto", "bool", "break", "case", "catch", "char", "class", "const", "continue", "default", "delete", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "if", "int", "long", "namespace", "new", "operator",
    "private", "protected", "public", "register", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "template", "this", "throw", "try", "typedef", "union", "unsigned", "using", "virtual", "void",
    "volatile", "while", "and", "or", "not", "xor", "bitand", "bitor", "compl", "tle", "cuda", "std", "min", "max",
    "blockIdx", "threadIdx", "blockDim", "gridDim", "warpSize", "tle_smem", "tle_staging", "tle_staging_half", "tle_stage", "tle_async", "tle_scratch_at", "tle_staging_at", "tle_staging_halves", "true", "false", "nullptr", "inline",
    "asm", "friend", "mutable", "export", "typename", "decltype", "constexpr", "noexcept", "static_assert"};
  return words;
}

std::string sanitize(StringRef name) { return codegen::sanitize(name, reservedWords()); }

std::optional<std::string> nameFromLocation(Location loc) { return codegen::nameFromLocation(loc); }

std::string scalarType(Type t) {
  if (t.isInteger(1)) return "bool";
  if (t.isInteger(8)) return "int8_t";
  if (t.isInteger(16)) return "int16_t";
  if (t.isInteger(32)) return "int32_t";
  if (t.isInteger(64)) return "int64_t";
  if (t.isF16()) return "__half";
  if (t.isBF16()) return "__nv_bfloat16";
  if (t.isF32()) return "float";
  if (t.isF64()) return "double";
  if (isa<Float8E4M3FNType>(t)) return "__nv_fp8_e4m3";
  if (isa<Float8E5M2Type>(t)) return "__nv_fp8_e5m2";
  if (auto p = dyn_cast<ir::PointerType>(t)) {
    // Global, shared (tle.gpu.local_ptr) and distributed shared memory (tle.remote): all
    // generic pointers in CUDA C++.
    if (p.getMemorySpace() != MemorySpace::Global && p.getMemorySpace() != MemorySpace::Shared &&
        p.getMemorySpace() != MemorySpace::RemoteShared)
      throw Unsupported{"pointers into " + std::string(memorySpaceName(p.getMemorySpace())) + " memory"};
    return scalarType(p.getPointeeType()) + "*";
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  throw Unsupported{"the type " + s};
}

std::string hostType(Type t, bool readonly) {
  if (auto p = dyn_cast<ir::PointerType>(t)) {
    Type e = p.getPointeeType();
    std::string base = e.isInteger(1) ? "bool"
                       : (e.isF16() || e.isBF16() || (isa<FloatType>(e) && e.getIntOrFloatBitWidth() == 8)) ? "void"
                                                                                                              : scalarType(e);
    return (readonly ? "const " : "") + base + "*";
  }
  if (t.isF16() || t.isBF16()) return "float";  // converted by the launcher
  return scalarType(t);
}

std::string literal(Attribute value, Type t) {
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    if (t.isInteger(1)) return i.getValue().isZero() ? "false" : "true";
    int64_t v = t.getIntOrFloatBitWidth() == 1 ? i.getValue().getZExtValue() : i.getValue().getSExtValue();
    if (t.isInteger(32) && v != INT32_MIN) return std::to_string(v);
    return scalarType(t) + "(" + (v == INT64_MIN ? "INT64_MIN" : std::to_string(v) + (t.isInteger(64) ? "ll" : "")) + ")";
  }
  if (auto f = dyn_cast<FloatAttr>(value)) {
    double v = f.getValueAsDouble();
    if (!std::isfinite(v)) {
      APInt bits = f.getValue().bitcastToAPInt();
      std::string hex = llvm::utohexstr(bits.getZExtValue());
      if (t.isF64()) return "tle::bitcast<double>(0x" + hex + "ull)";
      if (t.isF32()) return "tle::bitcast<float>(0x" + hex + "u)";
      return "tle::bitcast<" + scalarType(t) + ">(uint16_t(0x" + hex + "))";
    }
    if (t.isF32()) return formatFloat(v, true);
    if (t.isF64()) return formatFloat(v, false);
    return "tle::cast<" + scalarType(t) + ">(" + formatFloat(v, true) + ")";
  }
  throw Unsupported{"a constant of this kind"};
}

std::string cString(const std::string &text) {
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (ch == '?') {
      out += "\\?";  // no trigraphs
      continue;
    }
    if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) > 0x7e) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", static_cast<unsigned char>(ch));
      out += buf;
      continue;
    }
    out += ch;
  }
  return out + "\"";
}

std::optional<std::string> elementwiseFunction(Operation *op) {
  static const std::map<std::string, std::string> functions = {
      {"arith.addi", "add"}, {"arith.addf", "add"}, {"arith.subi", "sub"}, {"arith.subf", "sub"},
      {"arith.muli", "mul"}, {"arith.mulf", "mul"}, {"arith.divsi", "div"}, {"arith.divf", "div"},
      {"arith.remsi", "rem"}, {"arith.remf", "fmod"}, {"arith.divui", "divu"}, {"arith.remui", "remu"},
      {"arith.andi", "bit_and"}, {"arith.ori", "bit_or"}, {"arith.xori", "bit_xor"}, {"arith.shli", "shl"},
      {"arith.shrsi", "shr"}, {"arith.shrui", "shru"}, {"arith.maxsi", "maxs"}, {"arith.minsi", "mins"},
      {"arith.maxui", "maxu"}, {"arith.minui", "minu"}, {"arith.maxnumf", "maxnum"}, {"arith.minnumf", "minnum"},
      {"arith.maximumf", "maximum"}, {"arith.minimumf", "minimum"}, {"arith.negf", "neg"}, {"arith.select", "select"},
      {"math.exp", "exp"}, {"math.exp2", "exp2"}, {"math.log", "log"}, {"math.log2", "log2"}, {"math.sqrt", "sqrt"},
      {"math.rsqrt", "rsqrt"}, {"math.sin", "sin"}, {"math.cos", "cos"}, {"math.tan", "tan"}, {"math.tanh", "tanh"},
      {"math.absf", "fabs"}, {"math.absi", "iabs"}, {"math.floor", "floor"}, {"math.ceil", "ceil"}, {"math.fma", "fma"},
      {"math.erf", "erf"}, {"math.powf", "pow"}, {"math.log1p", "log1p"}, {"math.expm1", "expm1"}};
  static const std::map<std::string, std::string> casts = {
      {"arith.extsi", "cast"}, {"arith.trunci", "cast"}, {"arith.sitofp", "cast"}, {"arith.fptosi", "cast"},
      {"arith.extf", "cast"}, {"arith.truncf", "cast"}, {"arith.extui", "cast_unsigned"},
      {"arith.uitofp", "cast_unsigned"}, {"arith.fptoui", "cast_to_unsigned"}, {"arith.bitcast", "bitcast"},
      {"arith.index_cast", "cast"}};
  std::string name = op->getName().getStringRef().str();
  // Triton's fast fp32 division (div.full); tl.math.div_rn's has no `afn`.
  if (auto division = dyn_cast<arith::DivFOp>(op);
      division && ir::elementTypeOf(division.getType()).isF32() && arith::bitEnumContainsAll(division.getFastmath(), arith::FastMathFlags::afn))
    return std::string("tle::div_full");
  if (auto it = functions.find(name); it != functions.end()) return "tle::" + it->second;
  if (auto it = casts.find(name); it != casts.end())
    return "tle::" + it->second + "<" + scalarType(ir::elementTypeOf(op->getResult(0).getType())) + ">";
  if (auto c = dyn_cast<arith::CmpIOp>(op)) {
    static const char *names[] = {"eq", "ne", "lt", "le", "gt", "ge", "ltu", "leu", "gtu", "geu"};
    return std::string("tle::") + names[static_cast<int>(c.getPredicate())];
  }
  if (auto c = dyn_cast<arith::CmpFOp>(op)) {
    using P = arith::CmpFPredicate;
    static const std::map<P, std::string> names = {
        {P::OEQ, "eq"}, {P::OGT, "gt"}, {P::OGE, "ge"}, {P::OLT, "lt"}, {P::OLE, "le"}, {P::ONE, "one"}, {P::ORD, "ord"},
        {P::UEQ, "ueq"}, {P::UGT, "ugt"}, {P::UGE, "uge"}, {P::ULT, "ult"}, {P::ULE, "ule"}, {P::UNE, "ne"}, {P::UNO, "uno"}};
    auto it = names.find(c.getPredicate());
    if (it == names.end()) throw Unsupported{"constant float comparisons"};
    return "tle::" + it->second;
  }
  return std::nullopt;
}

std::string atomicFunction(Operation *op) {
  static const std::map<std::string, std::string> kinds = {{"add", "add"}, {"fadd", "fadd"}, {"max", "max"}, {"min", "min"},
                                                           {"umax", "umax"}, {"umin", "umin"}, {"and", "band"}, {"or", "bor"},
                                                           {"xor", "bxor"}, {"xchg", "xchg"}};
  auto cas = dyn_cast<ir::AtomicCASOp>(op);
  auto rmw = dyn_cast<ir::AtomicRMWOp>(op);
  StringRef sem = cas ? cas.getSem() : rmw.getSem(), scope = cas ? cas.getScope() : rmw.getScope();
  int order = sem == "relaxed" ? 0 : sem == "acquire" ? 1 : sem == "release" ? 2 : 3;
  // Another block's shared memory is outside the block scope; CCCL's atomic_ref has no
  // cluster scope, so such an atomic takes the device scope, which covers the cluster.
  Type ptr = op->getOperand(0).getType();
  if (auto tensor = dyn_cast<RankedTensorType>(ptr)) ptr = tensor.getElementType();
  if (cast<ir::PointerType>(ptr).getMemorySpace() == MemorySpace::RemoteShared && scope == "cta") scope = "gpu";
  std::string scopeName = scope == "cta"   ? "cuda::thread_scope_block"
                          : scope == "sys" ? "cuda::thread_scope_system"
                                           : "cuda::thread_scope_device";
  if (cas) return "tle::atomic_cas<" + std::to_string(order) + ", " + scopeName + ">";
  auto it = kinds.find(rmw.getKind().str());
  if (it == kinds.end()) throw Unsupported{"atomic kind '" + rmw.getKind().str() + "'"};
  return "tle::atomic_rmw<tle::AtomicOp::" + it->second + ", " + std::to_string(order) + ", " + scopeName + ">";
}

std::string TileSpelling::layout(Attribute layout) {
  if (auto b = dyn_cast<gpu::BlockedLayoutAttr>(layout)) {
    auto it = std::find(blocked_.begin(), blocked_.end(), b);
    size_t index = it - blocked_.begin();
    if (it == blocked_.end()) blocked_.push_back(b);
    return namespace_ + "::Blocked" + std::to_string(index);
  }
  if (auto s = dyn_cast<gpu::SliceLayoutAttr>(layout))
    return "tle::Slice<" + std::to_string(s.getDim()) + ", " + this->layout(s.getParent()) + ">";
  if (auto d = dyn_cast<gpu::DotOperandLayoutAttr>(layout))
    return "tle::DotOperand<" + std::to_string(d.getOpIdx()) + ", " + this->layout(d.getParent()) + ", " + std::to_string(d.getBits()) +
           ">";
  if (auto m = dyn_cast<gpu::MmaLayoutAttr>(layout))
    return "tle::Mma<" + std::to_string(m.getWarpsM()) + ", " + std::to_string(m.getWarpsN()) +
           (m.getGroupN() ? ", " + std::to_string(m.getGroupN()) : std::string()) + ">";
  throw Unsupported{"a tensor without a thread layout"};
}

std::string TileSpelling::tile(RankedTensorType t, const std::string &element) {
  std::string s = "tle::Tile<" + element + ", " + layout(t.getEncoding());
  for (int64_t d : t.getShape()) s += ", " + std::to_string(d);
  return s + ">";
}

std::string TileSpelling::type(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t)) return tile(tensor, scalarType(tensor.getElementType()));
  if (auto buffer = dyn_cast<ir::BufferType>(t)) return scalarType(buffer.getBlockType().getElementType()) + "*";
  return scalarType(t);
}

std::string TileSpelling::tileBytes(RankedTensorType t) {
  return "int(sizeof(" + scalarType(t.getElementType()) + ")) * " + type(t) + "::kElements";
}

std::string TileSpelling::namespaceBlock() const {
  std::string s = "namespace " + namespace_ + " {\n";
  for (size_t i = 0; i < blocked_.size(); ++i) s += "using Blocked" + std::to_string(i) + " = " + blockedSpelling(blocked_[i]) + ";\n";
  return s + "}  // namespace " + namespace_ + "\n\n";
}


}  // namespace tle::cuda
