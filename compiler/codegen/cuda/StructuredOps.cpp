// Ops with regions: reductions and scans (their combine region is a lambda over scalars), and
// what CUDA adds to the loops that codegen::StatementPrinter prints (the operand rings' slot).
#include "codegen/cuda/KernelPrinting.h"

namespace tle::cuda {

using namespace mlir;

KernelPrinter::CombinedInput KernelPrinter::combinedInput(ValueRange srcs, const std::string &what) {
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

void KernelPrinter::defineCombined(Operation *op, const std::string &call, const std::string &base) {
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
  if (StringRef vote = gpu::blockVote(r); !vote.empty()) {
    define(r, "tle::block_" + vote.str() + "(" + expr(r.getSrcs()[0]) + ")", "reduced");
    return;
  }
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
void KernelPrinter::beforeLoop(scf::ForOp f) {
  if (std::optional<int> ringSlots = gpu::ringSlots(f)) {
    std::string slot = claim("slot");
    line() << "int " << slot << " = 0;  // the operand slot of this iteration (of " << *ringSlots << ")\n";
    slotVars_[f] = slot;
  }
  if (auto stages = ir::ownNumStages(f)) line() << "// tl.range(num_stages=" << *stages << ")\n";
  if (auto unroll = ir::loopUnrollFactor(f)) line() << "#pragma unroll " << *unroll << "  // tl.range(loop_unroll_factor=)\n";
}

void KernelPrinter::endOfIteration(scf::ForOp f) {
  if (std::optional<int> ringSlots = gpu::ringSlots(f)) {
    const std::string &slot = slotVars_[f];
    line() << slot << " = " << slot << " == " << *ringSlots - 1 << " ? 0 : " << slot << " + 1;\n";
  }
}

}  // namespace tle::cuda
