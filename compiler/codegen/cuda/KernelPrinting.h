// The KernelPrinter class, shared by KernelPrinter.cpp (the kernel, its straight-line ops)
// and StructuredOps.cpp (loops, branches, reductions and scans, whose regions it prints).
#pragma once

#include "codegen/common/StatementPrinter.h"
#include "codegen/cuda/CudaSpelling.h"
#include "codegen/cuda/KernelPrinter.h"
#include "ir/Dialect.h"
#include "ir/GpuDialect.h"
#include "ir/KernelSettings.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"

#include <set>
#include <sstream>

namespace tle::cuda {

namespace func = mlir::func;
namespace scf = mlir::scf;
using mlir::Block;
using mlir::Operation;
using mlir::StringRef;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;

class KernelPrinter : codegen::StatementPrinter {
 public:
  KernelPrinter(func::FuncOp f, const CudaOptions &options)
      : StatementPrinter(reservedWords(), /*indent=*/1),
        f_(f), options_(options), spelling_(f.getSymName().str() + "_layouts"), plan_(gpu::sharedMemoryPlan(f)) {}
  void print(PrintedKernel &out);

 private:
  // ---- the shared-memory plan's regions ----
  int64_t bufferBytes() const { return plan_.getBufferBytes(); }
  std::string scratchBytes() const;
  std::string stagingOffset() const { return "tle::round_up16(" + scratchRegionBytes() + ")"; }
  std::string stagingBytes() const;
  // A warp-specialized kernel gives each partition a scratch and a staging of its own.
  std::string scratchRegionBytes() const;
  std::string stagingRegionBytes() const;
  std::string stagingArg() const;
  std::string stagingHalfArg() const;
  std::string slotsOffset() const;

  std::string sharedMemoryPreamble() const;

  // The kernel's dynamic shared bytes, a constant expression valid after the kernel.
  std::string sharedBytes() const;

  // The scratch region (for a library call that needs `bytesExpression` of it).
  std::string useScratch(const std::string &bytesExpression);
  void useStaging(const std::string &bytesExpression);

  // ---- names ----
  std::string expr(Value v) override;
  std::string type(Type t) { return spelling_.type(t); }
  std::string variableType(Value v) override { return type(v.getType()); }

  // ---- output ----

  void sourceComment(Operation *op);

  // `const T name = expression;`, naming the op's single result.
  void define(Operation *op, const std::string &expression, StringRef fallback = "v");

  // `const auto`, `const float`, or `float *const` (a constant pointer, not a pointer to const).
  std::string constDeclaration(Type t);

  // Names the two parts of a pair-valued call: `first` and `second` of `both`.
  void bindPair(const std::string &both, Value first, StringRef firstName, Value second, StringRef secondName);

  // ---- warp specialization ----
  // The threads running the code being printed, as the device library's tle::Group ("" in a
  // kernel without partitions: the whole block).
  std::string group() const;
  std::string groupBarrier() const { return ws_ ? group() + ".sync()" : "__syncthreads()"; }
  // The join at the end of tle_gpu.warp_specialize: every partition's threads.
  bool issuesSlotCopies(unsigned partition) const;
  std::string joinGroup() const;
  void printWarpSpecializedBody(Block &entry);
  void printWorkers();

  // ---- ops ----
  void block(Block &b) override;
  void operation(Operation *op);
  void printOperation(Operation *op);
  void printMemoryOperation(Operation *op);
  void printOperandOperation(Operation *op);
  void printRearrangement(Operation *op);
  void printClusterOperation(Operation *op);
  void printDistributedOperation(Operation *op);
  void printBufferOperation(Operation *op);
  void printPipeOperation(Operation *op);
  void printDebugOperation(Operation *op);
  void printTmaOperation(Operation *op);
  // `v` (launcher-computable: tle-plan-tma-copies) as a C++ expression of the launcher's parameters.
  std::string launcherExpression(Value v);
  // The same as a program for tle/module.h.
  void launcherProgram(Value v, std::vector<HostStep> &program);

  // ---- operand rings ----

  // This iteration's slot of `ring`, or the one the last iteration read (`previous`), in
  // the ring loop around `at`.
  // The slot of `ring` that the iteration `behind` iterations before `at`'s reads (0: its own).
  std::string slotOf(Value ring, Operation *at, int behind = 0);
  // The index of that slot (0 .. slots - 1).
  std::string slotIndexOf(Operation *at, int behind);

  std::string masking(Operation *op) { return gpu::maskPerElement(op) ? ", tle::Masking::element" : ""; }

  // ---- reductions and scans ----

  // The operands of a reduce or a scan: one tile, or two zipped into a tile of pairs.
  struct CombinedInput {
    std::vector<std::string> elementTypes;
    std::string input, element;  // the argument and its element type
  };
  CombinedInput combinedInput(ValueRange srcs, const std::string &what);

  // Defines the op's results from `call`: the value itself, or the halves of a pair.
  void defineCombined(Operation *op, const std::string &call, const std::string &base);
  void scan(ir::ScanOp s);
  void reduce(ir::ReduceOp r);
  std::string combineLambda(Block &body, const std::vector<std::string> &elementTypes);

  // ---- control flow ----

  // A loop with operand rings counts its slot, one per iteration.
  void beforeLoop(scf::ForOp f) override;
  void endOfIteration(scf::ForOp f) override;
  void elementwise(Operation *op);
  void atomic(Operation *op);
  void rawCall(ir::RawCallOp r);

  func::FuncOp f_;
  const CudaOptions &options_;
  TileSpelling spelling_;
  gpu::SharedMemoryPlanAttr plan_;
  unsigned lastLine_ = 0;
  unsigned threadsPerBlock_ = 128;
  // Per partition (one in a kernel without them): the scratch sizes its calls need, and its
  // staging sizes.
  std::vector<std::vector<std::string>> scratch_;
  std::vector<std::vector<std::string>> staging_;
  llvm::DenseMap<Value, std::pair<std::string, std::string>> rings_;  // ring -> (its slots, slot bytes)
  llvm::DenseMap<Operation *, std::string> slotVars_;                  // ring loop -> its slot variable
  llvm::DenseMap<Value, std::pair<std::string, std::string>> tmaBarriers_;  // barriers -> (their pointer, the phase bits)
  std::vector<TensorMapParam> tensorMaps_;
  bool usesAtomics_ = false;
  bool usesClusters_ = false;
  bool cooperative_ = false;
  bool usesSignals_ = false;
  bool deviceBarrier_ = false;
  bool network_ = false;  // an inter_node signal: the launcher lets its ranks span nodes
  std::string dist_;  // the kernel's tleDistDevice parameter, when it takes one
  mutable gpu::WarpSpecializeOp ws_;  // the kernel's, if any (mutable: MLIR op accessors are not const)
  unsigned partition_ = 0;    // the partition being printed (0: the default one)
  bool usesPipes_ = false;
  int submeshBarriers_ = 0;  // sub-mesh barriers printed so far: each has its own counters
  std::vector<std::pair<std::string, std::string>> rawFunctions_;
};

}  // namespace tle::cuda
