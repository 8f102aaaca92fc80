#include "transforms/ascend/Passes.h"

#include "ir/Dialect.h"
#include "ir/DsaDialect.h"
#include "ir/KernelSettings.h"

#include "mlir/IR/Builders.h"

#include <array>
#include <limits>

namespace tle::ascend {

#define GEN_PASS_DEF_INSERTPIPESYNC
#include "transforms/ascend/Passes.h.inc"

using namespace mlir;

namespace {

enum Pipe { S, V, M, MTE1, MTE2, MTE3, FIX, kPipes };
constexpr std::array<const char *, kPipes> kPipeNames = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};

// One read or write of a memory by a pipe. Global memory is one range: any two accesses to
// it may alias.
struct Access {
  Pipe pipe;
  bool global;
  MemorySpace space;
  int64_t begin, end;
  bool write;
  int64_t seq;  // the pipe's count of issued operations when it made the access
};

bool conflict(const Access &a, const Access &b) {
  if (!a.write && !b.write) return false;
  if (a.global != b.global) return false;
  if (a.global) return true;
  return a.space == b.space && a.begin < b.end && b.begin < a.end;
}

// The allocation a buffer value comes from, and its byte range.
std::optional<Access> bufferAccess(Value buffer, Pipe pipe, bool write) {
  Operation *def = buffer.getDefiningOp();
  while (auto view = dyn_cast_or_null<dsa::SubviewOp>(def)) def = view.getSrc().getDefiningOp();
  auto type = cast<ir::BufferType>(buffer.getType());
  Access a{pipe, false, type.getSpace(), 0, std::numeric_limits<int64_t>::max(), write, 0};
  if (auto alloc = dyn_cast_or_null<ir::AllocOp>(def)) {
    if (auto offset = dsa::bufferOffset(alloc)) {
      a.begin = *offset;
      a.end = *offset + ir::tileBytes(alloc.getType().getBlockType());
    }
  }
  return a;
}

// What `op` touches, on which pipe; empty for ops that touch no memory.
SmallVector<Access> accessesOf(Operation *op) {
  SmallVector<Access> out;
  auto global = [](Pipe pipe, bool write) { return Access{pipe, true, MemorySpace::Global, 0, 0, write, 0}; };
  if (auto copy = dyn_cast<dsa::CopyInOp>(op)) {
    out.push_back(global(MTE2, false));
    out.push_back(*bufferAccess(copy.getDst(), MTE2, true));
  } else if (auto copy = dyn_cast<dsa::CopyOutOp>(op)) {
    // UB leaves through MTE3; the cube's results leave L0C through the fixpipe.
    Pipe pipe = copy.getSrc().getType().getSpace() == MemorySpace::L0C ? FIX : MTE3;
    out.push_back(*bufferAccess(copy.getSrc(), pipe, false));
    out.push_back(global(pipe, true));
  } else if (auto copy = dyn_cast<dsa::CopyOp>(op); copy && isa<ir::BufferType>(copy.getSrc().getType()) &&
                                                    isa<ir::BufferType>(copy.getDst().getType())) {
    out.push_back(*bufferAccess(copy.getSrc(), MTE1, false));  // L1 -> L0A / L0B
    out.push_back(*bufferAccess(copy.getDst(), MTE1, true));
  } else if (auto mm = dyn_cast<dsa::MatmulOp>(op)) {
    out.push_back(*bufferAccess(mm.getA(), M, false));
    out.push_back(*bufferAccess(mm.getB(), M, false));
    if (!mm.getInit()) out.push_back(*bufferAccess(mm.getC(), M, false));  // accumulates
    out.push_back(*bufferAccess(mm.getC(), M, true));
  } else if (auto vec = dyn_cast<dsa::VectorOp>(op)) {
    // CreateVecIndex writes the first 32-byte block with scalar stores, then syncs S -> V
    // itself and fills the rest on the vector unit.
    if (vec.getKind() == "index") out.push_back(*bufferAccess(vec.getOut(), S, true));
    for (Value in : vec.getInputs())
      if (isa<ir::BufferType>(in.getType())) out.push_back(*bufferAccess(in, V, false));
    if (vec.getScratch()) out.push_back(*bufferAccess(vec.getScratch(), V, true));
    out.push_back(*bufferAccess(vec.getOut(), V, true));
  } else if (auto read = dyn_cast<dsa::ReadScalarOp>(op)) {
    out.push_back(*bufferAccess(read.getBuffer(), S, false));
  }
  return out;
}

bool touchesMemory(Operation *op) {
  bool any = false;
  op->walk([&](Operation *inner) {
    if (!accessesOf(inner).empty()) any = true;
  });
  return any;
}

// What the pipes of one straight-line stretch of code have done and know of each other,
// as vector clocks: known[q][p] is how many of p's operations q has seen complete.
struct PipeState {
  std::array<int64_t, kPipes> issued{};
  std::array<std::array<int64_t, kPipes>, kPipes> known{};
  std::vector<Access> history;

  bool empty() const { return history.empty(); }
};

struct InsertPipeSyncPass : impl::InsertPipeSyncBase<InsertPipeSyncPass> {
  void barrierAll(OpBuilder &b, Location loc) { b.create<dsa::PipeBarrierOp>(loc, b.getStringAttr("ALL")); }

  // Orders one op's accesses after the conflicting earlier ones. An op whose accesses span
  // pipes (CreateVecIndex: the scalar unit writes the first block, then the vector unit)
  // is ordered as one step per pipe, in the order its accesses list them.
  void order(Operation *op, PipeState &state) {
    SmallVector<Access> accesses = accessesOf(op);
    while (!accesses.empty()) {
      Pipe q = accesses.front().pipe;
      SmallVector<Access> step;
      llvm::erase_if(accesses, [&](const Access &a) {
        if (a.pipe != q) return false;
        step.push_back(a);
        return true;
      });
      orderStep(op, step, q, state);
      // CreateVecIndex orders its own vector part after its scalar part.
      if (auto vec = dyn_cast<dsa::VectorOp>(op); vec && vec.getKind() == "index" && q == S) state.known[V][S] = state.issued[S];
    }
  }

  void orderStep(Operation *op, ArrayRef<Access> accesses, Pipe q, PipeState &state) {
    OpBuilder b(op);
    for (Access a : accesses) {
      for (const Access &e : state.history) {
        if (!conflict(a, e) || state.known[q][e.pipe] >= e.seq) continue;
        if (e.pipe == q) {
          // In-order issue keeps same-pipe writes after reads and writes; a read of what the
          // pipe itself wrote needs its barrier.
          if (!e.write || a.write || q == S) continue;
          b.create<dsa::PipeBarrierOp>(op->getLoc(), b.getStringAttr(kPipeNames[q]));
          state.known[q][q] = state.issued[q];
          continue;
        }
        Pipe p = e.pipe;
        b.create<dsa::SetFlagOp>(op->getLoc(), b.getStringAttr(kPipeNames[p]), b.getStringAttr(kPipeNames[q]), 0);
        b.create<dsa::WaitFlagOp>(op->getLoc(), b.getStringAttr(kPipeNames[p]), b.getStringAttr(kPipeNames[q]), 0);
        std::array<int64_t, kPipes> token = state.known[p];
        token[p] = state.issued[p];
        for (int x = 0; x < kPipes; ++x) state.known[q][x] = std::max(state.known[q][x], token[x]);
      }
    }
    int64_t seq = ++state.issued[q];
    if (q == S) state.known[S][S] = seq;  // the scalar unit runs its own accesses in order
    for (Access a : accesses) {
      a.seq = seq;
      state.history.push_back(a);
    }
  }

  void runOnBlock(Block &block) {
    PipeState state;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (op.getNumRegions() > 0 && touchesMemory(&op)) {
        // Nothing crosses into or out of a loop body or a branch unordered.
        OpBuilder b(&op);
        if (!state.empty()) barrierAll(b, op.getLoc());
        state = PipeState();
        for (Region &region : op.getRegions())
          for (Block &inner : region) runOnBlock(inner);
        continue;
      }
      if (isa<dsa::RawCallOp>(op)) {
        // Native code: which pipes it uses and how it orders them is its own business; every
        // pipe is drained on the way in and out.
        OpBuilder b(&op);
        if (!state.empty()) barrierAll(b, op.getLoc());
        b.setInsertionPointAfter(&op);
        barrierAll(b, op.getLoc());
        state = PipeState();
        continue;
      }
      if (op.hasTrait<OpTrait::IsTerminator>() && !state.empty() && block.getParentOp() != getOperation().getOperation()) {
        OpBuilder b(&op);
        barrierAll(b, op.getLoc());
        continue;
      }
      order(&op, state);
    }
  }

  void runOnOperation() override {
    // Every loop body drains the pipes, so no iteration overlaps the next one.
    // A loop's own num_stages, or the kernel's --num-stages where it was given (at the loops
    // that copy from global memory).
    getOperation().walk([](scf::ForOp loop) {
      constexpr llvm::StringLiteral kNotPipelined =
          " is not honoured on Ascend yet: each iteration's copies and vector work finish before the next starts";
      if (auto stages = ir::ownNumStages(loop)) {
        if (*stages > 1) loop.emitWarning() << "tl.range(num_stages=" << *stages << ")" << kNotPipelined;
        return;
      }
      const unsigned stages = ir::numStages(loop);
      if (stages <= 1 || !ir::numStagesAsked(loop)) return;
      bool copies = false;
      loop.getBody()->walk([&](dsa::CopyInOp) { copies = true; });
      if (copies) loop.emitWarning() << "num_stages=" << stages << " (--num-stages)" << kNotPipelined;
    });
    for (Block &block : getOperation().getBody()) runOnBlock(block);
  }
};

}  // namespace

}  // namespace tle::ascend
