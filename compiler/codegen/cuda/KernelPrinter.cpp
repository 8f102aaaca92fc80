// One lowered kernel as a CUDA __global__ function: each op becomes one statement that calls
// the device library; the shared-memory plan, the asynchronous copies, the staging and the
// barriers are ops and attributes the CUDA passes made. Names come from the .tle source.
#include "codegen/cuda/KernelPrinter.h"

#include "codegen/cuda/CudaSpelling.h"
#include "ir/Dialect.h"
#include "ir/GpuDialect.h"
#include "ir/KernelSettings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>
#include <set>
#include <sstream>

namespace tle::cuda {

using namespace mlir;

namespace {

class KernelPrinter {
 public:
  KernelPrinter(func::FuncOp f, const CudaOptions &options)
      : f_(f), options_(options), spelling_(f.getSymName().str() + "_layouts"), plan_(gpu::sharedMemoryPlan(f)) {}

  void print(PrintedKernel &out) {
    if (!plan_) throw Unsupported{"a kernel without a shared-memory plan (tlec bug: tle-plan-shared-memory did not run)"};
    out.name = f_.getSymName().str();
    out.numWarps = ir::numWarps(f_);
    numWarps_ = out.numWarps;
    std::string params;
    for (BlockArgument arg : f_.getArguments()) {
      KernelParam p;
      std::string sourceName = ir::parameterName(f_, arg.getArgNumber());
      p.name = claim(!sourceName.empty() ? sanitize(sourceName) : "arg" + std::to_string(arg.getArgNumber()));
      p.isPointer = isa<ir::PointerType>(arg.getType());
      bool readonly = ir::parameterReadonly(f_, arg.getArgNumber());
      p.deviceType = (readonly ? "const " : "") + scalarType(arg.getType());
      p.divisibility = static_cast<int>(ir::parameterDivisibility(f_, arg.getArgNumber()));
      p.hostType = hostType(arg.getType(), readonly);
      names_[arg] = p.name;
      params += (params.empty() ? "" : ", ") + p.deviceType + " " + p.name;
      out.params.push_back(p);
    }
    block(f_.getBody().front());

    std::ostringstream code;
    code << spelling_.namespaceBlock();
    code << "extern \"C\" __global__ void __launch_bounds__(" << out.numWarps * 32 << ") " << out.name << "(" << params << ") {\n";
    code << sharedMemoryPreamble();
    code << body_.str() << "}\n";
    out.code = code.str();
    out.sharedBytesExpression = sharedBytes();
    out.usesAtomics = usesAtomics_;
    out.rawFunctions = rawFunctions_;
  }

 private:
  // ---- the shared-memory plan's regions ----

  int64_t bufferBytes() const { return plan_.getBufferBytes(); }
  std::string scratchBytes() const {
    std::string s = "0";
    for (const std::string &e : scratch_) s = "tle::max_bytes(" + s + ", " + e + ")";
    return s;
  }
  std::string stagingOffset() const { return "tle::round_up16(" + scratchBytes() + ")"; }
  std::string stagingBytes() const {
    std::string s = "0";
    for (const std::string &e : staging_) s = "tle::max_bytes(" + s + ", " + e + ")";
    return s;
  }
  std::string slotsOffset() const {
    return "tle::round_up1024(" + (bufferBytes() > 0 ? std::to_string(bufferBytes()) + " + " : "") + stagingOffset() +
           " + tle::round_up16(" + stagingBytes() + "))";
  }

  std::string sharedMemoryPreamble() const {
    std::ostringstream o;
    if (bufferBytes() > 0 || plan_.getScratch() || plan_.getSlotBytes() > 0)
      o << "  extern __shared__ __align__(" << plan_.getAlignment() << ") unsigned char tle_smem[];\n";
    if (plan_.getStaging() > 0) {
      o << "  // Dot operands are staged in two alternating halves after the scratch.\n";
      o << "  unsigned char* const tle_staging = tle_smem + " << bufferBytes() << " + " << stagingOffset() << ";\n";
      if (plan_.getStaging() == 2) o << "  int tle_stage = 0;\n";
    }
    if (plan_.getSlotBytes() > 0) {
      o << "  // Operands copied asynchronously: a ring of slots per operand, after the staging.\n";
      o << "  unsigned char* const tle_async = tle_smem + " << slotsOffset() << ";\n";
    }
    return o.str();
  }

  // The kernel's dynamic shared bytes, a constant expression valid after the kernel.
  std::string sharedBytes() const {
    if (plan_.getSlotBytes() > 0) return slotsOffset() + " + " + std::to_string(plan_.getSlotBytes());
    std::string bytes = plan_.getStaging() > 0 ? stagingOffset() + " + " + stagingBytes() : scratchBytes();
    return bufferBytes() > 0 ? std::to_string(bufferBytes()) + " + " + bytes : bytes;
  }

  // The scratch region (for a library call that needs `bytesExpression` of it).
  std::string useScratch(const std::string &bytesExpression) {
    if (!plan_.getScratch()) throw Unsupported{"scratch the shared-memory plan has none of (tlec bug)"};
    if (std::find(scratch_.begin(), scratch_.end(), bytesExpression) == scratch_.end()) scratch_.push_back(bytesExpression);
    return bufferBytes() > 0 ? "(tle_smem + " + std::to_string(bufferBytes()) + ")" : "tle_smem";
  }
  void useStaging(const std::string &bytesExpression) {
    if (std::find(staging_.begin(), staging_.end(), bytesExpression) == staging_.end()) staging_.push_back(bytesExpression);
  }

  // ---- names ----

  std::string claim(std::string name) {
    std::string candidate = name;
    for (int i = 2; !used_.insert(candidate).second; ++i) candidate = name + "_" + std::to_string(i);
    return candidate;
  }

  std::string newName(Value v, StringRef fallback) {
    std::string base;
    if (Operation *def = v.getDefiningOp())
      if (auto n = nameFromLocation(def->getLoc()); n && def->getNumResults() == 1) base = sanitize(*n);
    if (base.empty()) base = fallback.str();
    std::string n = claim(base);
    names_[v] = n;
    return n;
  }

  std::string expr(Value v) {
    auto it = names_.find(v);
    if (it == names_.end()) throw Unsupported{"a value used before the printer defined it"};
    return it->second;
  }

  std::string type(Type t) { return spelling_.type(t); }

  // ---- output ----

  std::ostringstream &line() {
    body_ << std::string(indent_ * 2, ' ');
    return body_;
  }

  void sourceComment(Operation *op) {
    auto loc = fileLocation(op->getLoc());
    if (!loc || loc->getLine() == lastLine_) return;
    lastLine_ = loc->getLine();
    std::string text = options_.sourceLine ? options_.sourceLine(loc->getFilename().str(), loc->getLine()) : "";
    size_t first = text.find_first_not_of(" \t");
    text = first == std::string::npos ? "" : text.substr(first);
    std::string file = loc->getFilename().str();
    if (size_t slash = file.rfind('/'); slash != std::string::npos) file = file.substr(slash + 1);
    if (options_.lineDirectives) body_ << "#line " << loc->getLine() << " \"" << loc->getFilename().str() << "\"\n";
    line() << "// " << file << ":" << loc->getLine() << (text.empty() ? "" : ": " + text) << "\n";
  }

  // `const T name = expression;`, naming the op's single result.
  void define(Operation *op, const std::string &expression, StringRef fallback = "v") {
    Value result = op->getResult(0);
    std::string name = newName(result, fallback);
    line() << constDeclaration(result.getType()) << " " << name << " = " << expression << ";\n";
  }

  // `const auto`, `const float`, or `float *const` (a constant pointer, not a pointer to const).
  std::string constDeclaration(Type t) {
    if (isa<RankedTensorType>(t)) return "const auto";
    std::string s = type(t);
    return s.back() == '*' ? s + " const" : "const " + s;
  }

  // Names the two parts of a pair-valued call: `first` and `second` of `both`.
  void bindPair(const std::string &both, Value first, StringRef firstName, Value second, StringRef secondName) {
    for (auto [v, fallback, part] : {std::tuple{first, firstName, "first"}, std::tuple{second, secondName, "second"}}) {
      std::string name = newName(v, fallback);
      line() << constDeclaration(v.getType()) << " " << name << " = " << both << "." << part << ";\n";
    }
  }

  // ---- ops ----

  void block(Block &b) {
    for (Operation &op : b) {
      if (op.hasTrait<OpTrait::IsTerminator>() && !isa<func::ReturnOp>(op)) continue;
      operation(&op);
    }
  }

  void operation(Operation *op) {
    try {
      if (!isa<func::ReturnOp>(op)) sourceComment(op);
      printOperation(op);
    } catch (Unsupported &u) {
      if (!u.where) u.where = op->getLoc();
      throw;
    }
  }

  void printOperation(Operation *op);
  void printMemoryOperation(Operation *op);
  void printOperandOperation(Operation *op);
  void printRearrangement(Operation *op);
  void printBufferOperation(Operation *op);
  void printDebugOperation(Operation *op);

  // ---- operand rings ----

  // This iteration's slot of `ring`, or the one the last iteration read (`previous`), in
  // the ring loop around `at`.
  std::string slotOf(Value ring, Operation *at, bool previous = false) {
    auto loop = at->getParentOfType<scf::ForOp>();
    while (loop && !gpu::ringSlots(loop)) loop = loop->getParentOfType<scf::ForOp>();
    if (!loop) throw Unsupported{"an operand ring read outside its loop (tlec bug)"};
    const std::string &slot = slotVars_.lookup(loop);
    const auto &[slots, bytes] = rings_.lookup(ring);
    std::string index = previous ? "(" + slot + " == 0 ? " + std::to_string(*gpu::ringSlots(loop) - 1) + " : " + slot + " - 1)" : slot;
    return slots + " + " + index + " * " + bytes;
  }

  std::string masking(Operation *op) { return gpu::maskPerElement(op) ? ", tle::Masking::element" : ""; }

  // ---- reductions and scans ----

  // The operands of a reduce or a scan: one tile, or two zipped into a tile of pairs.
  struct CombinedInput {
    std::vector<std::string> elementTypes;
    std::string input, element;  // the argument and its element type
  };
  CombinedInput combinedInput(ValueRange srcs, const std::string &what) {
    if (srcs.size() > 2) throw Unsupported{what + " of more than two tensors"};
    CombinedInput in;
    for (Value v : srcs) in.elementTypes.push_back(scalarType(cast<RankedTensorType>(v.getType()).getElementType()));
    in.input = expr(srcs[0]);
    in.element = in.elementTypes[0];
    if (srcs.size() == 2) {
      in.input = "tle::zip(" + expr(srcs[0]) + ", " + expr(srcs[1]) + ")";
      in.element = "tle::pair<" + in.elementTypes[0] + ", " + in.elementTypes[1] + ">";
    }
    return in;
  }

  // Defines the op's results from `call`: the value itself, or the halves of a pair.
  void defineCombined(Operation *op, const std::string &call, const std::string &base) {
    if (op->getNumResults() == 1) {
      define(op, call, base);
      return;
    }
    std::string both = claim(base);
    line() << "const auto " << both << " = " << call << ";\n";
    for (size_t i = 0; i < 2; ++i) {
      Value result = op->getResult(i);
      std::string name = newName(result, base + (i == 0 ? "_value" : "_index"));
      line() << constDeclaration(result.getType()) << " " << name << " = tle::" << (i == 0 ? "first" : "second") << "(" << both
             << ");\n";
    }
  }

  void scan(ir::ScanOp s);
  void reduce(ir::ReduceOp r);
  std::string combineLambda(Block &body, const std::vector<std::string> &elementTypes);

  // ---- control flow ----

  std::vector<std::string> declareCarried(ValueRange inits, ValueRange carried, StringRef fallback);
  void assignCarried(const std::vector<std::string> &vars, ValueRange values);
  void forLoop(scf::ForOp f);
  void ifElse(scf::IfOp i);
  void whileLoop(scf::WhileOp w);

  void elementwise(Operation *op);
  void atomic(Operation *op, const std::string &kind, const std::string &sem, const std::string &scope);
  void rawCall(ir::RawCallOp r);

  func::FuncOp f_;
  const CudaOptions &options_;
  TileSpelling spelling_;
  gpu::SharedMemoryPlanAttr plan_;
  std::ostringstream body_;
  int indent_ = 1;
  unsigned lastLine_ = 0;
  unsigned numWarps_ = 4;
  llvm::DenseMap<Value, std::string> names_;
  std::set<std::string> used_;
  std::vector<std::string> scratch_;  // the scratch sizes the calls need
  std::vector<std::string> staging_;  // the staging sizes
  llvm::DenseMap<Value, std::pair<std::string, std::string>> rings_;  // ring -> (its slots, slot bytes)
  llvm::DenseMap<Operation *, std::string> slotVars_;                  // ring loop -> its slot variable
  bool usesAtomics_ = false;
  std::vector<std::pair<std::string, std::string>> rawFunctions_;
};

void KernelPrinter::printOperation(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) {
        if (auto tensor = dyn_cast<RankedTensorType>(c.getType())) {
          auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
          if (!dense || !dense.isSplat()) throw Unsupported{"a non-uniform tensor constant"};
          define(op, "tle::full<" + type(tensor) + ">(" + literal(dense.getSplatValue<Attribute>(), tensor.getElementType()) + ")", "cst");
        } else {
          names_[c.getResult()] = literal(c.getValue(), c.getType());
        }
      })
      .Case<ir::ProgramIdOp>([&](ir::ProgramIdOp p) { define(op, "tle::program_id<" + std::to_string(p.getAxis()) + ">()", "pid"); })
      .Case<ir::NumProgramsOp>(
          [&](ir::NumProgramsOp p) { define(op, "tle::num_programs<" + std::to_string(p.getAxis()) + ">()", "num_programs"); })
      .Case<ir::MakeRangeOp>(
          [&](ir::MakeRangeOp r) { define(op, "tle::make_range<" + type(r.getType()) + ">(" + std::to_string(r.getStart()) + ")", "range"); })
      .Case<ir::SplatOp>([&](ir::SplatOp s) { define(op, "tle::full<" + type(s.getType()) + ">(" + expr(s.getSrc()) + ")", "splat"); })
      .Case<ir::BroadcastOp>([&](ir::BroadcastOp b) { define(op, "tle::broadcast<" + type(b.getType()) + ">(" + expr(b.getSrc()) + ")", "bcast"); })
      .Case<ir::ExpandDimsOp>([&](ir::ExpandDimsOp e) {
        define(op, "tle::expand_dims<" + type(e.getType()) + ", " + std::to_string(e.getAxis()) + ">(" + expr(e.getSrc()) + ")", "expanded");
      })
      .Case<ir::AddPtrOp>([&](ir::AddPtrOp a) { define(op, "tle::addptr(" + expr(a.getPtr()) + ", " + expr(a.getOffset()) + ")", "ptrs"); })
      .Case<ir::LoadOp, ir::StoreOp, ir::AtomicRMWOp, ir::AtomicCASOp>([&](Operation *) { printMemoryOperation(op); })
      .Case<ir::DotOp, gpu::ConvertLayoutOp, gpu::StageOperandOp, gpu::StageOperandsOp, gpu::OperandRingOp, gpu::AsyncCopyOp,
            gpu::AsyncWaitOp, gpu::AsyncDrainOp, gpu::RingReadOp, gpu::RingDotOp>([&](Operation *) { printOperandOperation(op); })
      .Case<ir::TransOp, ir::ReshapeOp, ir::JoinOp, ir::SplitOp, ir::GatherOp, ir::ExtractTileOp, ir::InsertTileOp,
            ir::ExclusiveCumsumOp>([&](Operation *) { printRearrangement(op); })
      .Case<ir::AllocOp, gpu::LocalPtrOp, gpu::CopyOp, gpu::LocalLoadOp>([&](Operation *) { printBufferOperation(op); })
      .Case<ir::PrintOp, ir::AssertOp>([&](Operation *) { printDebugOperation(op); })
      .Case<ir::BarrierOp>([&](ir::BarrierOp b) {
        line() << "tle::barrier();" << (b.getReason() ? "  // " + b.getReason()->str() : "") << "\n";
      })
      .Case<ir::ReduceOp>([&](ir::ReduceOp r) { reduce(r); })
      .Case<ir::ScanOp>([&](ir::ScanOp s) { scan(s); })
      .Case<ir::RawCallOp>([&](ir::RawCallOp r) { rawCall(r); })
      .Case<arith::MulUIExtendedOp>([&](arith::MulUIExtendedOp m) {  // tl.umulhi: the high half
        std::string args = "(" + expr(m.getLhs()) + ", " + expr(m.getRhs()) + ")";
        for (auto [i, result] : llvm::enumerate(m->getResults())) {
          if (result.use_empty()) continue;
          std::string name = newName(result, i == 0 ? "low" : "high");
          line() << constDeclaration(result.getType()) << " " << name << " = tle::" << (i == 0 ? "mul" : "umulhi") << args << ";\n";
        }
      })
      .Case<scf::ForOp>([&](scf::ForOp f) { forLoop(f); })
      .Case<scf::IfOp>([&](scf::IfOp i) { ifElse(i); })
      .Case<scf::WhileOp>([&](scf::WhileOp w) { whileLoop(w); })
      .Case<func::ReturnOp>([&](func::ReturnOp) {
        if (indent_ > 1) line() << "return;\n";
      })
      .Default([&](Operation *) { elementwise(op); });
}

void KernelPrinter::printMemoryOperation(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<ir::LoadOp>([&](ir::LoadOp l) {
        std::string args = expr(l.getPtr());
        if (l.getMask()) args += ", " + expr(l.getMask());
        if (l.getOther()) args += ", " + expr(l.getOther());
        std::string cache = l.getIsVolatile() ? "cv" : l.getCache() ? l.getCache()->str().substr(1) : "normal";
        define(op, "tle::load<" + std::to_string(gpu::vectorWidth(op)) + ", tle::Cache::" + cache + masking(op) + ">(" + args + ")",
               "loaded");
      })
      .Case<ir::StoreOp>([&](ir::StoreOp s) {
        std::string args = expr(s.getPtr()) + ", " + expr(s.getValue());
        if (s.getMask()) args += ", " + expr(s.getMask());
        std::string cache = s.getCache() ? s.getCache()->str().substr(1) : "normal";
        line() << "tle::store<" << gpu::vectorWidth(op) << ", tle::Cache::" << cache << masking(op) << ">(" << args << ");\n";
      })
      .Case<ir::AtomicRMWOp>([&](ir::AtomicRMWOp a) { atomic(op, a.getKind().str(), a.getSem().str(), a.getScope().str()); })
      .Case<ir::AtomicCASOp>([&](ir::AtomicCASOp a) { atomic(op, "cas", a.getSem().str(), a.getScope().str()); });
}

// Dots, their operands' routes into mma fragments, and the asynchronous copies behind them.
void KernelPrinter::printOperandOperation(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<ir::DotOp>([&](ir::DotOp d) {
        if (!isa<gpu::DotOperandLayoutAttr>(d.getA().getType().getEncoding())) throw Unsupported{"tl.dot outside the 2-D tensor-core path"};
        define(op, "tle::dot<tle::Precision::" + d.getInputPrecision().str() + ">(" + expr(d.getA()) + ", " + expr(d.getB()) + ", " +
                       expr(d.getC()) + ")",
               "acc");
      })
      .Case<gpu::ConvertLayoutOp>([&](gpu::ConvertLayoutOp c) {
        if (isa<gpu::DotOperandLayoutAttr>(c.getType().getEncoding()))
          throw Unsupported{"a dot operand conversion tle-stage-dot-operands did not route (tlec bug)"};
        std::string dst = type(c.getType()), src = type(c.getSrc().getType());
        std::string smem = useScratch("tle::convert_scratch_bytes<" + dst + ", " + src + ">()");
        define(op, "tle::convert_layout<" + dst + ">(" + expr(c.getSrc()) + ", " + smem + ")", "converted");
      })
      .Case<gpu::StageOperandOp>([&](gpu::StageOperandOp s) {
        std::string dst = type(s.getType()), src = type(s.getSrc().getType());
        std::string smem = useScratch("tle::dot_operand_scratch_bytes<" + dst + ", " + src + ">()");
        if (!s.getAlternate()) {
          useStaging("tle::dot_operand_once_staging_bytes<" + dst + ", " + src + ">()");
          define(op, "tle::convert_dot_operand_once<" + dst + ">(" + expr(s.getSrc()) + ", " + smem + ", tle_staging)", "fragment");
          return;
        }
        useStaging("tle::dot_operand_staging_bytes<" + dst + ", " + src + ">()");
        define(op, "tle::convert_dot_operand<" + dst + ">(" + expr(s.getSrc()) + ", " + smem + ", tle_staging, tle_stage)", "fragment");
      })
      .Case<gpu::StageOperandsOp>([&](gpu::StageOperandsOp s) {
        std::string da = type(s.getResultA().getType()), sa = type(s.getA().getType());
        std::string db = type(s.getResultB().getType()), sb = type(s.getB().getType());
        std::string smem = useScratch("tle::dot_operands_scratch_bytes<" + da + ", " + sa + ", " + db + ", " + sb + ">()");
        useStaging("tle::dot_operands_staging_bytes<" + da + ", " + sa + ", " + db + ", " + sb + ">()");
        std::string both = claim("fragments");
        line() << "const auto " << both << " = tle::convert_dot_operands<" << da << ", " << db << ">(" << expr(s.getA()) << ", "
               << expr(s.getB()) << ", " << smem << ", tle_staging, tle_stage);\n";
        bindPair(both, s.getResultA(), "fragment", s.getResultB(), "fragment");
      })
      .Case<gpu::OperandRingOp>([&](gpu::OperandRingOp r) {
        if (!r.getOffset()) throw Unsupported{"an operand ring without an offset (tlec bug: tle-plan-shared-memory did not run)"};
        std::string slots = claim("operand_slots"), bytes = claim("operand_slot_bytes");
        line() << "unsigned char* const " << slots << " = (tle_async + " << *r.getOffset() << ");\n";
        line() << "constexpr int " << bytes << " = " << gpu::ringSlotBytes(r.getType()) << ";\n";
        rings_[r.getRing()] = {slots, bytes};
      })
      .Case<gpu::AsyncCopyOp>([&](gpu::AsyncCopyOp c) {
        auto ring = c.getRing().getType();
        std::string slot = c.getSlot() ? rings_.lookup(c.getRing()).first + " + " + std::to_string(*c.getSlot()) + " * " +
                                             rings_.lookup(c.getRing()).second
                                       : slotOf(c.getRing(), op, /*previous=*/true);
        line() << "tle::copy_async_operand<" << type(ring.getOperand()) << (c.getMask() ? masking(op) : "") << ">(" << expr(c.getPtr())
               << (c.getMask() ? ", " + expr(c.getMask()) : "") << ", " << slot << ");\n";
      })
      .Case<gpu::AsyncWaitOp>([&](gpu::AsyncWaitOp w) {
        line() << "tle::wait_async_operands<" << w.getPending()
               << ">();  // this iteration's tiles have landed, and every thread has read the last iteration's\n";
      })
      .Case<gpu::AsyncDrainOp>([&](gpu::AsyncDrainOp) { line() << "tle::wait_async_copies();\n"; })
      .Case<gpu::RingReadOp>([&](gpu::RingReadOp r) {
        auto ring = r.getRing().getType();
        define(op, "tle::fetch_async_operand<" + type(ring.getOperand()) + ", " + type(ring.getStaged()) + ">(" + slotOf(r.getRing(), op) + ")",
               "fragment");
      })
      .Case<gpu::RingDotOp>([&](gpu::RingDotOp d) {
        auto b = d.getB().getType();
        std::string db = type(b.getOperand()), sb = type(b.getStaged());
        if (auto a = dyn_cast<gpu::OperandRingType>(d.getA().getType()))
          define(op, "tle::dot_from_slots<" + type(a.getOperand()) + ", " + db + ", " + type(a.getStaged()) + ", " + sb + ">(" +
                         slotOf(d.getA(), op) + ", " + slotOf(d.getB(), op) + ", " + expr(d.getC()) + ")",
                 "acc");
        else
          define(op, "tle::dot_from_slot_b<" + db + ", " + sb + ">(" + expr(d.getA()) + ", " + slotOf(d.getB(), op) + ", " + expr(d.getC()) + ")",
                 "acc");
      });
}

// Ops that move a tile's elements between threads through the scratch.
void KernelPrinter::printRearrangement(Operation *op) {
  auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
  llvm::TypeSwitch<Operation *>(op)
      .Case<ir::TransOp>([&](ir::TransOp t) {
        std::string order;
        for (int32_t o : t.getOrder()) order += ", " + std::to_string(o);
        std::string smem = useScratch(spelling_.tileBytes(srcType));
        define(op, "tle::permute<" + type(t.getType()) + order + ">(" + expr(t.getSrc()) + ", " + smem + ")", "transposed");
      })
      .Case<ir::ReshapeOp>([&](ir::ReshapeOp r) {
        std::string smem = useScratch(spelling_.tileBytes(srcType));
        define(op, "tle::reshape<" + type(r.getType()) + ">(" + expr(r.getSrc()) + ", " + smem + ")", "reshaped");
      })
      .Case<ir::JoinOp>([&](ir::JoinOp j) {
        std::string smem = useScratch(spelling_.tileBytes(j.getType()));
        define(op, "tle::join<" + type(j.getType()) + ">(" + expr(j.getLhs()) + ", " + expr(j.getRhs()) + ", " + smem + ")", "joined");
      })
      .Case<ir::SplitOp>([&](ir::SplitOp sp) {
        std::string smem = useScratch(spelling_.tileBytes(srcType));
        if (!isa<RankedTensorType>(sp.getLhs().getType())) throw Unsupported{"tl.split of a 1-D tensor of two elements"};
        std::string both = claim("halves");
        line() << "const auto " << both << " = tle::split<" << type(sp.getLhs().getType()) << ">(" << expr(sp.getSrc()) << ", " << smem
               << ");\n";
        bindPair(both, sp.getLhs(), "lhs", sp.getRhs(), "rhs");
      })
      .Case<ir::GatherOp>([&](ir::GatherOp g) {
        std::string smem = useScratch(spelling_.tileBytes(srcType));
        define(op, "tle::gather<" + type(g.getType()) + ", " + std::to_string(g.getAxis()) + ">(" + expr(g.getSrc()) + ", " +
                       expr(g.getIndices()) + ", " + smem + ")",
               "gathered");
      })
      .Case<ir::ExtractTileOp>([&](ir::ExtractTileOp e) {
        std::string smem = useScratch(spelling_.tileBytes(srcType));
        std::string offsets;
        for (int64_t o : e.getOffsets()) offsets += ", " + std::to_string(o);
        define(op, "tle::extract_tile<" + type(e.getType()) + offsets + ">(" + expr(e.getSrc()) + ", " + smem + ")", "tile");
      })
      .Case<ir::InsertTileOp>([&](ir::InsertTileOp i) {
        std::string smem = useScratch(spelling_.tileBytes(srcType));
        std::string offsets;
        for (int64_t o : i.getOffsets()) offsets += (offsets.empty() ? "" : ", ") + std::to_string(o);
        define(op, "tle::insert_tile<" + offsets + ">(" + expr(i.getSrc()) + ", " + expr(i.getTile()) + ", " + smem + ")", "inserted");
      })
      .Case<ir::ExclusiveCumsumOp>([&](ir::ExclusiveCumsumOp c) {
        std::string axis = std::to_string(c.getAxis());
        std::string smem = useScratch("tle::scan_scratch_bytes<" + axis + ", " + type(srcType) + ">()");
        std::string both = claim("cumsum");
        line() << "const auto " << both << " = tle::exclusive_cumsum<" << type(c.getExclusive().getType()) << ", "
               << type(c.getTotal().getType()) << ", " << axis << ", " << (c.getReverse() ? "true" : "false") << ">(" << expr(c.getSrc())
               << ", " << smem << ");\n";
        bindPair(both, c.getExclusive(), "exclusive", c.getTotal(), "total");
      });
}

// TLE-Struct GPU buffers, at the offsets tle-plan-shared-memory gave them.
void KernelPrinter::printBufferOperation(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<ir::AllocOp>([&](ir::AllocOp a) {
        auto space = a.getType().getSpace();
        if (space != MemorySpace::Shared) throw Unsupported{"buffers in memory space '" + std::string(memorySpaceName(space)) + "'"};
        std::optional<int64_t> offset = gpu::bufferOffset(op);
        if (!offset) throw Unsupported{"a buffer without an offset (tlec bug: tle-plan-shared-memory did not run)"};
        define(op, "reinterpret_cast<" + type(a.getType()) + ">(tle_smem + " + std::to_string(*offset) + ")", "buffer");
      })
      .Case<gpu::LocalPtrOp>([&](gpu::LocalPtrOp l) {
        auto buffer = cast<ir::BufferType>(l.getBuffer().getType());
        if (l.getIndices().empty()) {
          define(op, "tle::local_ptr_all<" + type(l.getType()) + ">(" + expr(l.getBuffer()) + ")", "local_ptrs");
          return;
        }
        std::string args = "tle::local_ptr<" + type(l.getType());
        for (int64_t d : buffer.getBlockType().getShape()) args += ", " + std::to_string(d);
        args += ">(" + expr(l.getBuffer());
        for (Value i : l.getIndices()) args += ", " + expr(i);
        define(op, args + ")", "local_ptrs");
      })
      .Case<gpu::CopyOp>([&](gpu::CopyOp c) {
        bool toBuffer = isa<ir::BufferType>(c.getDst().getType());
        line() << "tle::copy_" << (toBuffer ? "to" : "from") << "_buffer(" << expr(c.getSrc()) << ", " << expr(c.getDst()) << ");\n";
      })
      .Case<gpu::LocalLoadOp>(
          [&](gpu::LocalLoadOp l) { define(op, "tle::local_load<" + type(l.getType()) + ">(" + expr(l.getBuffer()) + ")", "loaded"); });
}

void KernelPrinter::printDebugOperation(Operation *op) {
  if (auto p = dyn_cast<ir::PrintOp>(op)) {
    std::string prefix = p.getPrefix().str();
    if (p.getArgs().empty()) {
      line() << "tle::device_print(" << cString(prefix) << ");\n";
      return;
    }
    for (auto [i, arg] : llvm::enumerate(p.getArgs())) {
      std::string text = prefix + (p.getArgs().size() > 1 ? "(operand " + std::to_string(i) + ") " : "");
      line() << "tle::device_print<" << (p.getIsSigned()[i] ? "true" : "false") << ", " << (p.getHex() ? "true" : "false") << ">("
             << cString(text) << ", " << expr(arg) << ");\n";
    }
    return;
  }
  auto a = cast<ir::AssertOp>(op);
  std::string file = "<unknown>";
  unsigned lineNumber = 0;
  if (auto f = fileLocation(a.getLoc())) file = f->getFilename().str(), lineNumber = f->getLine();
  line() << "tle::device_assert(" << expr(a.getCondition()) << ", " << cString(a.getMessage().str()) << ", " << cString(file) << ", "
         << lineNumber << ", " << cString(f_.getName().str()) << ");\n";
}

void KernelPrinter::scan(ir::ScanOp s) {
  CombinedInput in = combinedInput(s.getSrcs(), "scans");
  if (s.getSrcs().size() == 2 && s.getSrcs()[1].getType() != s.getSrcs()[0].getType())
    throw Unsupported{"a two-operand scan whose operands have different layouts"};
  auto srcType = cast<RankedTensorType>(s.getSrcs()[0].getType());
  std::string resultType = spelling_.tile(cast<RankedTensorType>(s.getResult(0).getType()), in.element);
  std::string axis = std::to_string(s.getAxis());
  std::string smem = useScratch("tle::scan_scratch_bytes<" + axis + ", " + spelling_.tile(srcType, in.element) + ">()");
  std::string call = "tle::scan<" + resultType + ", " + axis + ", " + (s.getReverse() ? "true" : "false") + ">(" + in.input + ", " +
                     combineLambda(s.getCombineOp().front(), in.elementTypes) + ", " + smem + ")";
  defineCombined(s, call, "scanned");
}

void KernelPrinter::reduce(ir::ReduceOp r) {
  CombinedInput in = combinedInput(r.getSrcs(), "reductions");
  auto srcType = cast<RankedTensorType>(r.getSrcs()[0].getType());
  std::string axis = std::to_string(r.getAxis());
  std::string smem = useScratch("tle::reduce_scratch_bytes<" + axis + ", " + spelling_.tile(srcType, in.element) + ">()");
  std::string call = "tle::reduce<" + axis + ">(" + in.input + ", " + combineLambda(r.getCombineOp().front(), in.elementTypes) + ", " +
                     smem + ")";
  if (!isa<RankedTensorType>(r.getResult(0).getType())) call = "tle::scalar(" + call + ")";
  defineCombined(r, call, "reduced");
}

// The combine region as a lambda over scalars (or pairs, for two operands).
std::string KernelPrinter::combineLambda(Block &body, const std::vector<std::string> &elementTypes) {
  size_t n = elementTypes.size();
  std::string saved = body_.str();
  body_.str("");
  int savedIndent = indent_;
  unsigned savedLine = lastLine_;
  indent_ = 1;
  std::string lhs = claim("lhs"), rhs = claim("rhs");
  std::string pairType = n == 2 ? "tle::pair<" + elementTypes[0] + ", " + elementTypes[1] + ">" : "";
  for (size_t i = 0; i < n; ++i) {
    if (n == 1) {
      names_[body.getArgument(0)] = lhs;
      names_[body.getArgument(1)] = rhs;
    } else {
      names_[body.getArgument(i)] = "(" + lhs + (i == 0 ? ".first)" : ".second)");
      names_[body.getArgument(n + i)] = "(" + rhs + (i == 0 ? ".first)" : ".second)");
    }
  }
  lastLine_ = UINT32_MAX;  // no source comments inside the lambda
  for (Operation &op : body.without_terminator()) {
    if (auto f = fileLocation(op.getLoc())) lastLine_ = f->getLine();
    operation(&op);
  }
  Operation *ret = body.getTerminator();
  std::string result = n == 1 ? expr(ret->getOperand(0)) : pairType + "{" + expr(ret->getOperand(0)) + ", " + expr(ret->getOperand(1)) + "}";
  std::string inner = body_.str();
  body_.str("");
  body_ << saved;
  indent_ = savedIndent;
  lastLine_ = savedLine;
  std::string argType = n == 1 ? elementTypes[0] : pairType;
  std::string pad(indent_ * 2, ' ');
  std::string lambda = "[&](" + argType + " " + lhs + ", " + argType + " " + rhs + ") {\n";
  std::istringstream lines(inner);
  for (std::string l; std::getline(lines, l);) lambda += pad + "  " + l.substr(2) + "\n";
  return lambda + pad + "  return " + result + ";\n" + pad + "}";
}

// Loop-carried values live in variables declared before the loop and assigned by yields.
std::vector<std::string> KernelPrinter::declareCarried(ValueRange inits, ValueRange carried, StringRef fallback) {
  std::vector<std::string> vars;
  for (auto [init, value] : llvm::zip(inits, carried)) {
    std::string name = newName(value, fallback);
    line() << type(value.getType()) << " " << name;
    if (init) body_ << " = " << expr(init);
    body_ << ";\n";
    vars.push_back(name);
  }
  return vars;
}

void KernelPrinter::assignCarried(const std::vector<std::string> &vars, ValueRange values) {
  // Through temporaries when a yielded value is itself a carried variable (a swap).
  bool needTemps = false;
  for (Value v : values)
    if (std::find(vars.begin(), vars.end(), expr(v)) != vars.end()) needTemps = true;
  std::vector<std::string> sources;
  for (Value v : values) {
    if (!needTemps) {
      sources.push_back(expr(v));
      continue;
    }
    std::string tmp = claim("next");
    line() << "const auto " << tmp << " = " << expr(v) << ";\n";
    sources.push_back(tmp);
  }
  for (size_t i = 0; i < vars.size(); ++i)
    if (vars[i] != sources[i]) line() << vars[i] << " = " << sources[i] << ";\n";
}

void KernelPrinter::forLoop(scf::ForOp f) {
  std::vector<std::string> vars = declareCarried(f.getInitArgs(), f.getRegionIterArgs(), "carried");
  std::optional<int> ringSlots = gpu::ringSlots(f);
  std::string slot;
  if (ringSlots) {
    slot = claim("slot");
    line() << "int " << slot << " = 0;  // the operand slot of this iteration (of " << *ringSlots << ")\n";
    slotVars_[f] = slot;
  }
  std::string iv = claim("i");
  names_[f.getInductionVar()] = iv;
  if (auto stages = ir::ownNumStages(f)) line() << "// tl.range(num_stages=" << *stages << ")\n";
  line() << "for (" << scalarType(f.getInductionVar().getType()) << " " << iv << " = " << expr(f.getLowerBound()) << "; " << iv << " < "
         << expr(f.getUpperBound()) << "; " << iv << " += " << expr(f.getStep()) << ") {\n";
  ++indent_;
  block(*f.getBody());
  assignCarried(vars, f.getBody()->getTerminator()->getOperands());
  if (ringSlots) line() << slot << " = " << slot << " == " << *ringSlots - 1 << " ? 0 : " << slot << " + 1;\n";
  --indent_;
  line() << "}\n";
  for (auto [i, result] : llvm::enumerate(f.getResults())) names_[result] = vars[i];
}

void KernelPrinter::ifElse(scf::IfOp i) {
  std::vector<std::string> vars;
  for (Value result : i.getResults()) {
    std::string name = newName(result, "selected");
    line() << type(result.getType()) << " " << name << ";\n";
    vars.push_back(name);
  }
  line() << "if (" << expr(i.getCondition()) << ") {\n";
  ++indent_;
  block(i.getThenRegion().front());
  assignCarried(vars, i.getThenRegion().front().getTerminator()->getOperands());
  --indent_;
  if (!i.getElseRegion().empty()) {
    line() << "} else {\n";
    ++indent_;
    block(i.getElseRegion().front());
    assignCarried(vars, i.getElseRegion().front().getTerminator()->getOperands());
    --indent_;
  }
  line() << "}\n";
}

void KernelPrinter::whileLoop(scf::WhileOp w) {
  std::vector<std::string> before = declareCarried(w.getInits(), w.getBeforeArguments(), "state");
  SmallVector<Value> noInits(w.getAfterArguments().size());
  std::vector<std::string> after = declareCarried(noInits, w.getAfterArguments(), "value");
  line() << "while (true) {\n";
  ++indent_;
  block(w.getBefore().front());
  scf::ConditionOp cond = w.getConditionOp();
  assignCarried(after, cond.getArgs());
  line() << "if (!" << expr(cond.getCondition()) << ") break;\n";
  block(w.getAfter().front());
  assignCarried(before, w.getAfter().front().getTerminator()->getOperands());
  --indent_;
  line() << "}\n";
  for (auto [i, result] : llvm::enumerate(w.getResults())) names_[result] = after[i];
}

// arith and math ops, one function call each (same spelling for scalars and tiles).
void KernelPrinter::elementwise(Operation *op) {
  std::string name = op->getName().getStringRef().str();
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
      {"arith.uitofp", "cast_unsigned"}, {"arith.fptoui", "cast"}, {"arith.bitcast", "bitcast"},
      {"arith.index_cast", "cast"}};
  std::string args;
  for (Value v : op->getOperands()) args += (args.empty() ? "" : ", ") + expr(v);
  if (auto it = functions.find(name); it != functions.end()) {
    define(op, "tle::" + it->second + "(" + args + ")");
    return;
  }
  if (auto it = casts.find(name); it != casts.end()) {
    define(op, "tle::" + it->second + "<" + scalarType(ir::elementTypeOf(op->getResult(0).getType())) + ">(" + args + ")");
    return;
  }
  if (auto c = dyn_cast<arith::CmpIOp>(op)) {
    static const char *names[] = {"eq", "ne", "lt", "le", "gt", "ge", "ltu", "leu", "gtu", "geu"};
    define(op, std::string("tle::") + names[static_cast<int>(c.getPredicate())] + "(" + args + ")", "cond");
    return;
  }
  if (auto c = dyn_cast<arith::CmpFOp>(op)) {
    using P = arith::CmpFPredicate;
    static const std::map<P, std::string> names = {
        {P::OEQ, "eq"}, {P::OGT, "gt"}, {P::OGE, "ge"}, {P::OLT, "lt"}, {P::OLE, "le"}, {P::ONE, "one"}, {P::ORD, "ord"},
        {P::UEQ, "ueq"}, {P::UGT, "ugt"}, {P::UGE, "uge"}, {P::ULT, "ult"}, {P::ULE, "ule"}, {P::UNE, "ne"}, {P::UNO, "uno"}};
    auto it = names.find(c.getPredicate());
    if (it == names.end()) throw Unsupported{"constant float comparisons"};
    define(op, "tle::" + it->second + "(" + args + ")", "cond");
    return;
  }
  throw Unsupported{"the operation '" + name + "'"};
}

void KernelPrinter::atomic(Operation *op, const std::string &kind, const std::string &sem, const std::string &scope) {
  usesAtomics_ = true;
  static const std::map<std::string, std::string> kinds = {{"add", "add"}, {"fadd", "fadd"}, {"max", "max"}, {"min", "min"},
                                                           {"umax", "umax"}, {"umin", "umin"}, {"and", "band"}, {"or", "bor"},
                                                           {"xor", "bxor"}, {"xchg", "xchg"}};
  int semCode = sem == "relaxed" ? 0 : sem == "acquire" ? 1 : sem == "release" ? 2 : 3;
  std::string scopeName = scope == "cta" ? "cuda::thread_scope_block" : scope == "sys" ? "cuda::thread_scope_system" : "cuda::thread_scope_device";
  std::vector<std::string> parts;
  for (Value v : op->getOperands()) parts.push_back(expr(v));
  std::string templ;
  if (kind == "cas") {
    templ = "tle::atomic_cas<" + std::to_string(semCode) + ", " + scopeName + ">";
  } else {
    auto it = kinds.find(kind);
    if (it == kinds.end()) throw Unsupported{"atomic kind '" + kind + "'"};
    templ = "tle::atomic_rmw<tle::AtomicOp::" + it->second + ", " + std::to_string(semCode) + ", " + scopeName + ">";
  }
  std::string args;
  for (const std::string &p : parts) args += (args.empty() ? "" : ", ") + p;
  if (!isa<RankedTensorType>(op->getResult(0).getType())) {
    // Scalar atomics act once per block and share the result through the scratch.
    std::string smem = useScratch("int(sizeof(" + scalarType(op->getResult(0).getType()) + "))");
    if (kind == "cas") args = parts[0] + ", " + parts[1] + ", " + parts[2] + ", " + smem;
    else args = parts[0] + ", " + parts[1] + ", " + smem + (parts.size() > 2 ? ", " + parts[2] : "");
  }
  define(op, templ + "(" + args + ")", "old");
}

// TLE-Raw: the native function runs on the block's first `threads` threads. Block arguments
// are staged row-major at their planned places in the scratch and passed as pointers; after
// the call they are read back as the op's results. Barriers order the staging, the call and
// the read-back.
void KernelPrinter::rawCall(ir::RawCallOp r) {
  if (r.getLanguage() != "cuda") throw Unsupported{"a raw '" + r.getLanguage().str() + "' function on a CUDA target"};
  if (r.getThreads().size() != 1) throw Unsupported{"a raw function over more than one thread dimension"};
  const int64_t threads = r.getThreads()[0], blockThreads = int64_t(32) * numWarps_;
  if (threads < blockThreads && (r.getSyncScope() == "block" || r.getSyncScope() == "cluster"))
    throw Unsupported{"a block-synchronizing raw function on fewer threads than the block"};
  rawFunctions_.emplace_back(r.getCallee().str(), r.getCode().str());
  ArrayRef<int64_t> offsets = gpu::argumentOffsets(r);
  std::string base;
  std::vector<std::string> args, regions;
  size_t next = 0;
  for (auto [arg, space] : llvm::zip(r.getArgs(), r.getSpaces())) {
    auto tensor = dyn_cast<RankedTensorType>(arg.getType());
    if (!tensor) {
      args.push_back(expr(arg));
      continue;
    }
    StringRef where = cast<StringAttr>(space).getValue();
    if (!where.empty() && where != "shared") throw Unsupported{"a raw-call block argument in '" + where.str() + "' space"};
    if (next >= offsets.size()) throw Unsupported{"a raw-call block argument without a planned place (tlec bug)"};
    if (base.empty()) {
      int64_t total = 0;
      for (Value a : r.getArgs())
        if (auto t = dyn_cast<RankedTensorType>(a.getType())) total += alignedTileBytes(t);
      base = claim("raw_smem");
      line() << "unsigned char* const " << base << " = " << useScratch(std::to_string(total)) << ";\n";
    }
    std::string element = scalarType(tensor.getElementType());
    std::string region = claim("raw_arg");
    line() << element << "* const " << region << " = reinterpret_cast<" << element << "*>(" << base << " + " << offsets[next++] << ");\n";
    line() << "tle::store_row_major(" << expr(arg) << ", " << region << ");\n";
    args.push_back(region);
    regions.push_back(region);
  }
  line() << "__syncthreads();\n";
  std::string call = r.getCallee().str() + "(";
  for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
  call += ");";
  if (threads < blockThreads) line() << "if (threadIdx.x < " << threads << ") " << call << "\n";
  else line() << call << "\n";
  line() << "__syncthreads();\n";
  for (size_t i = 0; i < regions.size(); ++i) {
    Value result = r.getResult(i);
    std::string name = newName(result, "raw_out");
    line() << "const auto " << name << " = tle::local_load<" << type(result.getType()) << ">(" << regions[i] << ");\n";
  }
  if (!regions.empty()) line() << "__syncthreads();  // the scratch is free again\n";
}

}  // namespace

std::optional<FileLineColLoc> fileLocation(Location loc) {
  if (auto f = dyn_cast<FileLineColLoc>(loc)) return f;
  if (auto n = dyn_cast<NameLoc>(loc)) return fileLocation(n.getChildLoc());
  if (auto c = dyn_cast<CallSiteLoc>(loc)) return fileLocation(c.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location l : fused.getLocations())
      if (auto f = fileLocation(l)) return f;
  return std::nullopt;
}

bool printKernel(func::FuncOp f, const CudaOptions &options, PrintedKernel &out, std::string &error, Location &where) {
  try {
    KernelPrinter(f, options).print(out);
    return true;
  } catch (const Unsupported &u) {
    error = u.message + " has no CUDA lowering yet";
    where = u.where ? *u.where : f.getLoc();
    return false;
  }
}

}  // namespace tle::cuda
