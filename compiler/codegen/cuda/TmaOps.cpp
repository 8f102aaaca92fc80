// The TMA ops tle-lower-tma-copies made: tensor maps (kernel parameters the launcher
// encodes), the slots' barriers, the copies and the waits.
#include "codegen/cuda/KernelPrinting.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

namespace tle::cuda {

using namespace mlir;

namespace {

// The driver's name and value (CUtensorMapDataType) for a map's element type: TMA moves
// bytes, so fp8 is UINT8.
std::pair<std::string, int> tensorMapDataType(Type element) {
  if (element.isF16()) return {"CU_TENSOR_MAP_DATA_TYPE_FLOAT16", 6};
  if (element.isBF16()) return {"CU_TENSOR_MAP_DATA_TYPE_BFLOAT16", 9};
  if (element.getIntOrFloatBitWidth() == 16) return {"CU_TENSOR_MAP_DATA_TYPE_UINT16", 1};
  if (element.getIntOrFloatBitWidth() == 8) return {"CU_TENSOR_MAP_DATA_TYPE_UINT8", 0};
  throw Unsupported{"a tensor map of elements other than 1 or 2 bytes (tlec bug: tle-plan-tma-copies admitted it)"};
}

// Integer arithmetic wraps in its width, as the kernel's does (tle::host_add & co., tma.cuh).
std::string wrapping(const char *callee, const std::string &a, const std::string &b) {
  return std::string("tle::") + callee + "(" + a + ", " + b + ")";
}

}  // namespace

std::string KernelPrinter::launcherExpression(Value v) {
  if (auto arg = dyn_cast<mlir::BlockArgument>(v)) return expr(arg);  // the launcher's parameter of the same name
  Operation *def = v.getDefiningOp();
  auto operand = [&](unsigned i) { return launcherExpression(def->getOperand(i)); };
  return llvm::TypeSwitch<Operation *, std::string>(def)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) { return literal(c.getValue(), c.getType()); })
      .Case<arith::ExtSIOp, arith::IndexCastOp>([&](Operation *) { return "static_cast<int64_t>(" + operand(0) + ")"; })
      .Case<arith::ExtUIOp>([&](Operation *) { return "static_cast<int64_t>(static_cast<uint32_t>(" + operand(0) + "))"; })
      .Case<arith::TruncIOp>([&](Operation *) { return "static_cast<int32_t>(" + operand(0) + ")"; })
      .Case<arith::AddIOp>([&](Operation *) { return wrapping("host_add", operand(0), operand(1)); })
      .Case<arith::SubIOp>([&](Operation *) { return wrapping("host_sub", operand(0), operand(1)); })
      .Case<arith::MulIOp>([&](Operation *) { return wrapping("host_mul", operand(0), operand(1)); })
      .Default([&](Operation *) -> std::string {
        throw Unsupported{"a tensor map part the launcher cannot compute (tlec bug: tle-plan-tma-copies admitted it)"};
      });
}

void KernelPrinter::launcherProgram(Value v, std::vector<HostStep> &program) {
  if (isa<mlir::BlockArgument>(v)) return program.push_back({HostStep::Param, expr(v)});
  Operation *def = v.getDefiningOp();
  const bool wide = v.getType().getIntOrFloatBitWidth() == 64;
  if (auto c = dyn_cast<arith::ConstantOp>(def))
    return program.push_back({HostStep::Constant, "", cast<IntegerAttr>(c.getValue()).getValue().getSExtValue()});
  for (Value operand : def->getOperands()) launcherProgram(operand, program);
  using Step = std::optional<HostStep::Kind>;
  Step kind = llvm::TypeSwitch<Operation *, Step>(def)
      .Case<arith::ExtSIOp, arith::IndexCastOp>([](Operation *) -> Step { return std::nullopt; })  // already sign-extended
      .Case<arith::ExtUIOp>([](Operation *) -> Step { return HostStep::ZeroExtend32; })
      .Case<arith::TruncIOp>([](Operation *) -> Step { return HostStep::SignExtend32; })
      .Case<arith::AddIOp>([&](Operation *) -> Step { return wide ? HostStep::Add64 : HostStep::Add32; })
      .Case<arith::SubIOp>([&](Operation *) -> Step { return wide ? HostStep::Sub64 : HostStep::Sub32; })
      .Case<arith::MulIOp>([&](Operation *) -> Step { return wide ? HostStep::Mul64 : HostStep::Mul32; })
      .Default([](Operation *) -> Step {
        throw Unsupported{"a tensor map part the launcher cannot compute (tlec bug: tle-plan-tma-copies admitted it)"};
      });
  if (kind) program.push_back({*kind, "", 0});
}

void KernelPrinter::printTmaOperation(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<gpu::TensorMapOp>([&](gpu::TensorMapOp m) {
        TensorMapParam p;
        p.name = claim(expr(m.getBase()) + "_tma");
        Type element = cast<ir::PointerType>(m.getBase().getType()).getPointeeType();
        std::tie(p.dataType, p.dataTypeCode) = tensorMapDataType(element);
        p.elementBytes = static_cast<int>(element.getIntOrFloatBitWidth() / 8);
        p.base = launcherExpression(m.getBase());
        p.rows = launcherExpression(m.getShape()[0]);
        p.cols = launcherExpression(m.getShape()[1]);
        p.rowStride = launcherExpression(m.getStrides()[0]);
        launcherProgram(m.getBase(), p.programs[0]);
        launcherProgram(m.getShape()[0], p.programs[1]);
        launcherProgram(m.getShape()[1], p.programs[2]);
        launcherProgram(m.getStrides()[0], p.programs[3]);
        p.boxRows = m.getBox()[0];
        p.boxCols = m.getBox()[1];
        p.swizzleBytes = m.getSwizzleBytes();
        names_[m.getMap()] = "&" + p.name;
        tensorMaps_.push_back(p);
      })
      .Case<gpu::TmaBarriersOp>([&](gpu::TmaBarriersOp b) {
        if (!b.getOffset()) throw Unsupported{"TMA barriers without an offset (tlec bug: tle-plan-shared-memory did not run)"};
        const unsigned slots = b.getType().getSlots();
        std::string barriers = claim("tma_barriers"), phases = claim("tma_phases");
        line() << "uint64_t* const " << barriers << " = reinterpret_cast<uint64_t*>(tle_smem + " << *b.getOffset()
               << ");  // one per operand slot, completed by the slot's TMA copies\n";
        line() << "uint32_t " << phases << " = 0;  // the phase each slot's barrier completes next, one bit a slot\n";
        line() << "tle::tma_init_barriers<" << slots << ", " << b.getType().getArrivals() << ">(" << barriers << ");\n";
        tmaBarriers_[b.getBarriers()] = {barriers, phases};
      })
      .Case<gpu::TmaCopyOp>([&](gpu::TmaCopyOp c) {
        auto ring = c.getRing().getType();
        RankedTensorType staged = ring.getStaged();
        const int64_t rows = staged.getShape()[c.getTransposed() ? 1 : 0], cols = staged.getShape()[c.getTransposed() ? 0 : 1];
        auto map = c.getMap().getDefiningOp<gpu::TensorMapOp>();
        const std::string index = c.getSlot() ? std::to_string(*c.getSlot()) : slotIndexOf(op, c.getSlotsBehind().value_or(1));
        const auto &[slots, bytes] = rings_.lookup(c.getRing());
        line() << "tle::tma_copy_block<" << scalarType(staged.getElementType()) << ", " << rows << ", " << cols << ", " << map.getBox()[1]
               << ">(" << expr(c.getMap()) << ", " << expr(c.getCoords()[0]) << ", " << expr(c.getCoords()[1]) << ", " << slots << " + "
               << index << " * " << bytes << ", " << tmaBarriers_.lookup(c.getBarriers()).first << " + " << index << ", "
               << expr(c.getPred()) << ");\n";
      })
      .Case<gpu::TmaWaitOp>([&](gpu::TmaWaitOp w) {
        Operation *loop = gpu::enclosingRingLoop(op);
        if (!loop) throw Unsupported{"a TMA wait outside its ring loop (tlec bug)"};
        const auto &[barriers, phases] = tmaBarriers_.lookup(w.getBarriers());
        line() << "tle::tma_wait_slot(" << barriers << ", " << slotVars_.lookup(loop) << ", " << phases
               << ");  // this iteration's tiles have landed\n";
        line() << "tle::barrier(" << group() << ");  // and no thread reads the slots refilled below any more\n";
      });
}

}  // namespace tle::cuda
