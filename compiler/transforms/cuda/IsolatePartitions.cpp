// Warp specialization: the partitions of tle_gpu.warp_specialize run side by side on warps of
// their own, so each worker region must compute everything it uses. The printed kernel sends
// the worker warps into their regions at its start (the default partition's warps run the
// rest of the kernel), which needs:
//   - every tle.alloc and tle.pipe_create at the top of the kernel (their storage is static);
//   - worker regions closed over the kernel's arguments, buffers and pipes only: the pure
//     ops a worker uses from outside (constants, index arithmetic) are cloned into it; it
//     runs again after CSE, which may merge a clone with its original;
//   - each worker placed at a multiple of its warp count after the default partition's warps
//     (layouts read the low bits of the warp index), at most 32 warps in all;
//   - each pipe's arrival counts: the threads of the partition that writes it and of those
//     that read it (one partition per writer, and per reader name).
// A warp_specialize inside a loop or branch, a second one, or a worker that uses a value it
// cannot recompute (a loaded tile, a loop result) is reported as not implemented.
#include "transforms/PassDiagnostics.h"
#include "transforms/cuda/Passes.h"

#include "ir/KernelSettings.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace tle::cuda {

#define GEN_PASS_DEF_ISOLATEPARTITIONS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// setmaxnreg counts are multiples of 8.
constexpr int64_t kRegisterGranule = 8;
constexpr int64_t kMinRegisters = 24;  // setmaxnreg's least

// Ops a worker may recompute for itself.
bool clonable(Operation *op) { return op->getNumRegions() == 0 && isMemoryEffectFree(op) && !isa<ir::PipeCreateOp>(op); }

// Values defined outside `region` (and outside the function's arguments, buffers and pipes)
// that ops in it use, in an order that defines operands before users.
LogicalResult cloneIntoRegion(Region &region) {
  llvm::SetVector<Value> outside;
  region.walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (!region.isAncestor(v.getParentRegion())) outside.insert(v);
  });
  // Close over the operands of what will be cloned.
  llvm::SetVector<Operation *> toClone;
  SmallVector<Value> work(outside.begin(), outside.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || isa<ir::AllocOp, ir::PipeCreateOp>(def)) continue;  // an argument, a buffer, a pipe
    if (!clonable(def)) {
      Operation *user = nullptr;
      for (Operation *u : v.getUsers())
        if (region.isAncestor(u->getParentRegion())) user = u;
      emitNotImplemented(user ? user : def) << "a worker partition of tle.gpu.warp_specialize uses a value it cannot "
                                               "compute itself (only the kernel's arguments, buffers, pipes and values "
                                               "computed without memory accesses cross into a worker)";
      return failure();
    }
    if (toClone.insert(def))
      for (Value operand : def->getOperands()) work.push_back(operand);
  }
  if (toClone.empty()) return success();
  // Clone in the function's order, so that operands come first.
  SmallVector<Operation *> ordered(toClone.begin(), toClone.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    if (a->getBlock() == b->getBlock()) return a->isBeforeInBlock(b);
    return a->getBlock()->getParentOp()->isAncestor(b);  // outer first
  });
  IRMapping map;
  OpBuilder builder(&region.front(), region.front().begin());
  for (Operation *op : ordered) builder.clone(*op, map);
  region.walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands())
      if (Value mapped = map.lookupOrNull(use.get())) use.set(mapped);
  });
  return success();
}

struct IsolatePartitionsPass : impl::IsolatePartitionsBase<IsolatePartitionsPass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    SmallVector<gpu::WarpSpecializeOp> all;
    f.walk([&](gpu::WarpSpecializeOp ws) { all.push_back(ws); });
    if (all.size() > 1) {
      emitNotImplemented(all[1]) << "a kernel with more than one tle.gpu.warp_specialize";
      return signalPassFailure();
    }
    if (!all.empty()) {
      gpu::WarpSpecializeOp ws = all.front();
      if (ws->getBlock() != &f.getBody().front()) {
        emitNotImplemented(ws) << "tle.gpu.warp_specialize inside a loop or a branch (its partitions start with the kernel)";
        return signalPassFailure();
      }
      hoistStorage(f);
      for (Region &worker : ws.getWorkerRegions())
        if (failed(cloneIntoRegion(worker))) return signalPassFailure();
      if (failed(place(ws))) return signalPassFailure();
      planRegisters(ws);
    }
    if (failed(countPipeThreads(f))) return signalPassFailure();
  }

  // Buffers and pipes to the kernel's top, in their order.
  static void hoistStorage(func::FuncOp f) {
    SmallVector<Operation *> storage;
    f.walk([&](Operation *op) {
      if (isa<ir::AllocOp, ir::PipeCreateOp>(op)) storage.push_back(op);
    });
    Block &entry = f.getBody().front();
    Operation *insertAt = nullptr;  // after the storage moved so far
    for (Operation *op : storage) {
      if (insertAt) op->moveAfter(insertAt);
      else op->moveBefore(&entry, entry.begin());
      insertAt = op;
    }
  }

  LogicalResult place(gpu::WarpSpecializeOp ws) {
    if (ws.getWorkerNumWarps().size() > gpu::kMaxWorkers) {
      emitUnsupported(ws) << "more than " << gpu::kMaxWorkers << " worker partitions (each needs a named barrier of its own)";
      return failure();
    }
    int32_t next = static_cast<int32_t>(ir::numWarps(ws));
    SmallVector<int32_t> first;
    for (int32_t warps : ws.getWorkerNumWarps()) {
      next = (next + warps - 1) / warps * warps;
      first.push_back(next);
      next += warps;
    }
    const TargetInfo &target = ir::targetOf(ws);
    const int32_t blockWarps = target.maxThreadsPerBlock() / target.threadsPerWarp();
    if (next > blockWarps) {
      emitUnsupported(ws) << "the partitions need " << next << " warps (" << ir::numWarps(ws)
                          << " default, the workers each at a multiple of their warp count), more than a block's "
                          << blockWarps;
      return failure();
    }
    gpu::setWorkerFirstWarps(ws, first);
    return success();
  }

  // worker_num_regs as setmaxnreg: the kernel is compiled for the most registers per thread
  // that let one block reside (per scheduler partition of the multiprocessor), and a worker that asks
  // for another count moves to it. Only whole warp groups can (4 warps at a multiple of 4),
  // only on sm_90a, and the increases must be paid by the decreases (the default partition
  // gives up what the workers' own do not), or the increasing warps would wait for registers
  // nobody frees: what cannot be honoured warns.
  void planRegisters(gpu::WarpSpecializeOp ws) {
    const TargetInfo &target = ir::targetOf(ws);
    auto counts = ws.getWorkerNumRegs();
    if (!target.has(Feature::RegisterReallocation)) {
      ws.emitWarning() << "worker_num_regs is not applied: " << target.name() << " has no setmaxnreg (sm_90a has)";
      return;
    }
    // Each scheduler partition holds its share of the registers and ceil(warps / partitions)
    // of the block's warps.
    const int64_t warps = gpu::blockWarps(ws->getParentOfType<func::FuncOp>());
    const int64_t threads = warps * target.threadsPerWarp();
    const int64_t partitions = target.processorPartitions();
    const int64_t warpsPerPartition = (warps + partitions - 1) / partitions;
    const int64_t share = target.registersPerProcessor() / partitions / (warpsPerPartition * target.threadsPerWarp());
    const int64_t most = target.registersPerThread() / kRegisterGranule * kRegisterGranule;
    const int32_t kernelRegs = static_cast<int32_t>(std::min<int64_t>(most, share / kRegisterGranule * kRegisterGranule));
    SmallVector<int32_t> plan{kernelRegs, 0};
    int64_t balance = 0;  // registers the decreases free minus what the increases take
    for (auto [i, warps] : llvm::enumerate(ws.getWorkerNumWarps())) {
      int32_t regs = counts[i];
      if (warps % 4 != 0) {
        ws.emitWarning() << "worker_num_regs[" << i << "] = " << regs << " is not applied: setmaxnreg acts on whole warp groups "
                         << "(4 warps) and worker " << i << " has " << warps;
        regs = 0;
      } else if (regs == kernelRegs) {
        regs = 0;
      }
      if (regs) balance += int64_t(warps) * target.threadsPerWarp() * (kernelRegs - regs);
      plan.push_back(regs);
    }
    if (balance < 0) {
      // The default partition pays for the increases, as far as it can (it keeps at least
      // kMinRegisters): it moves down by what they take, per thread, rounded up to 8.
      const int64_t defaultWarps = ir::numWarps(ws);
      const int64_t defaultThreads = defaultWarps * target.threadsPerWarp();
      const int64_t perThread = (-balance + defaultThreads - 1) / defaultThreads;
      const int64_t defaultRegs = kernelRegs - (perThread + kRegisterGranule - 1) / kRegisterGranule * kRegisterGranule;
      if (defaultWarps % 4 != 0 || defaultRegs < kMinRegisters) {
        ws.emitWarning() << "worker_num_regs is not applied: the workers ask for more registers than the kernel's "
                         << kernelRegs << " per thread for " << threads << " threads, and the default partition ("
                         << defaultWarps << " warps) cannot give them up";
        return;
      }
      plan[1] = static_cast<int32_t>(defaultRegs);
    }
    if (llvm::any_of(ArrayRef(plan).drop_front(), [](int32_t r) { return r != 0; })) gpu::setRegisterPlan(ws, plan);
  }

  // Each pipe's writer threads and reader threads (the partitions that commit and release).
  LogicalResult countPipeThreads(func::FuncOp f) {
    LogicalResult result = success();
    f.walk([&](ir::PipeCreateOp pipe) {
      std::optional<unsigned> writer;
      llvm::MapVector<StringRef, unsigned> readers;
      for (Operation *user : pipe->getUsers()) {
        unsigned partition = gpu::partitionOf(user);
        if (isa<ir::PipeCommitOp, ir::PipeCloseOp, ir::PipeAcquireOp>(user)) {
          if (writer && *writer != partition) {
            emitNotImplemented(user) << "a pipe written from two partitions of tle.gpu.warp_specialize";
            result = failure();
          }
          writer = partition;
        } else if (isa<ir::PipeReleaseOp, ir::PipeWaitOp>(user)) {
          StringRef name = user->getAttrOfType<StringAttr>("reader").getValue();
          auto [it, inserted] = readers.insert({name, partition});
          if (!inserted && it->second != partition) {
            emitNotImplemented(user) << "one reader of a pipe in two partitions of tle.gpu.warp_specialize";
            result = failure();
          }
        }
      }
      Operation *kernel = f;
      int32_t writerThreads = static_cast<int32_t>(gpu::partitionThreads(kernel, writer.value_or(0)));
      int32_t readerThreads = 0;
      for (auto &[name, partition] : readers) readerThreads += static_cast<int32_t>(gpu::partitionThreads(kernel, partition));
      gpu::setPipeThreads(pipe, writerThreads, readerThreads > 0 ? readerThreads : 1);
    });
    return result;
  }
};

}  // namespace

}  // namespace tle::cuda
