// One statement per op: each tle_dsa op is one AscendC call (or one call of tle/ascendc's
// copy helpers), scalars are C++ expressions, loops and branches are C++ loops and branches.
// Every decision was made by the Ascend passes; what is left unlowered is an error here.
#include "codegen/ascendc/AscendcBackend.h"

#include "codegen/common/Naming.h"
#include "codegen/common/StatementPrinter.h"
#include "ir/Dialect.h"
#include "ir/DsaDialect.h"
#include "ir/IrModuleDetail.h"
#include "ir/KernelSettings.h"
#include "ir/Locations.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <set>
#include <sstream>

namespace tle {

namespace {

using namespace mlir;

struct NotPrintable {
  std::string message;
  Location where;
};

const std::set<std::string> kReservedWords = {
    "auto", "bool", "break", "case", "char", "class", "const", "continue", "default", "delete", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "int", "long", "namespace", "new", "operator", "private",
    "protected", "public", "register", "return", "short", "signed", "sizeof", "static", "struct", "switch", "template",
    "this", "throw", "try", "typedef", "union", "unsigned", "using", "virtual", "void", "volatile", "while", "and",
    "or", "not", "xor", "true", "false", "nullptr", "inline", "half", "AscendC", "tle", "std", "pipe", "GM_ADDR"};

std::string scalarType(Type t, Location where) {
  if (t.isInteger(1)) return "bool";
  if (t.isInteger(8)) return "int8_t";
  if (t.isInteger(16)) return "int16_t";
  if (t.isInteger(32)) return "int32_t";
  if (t.isInteger(64)) return "int64_t";
  if (t.isF16()) return "half";
  if (t.isBF16()) return "bfloat16_t";
  if (t.isF32()) return "float";
  if (auto p = dyn_cast<ir::PointerType>(t); p && p.getMemorySpace() == MemorySpace::Global)
    return "__gm__ " + scalarType(p.getPointeeType(), where) + " *";
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  throw NotPrintable{"values of type " + s + " have no AscendC spelling yet", where};
}

// How the launcher takes a parameter: C types only (16-bit floats as void pointers).
std::string hostType(Type t, Location where) {
  if (auto p = dyn_cast<ir::PointerType>(t)) {
    Type e = p.getPointeeType();
    return e.isF16() || e.isBF16() ? "void*" : scalarType(e, where) + "*";
  }
  if (t.isF16() || t.isBF16()) throw NotPrintable{"16-bit float scalar parameters are not supported on Ascend yet", where};
  return scalarType(t, where);
}

std::string literal(Attribute value, Type t, Location where) {
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    if (t.isInteger(1)) return i.getValue().isZero() ? "false" : "true";
    int64_t v = t.isInteger(1) ? i.getValue().getZExtValue() : i.getValue().getSExtValue();
    if (t.isInteger(64)) return "int64_t(" + std::to_string(v) + ")";
    return std::to_string(v);
  }
  if (auto f = dyn_cast<FloatAttr>(value)) {
    double v = f.getValueAsDouble();
    std::string s = std::isnan(v) ? "__builtin_nanf(\"\")" : std::isinf(v) ? (v < 0 ? "-__builtin_inff()" : "__builtin_inff()")
                                                                           : codegen::formatFloat(v, true);
    if (t.isF32()) return s;
    return scalarType(t, where) + "(" + s + ")";
  }
  throw NotPrintable{"a constant that is not a scalar", where};
}


// The AscendC function of a tle_dsa.vector kind.
std::string vectorFunction(StringRef kind) {
  static const std::map<std::string, std::string> names = {
      {"add", "Add"},         {"sub", "Sub"},   {"mul", "Mul"},         {"div", "Div"},         {"max", "Max"},
      {"min", "Min"},         {"and", "And"},   {"or", "Or"},           {"adds", "Adds"},       {"muls", "Muls"},
      {"maxs", "Maxs"},       {"mins", "Mins"}, {"exp", "Exp"},         {"ln", "Ln"},           {"abs", "Abs"},
      {"sqrt", "Sqrt"},       {"rsqrt", "Rsqrt"}, {"reciprocal", "Reciprocal"}, {"relu", "Relu"}, {"cast", "Cast"},
      {"duplicate", "Duplicate"}, {"index", "CreateVecIndex"}, {"reduce_sum", "ReduceSum"}, {"reduce_max", "ReduceMax"}, {"reduce_min", "ReduceMin"}};
  auto it = names.find(kind.str());
  return it == names.end() ? "" : "AscendC::" + it->second;
}

struct Param {
  std::string name, hostType;
  bool isPointer;
};

struct PrintedKernel {
  std::string name, body;
  std::vector<Param> params;
  bool cube = false;  // runs on the cube cores (AIC) rather than the vector cores (AIV)
};

class KernelPrinter : codegen::StatementPrinter {
 public:
  KernelPrinter(func::FuncOp f, const AscendcOptions &options) : StatementPrinter(kReservedWords, /*indent=*/0), f_(f), options_(options) {}

  PrintedKernel print() {
    PrintedKernel k;
    k.name = f_.getSymName().str();
    claim(k.name);
    for (const char *n : {"tle_pipe", "tle_ub", "tle_l1", "tle_l0a", "tle_l0b", "tle_l0c", "tle_block", "tle_grid_x", "tle_grid_y",
                          "tle_grid_z"})
      claim(n);
    std::ostringstream signature;
    signature << "extern \"C\" __global__ __aicore__ void " << k.name << "(";
    indent_ = 1;
    for (BlockArgument arg : f_.getArguments()) {
      std::string source = ir::parameterName(f_, arg.getArgNumber());
      std::string name = claim(codegen::sanitize(source.empty() ? "arg" + std::to_string(arg.getArgNumber()) : source, kReservedWords));
      names_[arg] = name;
      bool isPointer = isa<ir::PointerType>(arg.getType());
      k.params.push_back({name, hostType(arg.getType(), arg.getLoc()), isPointer});
      if (isPointer) {
        std::string raw = claim(name + "_gm");
        signature << "GM_ADDR " << raw << ", ";
        std::string t = scalarType(arg.getType(), arg.getLoc());
        line() << t << "const " << name << " = reinterpret_cast<" << t << ">(" << raw << ");\n";
      } else {
        signature << scalarType(arg.getType(), arg.getLoc()) << " " << name << ", ";
      }
    }
    signature << "uint32_t tle_grid_x, uint32_t tle_grid_y, uint32_t tle_grid_z)";
    // A kernel's buffers say which cores run it: UB is the vector cores' (AIV), L1 and L0 the
    // cube cores' (AIC).
    bool vectorCore = dsa::memoryBytes(f_, MemorySpace::UB) > 0;
    k.cube = llvm::any_of(std::initializer_list<MemorySpace>{MemorySpace::L1, MemorySpace::L0A, MemorySpace::L0B, MemorySpace::L0C},
                          [&](MemorySpace s) { return dsa::memoryBytes(f_, s) > 0; });
    if (vectorCore && k.cube)
      throw NotPrintable{"kernels that use both UB (vector cores) and L1/L0 (cube cores) are not supported on Ascend yet", f_.getLoc()};
    if (k.cube) line() << "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);  // the cube cores run it\n";
    // One TBuf per memory over the bytes the memory plan gave it; buffers are views at
    // fixed offsets.
    bool first = true;
    for (MemorySpace space : {MemorySpace::UB, MemorySpace::L1, MemorySpace::L0A, MemorySpace::L0B, MemorySpace::L0C}) {
      int64_t bytes = dsa::memoryBytes(f_, space);
      if (bytes == 0) continue;
      if (first) line() << "AscendC::TPipe tle_pipe;\n";
      first = false;
      line() << "AscendC::TBuf<AscendC::TPosition::" << position(space) << "> " << tbuf(space) << ";  // " << memorySpaceName(space)
             << "; tiles at planned offsets\n";
      line() << "tle_pipe.InitBuffer(" << tbuf(space) << ", " << bytes << ");\n";
    }
    bool usesProgramId = false;
    f_.walk([&](ir::ProgramIdOp) { usesProgramId = true; });
    if (usesProgramId)
      line() << "const int32_t tle_block = static_cast<int32_t>(AscendC::GetBlockIdx());  // the program, x fastest\n";
    block(f_.getBody().front());
    k.body = signature.str() + " {\n" + body_.str() + "}\n";
    return k;
  }

 private:
  func::FuncOp f_;
  const AscendcOptions &options_;
  unsigned lastLine_ = 0;

  std::string expr(Value v) override {
    if (auto it = names_.find(v); it != names_.end()) return it->second;
    if (auto c = v.getDefiningOp<arith::ConstantOp>()) return literal(c.getValue(), v.getType(), c.getLoc());
    Location where = v.getDefiningOp() ? v.getDefiningOp()->getLoc() : f_.getLoc();
    throw NotPrintable{"a value used before the printer defined it", where};
  }

  std::string type(Value v) { return scalarType(v.getType(), v.getLoc()); }
  std::string variableType(Value v) override { return type(v); }

  void sourceComment(Operation *op) {
    auto loc = ir::fileLocation(op->getLoc());
    if (!loc || loc->getLine() == lastLine_) return;
    lastLine_ = loc->getLine();
    std::string text = options_.sourceLine ? options_.sourceLine(loc->getFilename().str(), loc->getLine()) : "";
    line() << codegen::sourceLineComment(loc->getFilename().str(), loc->getLine(), text);
  }

  void define(Operation *op, const std::string &expression, StringRef fallback = "v") {
    Value result = op->getResult(0);
    std::string t = type(result);
    std::string name = newName(result, fallback);
    line() << (t.back() == '*' ? t + "const" : "const " + t) << " " << name << " = " << expression << ";\n";
  }

  void block(Block &b) override {
    for (Operation &op : b) operation(&op);
  }

  void operation(Operation *op) {
    if (isa<scf::YieldOp, scf::ConditionOp, func::ReturnOp>(op)) return;  // printed by their loop or branch
    if (isa<arith::ConstantOp>(op)) return;  // spelt as literals where used
    sourceComment(op);
    Location loc = op->getLoc();
    llvm::TypeSwitch<Operation *>(op)
        .Case<ir::ProgramIdOp>([&](ir::ProgramIdOp p) {
          static const char *pid[] = {"tle_block % static_cast<int32_t>(tle_grid_x)",
                                      "tle_block / static_cast<int32_t>(tle_grid_x) % static_cast<int32_t>(tle_grid_y)",
                                      "tle_block / static_cast<int32_t>(tle_grid_x * tle_grid_y)"};
          define(op, pid[p.getAxis()], "pid");
        })
        .Case<ir::NumProgramsOp>([&](ir::NumProgramsOp p) {
          static const char *grid[] = {"static_cast<int32_t>(tle_grid_x)", "static_cast<int32_t>(tle_grid_y)",
                                       "static_cast<int32_t>(tle_grid_z)"};
          define(op, grid[p.getAxis()], "num_programs");
        })
        .Case<ir::AddPtrOp>([&](ir::AddPtrOp a) {
          if (isa<RankedTensorType>(a.getType())) throw NotPrintable{"a tile of pointers left unlowered", loc};
          define(op, expr(a.getPtr()) + " + " + expr(a.getOffset()), "ptr");
        })
        .Case<ir::AllocOp>([&](ir::AllocOp a) {
          auto offset = dsa::bufferOffset(a);
          ir::BufferType t = a.getType();
          if (!offset) throw NotPrintable{"a buffer the memory plan did not place", loc};
          // i8 buffers are the compare instructions' bit masks (uint8_t in AscendC).
          Type elementType = t.getBlockType().getElementType();
          std::string element = elementType.isInteger(8) ? "uint8_t" : scalarType(elementType, loc);
          std::string name = newName(a.getResult(), "buffer");
          line() << "const AscendC::LocalTensor<" << element << "> " << name << " = " << tbuf(t.getSpace()) << ".GetWithOffset<" << element << ">("
                 << t.getBlockType().getNumElements() << ", " << *offset << ");\n";
        })
        .Case<dsa::CopyInOp>([&](dsa::CopyInOp c) { copyIn(c); })
        .Case<dsa::CopyOutOp>([&](dsa::CopyOutOp c) { copyOut(c); })
        .Case<dsa::VectorOp>([&](dsa::VectorOp v) { vector(v); })
        .Case<dsa::CopyOp>([&](dsa::CopyOp c) { loadOperand(c); })
        .Case<dsa::SubviewOp>([&](dsa::SubviewOp v) { subview(v); })
        .Case<dsa::RawCallOp>([&](dsa::RawCallOp r) {
          std::string args;
          for (Value a : r.getArgs()) args += (args.empty() ? "" : ", ") + expr(a);
          line() << r.getCallee().str() << "(" << args << ");  // TLE-Raw (AscendC)\n";
        })
        .Case<dsa::MatmulOp>([&](dsa::MatmulOp m) {
          auto a = m.getA().getType().getBlockType(), b = m.getB().getType().getBlockType();
          std::string k = m.getK() ? expr(m.getK()) : std::to_string(a.getDimSize(1));
          std::string fresh = m.getFresh() ? expr(m.getFresh()) : m.getInit() ? "true" : "false";
          line() << "tle::ascendc::mmad(" << expr(m.getC()) << ", " << expr(m.getA()) << ", " << expr(m.getB()) << ", " << a.getDimSize(0)
                 << ", " << b.getDimSize(1) << ", " << k << ", " << fresh << ");\n";
        })
        .Case<dsa::ReadScalarOp>([&](dsa::ReadScalarOp r) { define(op, expr(r.getBuffer()) + ".GetValue(0)", "value"); })
        .Case<dsa::SetFlagOp>([&](dsa::SetFlagOp s) {
          line() << "AscendC::SetFlag<AscendC::HardEvent::" << s.getFrom().str() << "_" << s.getTo().str() << ">(EVENT_ID" << s.getId()
                 << ");\n";
        })
        .Case<dsa::WaitFlagOp>([&](dsa::WaitFlagOp w) {
          line() << "AscendC::WaitFlag<AscendC::HardEvent::" << w.getFrom().str() << "_" << w.getTo().str() << ">(EVENT_ID"
                 << w.getId() << ");\n";
        })
        .Case<dsa::PipeBarrierOp>([&](dsa::PipeBarrierOp b) { line() << "AscendC::PipeBarrier<PIPE_" << b.getPipe().str() << ">();\n"; })
        .Case<scf::ForOp>([&](scf::ForOp f) { forLoop(f); })
        .Case<scf::IfOp>([&](scf::IfOp i) { ifElse(i); })
        .Case<scf::WhileOp>([&](scf::WhileOp w) { whileLoop(w); })
        .Default([&](Operation *) { scalar(op); });
  }

  void scalar(Operation *op) {
    Location loc = op->getLoc();
    if (op->getNumResults() != 1 || isa<RankedTensorType>(op->getResult(0).getType()) ||
        llvm::any_of(op->getOperandTypes(), [](Type t) { return isa<RankedTensorType, ir::BufferType>(t); }))
      throw NotPrintable{"'" + op->getName().getStringRef().str() + "' has no AscendC lowering yet", loc};
    auto bin = [&](const char *symbol) { return expr(op->getOperand(0)) + " " + symbol + " " + expr(op->getOperand(1)); };
    auto cast = [&]() { return "static_cast<" + type(op->getResult(0)) + ">(" + expr(op->getOperand(0)) + ")"; };
    std::string e;
    // i1 arithmetic wraps modulo 2 (C++ would promote bools to int: true + true stays true).
    const bool i1 = op->getResult(0).getType().isInteger(1);
    if (i1 && isa<arith::AddIOp, arith::SubIOp>(op)) e = bin("!=");
    else if (i1 && isa<arith::MulIOp>(op)) e = bin("&&");
    else if (isa<arith::AddIOp, arith::AddFOp>(op)) e = bin("+");
    else if (isa<arith::SubIOp, arith::SubFOp>(op)) e = bin("-");
    else if (isa<arith::MulIOp, arith::MulFOp>(op)) e = bin("*");
    else if (isa<arith::DivSIOp, arith::DivFOp>(op)) e = bin("/");
    else if (isa<arith::RemSIOp>(op)) e = bin("%");
    else if (isa<arith::AndIOp>(op)) e = bin("&");
    else if (isa<arith::OrIOp>(op)) e = bin("|");
    else if (isa<arith::XOrIOp>(op)) e = bin("^");
    else if (isa<arith::ShLIOp>(op)) e = bin("<<");
    else if (isa<arith::ShRSIOp>(op)) e = bin(">>");
    else if (isa<arith::MaxSIOp, arith::MaxNumFOp, arith::MaximumFOp>(op))
      e = expr(op->getOperand(0)) + " > " + expr(op->getOperand(1)) + " ? " + expr(op->getOperand(0)) + " : " + expr(op->getOperand(1));
    else if (isa<arith::MinSIOp, arith::MinNumFOp, arith::MinimumFOp>(op))
      e = expr(op->getOperand(0)) + " < " + expr(op->getOperand(1)) + " ? " + expr(op->getOperand(0)) + " : " + expr(op->getOperand(1));
    else if (auto neg = dyn_cast<arith::NegFOp>(op)) e = "-" + expr(neg.getOperand());
    else if (auto sel = dyn_cast<arith::SelectOp>(op))
      e = expr(sel.getCondition()) + " ? " + expr(sel.getTrueValue()) + " : " + expr(sel.getFalseValue());
    else if (auto ext = dyn_cast<arith::ExtSIOp>(op); ext && ext.getIn().getType().isInteger(1))
      e = "-" + cast();  // true sign-extends to -1
    else if (auto ext = dyn_cast<arith::ExtUIOp>(op)) {
      const unsigned bits = ext.getIn().getType().getIntOrFloatBitWidth();
      e = bits == 1 ? cast()
                    : "static_cast<" + type(op->getResult(0)) + ">(static_cast<uint" + std::to_string(bits) + "_t>(" +
                          expr(ext.getIn()) + "))";
    } else if (isa<arith::ExtSIOp, arith::TruncIOp, arith::SIToFPOp, arith::FPToSIOp, arith::ExtFOp, arith::TruncFOp>(op)) e = cast();
    else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      using P = arith::CmpIPredicate;
      static const std::map<P, const char *> symbols = {{P::eq, "=="}, {P::ne, "!="}, {P::slt, "<"}, {P::sle, "<="},
                                                        {P::sgt, ">"},  {P::sge, ">="}};
      auto it = symbols.find(cmp.getPredicate());
      if (it == symbols.end()) throw NotPrintable{"unsigned comparisons have no AscendC lowering yet", loc};
      e = bin(it->second);
    } else if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
      using P = arith::CmpFPredicate;
      static const std::map<P, const char *> symbols = {{P::OEQ, "=="}, {P::UNE, "!="}, {P::OLT, "<"}, {P::OLE, "<="},
                                                        {P::OGT, ">"},  {P::OGE, ">="}};
      auto it = symbols.find(cmp.getPredicate());
      if (it == symbols.end()) throw NotPrintable{"this float comparison has no AscendC lowering yet", loc};
      e = bin(it->second);
    } else {
      throw NotPrintable{"'" + op->getName().getStringRef().str() + "' has no AscendC lowering yet", loc};
    }
    define(op, e);
  }

  std::string extents(ValueRange values) {
    std::string s;
    for (Value v : values) s += ", " + expr(v);
    return s;
  }

  static const char *position(MemorySpace space) {
    switch (space) {
    case MemorySpace::L1: return "A1";
    case MemorySpace::L0A: return "A2";
    case MemorySpace::L0B: return "B2";
    case MemorySpace::L0C: return "CO1";
    default: return "VECCALC";
    }
  }

  static std::string tbuf(MemorySpace space) {
    switch (space) {
    case MemorySpace::L1: return "tle_l1";
    case MemorySpace::L0A: return "tle_l0a";
    case MemorySpace::L0B: return "tle_l0b";
    case MemorySpace::L0C: return "tle_l0c";
    default: return "tle_ub";
    }
  }

  // A window of a UB buffer that is itself contiguous (whole rows, unit strides) is a view
  // at an element offset; the offset must keep the 32-byte alignment vector instructions need.
  void subview(dsa::SubviewOp v) {
    ir::BufferType src = v.getSrc().getType();
    auto tile = src.getBlockType();
    ArrayRef<int64_t> sizes = v.getSizes(), strides = v.getStrides();
    bool contiguous = llvm::all_of(strides, [](int64_t s) { return s == 1; }) &&
                      (tile.getRank() == 1 || llvm::equal(sizes.drop_front(), tile.getShape().drop_front()));
    if (src.getSpace() != MemorySpace::UB || !contiguous)
      throw NotPrintable{"subviews on Ascend must be whole rows of a UB buffer with unit strides for now", v.getLoc()};
    int64_t flat = 0, pitch = 1;
    for (int64_t d = tile.getRank() - 1; d >= 0; --d) {
      auto offset = getConstantIntValue(v.getOffsets()[d]);
      if (!offset) throw NotPrintable{"subviews on Ascend need constant offsets for now", v.getLoc()};
      flat += *offset * pitch;
      pitch *= tile.getDimSize(d);
    }
    if (flat * tile.getElementTypeBitWidth() / 8 % 32 != 0)
      throw NotPrintable{"this subview starts " + std::to_string(flat * tile.getElementTypeBitWidth() / 8) +
                             " bytes into its buffer; Ascend vector instructions and copies need 32-byte-aligned starts",
                         v.getLoc()};
    std::string element = scalarType(tile.getElementType(), v.getLoc());
    std::string name = newName(v.getResult(), "view");
    line() << "const AscendC::LocalTensor<" << element << "> " << name << " = " << expr(v.getSrc()) << "[" << flat << "];\n";
  }

  // L1 -> L0A / L0B in the layout the cube reads.
  void loadOperand(dsa::CopyOp c) {
    auto src = dyn_cast<ir::BufferType>(c.getSrc().getType()), dst = dyn_cast<ir::BufferType>(c.getDst().getType());
    if (!src || !dst) throw NotPrintable{"a tle_dsa.copy left unresolved", c.getLoc()};
    auto tile = src.getBlockType();
    if (dst.getSpace() == MemorySpace::L0A)  // rows x (the first k columns)
      line() << "tle::ascendc::load_l0a(" << expr(c.getDst()) << ", " << expr(c.getSrc()) << ", " << tile.getDimSize(0) << ", "
             << expr(c.getSizes()[1]) << ");\n";
    else  // (the first k rows) x columns, of a tile of tile_rows rows
      line() << "tle::ascendc::load_l0b(" << expr(c.getDst()) << ", " << expr(c.getSrc()) << ", " << tile.getDimSize(0) << ", "
             << expr(c.getSizes()[0]) << ", " << tile.getDimSize(1) << ");\n";
  }

  void copyIn(dsa::CopyInOp c) {
    std::string src = expr(c.getBase()) + " + " + expr(c.getOffset());
    if (c.getDst().getType().getSpace() == MemorySpace::L1) {  // row-major rows into the cube's fractals
      auto tile = c.getDst().getType().getBlockType();
      if (c.getRowWrap() || c.getColumnWrap()) {  // rows or columns read in segments where they wrap around
        auto wrap = [&](Value w, Value start) { return w ? expr(w) + ", " + expr(start) : std::string("0, 0"); };
        line() << "tle::ascendc::copy_in_nz_wrapped(" << expr(c.getDst()) << ", " << tile.getDimSize(0) << ", " << tile.getDimSize(1) << ", "
               << src << ", " << expr(c.getRowStride()[0]) << extents(c.getExtents()) << ", " << wrap(c.getRowWrap(), c.getRowStart()) << ", "
               << wrap(c.getColumnWrap(), c.getColumnStart()) << ");\n";
        return;
      }
      line() << "tle::ascendc::copy_in_nz(" << expr(c.getDst()) << ", " << tile.getDimSize(0) << ", " << tile.getDimSize(1) << ", " << src
             << ", " << expr(c.getRowStride()[0]) << extents(c.getExtents()) << ");\n";
      return;
    }
    std::string pad = c.getPad() ? ", " + expr(c.getPad()) : "";
    auto tile = c.getDst().getType().getBlockType();
    if (tile.getRank() == 1) {
      line() << "tle::ascendc::copy_in" << (c.getPad() ? "_padded" : "") << "(" << expr(c.getDst()) << ", " << src << extents(c.getExtents())
             << pad << ");\n";
    } else {
      line() << "tle::ascendc::copy_in_rows" << (c.getPad() ? "_padded" : "") << "(" << expr(c.getDst()) << ", " << tile.getDimSize(1)
             << ", " << src << ", " << expr(c.getRowStride()[0]) << extents(c.getExtents()) << pad << ");\n";
    }
  }

  void copyOut(dsa::CopyOutOp c) {
    std::string dst = expr(c.getBase()) + " + " + expr(c.getOffset());
    auto tile = c.getSrc().getType().getBlockType();
    if (c.getSrc().getType().getSpace() == MemorySpace::L0C) {  // the fixpipe: fractals back to rows, converted
      line() << "tle::ascendc::copy_out_l0c(" << dst << ", " << expr(c.getRowStride()[0]) << ", " << expr(c.getSrc()) << ", "
             << tile.getDimSize(0) << ", " << tile.getDimSize(1) << extents(c.getExtents()) << ");\n";
      return;
    }
    if (tile.getRank() == 1)
      line() << "tle::ascendc::copy_out(" << dst << ", " << expr(c.getSrc()) << extents(c.getExtents()) << ");\n";
    else
      line() << "tle::ascendc::copy_out_rows(" << dst << ", " << expr(c.getRowStride()[0]) << ", " << expr(c.getSrc()) << ", "
             << tile.getDimSize(1) << extents(c.getExtents()) << ");\n";
  }

  void vector(dsa::VectorOp v) {
    StringRef kind = v.getKind();
    if (kind.starts_with("reduce_rows_") || kind.starts_with("reduce_columns_")) {  // tle/ascendc/reduce.h
      auto in = cast<ir::BufferType>(v.getInputs()[0].getType()).getBlockType();
      bool rows = kind.starts_with("reduce_rows_");
      std::string op = kind.drop_front(rows ? strlen("reduce_rows_") : strlen("reduce_columns_")).str();
      line() << "tle::ascendc::reduce_" << (rows ? "rows" : "columns") << "<tle::ascendc::Reduction::" << op << ">(" << expr(v.getOut())
             << ", " << expr(v.getInputs()[0]) << (rows ? ", " + expr(v.getScratch()) : std::string()) << ", " << in.getDimSize(0) << ", "
             << in.getDimSize(1) << ");\n";
      return;
    }
    if (kind.starts_with("scan_")) {  // tle/ascendc/scan.h: scan_<kind>[_columns][_reverse]
      auto in = cast<ir::BufferType>(v.getInputs()[0].getType()).getBlockType();
      StringRef rest = kind.drop_front(strlen("scan_"));
      bool reverse = rest.consume_back("_reverse"), columns = rest.consume_back("_columns");
      int64_t rows = in.getRank() == 2 ? in.getDimSize(0) : 1, width = in.getDimSize(in.getRank() - 1);
      // Lines are rows, or columns along axis 0: how many, their length, the step along one.
      int64_t lines = columns ? width : rows, length = columns ? rows : width, step = columns ? width : 1;
      line() << "tle::ascendc::scan<tle::ascendc::Scan::" << rest.str() << ", " << (reverse ? "true" : "false") << ">(" << expr(v.getOut())
             << ", " << expr(v.getInputs()[0]) << ", " << lines << ", " << length << ", " << step << ", " << (columns ? 1 : width) << ");\n";
      return;
    }
    if (kind.starts_with("compare")) {  // Compare / CompareScalar into a bit mask
      bool scalar = kind.starts_with("compares_");
      std::string mode = kind.drop_front(scalar ? strlen("compares_") : strlen("compare_")).upper();
      auto in = cast<ir::BufferType>(v.getInputs()[0].getType()).getBlockType();
      line() << "AscendC::" << (scalar ? "CompareScalar" : "Compare") << "(" << expr(v.getOut()) << ", " << expr(v.getInputs()[0]) << ", "
             << expr(v.getInputs()[1]) << ", AscendC::CMPMODE::" << mode << ", " << in.getNumElements() << ");\n";
      return;
    }
    if (kind == "select" || kind == "selects") {  // by the bits of a comparison
      line() << "AscendC::Select(" << expr(v.getOut()) << ", " << expr(v.getInputs()[0]) << ", " << expr(v.getInputs()[1]) << ", "
             << expr(v.getInputs()[2]) << ", AscendC::SELMODE::" << (kind == "select" ? "VSEL_TENSOR_TENSOR_MODE" : "VSEL_TENSOR_SCALAR_MODE")
             << ", " << v.getOut().getType().getBlockType().getNumElements() << ");\n";
      return;
    }
    std::string function = vectorFunction(v.getKind());
    if (function.empty()) throw NotPrintable{"vector instruction '" + v.getKind().str() + "'", v.getLoc()};
    auto out = v.getOut().getType().getBlockType();
    std::ostringstream call;
    call << function << "(" << expr(v.getOut());
    for (Value in : v.getInputs()) call << ", " << expr(in);
    if (v.getScratch()) call << ", " << expr(v.getScratch());
    int64_t count = out.getNumElements();
    if (v.getScratch()) count = cast<ir::BufferType>(v.getInputs()[0].getType()).getBlockType().getNumElements();
    if (v.getKind() == "cast") {
      Type from = cast<ir::BufferType>(v.getInputs()[0].getType()).getBlockType().getElementType(), to = out.getElementType();
      // Narrowing floats rounds to nearest even (as Triton); float to integer truncates.
      const char *mode = isa<FloatType>(from) && isa<IntegerType>(to)                           ? "CAST_TRUNC"
                         : isa<FloatType>(from) && isa<FloatType>(to) && to.getIntOrFloatBitWidth() < from.getIntOrFloatBitWidth() ? "CAST_RINT"
                                                                                                 : "CAST_NONE";
      call << ", AscendC::RoundMode::" << mode;
    }
    call << ", " << (v.getCount() ? expr(v.getCount()) : std::to_string(count)) << ");";
    line() << call.str() << "\n";
  }

  void beforeLoop(scf::ForOp f) override {
    if (auto stages = ir::ownNumStages(f)) line() << "// tl.range(num_stages=" << *stages << "): not pipelined on Ascend\n";
  }
};

std::string launcherParams(const PrintedKernel &k) {
  std::string s = "tleStream stream, unsigned grid_x, unsigned grid_y, unsigned grid_z";
  for (const Param &p : k.params) s += ", " + p.hostType + " " + p.name;
  return s;
}

std::string launcherDefinition(const PrintedKernel &k) {
  std::ostringstream o;
  std::string args;
  for (const Param &p : k.params) args += (p.isPointer ? "reinterpret_cast<GM_ADDR>(" + p.name + ")" : p.name) + ", ";
  args += "grid_x, grid_y, grid_z";
  o << "extern \"C\" tleStatus " << k.name << "_launch(" << launcherParams(k) << ") {\n";
  o << "  if (grid_x == 0 || grid_y == 0 || grid_z == 0) return TLE_SUCCESS;  // nothing to do\n";
  o << "  const unsigned long long blocks = static_cast<unsigned long long>(grid_x) * grid_y * grid_z;\n";
  o << "  if (blocks > TLE_ASCENDC_MAX_BLOCKS) return TLE_ERROR_INVALID_ARGUMENT;\n";
  o << "#ifdef TLE_ASCENDC_EMULATION\n";
  o << "  (void)stream;\n";
  o << "  return tle::ascendc::emu::run(static_cast<uint32_t>(blocks), [&] { " << k.name << "(" << args << "); }"
    << (k.cube ? ", /*cube=*/true" : "") << ");\n";
  o << "#else\n";
  o << "  " << k.name << "<<<static_cast<uint32_t>(blocks), nullptr, reinterpret_cast<void *>(stream)>>>(" << args << ");\n";
  o << "  return TLE_SUCCESS;\n";
  o << "#endif\n";
  o << "}\n";
  return o.str();
}

}  // namespace

bool printAscendc(const IrModule &module, const AscendcOptions &options, DiagnosticEngine &diags, AscendcOutput &out) {
  std::vector<PrintedKernel> kernels;
  try {
    mlir::ModuleOp m = module.op.get();
    for (func::FuncOp f : m.getOps<func::FuncOp>()) {
      if (!f->hasAttr("tle.kernel")) continue;
      kernels.push_back(KernelPrinter(f, options).print());
    }
  } catch (const NotPrintable &e) {
    SourceLoc loc;
    if (auto file = ir::fileLocation(e.where); file && options.locate)
      loc = options.locate(file->getFilename().str(), file->getLine(), file->getColumn());
    diags.report(DiagId::NotImplemented, SourceRange(loc), e.message + " (" + options.targetName + ")");
    return false;
  }
  std::string banner = "// Generated by tlec from " + options.inputName + " for " + options.targetName + ". Do not edit.\n";
  std::ostringstream src;
  src << banner;
  src << "// AscendC for the AI cores' vector units. Builds with CANN's compiler, or with a C++17\n"
      << "// compiler against tlec's CPU emulation (tle/ascendc/kernel.h chooses).\n";
  src << "#include \"tle/ascendc/kernel.h\"\n#include \"" << options.headerName << "\"\n\n";
  // TLE-Raw functions, once each, before the kernels that call them.
  std::set<std::string> printedRaw;
  mlir::ModuleOp m = module.op.get();
  m.walk([&](dsa::RawCallOp r) {
    if (printedRaw.insert(r.getCallee().str()).second)
      src << "// ---- TLE-Raw function " << r.getCallee().str() << " ----\n" << codegen::docstringCode(r.getCode().str()) << "\n";
  });
  for (const PrintedKernel &k : kernels) src << k.body << "\n" << launcherDefinition(k) << "\n";
  out.source = src.str();

  std::ostringstream h;
  h << banner << "#pragma once\n\n#include <stdint.h>\n\n#include \"tle/runtime.h\"\n\n";
  h << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (const PrintedKernel &k : kernels)
    h << "/* " << k.name << ": one AI " << (k.cube ? "cube" : "vector") << " core per program. Returns TLE_SUCCESS or an error. */\n"
      << "tleStatus " << k.name << "_launch(" << launcherParams(k) << ");\n";
  h << "\n#ifdef __cplusplus\n}\n#endif\n";
  out.header = h.str();
  return true;
}

}  // namespace tle
