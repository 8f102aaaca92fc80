// The kernel's dynamic shared memory, planned in one place (SharedMemoryPlanAttr gives the
// order of its regions):
//   - tle.gpu buffers: each shared-memory `tle.alloc` gets a byte offset (tle_gpu.offset).
//     Buffers whose lifetimes do not overlap share bytes. A buffer lives from its alloc to
//     the last use of anything derived from it that can address it: pointers from
//     `local_ptr`, what pointer arithmetic, selects, loops and branches make of them (a
//     pointer carried through a loop keeps the buffer alive for the whole loop and after it).
//     Data loaded through them does not count. Lifetimes are intervals of the function
//     body's top-level ops: a use nested in a loop or branch counts as a use by the op that
//     holds it there (conservative for two buffers of one loop body; they never share). A
//     buffer given to tle.remote lives to the end: other blocks of the cluster reach it.
//     tle-insert-barriers orders the reuse: it sees buffers that share bytes as one. A buffer
//     whose dots read it in place (tle_gpu.operand_buffer) starts at a multiple of 1024
//     bytes, wgmma's swizzle atom.
//   - the staging of asynchronous loads (tle_gpu.async_load), after the buffers, each its
//     own bytes for the whole kernel.
//   - scratch: one region after the buffers that every library call needing scratch shares
//     (its size is the device library's to compute); TLE-Raw calls stage their block
//     arguments in it, one 16-byte-aligned region each (tle_gpu.arg_offsets). Where no call
//     that needs it runs while operand slots are in use (scratchOutsideRings), it starts
//     where the slots do instead and shares their bytes.
//   - dot-operand staging after the scratch, when a tle_gpu.stage_operand(s) needs it.
//   - operand slots, 1024-byte aligned: each operand ring gets an offset (its `offset`). A
//     loop's rings follow those of the loops around it that have rings too; loops side by
//     side (the two halves of causal attention) share theirs: the first drains its copies
//     after its last iteration, and the second's first copies follow a barrier. Resident
//     rings (one slot: a loop-invariant operand) come first and share with nothing.
//   - the mbarriers of TMA copies (tle_gpu.tma_barriers, 8 bytes a slot) are buffers of the
//     whole kernel, after the others.
#include "transforms/cuda/Passes.h"

#include "ir/KernelSettings.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace tle::cuda {

#define GEN_PASS_DEF_PLANSHAREDMEMORY
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

constexpr int64_t kAlignment = 16;

// A tile's bytes, rounded up to 16.
int64_t alignedBytes(RankedTensorType tile) { return ir::alignTo(ir::tileBytes(tile), kAlignment); }

// Buffers and pointers can reach a buffer's bytes; the data loaded through them cannot.
bool canAddress(Value v) {
  Type t = v.getType();
  if (auto tensor = dyn_cast<RankedTensorType>(t)) t = tensor.getElementType();
  return isa<ir::BufferType, ir::PointerType, gpu::OperandRingType>(t);
}

struct Lifetime {
  ir::AllocOp alloc;
  int64_t bytes = 0;
  int64_t first = 0, last = 0;  // positions in the function body
  int64_t offset = 0;
  int64_t alignment = kAlignment;
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

    std::vector<Lifetime> buffers;  // in program order
    func.walk([&](ir::AllocOp alloc) {
      auto buffer = cast<ir::BufferType>(alloc.getType());
      if (buffer.getSpace() != MemorySpace::Shared) return;
      Lifetime life{alloc, alignedBytes(buffer.getBlockType())};
      if (gpu::isOperandBuffer(alloc)) life.alignment = gpu::kOperandSlotAlignment;
      life.first = life.last = position.lookup(topLevel(alloc));
      // Everything derived from the buffer, and the last top-level op that uses any of it.
      llvm::SetVector<Value> derived;
      derived.insert(alloc.getResult());
      for (size_t i = 0; i < derived.size(); ++i) {
        for (OpOperand &use : derived[i].getUses()) {
          Operation *user = use.getOwner();
          // Made reachable by the other blocks of the cluster (tle.remote gives them the same
          // offset in their own memory): they may access it until the kernel ends.
          if (auto remote = dyn_cast<ir::RemoteOp>(user); remote && remote.getSpace() == "cluster")
            life.last = static_cast<int64_t>(top.getOperations().size());
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
    int64_t bufferBytes = placeBuffers(buffers);
    // Asynchronous loads' staging, after the buffers and never shared: a thread may still
    // read its part while others start their next copies.
    func.walk([&](gpu::AsyncLoadOp load) {
      auto ptrs = cast<RankedTensorType>(load.getPtrs().getType());
      Type element = cast<ir::PointerType>(ptrs.getElementType()).getPointeeType();
      int64_t offset = ir::alignTo(bufferBytes, kAlignment);
      load.setOffsetAttr(Builder(load).getI64IntegerAttr(offset));
      bufferBytes = offset + ir::tileBytes(RankedTensorType::get(ptrs.getShape(), element));
    });
    // TMA copies' barriers, 8 bytes a slot, for the whole kernel: their phases carry over
    // from one run of their loop to the next.
    func.walk([&](gpu::TmaBarriersOp barriers) {
      int64_t offset = ir::alignTo(bufferBytes, 8);
      barriers.setOffsetAttr(Builder(barriers).getI64IntegerAttr(offset));
      bufferBytes = offset + 8 * static_cast<int64_t>(barriers.getType().getSlots());
    });
    gpu::setBufferBytes(func, bufferBytes);
    int64_t slotBytes = placeRings(func);
    placeRawArguments(func);
    bool scratch = false;
    unsigned staging = 0;
    func.walk([&](Operation *op) {
      scratch = scratch || needsScratch(op);
      if (auto s = dyn_cast<gpu::StageOperandOp>(op)) staging = std::max(staging, s.getAlternate() ? 2u : 1u);
      if (isa<gpu::StageOperandsOp>(op)) staging = 2;
    });
    const bool operandBuffers = llvm::any_of(buffers, [](const Lifetime &b) { return b.alignment == gpu::kOperandSlotAlignment; });
    int64_t alignment = slotBytes > 0 || operandBuffers ? gpu::kOperandSlotAlignment
                                                        : ir::targetOf(func).memorySpace(MemorySpace::Shared)->alignmentBytes;
    const bool scratchInSlots = scratch && slotBytes > 0 && staging == 0 && scratchOutsideRings(func);
    gpu::setSharedMemoryPlan(func,
                             gpu::SharedMemoryPlanAttr::get(&getContext(), bufferBytes, scratch, staging, slotBytes, alignment, scratchInSlots));
  }

  // No op that needs the scratch runs while an operand ring's slots are in use: not in a ring
  // loop, nor between a loop's first ring (its prologue copies) and the loop's end, and no
  // ring is resident (copied once, read by several loops). The scratch can then share the
  // slots' bytes (tutorial 09's subtiled epilogue, 64 KiB of accumulator through shared
  // memory beside 192 KiB of slots); tle-insert-barriers puts a barrier after each ring loop.
  static bool scratchOutsideRings(func::FuncOp func) {
    if (gpu::warpSpecializeOf(func)) return false;
    bool ok = true;
    func.walk([&](gpu::OperandRingOp ring) {
      if (gpu::isResident(ring.getType())) ok = false;
    });
    auto usesScratch = [](Operation *holder) {
      bool found = false;
      holder->walk([&](Operation *op) {
        if (needsScratch(op)) found = true;
      });
      return found;
    };
    func.walk([&](scf::ForOp loop) {
      if (!ok || !gpu::ringSlots(loop)) return;
      if (usesScratch(loop)) ok = false;
      // From the loop's first ring to the op of that block that holds the loop.
      Operation *first = nullptr;
      loop.getBody()->walk([&](Operation *op) {
        for (Value v : op->getOperands()) {
          auto ring = v.getDefiningOp<gpu::OperandRingOp>();
          if (!ring) continue;
          if (!first || (ring->getBlock() == first->getBlock() && ring->isBeforeInBlock(first))) first = ring;
          else if (ring->getBlock() != first->getBlock()) ok = false;  // rings made in two places
        }
      });
      if (!first) return;
      Operation *holder = loop;
      while (holder && holder->getBlock() != first->getBlock()) holder = holder->getParentOp();
      if (!holder) return void(ok = false);
      for (Operation *op = first; op && op != holder; op = op->getNextNode())
        if (usesScratch(op)) ok = false;
    });
    return ok;
  }

  // First fit, in program order: the lowest offset that no buffer alive at the same time
  // overlaps. Returns the bytes they take together.
  static int64_t placeBuffers(std::vector<Lifetime> &buffers) {
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
            b.offset = ir::alignTo(p.offset + p.bytes, b.alignment);
            moved = true;
          }
        }
      }
      total = std::max(total, b.offset + b.bytes);
      gpu::setBufferOffset(b.alloc, b.offset);
    }
    return total;
  }

  // Offsets of the operand rings in the slot region; returns the region's bytes.
  static int64_t placeRings(func::FuncOp func) {
    // Each ring loop's rings, in the order they are made.
    llvm::MapVector<Operation *, SmallVector<gpu::OperandRingOp>> ringsOf;
    int64_t resident = 0;
    func.walk([&](gpu::OperandRingOp ring) {
      if (gpu::isResident(ring.getType())) {
        ring.setOffsetAttr(IntegerAttr::get(IntegerType::get(func.getContext(), 64), resident));
        resident += gpu::ringSlotBytes(ring.getType());
        return;
      }
      for (Operation *user : ring->getUsers()) {
        if (auto copy = dyn_cast<gpu::AsyncCopyOp>(user); copy && copy.getSlot()) continue;  // before the loop
        if (auto copy = dyn_cast<gpu::TmaCopyOp>(user); copy && copy.getSlot()) continue;
        if (auto loop = user->getParentOfType<scf::ForOp>(); loop && gpu::ringSlots(loop)) {
          ringsOf[loop].push_back(ring);
          return;
        }
      }
    });
    auto bytesOf = [&](Operation *loop) {
      int64_t bytes = 0;
      for (gpu::OperandRingOp ring : ringsOf.lookup(loop)) bytes += ring.getType().getSlots() * gpu::ringSlotBytes(ring.getType());
      return bytes;
    };
    int64_t total = resident;
    for (auto &[loop, rings] : ringsOf) {
      int64_t offset = resident;
      for (Operation *p = loop->getParentOp(); p; p = p->getParentOp())
        if (ringsOf.count(p)) offset += bytesOf(p);
      for (gpu::OperandRingOp ring : rings) {
        ring.setOffsetAttr(IntegerAttr::get(IntegerType::get(func.getContext(), 64), offset));
        offset += ring.getType().getSlots() * gpu::ringSlotBytes(ring.getType());
      }
      total = std::max(total, offset);
    }
    return total;
  }

  // Each block argument of a TLE-Raw call gets a 16-byte-aligned region of the scratch.
  static void placeRawArguments(func::FuncOp func) {
    func.walk([&](ir::RawCallOp call) {
      SmallVector<int64_t> offsets;
      int64_t total = 0;
      for (Value arg : call.getArgs())
        if (auto tensor = dyn_cast<RankedTensorType>(arg.getType())) {
          offsets.push_back(total);
          total += alignedBytes(tensor);
        }
      offsets.push_back(total);  // where the last region ends: the bytes they take
      if (total > 0) gpu::setArgumentOffsets(call, offsets);
    });
  }

  // Library calls that take a pointer to the shared scratch (layout conversions through
  // shared memory, reductions, scans, rearrangements, dot-operand staging, block-wide
  // results of scalar atomics and uniform scalar loads, TLE-Raw block arguments).
  static bool needsScratch(Operation *op) {
    // The printer's permute_in_registers and extract_tile_in_registers.
    if (gpu::rearrangesInRegisters(op)) return false;
    if (isa<gpu::ConvertLayoutOp, ir::TransOp, ir::ReshapeOp, ir::ScanOp, ir::ExclusiveCumsumOp, ir::JoinOp,
            ir::SplitOp, ir::GatherOp, ir::ExtractTileOp, ir::InsertTileOp, ir::SortOp, ir::HistogramOp, gpu::StageOperandOp,
            gpu::StageOperandsOp>(op))
      return true;
    if (isa<ir::AtomicRMWOp, ir::AtomicCASOp>(op)) return !isa<RankedTensorType>(op->getResult(0).getType());
    if (isa<ir::ReduceOp>(op)) return gpu::blockVote(op).empty();  // a vote needs no shared memory
    if (isa<ir::LoadOp>(op)) return gpu::uniformLoad(op);  // thread 0 shares what it read
    if (auto call = dyn_cast<ir::RawCallOp>(op))
      return llvm::any_of(call.getArgs(), [](Value v) { return isa<RankedTensorType>(v.getType()); });
    return false;
  }
};

}  // namespace

}  // namespace tle::cuda
