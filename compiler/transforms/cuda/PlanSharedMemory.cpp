// Shared-memory planning for TLE-Struct GPU buffers: each `tle.alloc` in shared memory gets
// a byte offset (`tle.offset`) in the kernel's dynamic shared memory, and the function the
// bytes they need together (`tle.buffer_bytes`). Buffers whose lifetimes do not overlap
// share bytes. A buffer lives from its alloc to the last use of anything derived from it
// that can address it: pointers from `local_ptr`, what pointer arithmetic, selects, loops
// and branches make of them (a pointer carried through a loop keeps the buffer alive for
// the whole loop and after it). Data loaded through them does not count.
// Reuse needs no extra barrier: every write into a buffer has a block barrier before it
// (the CUDA printer), so the old buffer's last reads are done when the new one is written.
//
// Lifetimes are intervals of the function body's top-level ops: a use nested in a loop or
// branch counts as a use by the op that holds it there (conservative for two buffers of one
// loop body; they never share).
#include "transforms/cuda/Passes.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace tle::cuda {

#define GEN_PASS_DEF_PLANSHAREDMEMORY
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

constexpr int64_t kAlignment = 16;

int64_t bufferBytes(ir::BufferType buffer) {
  RankedTensorType block = buffer.getBlockType();
  int64_t bytes = block.getNumElements() * std::max<int64_t>(1, block.getElementType().getIntOrFloatBitWidth() / 8);
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

// Buffers and pointers can reach a buffer's bytes; the data loaded through them cannot.
bool canAddress(Value v) {
  Type t = v.getType();
  if (auto tensor = dyn_cast<RankedTensorType>(t)) t = tensor.getElementType();
  return isa<ir::BufferType, ir::PointerType>(t);
}

struct Lifetime {
  ir::AllocOp alloc;
  int64_t bytes = 0;
  int64_t first = 0, last = 0;  // positions in the function body
  int64_t offset = 0;
};

struct PlanSharedMemoryPass : impl::PlanSharedMemoryBase<PlanSharedMemoryPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.getBody().empty()) return;
    Block &top = func.getBody().front();
    llvm::DenseMap<Operation *, int64_t> position;
    int64_t index = 0;
    for (Operation &op : top) position[&op] = index++;
    // The op of the function body that holds `op` (itself at the top level).
    auto topLevel = [&](Operation *op) {
      while (op->getBlock() != &top) op = op->getParentOp();
      return op;
    };

    std::vector<Lifetime> buffers;
    func.walk([&](ir::AllocOp alloc) {
      auto buffer = cast<ir::BufferType>(alloc.getType());
      if (buffer.getSpace() != MemorySpace::Shared) return;
      Lifetime life{alloc, bufferBytes(buffer)};
      life.first = life.last = position.lookup(topLevel(alloc));
      // Everything derived from the buffer, and the last top-level op that uses any of it.
      llvm::SetVector<Value> derived;
      derived.insert(alloc.getResult());
      for (size_t i = 0; i < derived.size(); ++i) {
        for (OpOperand &use : derived[i].getUses()) {
          Operation *user = use.getOwner();
          life.last = std::max(life.last, position.lookup(topLevel(user)));
          auto derive = [&](Value v) {
            if (canAddress(v)) derived.insert(v);
          };
          for (Value result : user->getResults()) derive(result);
          // A loop or branch passes it on: through its results, its region arguments (held
          // by the op itself, already counted) and, for a yield, the parent's results.
          if (user->hasTrait<OpTrait::IsTerminator>())
            if (Operation *parent = user->getParentOp(); parent && parent != func.getOperation())
              for (Value result : parent->getResults()) derive(result);
          for (Region &region : user->getRegions())
            for (Block &block : region)
              for (BlockArgument arg : block.getArguments()) derive(arg);
        }
      }
      buffers.push_back(life);
    });
    if (buffers.empty()) return;

    // First fit, in program order: the lowest offset that no buffer alive at the same time
    // overlaps.
    int64_t total = 0;
    for (size_t i = 0; i < buffers.size(); ++i) {
      Lifetime &b = buffers[i];
      bool moved = true;
      while (moved) {
        moved = false;
        for (size_t j = 0; j < i; ++j) {
          const Lifetime &p = buffers[j];
          bool together = p.first <= b.last && b.first <= p.last;
          bool overlap = p.offset < b.offset + b.bytes && b.offset < p.offset + p.bytes;
          if (together && overlap) {
            b.offset = p.offset + p.bytes;
            moved = true;
          }
        }
      }
      total = std::max(total, b.offset + b.bytes);
      gpu::setBufferOffset(b.alloc, b.offset);
    }
    gpu::setBufferBytes(func, total);
  }
};

}  // namespace

}  // namespace tle::cuda
