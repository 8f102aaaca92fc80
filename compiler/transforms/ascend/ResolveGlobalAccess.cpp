#include "transforms/ascend/AffineIndex.h"
#include "transforms/ascend/Passes.h"
#include "transforms/PassDiagnostics.h"

#include "ir/Dialect.h"
#include "ir/DsaDialect.h"
#include "ir/KernelSettings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace tle::ascend {

#define GEN_PASS_DEF_RESOLVEGLOBALACCESS
#include "transforms/ascend/Passes.h.inc"

using namespace mlir;

namespace {

// Whether `v` is a multiple of 16 by construction: a constant, a kernel parameter hinted :16,
// or sums and products of such (a product needs one such factor).
bool multipleOf16(Value v) {
  if (auto c = constantInt(v)) return *c % 16 == 0;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    return isa<func::FuncOp>(owner) && ir::parameterDivisibility(owner, arg.getArgNumber()) % 16 == 0;
  }
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<arith::MulIOp>(def)) return multipleOf16(def->getOperand(0)) || multipleOf16(def->getOperand(1));
  if (isa_and_nonnull<arith::AddIOp, arith::SubIOp>(def)) return multipleOf16(def->getOperand(0)) && multipleOf16(def->getOperand(1));
  if (isa_and_nonnull<arith::ExtSIOp, arith::TruncIOp>(def)) return multipleOf16(def->getOperand(0));
  return false;
}

Value asI32(OpBuilder &b, Location loc, Value v) {
  if (!v || v.getType().isInteger(32)) return v;
  return b.create<arith::TruncIOp>(loc, b.getI32Type(), v);
}

struct ResolveGlobalAccessPass : impl::ResolveGlobalAccessBase<ResolveGlobalAccessPass> {
  void runOnOperation() override {
    SmallVector<dsa::CopyOp> copies;
    getOperation().walk([&](dsa::CopyOp copy) { copies.push_back(copy); });
    bool failedAny = false;
    for (dsa::CopyOp copy : copies) {
      bool toLocal = isa<ir::BufferType>(copy.getDst().getType());
      Value pointers = toLocal ? copy.getSrc() : copy.getDst();
      auto buffer = cast<ir::BufferType>((toLocal ? copy.getDst() : copy.getSrc()).getType());
      if (isa<ir::BufferType>(pointers.getType())) continue;  // L1 -> L0: the cube's path, not global memory
      // The engines between global memory and the cores: MTE2/MTE3 for UB, MTE2 into L1 (the
      // cube's operands), FIX out of L0C (its results).
      MemorySpace space = buffer.getSpace();
      bool reachable = space == MemorySpace::UB || (toLocal && space == MemorySpace::L1) || (!toLocal && space == MemorySpace::L0C);
      if (!reachable) {
        emitUnsupported(copy) << "no Ascend engine copies " << (toLocal ? "global memory to " : "") << memorySpaceName(space)
                              << (toLocal ? "" : " to global memory") << " (global memory reaches UB, L1, and from L0C)";
        failedAny = true;
        continue;
      }
      if (space != MemorySpace::UB) {
        auto tile = buffer.getBlockType();
        if (tile.getRank() != 2 || tile.getDimSize(0) % 16 != 0 || tile.getDimSize(1) % 16 != 0) {
          emitUnsupported(copy) << "cube buffers are 2-D with sizes that are multiples of 16 (its 16 x 16 fractals)";
          failedAny = true;
          continue;
        }
      }
      OpBuilder b(copy);
      Location loc = copy.getLoc();
      std::optional<AffineIndex> window = affineIndexOf(pointers, b);
      int64_t rank = buffer.getBlockType().getRank();
      auto failWith = [&](const Twine &why) {
        emitUnsupported(copy) << why;
        failedAny = true;
      };
      if (!window || !window->base) {
        failWith("this block of pointers is not base + row * row_stride + column (a strided window); gathers have no Ascend lowering");
        continue;
      }
      if (rank > 2) {
        failWith("copies of tiles with more than two dimensions are not supported on Ascend yet");
        continue;
      }
      if (!toLocal && window->wraps_any()) {
        failWith("stores through indices that wrap around (`% M`) have no Ascend lowering");
        continue;
      }
      if (constantInt(window->strides[rank - 1]) != 1) {
        failWith("the elements of a row must be adjacent in global memory (column stride 1) for the Ascend memory engines");
        continue;
      }
      SmallVector<Value> rowStride;
      if (rank == 2) {
        if (!window->strides[0]) {
          failWith("every row of this block of pointers is the same address (row stride 0)");
          continue;
        }
        int64_t rowBytes = buffer.getBlockType().getDimSize(1) * buffer.getBlockType().getElementTypeBitWidth() / 8;
        if (space == MemorySpace::UB && rowBytes % 32 != 0) {
          failWith("rows of this tile are " + Twine(rowBytes) +
                   " bytes; the Ascend memory engines place rows in UB at multiples of 32 bytes");
          continue;
        }
        rowStride.push_back(window->strides[0]);
      }
      // Wrapping rows or columns ((s + arange) % M) are read in segments; only the cube's operands
      // (L1) take them, and a column segment must start on a 16-column fractal boundary.
      Value rowWrap, rowStart, columnWrap, columnStart;
      if (window->wraps_any()) {
        if (!toLocal || space != MemorySpace::L1 || rank != 2) {
          failWith("indices that wrap around (`% M`) are supported only where a dot's operands are loaded (L1) on Ascend");
          continue;
        }
        rowWrap = asI32(b, loc, window->wraps[0]);
        rowStart = asI32(b, loc, window->wrapStarts[0]);
        columnWrap = asI32(b, loc, window->wraps[1]);
        columnStart = asI32(b, loc, window->wrapStarts[1]);
        if (columnWrap && !(multipleOf16(window->wraps[1]) && multipleOf16(window->wrapStarts[1]))) {
          failWith("columns that wrap around (`% N`) need N and the start to be multiples of 16 on Ascend (the cube's "
                   "16-column fractals): hint N with :16 in the signature");
          continue;
        }
      }
      Value offset = window->offset ? window->offset : b.create<arith::ConstantIntOp>(loc, 0, 32).getResult();
      if (toLocal)
        b.create<dsa::CopyInOp>(loc, copy.getDst(), window->base, offset, rowStride, copy.getSizes(), copy.getPad(), rowWrap, rowStart,
                                columnWrap, columnStart);
      else
        b.create<dsa::CopyOutOp>(loc, copy.getSrc(), window->base, offset, rowStride, copy.getSizes());
      copy.erase();
    }
    if (failedAny) signalPassFailure();
  }
};

}  // namespace

}  // namespace tle::ascend
