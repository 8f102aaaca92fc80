// One lowered kernel as a CUDA __global__ function: each op becomes one statement that calls
// the device library; the shared-memory plan, the asynchronous copies, the staging and the
// barriers are ops and attributes the CUDA passes made. Names come from the .tle source.
#include "codegen/cuda/KernelPrinting.h"

#include "codegen/common/Naming.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

namespace tle::cuda {

using namespace mlir;

void KernelPrinter::print(PrintedKernel &out) {
  if (!plan_) throw Unsupported{"a kernel without a shared-memory plan (tlec bug: tle-plan-shared-memory did not run)"};
  out.name = f_.getSymName().str();
  ws_ = gpu::warpSpecializeOf(f_);
  const size_t partitions = ws_ ? ws_.getWorkerRegions().size() + 1 : 1;
  scratch_.assign(partitions, {});
  staging_.assign(partitions, {});
  out.threadsPerBlock = gpu::blockWarps(f_) * ir::targetOf(f_).threadsPerWarp();
  threadsPerBlock_ = out.threadsPerBlock;
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
  // Kernels that reach other GPUs take the context's device view as a last parameter.
  bool distributed = false;
  f_.walk([&](Operation *op) {
    if (isa<ir::RankOp, ir::NumRanksOp, ir::SymmAtOp>(op)) distributed = true;
    if (auto r = dyn_cast<ir::RemoteOp>(op); r && r.getSpace() == "device") distributed = true;
    if (auto n = dyn_cast<ir::NotifyOp>(op); n && n.getScope() != "gpu") distributed = true;
    if (auto b = dyn_cast<ir::DistributedBarrierOp>(op); b && b.acrossGpus()) distributed = true;
  });
  if (distributed) dist_ = claim("tle_dist");
  if (ws_) printWarpSpecializedBody(f_.getBody().front());
  else block(f_.getBody().front());
  if (distributed) params += (params.empty() ? "" : ", ") + std::string("const tleDistDevice ") + dist_;
  for (const TensorMapParam &m : tensorMaps_) params += (params.empty() ? "" : ", ") + std::string("const __grid_constant__ tle::TensorMap ") + m.name;

  std::ostringstream code;
  code << spelling_.namespaceBlock();
  out.clusterSize = ir::clusterSize(f_);
  out.nonPortableCluster = static_cast<int>(out.clusterSize) > ir::targetOf(f_).portableClusterBlocks() && out.clusterSize > 1;
  std::string clusterDims = out.clusterSize > 1 ? "__cluster_dims__(" + std::to_string(out.clusterSize) + ", 1, 1) " : "";
  // setmaxnreg needs the kernel's registers fixed (nvcc takes __maxnreg__ or
  // __launch_bounds__, not both).
  llvm::SmallVector<int32_t> registers = ws_ ? gpu::registerPlan(ws_) : llvm::SmallVector<int32_t>{};
  std::optional<int64_t> blocks = gpu::minBlocksPerProcessor(f_);
  std::string minBlocks = blocks ? ", " + std::to_string(*blocks) : "";
  std::string bounds = registers.empty() ? "__launch_bounds__(" + std::to_string(out.threadsPerBlock) + minBlocks + ") "
                                         : "__maxnreg__(" + std::to_string(registers[0]) + ") ";
  code << "extern \"C\" __global__ void " << bounds << clusterDims << out.name << "(" << params << ") {\n";
  code << sharedMemoryPreamble();
  for (int id = 0; id < submeshBarriers_; ++id) code << "  tle::submesh_barrier_init<" << id << ">();\n";
  code << body_.str() << "}\n";
  out.code = code.str();
  out.sharedBytesExpression = sharedBytes();
  if (const MemorySpaceInfo *shared = ir::targetOf(f_).memorySpace(MemorySpace::Shared)) out.sharedCapacity = shared->capacityBytes;
  out.usesAtomics = usesAtomics_;
  out.usesClusters = usesClusters_ || out.clusterSize > 1;
  out.cooperative = cooperative_;
  out.usesSignals = usesSignals_;
  out.usesPipes = usesPipes_;
  out.distributed = distributed;
  out.deviceBarrier = deviceBarrier_;
  out.meshRanks = ir::meshRanks(f_);
  out.meshNodes = ir::meshNodes(f_);
  out.network = network_;
  out.dispatch = ir::dispatchSymbol(f_);
  out.variant = ir::variantIndex(f_);
  out.rawFunctions = rawFunctions_;
  out.tensorMaps = tensorMaps_;
}

namespace {
// The largest of the sizes (a constant expression over the device library's functions).
std::string largest(const std::vector<std::string> &sizes) {
  std::string s = "0";
  for (const std::string &e : sizes) s = "tle::max_bytes(" + s + ", " + e + ")";
  return s;
}
// Regions side by side, each rounded up to 16 bytes: the first `count` of them together.
std::string sideBySide(const std::vector<std::vector<std::string>> &regions, size_t count) {
  std::string s;
  for (size_t p = 0; p < count; ++p) s += (s.empty() ? "" : " + ") + std::string("tle::round_up16(") + largest(regions[p]) + ")";
  return s.empty() ? "0" : s;
}
}  // namespace

std::string KernelPrinter::scratchBytes() const { return largest(scratch_[0]); }

std::string KernelPrinter::scratchRegionBytes() const {
  return ws_ ? sideBySide(scratch_, scratch_.size()) : scratchBytes();
}

std::string KernelPrinter::stagingRegionBytes() const {
  return ws_ ? sideBySide(staging_, staging_.size()) : stagingBytes();
}

std::string KernelPrinter::stagingArg() const {
  return ws_ ? "(tle_staging + tle_staging_at[" + std::to_string(partition_) + "])" : "tle_staging";
}

std::string KernelPrinter::stagingHalfArg() const {
  return ws_ ? "tle_staging_halves[" + std::to_string(partition_) + "]" : "tle_staging_half";
}

std::string KernelPrinter::stagingBytes() const { return largest(staging_[0]); }

std::string KernelPrinter::slotsOffset() const {
  // A scratch that shares the slots' bytes takes none before them.
  return "tle::round_up1024(" + (bufferBytes() > 0 ? std::to_string(bufferBytes()) + " + " : "") +
         (plan_.getScratchInSlots() ? "0" : stagingOffset()) + " + tle::round_up16(" + stagingRegionBytes() + "))";
}

std::string KernelPrinter::sharedMemoryPreamble() const {
  std::ostringstream o;
  if (bufferBytes() > 0 || plan_.getScratch() || plan_.getSlotBytes() > 0)
    // Declared alike in every kernel of the file (nvcc rejects two alignments for one name):
    // the largest any plan asks for.
    o << "  extern __shared__ __align__(" << std::max<int64_t>(plan_.getAlignment(), gpu::kOperandSlotAlignment)
      << ") unsigned char tle_smem[];\n";
  // A warp-specialized kernel's partitions each have their own scratch and staging, side by
  // side, each as large as that partition's calls need.
  auto offsets = [&](const char *name, const std::vector<std::vector<std::string>> &regions) {
    o << "  constexpr int " << name << "[] = {";
    for (size_t p = 0; p < regions.size(); ++p) o << (p ? ", " : "") << sideBySide(regions, p);
    o << "};  // each partition's start\n";
  };
  if (ws_ && plan_.getScratch()) offsets("tle_scratch_at", scratch_);
  if (plan_.getStaging() > 0) {
    o << "  // Dot operands are staged in two alternating halves after the scratch.\n";
    o << "  unsigned char* const tle_staging = tle_smem + " << bufferBytes() << " + " << stagingOffset() << ";\n";
    if (ws_) offsets("tle_staging_at", staging_);
    if (plan_.getStaging() == 2) {
      if (ws_) {
        o << "  constexpr int tle_staging_halves[] = {";
        for (size_t p = 0; p < staging_.size(); ++p) o << (p ? ", " : "") << largest(staging_[p]) << " / 2";
        o << "};  // each partition's halves are this far apart\n";
      } else {
        o << "  constexpr int tle_staging_half = " << stagingBytes() << " / 2;  // the halves are this far apart\n";
      }
      o << "  int tle_stage = 0;\n";
    }
  }
  if (plan_.getSlotBytes() > 0) {
    o << "  // Operands copied asynchronously: a ring of slots per operand, after the staging.\n";
    o << "  unsigned char* const tle_async = tle_smem + " << slotsOffset() << ";\n";
  }
  return o.str();
}

std::string KernelPrinter::sharedBytes() const {
  if (plan_.getScratchInSlots())
    return slotsOffset() + " + tle::max_bytes(" + std::to_string(plan_.getSlotBytes()) + ", " + scratchBytes() + ")";
  if (plan_.getSlotBytes() > 0) return slotsOffset() + " + " + std::to_string(plan_.getSlotBytes());
  std::string bytes = plan_.getStaging() > 0 ? stagingOffset() + " + " + stagingRegionBytes() : scratchRegionBytes();
  return bufferBytes() > 0 ? std::to_string(bufferBytes()) + " + " + bytes : bytes;
}

std::string KernelPrinter::useScratch(const std::string &bytesExpression) {
  if (!plan_.getScratch()) throw Unsupported{"scratch the shared-memory plan has none of (tlec bug)"};
  std::vector<std::string> &sizes = scratch_[partition_];
  if (std::find(sizes.begin(), sizes.end(), bytesExpression) == sizes.end()) sizes.push_back(bytesExpression);
  if (plan_.getScratchInSlots()) return "tle_async";  // the slots' bytes, free while it is used
  std::string base = bufferBytes() > 0 ? "tle_smem + " + std::to_string(bufferBytes()) : "tle_smem";
  if (ws_)  // the partition's own scratch, and its threads
    return "tle::Scratch(" + base + " + tle_scratch_at[" + std::to_string(partition_) + "], " + group() + ")";
  return bufferBytes() > 0 ? "(" + base + ")" : base;
}

void KernelPrinter::useStaging(const std::string &bytesExpression) {
  std::vector<std::string> &sizes = staging_[partition_];
  if (std::find(sizes.begin(), sizes.end(), bytesExpression) == sizes.end()) sizes.push_back(bytesExpression);
}

std::string KernelPrinter::expr(Value v) {
  auto it = names_.find(v);
  if (it == names_.end()) throw Unsupported{"a value used before the printer defined it"};
  return it->second;
}

void KernelPrinter::sourceComment(Operation *op) {
  auto loc = fileLocation(op->getLoc());
  if (!loc || loc->getLine() == lastLine_) return;
  lastLine_ = loc->getLine();
  std::string text = options_.sourceLine ? options_.sourceLine(loc->getFilename().str(), loc->getLine()) : "";
  if (options_.lineDirectives) body_ << "#line " << loc->getLine() << " \"" << loc->getFilename().str() << "\"\n";
  line() << codegen::sourceLineComment(loc->getFilename().str(), loc->getLine(), text);
}

void KernelPrinter::define(Operation *op, const std::string &expression, StringRef fallback) {
  Value result = op->getResult(0);
  std::string name = newName(result, fallback);
  line() << constDeclaration(result.getType()) << " " << name << " = " << expression << ";\n";
}

std::string KernelPrinter::constDeclaration(Type t) {
  if (isa<RankedTensorType>(t)) return "const auto";
  std::string s = type(t);
  return s.back() == '*' ? s + " const" : "const " + s;
}

void KernelPrinter::bindPair(const std::string &both, Value first, StringRef firstName, Value second, StringRef secondName) {
  for (auto [v, fallback, part] : {std::tuple{first, firstName, "first"}, std::tuple{second, secondName, "second"}}) {
    if (v.use_empty()) continue;  // `excl, _ = tle.cumsum(x)`: nothing to name
    std::string name = newName(v, fallback);
    line() << constDeclaration(v.getType()) << " " << name << " = " << both << "." << part << ";\n";
  }
}

void KernelPrinter::block(Block &b) {
  for (Operation &op : b) {
    if (op.hasTrait<OpTrait::IsTerminator>() && !isa<func::ReturnOp>(op)) continue;
    operation(&op);
  }
}

void KernelPrinter::operation(Operation *op) {
  try {
    if (!isa<func::ReturnOp>(op)) sourceComment(op);
    printOperation(op);
  } catch (Unsupported &u) {
    if (!u.where) u.where = op->getLoc();
    throw;
  }
}

std::string KernelPrinter::slotIndexOf(Operation *at, int behind) {
  Operation *loop = gpu::enclosingRingLoop(at);
  if (!loop) throw Unsupported{"an operand ring read outside its loop (tlec bug)"};
  const std::string &slot = slotVars_.lookup(loop);
  const int slotCount = *gpu::ringSlots(loop);
  if (behind == 1) return "(" + slot + " == 0 ? " + std::to_string(slotCount - 1) + " : " + slot + " - 1)";
  if (behind > 1)
    return "(" + slot + " >= " + std::to_string(behind) + " ? " + slot + " - " + std::to_string(behind) + " : " + slot + " + " +
           std::to_string(slotCount - behind) + ")";
  return slot;
}

std::string KernelPrinter::slotOf(Value ring, Operation *at, int behind) {
  if (gpu::isResident(cast<gpu::OperandRingType>(ring.getType()))) return rings_.lookup(ring).first;
  const auto &[slots, bytes] = rings_.lookup(ring);
  return slots + " + " + slotIndexOf(at, behind) + " * " + bytes;
}


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
      .Case<ir::AxisHintOp>([&](ir::AxisHintOp h) { names_[h.getResult()] = expr(h.getSrc()); })  // a fact, no code
      .Case<ir::ExpandDimsOp>([&](ir::ExpandDimsOp e) {
        define(op, "tle::expand_dims<" + type(e.getType()) + ", " + std::to_string(e.getAxis()) + ">(" + expr(e.getSrc()) + ")", "expanded");
      })
      .Case<ir::AddPtrOp>([&](ir::AddPtrOp a) {
        const char *callee = gpu::widensAtUse(a) ? "tle::addptr_widening(" : "tle::addptr(";
        define(op, callee + expr(a.getPtr()) + ", " + expr(a.getOffset()) + ")", "ptrs");
      })
      .Case<gpu::AddPtrAlongOp>([&](gpu::AddPtrAlongOp a) {
        define(op,
               "tle::addptr_widening_along<" + std::to_string(a.getDim()) + ", " + std::to_string(a.getStart()) + ">(" +
                   expr(a.getPtr()) + ", " + expr(a.getStride()) + ", " + expr(a.getRest()) + ")",
               "ptrs");
      })
      .Case<ir::LoadOp, ir::StoreOp, ir::AtomicRMWOp, ir::AtomicCASOp, gpu::CopyAsyncToSharedOp>([&](Operation *) { printMemoryOperation(op); })
      .Case<ir::DotOp, gpu::ConvertLayoutOp, gpu::StageOperandOp, gpu::StageOperandsOp, gpu::OperandRingOp, gpu::AsyncCopyOp,
            gpu::AsyncWaitOp, gpu::AsyncDrainOp, gpu::RingReadOp, gpu::RingDotOp, gpu::DotsWaitOp, gpu::RingViewOp, gpu::BufferOperandOp>(
            [&](Operation *) { printOperandOperation(op); })
      .Case<ir::TransOp, ir::ReshapeOp, ir::JoinOp, ir::SplitOp, ir::GatherOp, ir::ExtractTileOp, ir::InsertTileOp,
            ir::ExclusiveCumsumOp, ir::SortOp, ir::HistogramOp>([&](Operation *) { printRearrangement(op); })
      .Case<ir::AllocOp, gpu::LocalPtrOp, gpu::CopyOp, gpu::LocalLoadOp>([&](Operation *) { printBufferOperation(op); })
      .Case<ir::PrintOp, ir::AssertOp>([&](Operation *) { printDebugOperation(op); })
      .Case<gpu::TensorMapOp, gpu::TmaBarriersOp, gpu::TmaCopyOp, gpu::TmaWaitOp>([&](Operation *) { printTmaOperation(op); })
      .Case<ir::DescriptorBlockOp>([&](ir::DescriptorBlockOp b) { names_[b.getResult()] = expr(b.getPtrs()); })  // a fact, no code
      .Case<ir::BarrierOp>([&](ir::BarrierOp b) {
        line() << "tle::barrier(" << group() << ");" << (b.getReason() ? "  // " + b.getReason()->str() : "") << "\n";
      })
      .Case<ir::RemoteOp>([&](ir::RemoteOp r) { r.getSpace() == "device" ? printDistributedOperation(op) : printClusterOperation(op); })
      .Case<ir::DistributedBarrierOp>(
          [&](ir::DistributedBarrierOp b) { b.acrossGpus() ? printDistributedOperation(op) : printClusterOperation(op); })
      .Case<gpu::ClusterRankOp>([&](Operation *) { printClusterOperation(op); })
      .Case<ir::RankOp, ir::NumRanksOp, ir::SymmAtOp, ir::NotifyOp, ir::WaitOp, ir::ConsumeTokenOp>(
          [&](Operation *) { printDistributedOperation(op); })
      .Case<gpu::AsyncLoadOp>([&](gpu::AsyncLoadOp a) {
        if (!a.getOffset()) throw Unsupported{"an asynchronous load without staging (tlec bug: tle-plan-shared-memory did not run)"};
        std::string staging = "tle_smem + " + std::to_string(*a.getOffset());
        std::string mask = a.getMask() ? "&" + expr(a.getMask()) : "static_cast<const tle::NoOperand *>(nullptr)";
        line() << "tle::async_load<" << a.getVec() << ">(" << expr(a.getPtrs()) << ", " << mask << ", " << staging
               << ");  // waited for before its first use\n";
        names_[a.getToken()] = staging;
      })
      .Case<gpu::AsyncLoadWaitOp>([&](gpu::AsyncLoadWaitOp w) {
        std::string mask = w.getMask() ? "&" + expr(w.getMask()) : "static_cast<const tle::NoOperand *>(nullptr)";
        std::string other = w.getOther() ? "&" + expr(w.getOther()) : "static_cast<const tle::NoOperand *>(nullptr)";
        define(op, "tle::async_load_wait<" + type(w.getType()) + ", " + std::to_string(w.getPending()) + ">(" + expr(w.getToken()) + ", " +
                       mask + ", " + other + ")",
               "loaded");
      })
      .Case<ir::PipeCreateOp, ir::PipeAcquireOp, ir::PipeCommitOp, ir::PipeCloseOp, ir::PipeReleaseOp, ir::PipeWaitOp, ir::BufferSlotOp>(
          [&](Operation *) { printPipeOperation(op); })
      .Case<gpu::WarpSpecializeOp>([&](gpu::WarpSpecializeOp w) {
        line() << "// the default partition (warps 0.." << ir::numWarps(f_) - 1 << ")\n";
        block(w.getDefaultRegion().front());
        auto yield = cast<gpu::PartitionYieldOp>(w.getDefaultRegion().front().getTerminator());
        for (auto [result, value] : llvm::zip(w.getResults(), yield.getValues())) names_[result] = expr(value);
        if (issuesSlotCopies(0)) line() << "tle::wait_async_copies();  // this partition's slot copies have landed\n";
        line() << joinGroup() << ".sync();  // the partitions join\n";
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

// tle::Cache's name for an access's cache operator (".cg" -> "cg") or, without one, its
// eviction policy (PTX takes one or the other; sema warns where both were given).
static std::string cachePolicy(std::optional<StringRef> cache, std::optional<StringRef> eviction) {
  if (cache && !cache->empty()) return cache->substr(1).str();
  if (eviction && (*eviction == "evict_first" || *eviction == "evict_last")) return eviction->str();
  return "normal";
}

void KernelPrinter::printMemoryOperation(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<ir::LoadOp>([&](ir::LoadOp l) {
        std::string args = expr(l.getPtr());
        if (l.getMask()) args += ", " + expr(l.getMask());
        if (l.getOther()) args += ", " + expr(l.getOther());
        const bool global = ir::pointerSpaceOf(l.getPtr().getType()) == MemorySpace::Global;
        std::string cache = l.getIsVolatile() ? (global ? "cv" : "vol") : cachePolicy(l.getCache(), l.getEviction());
        if (gpu::uniformLoad(op)) {  // read by thread 0, shared through the scratch
          std::string smem = useScratch("int(sizeof(" + scalarType(l.getType()) + "))");
          if (l.getMask() && !l.getOther()) args += ", " + scalarType(l.getType()) + "()";
          define(op, "tle::load_uniform<tle::Cache::" + cache + ">(" + args + ", " + smem + ")", "loaded");
          return;
        }
        define(op, std::string(global ? "tle::load_global<" : "tle::load<") + std::to_string(gpu::vectorWidth(op)) +
                       ", tle::Cache::" + cache + masking(op) + ">(" + args + ")",
               "loaded");
      })
      .Case<ir::StoreOp>([&](ir::StoreOp s) {
        std::string args = expr(s.getPtr()) + ", " + expr(s.getValue());
        if (s.getMask()) args += ", " + expr(s.getMask());
        std::string cache = cachePolicy(s.getCache(), s.getEviction());
        line() << "tle::store<" << gpu::vectorWidth(op) << ", tle::Cache::" << cache << masking(op) << ">(" << args << ");\n";
      })
      .Case<gpu::CopyAsyncToSharedOp>([&](gpu::CopyAsyncToSharedOp c) {
        line() << "tle::copy_async_to_shared<" << gpu::vectorWidth(op) << ", " << (c.getZeroFill() ? "true" : "false") << masking(op) << ">("
               << expr(c.getSrc()) << ", " << expr(c.getDst()) << (c.getMask() ? ", " + expr(c.getMask()) : "") << ");\n";
      })
      .Case<ir::AtomicRMWOp, ir::AtomicCASOp>([&](Operation *) { atomic(op); });
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
          define(op, "tle::convert_dot_operand_once<" + dst + ">(" + expr(s.getSrc()) + ", " + smem + ", " + stagingArg() + ")", "fragment");
          return;
        }
        useStaging("tle::dot_operand_staging_bytes<" + dst + ", " + src + ">()");
        define(op, "tle::convert_dot_operand<" + dst + ">(" + expr(s.getSrc()) + ", " + smem + ", " + stagingArg() + ", " + stagingHalfArg() + ", tle_stage)", "fragment");
      })
      .Case<gpu::StageOperandsOp>([&](gpu::StageOperandsOp s) {
        std::string da = type(s.getResultA().getType()), sa = type(s.getA().getType());
        std::string db = type(s.getResultB().getType()), sb = type(s.getB().getType());
        std::string smem = useScratch("tle::dot_operands_scratch_bytes<" + da + ", " + sa + ", " + db + ", " + sb + ">()");
        useStaging("tle::dot_operands_staging_bytes<" + da + ", " + sa + ", " + db + ", " + sb + ">()");
        std::string both = claim("fragments");
        line() << "const auto " << both << " = tle::convert_dot_operands<" << da << ", " << db << ">(" << expr(s.getA()) << ", "
               << expr(s.getB()) << ", " << smem << ", " << stagingArg() << ", " << stagingHalfArg() << ", tle_stage);\n";
        bindPair(both, s.getResultA(), "fragment", s.getResultB(), "fragment");
      })
      .Case<gpu::OperandRingOp>([&](gpu::OperandRingOp r) {
        if (!r.getOffset()) throw Unsupported{"an operand ring without an offset (tlec bug: tle-plan-shared-memory did not run)"};
        std::string slots = claim("operand_slots"), bytes = claim("operand_slot_bytes");
        line() << "unsigned char* const " << slots << " = (tle_async + " << *r.getOffset() << ");\n";
        line() << "constexpr int " << bytes << " = " << gpu::ringSlotBytes(r.getType()) << ";\n";
        rings_[r.getRing()] = {slots, bytes};
      })
      .Case<gpu::RingViewOp>([&](gpu::RingViewOp v) { rings_[v.getView()] = rings_.lookup(v.getRing()); })  // the same bytes
      .Case<gpu::BufferOperandOp>([&](gpu::BufferOperandOp v) {  // the buffer's own bytes, read in place
        rings_[v.getView()] = {"reinterpret_cast<const unsigned char*>(" + expr(v.getBuffer()) + ")", "0"};
      })
      .Case<gpu::AsyncCopyOp>([&](gpu::AsyncCopyOp c) {
        auto ring = c.getRing().getType();
        std::string slot = c.getSlot() ? rings_.lookup(c.getRing()).first + " + " + std::to_string(*c.getSlot()) + " * " +
                                             rings_.lookup(c.getRing()).second
                                       : slotOf(c.getRing(), op, c.getSlotsBehind().value_or(1));
        const bool tileMask = c.getMask() && isa<RankedTensorType>(c.getMask().getType());
        std::string strides;
        for (Value s : c.getStrides()) strides += ", " + expr(s);
        line() << "tle::copy_async_operand" << (strides.empty() ? "" : "_affine") << "<" << type(ring.getOperand())
               << (tileMask ? masking(op) : "") << ">(" << expr(c.getPtr()) << strides << (c.getMask() ? ", " + expr(c.getMask()) : "")
               << ", " << slot << ");\n";
      })
      .Case<gpu::AsyncWaitOp>([&](gpu::AsyncWaitOp w) {
        line() << "tle::wait_async_operands<" << w.getPending() << ">();  // "
               << (gpu::enclosingRingLoop(w) ? "this iteration's tiles have landed, and no thread reads the slots refilled below any more"
                        : w.getPending() == 0 ? "every tile copied above has landed, for every thread"
                                              : "the tiles copied above but the " + std::to_string(w.getPending()) +
                                                    " latest have landed, for every thread")
               << "\n";
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
        const std::string inFlight = d.getInFlight() ? "_in_flight" : "";
        if (auto a = dyn_cast<gpu::OperandRingType>(d.getA().getType()))
          define(op, "tle::dot_from_slots" + inFlight + "<" + type(a.getOperand()) + ", " + db + ", " + type(a.getStaged()) + ", " + sb + ">(" +
                         slotOf(d.getA(), op) + ", " + slotOf(d.getB(), op) + ", " + expr(d.getC()) + ")",
                 "acc");
        else
          define(op, "tle::dot_from_slot_b" + inFlight + "<" + db + ", " + sb + ">(" + expr(d.getA()) + ", " + slotOf(d.getB(), op) + ", " + expr(d.getC()) + ")",
                 "acc");
      })
      .Case<gpu::DotsWaitOp>([&](gpu::DotsWaitOp w) {
        std::string values;
        for (Value v : w.getInputs()) values += (values.empty() ? "" : ", ") + expr(v);
        line() << "tle::wait_dots_in_flight(" << values << ");\n";
        for (auto [in, out] : llvm::zip(w.getInputs(), w.getResults())) names_[out] = expr(in);
      });
}

// Ops that move a tile's elements between threads through the scratch.
void KernelPrinter::printRearrangement(Operation *op) {
  auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
  llvm::TypeSwitch<Operation *>(op)
      .Case<ir::TransOp>([&](ir::TransOp t) {
        std::string order;
        for (int32_t o : t.getOrder()) order += ", " + std::to_string(o);
        // Layouts that are each other's permutation: the registers are relabelled, no scratch.
        if (gpu::rearrangesInRegisters(t)) {
          define(op, "tle::permute_in_registers<" + type(t.getType()) + order + ">(" + expr(t.getSrc()) + ")", "transposed");
          return;
        }
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
      .Case<ir::SortOp>([&](ir::SortOp so) {
        std::string smem = useScratch(spelling_.tileBytes(srcType));
        define(op, std::string("tle::sort<") + (so.getDescending() ? "true" : "false") + ", " + (so.getIsUnsigned() ? "true" : "false") +
                       ">(" + expr(so.getSrc()) + ", " + smem + ")",
               "sorted");
      })
      .Case<ir::HistogramOp>([&](ir::HistogramOp h) {
        std::string smem = useScratch("int(" + std::to_string(h.getType().getNumElements()) + " * sizeof(int32_t))");
        std::string mask = h.getMask() ? "&" + expr(h.getMask()) : "static_cast<const tle::NoOperand *>(nullptr)";
        define(op, "tle::histogram<" + type(h.getType()) + ">(" + expr(h.getSrc()) + ", " + mask + ", " + smem + ")", "counts");
      })
      .Case<ir::GatherOp>([&](ir::GatherOp g) {
        std::string smem = useScratch(spelling_.tileBytes(srcType));
        define(op, "tle::gather<" + type(g.getType()) + ", " + std::to_string(g.getAxis()) + ">(" + expr(g.getSrc()) + ", " +
                       expr(g.getIndices()) + ", " + smem + ")",
               "gathered");
      })
      .Case<ir::ExtractTileOp>([&](ir::ExtractTileOp e) {
        if (!e.getDynamicOffsets().empty()) {
          std::string smem = useScratch(spelling_.tileBytes(srcType));
          std::string offsets;
          for (Value o : e.getDynamicOffsets()) offsets += (offsets.empty() ? "" : ", ") + expr(o);
          define(op, "tle::extract_tile_at<" + type(e.getType()) + ">(" + expr(e.getSrc()) + ", {" + offsets + "}, " + smem + ")", "tile");
          return;
        }
        std::string offsets;
        for (int64_t o : e.getOffsets()) offsets += ", " + std::to_string(o);
        if (gpu::extractsInRegisters(e)) {  // each thread holds its part of the sub-tile
          define(op, "tle::extract_tile_in_registers<" + type(e.getType()) + offsets + ">(" + expr(e.getSrc()) + ")", "tile");
          return;
        }
        std::string smem = useScratch(spelling_.tileBytes(srcType));
        define(op, "tle::extract_tile<" + type(e.getType()) + offsets + ">(" + expr(e.getSrc()) + ", " + smem + ")", "tile");
      })
      .Case<ir::InsertTileOp>([&](ir::InsertTileOp i) {
        std::string smem = useScratch(spelling_.tileBytes(srcType));
        if (!i.getDynamicOffsets().empty()) {
          std::string offsets;
          for (Value o : i.getDynamicOffsets()) offsets += (offsets.empty() ? "" : ", ") + expr(o);
          define(op, "tle::insert_tile_at(" + expr(i.getSrc()) + ", " + expr(i.getTile()) + ", {" + offsets + "}, " + smem + ")",
                 "inserted");
          return;
        }
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
          const bool swizzled = gpu::isOperandBuffer(gpu::allocOf(l.getBuffer()));
          define(op, std::string(swizzled ? "tle::local_ptr_operand_buffer<" : "tle::local_ptr_all<") + type(l.getType()) + ">(" + expr(l.getBuffer()) + ")",
                 "local_ptrs");
          return;
        }
        if (gpu::isOperandBuffer(gpu::allocOf(l.getBuffer()))) throw Unsupported{"indexed pointers into a dot-operand buffer (tlec bug)"};
        std::string args = "tle::local_ptr<" + type(l.getType());
        for (int64_t d : buffer.getBlockType().getShape()) args += ", " + std::to_string(d);
        args += ">(" + expr(l.getBuffer());
        for (Value i : l.getIndices()) args += ", " + expr(i);
        define(op, args + ")", "local_ptrs");
      })
      .Case<gpu::CopyOp>([&](gpu::CopyOp c) {
        bool toBuffer = isa<ir::BufferType>(c.getDst().getType());
        std::string vec = toBuffer ? "<" + std::to_string(gpu::vectorWidth(op)) + ">" : "";
        line() << "tle::copy_" << (toBuffer ? "to" : "from") << "_buffer" << vec << "(" << expr(c.getSrc()) << ", " << expr(c.getDst())
               << (toBuffer && ws_ ? ", " + group() : "") << ");\n";
      })
      .Case<gpu::LocalLoadOp>([&](gpu::LocalLoadOp l) {
        const bool swizzled = gpu::isOperandBuffer(gpu::allocOf(l.getBuffer()));
        define(op, std::string(swizzled ? "tle::local_load_operand_buffer<" : "tle::local_load<") + type(l.getType()) + ">(" + expr(l.getBuffer()) + ")",
               "loaded");
      });
}

// Warp specialization: the partitions' threads, and the body of a kernel that has them.
std::string KernelPrinter::group() const {
  if (!ws_) return "";
  const unsigned lanes = ir::targetOf(f_).threadsPerWarp();
  return "tle::Group{" + std::to_string(gpu::partitionFirstWarp(f_, partition_) * lanes) + ", " +
         std::to_string(gpu::partitionThreads(f_, partition_)) + ", " + std::to_string(gpu::partitionBarrier(partition_)) + "}";
}

// Whether partition `p` copies into pipe slots by cp.async (tle-async-slot-copies): it waits
// for its copies before it leaves, so that none is in flight when the block ends.
bool KernelPrinter::issuesSlotCopies(unsigned p) const {
  bool found = false;
  func::FuncOp(f_).walk([&](gpu::CopyAsyncToSharedOp c) { found = found || gpu::partitionOf(c) == p; });
  return found;
}

std::string KernelPrinter::joinGroup() const {
  unsigned threads = 0;
  for (unsigned p = 0; p <= ws_.getWorkerRegions().size(); ++p) threads += gpu::partitionThreads(f_, p);
  return "tle::Group{0, " + std::to_string(threads) + ", " + std::to_string(gpu::kJoinBarrier) + "}";
}

// The kernel's buffers and pipes (tle-isolate-partitions put them first), then the workers,
// which leave after their region, then the default partition's code, the op's default region
// included.
void KernelPrinter::printWarpSpecializedBody(Block &entry) {
  bool pipes = false;
  for (Operation &op : entry)
    if (isa<ir::AllocOp, ir::PipeCreateOp>(op)) {
      pipes = pipes || isa<ir::PipeCreateOp>(op);
      operation(&op);
    }
  // A pipe slot a writer never fills (a phase past its data) reads as zeros, not as what an
  // earlier kernel left in shared memory.
  if (bufferBytes() > 0) line() << "tle::zero_shared(tle_smem, " << bufferBytes() << ");  // the buffers start zeroed\n";
  if (pipes || bufferBytes() > 0)
    line() << "__syncthreads();  // " << (pipes ? "the pipes' barriers are set up" : "the buffers are zeroed") << "\n";
  printWorkers();
  for (Operation &op : entry)
    if (!isa<ir::AllocOp, ir::PipeCreateOp>(op) && !(op.hasTrait<OpTrait::IsTerminator>() && !isa<func::ReturnOp>(op)))
      operation(&op);
}

void KernelPrinter::printWorkers() {
  const unsigned lanes = ir::targetOf(f_).threadsPerWarp();
  const llvm::SmallVector<int32_t> registers = gpu::registerPlan(ws_);  // empty, or kernel, default, workers
  line() << "if (threadIdx.x >= " << gpu::partitionThreads(f_, 0) << ") {  // the worker partitions\n";
  ++indent_;
  for (auto [i, region] : llvm::enumerate(ws_.getWorkerRegions())) {
    const unsigned p = static_cast<unsigned>(i) + 1, first = gpu::partitionFirstWarp(f_, p), warps = gpu::partitionWarps(f_, p);
    line() << (i ? "} else " : "") << "if (threadIdx.x >= " << first * lanes << " && threadIdx.x < " << (first + warps) * lanes
           << ") {  // worker " << i << ": "
           << (warps == 1 ? "warp " + std::to_string(first) : "warps " + std::to_string(first) + ".." + std::to_string(first + warps - 1))
           << "\n";
    ++indent_;
    partition_ = p;
    if (!registers.empty() && registers[p + 1] != 0)
      line() << "tle::set_max_registers<" << registers[p + 1] << ", " << registers[0] << ">();  // worker_num_regs\n";
    block(region.front());
    if (issuesSlotCopies(p)) line() << "tle::wait_async_copies();  // this partition's slot copies have landed\n";
    line() << joinGroup() << ".arrive();  // done: the default partition may go on\n";
    --indent_;
  }
  partition_ = 0;
  line() << "}\n";
  line() << "return;  // (warps between partitions, placed at multiples of their size, do nothing)\n";
  --indent_;
  line() << "}\n";
  if (!registers.empty() && registers[1] != 0)
    line() << "tle::set_max_registers<" << registers[1] << ", " << registers[0] << ">();  // what the workers' increases take\n";
}

// tle.pipe: a tle::PipeState of mbarriers per pipe (pipe.cuh), in static shared memory.
void KernelPrinter::printPipeOperation(Operation *op) {
  usesPipes_ = true;
  llvm::TypeSwitch<Operation *>(op)
      .Case<ir::PipeCreateOp>([&](ir::PipeCreateOp p) {
        auto threads = gpu::pipeThreads(op);
        if (!threads) throw Unsupported{"a pipe without arrival counts (tlec bug: tle-isolate-partitions did not run)"};
        std::string name = claim(p.getName() ? sanitize(p.getName()->str()) : "pipe");
        line() << "__shared__ tle::PipeState<" << p.getCapacity() << "> " << name << ";\n";
        line() << "tle::pipe_init(&" << name << ", " << threads->first << ", " << threads->second
               << ");  // arrivals per phase: the writer's threads, the readers'\n";
        // (A warp-specialized kernel sets all its pipes up before one barrier.)
        if (!ws_) line() << "__syncthreads();  // the pipe's barriers are set up\n";
        names_[p.getResult()] = "&" + name;
      })
      .Case<ir::PipeAcquireOp>([&](ir::PipeAcquireOp s) {
        line() << "tle::pipe_acquire(" << expr(s.getPipe()) << ", " << expr(s.getIteration()) << ");\n";
      })
      .Case<ir::PipeCommitOp>([&](ir::PipeCommitOp s) {
        line() << "tle::pipe_commit" << (gpu::commitsAsyncCopies(s) ? "_after_copies" : "") << "(" << expr(s.getPipe()) << ", "
               << expr(s.getIteration()) << ");" << (gpu::commitsAsyncCopies(s) ? "  // once this thread's copies above have landed" : "")
               << "\n";
      })
      .Case<ir::PipeCloseOp>([&](ir::PipeCloseOp s) {
        std::string g = ws_ ? group() : "tle::Group{}";
        line() << "tle::pipe_close(" << expr(s.getPipe()) << ", " << expr(s.getIteration()) << ", " << g << ");\n";
      })
      .Case<ir::PipeReleaseOp>([&](ir::PipeReleaseOp s) {
        line() << "tle::pipe_release(" << expr(s.getPipe()) << ", " << expr(s.getIteration()) << ");\n";
      })
      .Case<ir::PipeWaitOp>([&](ir::PipeWaitOp s) {
        define(op, "tle::pipe_wait(" + expr(s.getPipe()) + ", " + expr(s.getIteration()) + ")", "closed");
      })
      .Case<ir::BufferSlotOp>([&](ir::BufferSlotOp s) {
        auto slot = cast<ir::BufferType>(s.getType()).getBlockType();
        define(op, expr(s.getBuffer()) + " + " + expr(s.getStage()) + " * " + std::to_string(slot.getNumElements()), "slot");
      });
}

// Thread-block clusters: ranks, distributed shared memory, cluster and sub-mesh barriers.
void KernelPrinter::printClusterOperation(Operation *op) {
  usesClusters_ = true;
  if (ws_ && isa<ir::DistributedBarrierOp>(op))
    throw Unsupported{"a cluster or grid barrier in a warp-specialized kernel (it would wait for every partition)"};
  llvm::TypeSwitch<Operation *>(op)
      .Case<gpu::ClusterRankOp>([&](gpu::ClusterRankOp) { define(op, "tle::cluster_rank()", "cluster_rank"); })
      .Case<ir::RemoteOp>([&](ir::RemoteOp r) {
        define(op, "tle::cluster_map(" + expr(r.getSrc()) + ", " + expr(r.getShard()) + ")", "remote");
      })
      .Case<ir::DistributedBarrierOp>([&](ir::DistributedBarrierOp b) {
        std::string why = b.getReason() ? "  // " + b.getReason()->str() : "";
        if (b.getKind() == "cluster") {
          line() << "tle::cluster_barrier();" << why << "\n";
        } else if (b.getKind() == "submesh") {
          unsigned mask = 0;
          for (int64_t a : b.getAxes()) mask |= 1u << a;
          std::string dims;
          for (int64_t d : b.getShape()) dims += ", " + std::to_string(d);
          line() << "tle::submesh_barrier<" << submeshBarriers_++ << ", " << mask << "u" << dims << ">();" << why << "\n";
        } else if (b.getKind() == "grid") {
          cooperative_ = true;
          line() << "tle::grid_barrier();" << why << "\n";
        } else {
          throw Unsupported{"tle.distributed_barrier of kind '" + b.getKind().str() + "'"};
        }
      });
}

// Multi-GPU: ranks, peer pointers, signals and barriers on NCCL's device API
// (tle/cuda/distributed.cuh); signals on this GPU need no context (tle/cuda/signal.cuh).
void KernelPrinter::printDistributedOperation(Operation *op) {
  usesSignals_ = true;
  if (ws_ && isa<ir::DistributedBarrierOp, ir::NotifyOp, ir::WaitOp>(op))
    throw Unsupported{"a distributed barrier or signal in a warp-specialized kernel (they synchronize the whole block)"};
  auto scope = [](StringRef s) { return s == "gpu" ? "cuda::thread_scope_device" : "cuda::thread_scope_system"; };
  llvm::TypeSwitch<Operation *>(op)
      .Case<ir::RankOp>([&](ir::RankOp) { define(op, "tle::dist::rank(" + dist_ + ")", "rank"); })
      .Case<ir::NumRanksOp>([&](ir::NumRanksOp) { define(op, "tle::dist::num_ranks(" + dist_ + ")", "num_ranks"); })
      .Case<ir::SymmAtOp>([&](ir::SymmAtOp s) {
        define(op, "tle::dist::peer(" + dist_ + ", " + expr(s.getPtr()) + ", " + expr(s.getRank()) + ")", "remote");
      })
      .Case<ir::RemoteOp>([&](ir::RemoteOp r) {
        define(op, "tle::dist::peer(" + dist_ + ", " + expr(r.getSrc()) + ", " + expr(r.getShard()) + ")", "remote");
      })
      .Case<ir::NotifyOp>([&](ir::NotifyOp n) {
        if (n.getScope() == "inter_node") {
          network_ = true;
          line() << "tle::dist::notify_network(" << dist_ << ", " << expr(n.getPtr()) << ", " << expr(n.getRank()) << ", "
                 << expr(n.getSignal()) << ");\n";
          return;
        }
        std::string signal = n.getScope() == "gpu" ? expr(n.getPtr()) : "tle::dist::peer(" + dist_ + ", " + expr(n.getPtr()) + ", " + expr(n.getRank()) + ")";
        line() << "tle::dist::notify<" << scope(n.getScope()) << ", tle::dist::SignalOp::" << n.getSigOp().str() << ">(" << signal << ", "
               << expr(n.getSignal()) << ");\n";
      })
      .Case<ir::WaitOp>([&](ir::WaitOp w) {
        define(op, "tle::dist::wait<" + std::string(scope(w.getScope())) + ", " + (w.getSemantic() == "acquire" ? "true" : "false") + ">(" +
                       expr(w.getPtr()) + ", " + expr(w.getCount()) + ", " + expr(w.getValue()) + ")",
               "token");
      })
      .Case<ir::ConsumeTokenOp>([&](ir::ConsumeTokenOp c) {
        define(op, "tle::dist::consume(" + expr(c.getValue()) + ", " + expr(c.getToken()) + ")", "ordered");
      })
      .Case<ir::DistributedBarrierOp>([&](ir::DistributedBarrierOp b) {
        if (ir::clusterSize(f_) > 1) throw Unsupported{"a barrier over GPUs in a cluster kernel (a cooperative launch of clusters)"};
        cooperative_ = true;
        deviceBarrier_ = true;
        std::string why = b.getReason() ? "  // " + b.getReason()->str() : "";
        if (b.getKind() == "node_group") {
          // A strided team of the node's GPUs: as many as the axes span, the axes after them apart.
          int64_t ranks = 1, stride = 1;
          for (int64_t a : b.getAxes()) ranks *= b.getShape()[a];
          for (size_t k = static_cast<size_t>(b.getAxes().back()) + 1; k < b.getShape().size(); ++k) stride *= b.getShape()[k];
          line() << "tle::dist::barrier_team(" << dist_ << ", " << ranks << ", " << stride << ");" << why << "\n";
          return;
        }
        const char *group = b.getKind() == "node" ? "barrier_node" : b.getKind() == "rail" ? "barrier_rail" : "barrier_all";
        line() << "tle::dist::" << group << "(" << dist_ << ");" << why << "\n";
      });
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

// arith and math ops, one function call each (same spelling for scalars and tiles).
void KernelPrinter::elementwise(Operation *op) {
  std::string args;
  for (Value v : op->getOperands()) args += (args.empty() ? "" : ", ") + expr(v);
  std::optional<std::string> function = elementwiseFunction(op);
  if (!function) throw Unsupported{"the operation '" + op->getName().getStringRef().str() + "'"};
  std::string call = *function + "(" + args + ")";
  if (int run = gpu::uniformRun(op); run > 1) call = "tle::first_of_runs<" + std::to_string(run) + ">(" + call + ")";
  define(op, call, isa<arith::CmpIOp, arith::CmpFOp>(op) ? "cond" : "v");
}

void KernelPrinter::atomic(Operation *op) {
  usesAtomics_ = true;
  std::vector<std::string> parts;
  for (Value v : op->getOperands()) parts.push_back(expr(v));
  std::string args;
  for (const std::string &p : parts) args += (args.empty() ? "" : ", ") + p;
  if (!isa<RankedTensorType>(op->getResult(0).getType())) {
    // Scalar atomics act once per block and share the result through the scratch.
    std::string smem = useScratch("int(sizeof(" + scalarType(op->getResult(0).getType()) + "))");
    if (isa<ir::AtomicCASOp>(op)) args = parts[0] + ", " + parts[1] + ", " + parts[2] + ", " + smem;
    else args = parts[0] + ", " + parts[1] + ", " + smem + (parts.size() > 2 ? ", " + parts[2] : "");
  }
  define(op, atomicFunction(op) + "(" + args + ")", "old");
}

// TLE-Raw: the native function runs on the block's first `threads` threads. Block arguments
// are staged row-major at their planned places in the scratch and passed as pointers; after
// the call they are read back as the op's results. Barriers order the staging, the call and
// the read-back.
void KernelPrinter::rawCall(ir::RawCallOp r) {
  if (r.getLanguage() != "cuda") throw Unsupported{"a raw '" + r.getLanguage().str() + "' function on a CUDA target"};
  if (r.getThreads().size() != 1) throw Unsupported{"a raw function over more than one thread dimension"};
  if (ws_ && partition_ != 0)
    throw Unsupported{"a TLE-Raw call in a worker partition of tle.gpu.warp_specialize (the raw function would see the block's thread "
                      "indices, not the partition's)"};
  // In a warp-specialized kernel the default partition's threads are the block's first.
  const int64_t threads = r.getThreads()[0], blockThreads = ws_ ? ir::numWarps(f_) * 32 : threadsPerBlock_;
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
    if (next + 1 >= offsets.size()) throw Unsupported{"a raw-call block argument without a planned place (tlec bug)"};
    if (base.empty()) {
      base = claim("raw_smem");
      line() << "unsigned char* const " << base << " = " << useScratch(std::to_string(offsets.back())) << ";\n";
    }
    std::string element = scalarType(tensor.getElementType());
    std::string region = claim("raw_arg");
    line() << element << "* const " << region << " = reinterpret_cast<" << element << "*>(" << base << " + " << offsets[next++] << ");\n";
    line() << "tle::store_row_major(" << expr(arg) << ", " << region << ");\n";
    args.push_back(region);
    regions.push_back(region);
  }
  line() << groupBarrier() << ";\n";
  std::string call = r.getCallee().str() + "(";
  for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
  call += ");";
  if (threads < blockThreads) line() << "if (threadIdx.x < " << threads << ") " << call << "\n";
  else line() << call << "\n";
  line() << groupBarrier() << ";\n";
  for (size_t i = 0; i < regions.size(); ++i) {
    Value result = r.getResult(i);
    std::string name = newName(result, "raw_out");
    line() << "const auto " << name << " = tle::local_load<" << type(result.getType()) << ">(" << regions[i] << ");\n";
  }
  if (!regions.empty()) line() << groupBarrier() << ";  // the scratch is free again\n";
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
