#include "codegen/cuda/KernelPrinter.h"

#include "ir/Dialect.h"
#include "ir/GpuDialect.h"
#include "ir/KernelSettings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace tle::cuda {

using namespace mlir;

namespace {

// A construct the printer cannot express; caught at the top and turned into an error.
struct Unsupported {
  explicit Unsupported(std::string message, std::optional<Location> where = std::nullopt)
      : message(std::move(message)), where(where) {}
  std::string message;
  std::optional<Location> where;
};

const std::set<std::string> kReservedWords = {
    "auto", "bool", "break", "case", "catch", "char", "class", "const", "continue", "default", "delete", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "if", "int", "long", "namespace", "new", "operator",
    "private", "protected", "public", "register", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "template", "this", "throw", "try", "typedef", "union", "unsigned", "using", "virtual", "void",
    "volatile", "while", "and", "or", "not", "xor", "bitand", "bitor", "compl", "tle", "cuda", "std", "min", "max",
    "blockIdx", "threadIdx", "blockDim", "gridDim", "warpSize", "tle_smem", "tle_staging", "tle_stage", "tle_async", "true", "false", "nullptr", "inline",
    "asm", "friend", "mutable", "export", "typename", "decltype", "constexpr", "noexcept", "static_assert"};

std::string sanitize(StringRef name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "v" + out;
  if (kReservedWords.count(out) || out.rfind("__", 0) == 0) out += "_";
  return out;
}

std::optional<std::string> nameFromLocation(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc)) return n.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location l : fused.getLocations())
      if (auto n = nameFromLocation(l)) return n;
  return std::nullopt;
}

std::string scalarType(Type t) {
  if (t.isInteger(1)) return "bool";
  if (t.isInteger(8)) return "int8_t";
  if (t.isInteger(16)) return "int16_t";
  if (t.isInteger(32)) return "int32_t";
  if (t.isInteger(64)) return "int64_t";
  if (t.isF16()) return "__half";
  if (t.isBF16()) return "__nv_bfloat16";
  if (t.isF32()) return "float";
  if (t.isF64()) return "double";
  if (isa<Float8E4M3FNType>(t)) return "__nv_fp8_e4m3";
  if (isa<Float8E5M2Type>(t)) return "__nv_fp8_e5m2";
  if (auto p = dyn_cast<ir::PointerType>(t)) {
    // Global and shared (tle.gpu.local_ptr) memory: both generic pointers in CUDA C++.
    if (p.getMemorySpace() != MemorySpace::Global && p.getMemorySpace() != MemorySpace::Shared)
      throw Unsupported{"pointers into " + std::string(memorySpaceName(p.getMemorySpace())) + " memory"};
    return scalarType(p.getPointeeType()) + "*";
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  throw Unsupported{"the type " + s};
}

std::string formatFloat(double v, bool single) {
  char buf[64];
  std::snprintf(buf, sizeof buf, single ? "%.9g" : "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return single ? s + "f" : s;
}

class KernelPrinter {
 public:
  KernelPrinter(func::FuncOp f, const CudaOptions &options) : f_(f), options_(options) {}

  void print(PrintedKernel &out) {
    out.name = f_.getSymName().str();
    out.numWarps = ir::numWarps(f_);
    numWarps_ = out.numWarps;
    layoutsNamespace_ = out.name + "_layouts";
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
    indent_ = 1;
    planBuffers();
    planAsyncOperands();
    block(f_.getBody().front());

    std::ostringstream code;
    code << "namespace " << layoutsNamespace_ << " {\n";
    for (size_t i = 0; i < blocked_.size(); ++i) code << "using Blocked" << i << " = " << blockedSpelling(blocked_[i]) << ";\n";
    code << "}  // namespace " << layoutsNamespace_ << "\n\n";
    code << "extern \"C\" __global__ void __launch_bounds__(" << out.numWarps * 32 << ") " << out.name << "(" << params
         << ") {\n";
    // Dynamic shared memory: tle.gpu buffers, then the scratch of conversions and
    // reductions, then the double-buffered staging of dot operands.
    std::string scratch = "0";
    for (const std::string &s : scratch_) scratch = "tle::max_bytes(" + scratch + ", " + s + ")";
    std::string staging = "0";
    for (const std::string &s : staging_) staging = "tle::max_bytes(" + staging + ", " + s + ")";
    // The async slots start at a 1024-byte boundary (wgmma's swizzle atoms).
    if (usesShared_)
      code << "  extern __shared__ __align__(" << (asyncOperands_.empty() ? 16 : 1024) << ") unsigned char tle_smem[];\n";
    // Offsets after the buffers.
    const std::string stagingOffset = "tle::round_up16(" + scratch + ")";
    const std::string asyncOffset = "tle::round_up1024(" + (bufferBytes_ > 0 ? std::to_string(bufferBytes_) + " + " : "") +
                                    stagingOffset + " + tle::round_up16(" + staging + "))";
    if (!staging_.empty()) {
      code << "  // Dot operands are staged in two alternating halves after the scratch.\n";
      code << "  unsigned char* const tle_staging = tle_smem + " << bufferBytes_ << " + " << stagingOffset << ";\n";
      if (usesStage_) code << "  int tle_stage = 0;\n";
    }
    if (!asyncOperands_.empty()) {
      code << "  // Operands copied asynchronously: a ring of slots per operand, after the staging.\n";
      code << "  unsigned char* const tle_async = tle_smem + " << asyncOffset << ";\n";
    }
    code << body_.str() << "}\n";
    out.code = code.str();
    std::string bytes = !staging_.empty() ? stagingOffset + " + " + staging : scratch;
    if (bufferBytes_ > 0) bytes = std::to_string(bufferBytes_) + " + " + bytes;
    if (!asyncOperands_.empty()) bytes = asyncOffset + " + " + asyncBytes_;
    out.sharedBytesExpression = bytes;
    out.usesAtomics = usesAtomics_;
    out.rawFunctions = rawFunctions_;
  }

 private:
  // ---- names and types ----

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

  std::string layoutSpelling(Attribute layout) {
    if (auto b = dyn_cast<gpu::BlockedLayoutAttr>(layout)) {
      auto it = std::find(blocked_.begin(), blocked_.end(), b);
      size_t index = it - blocked_.begin();
      if (it == blocked_.end()) blocked_.push_back(b);
      return layoutsNamespace_ + "::Blocked" + std::to_string(index);
    }
    if (auto s = dyn_cast<gpu::SliceLayoutAttr>(layout))
      return "tle::Slice<" + std::to_string(s.getDim()) + ", " + layoutSpelling(s.getParent()) + ">";
    if (auto d = dyn_cast<gpu::DotOperandLayoutAttr>(layout))
      return "tle::DotOperand<" + std::to_string(d.getOpIdx()) + ", " + layoutSpelling(d.getParent()) + ", " +
             std::to_string(d.getBits()) + ">";
    if (auto m = dyn_cast<gpu::MmaLayoutAttr>(layout))
      return "tle::Mma<" + std::to_string(m.getWarpsM()) + ", " + std::to_string(m.getWarpsN()) + ">";
    throw Unsupported{"a tensor without a thread layout"};
  }

  static std::string intList(ArrayRef<unsigned> values) {
    std::string s;
    for (unsigned v : values) s += (s.empty() ? "" : ", ") + std::to_string(v);
    return "tle::ints<" + s + ">";
  }
  static std::string blockedSpelling(gpu::BlockedLayoutAttr b) {
    return "tle::Blocked<" + intList(b.getSizePerThread()) + ", " + intList(b.getThreadsPerWarp()) + ", " +
           intList(b.getWarpsPerCTA()) + ", " + intList(b.getOrder()) + ">";
  }

  std::string tileType(RankedTensorType t, const std::string &element) {
    std::string s = "tle::Tile<" + element + ", " + layoutSpelling(t.getEncoding());
    for (int64_t d : t.getShape()) s += ", " + std::to_string(d);
    return s + ">";
  }

  std::string type(Type t) {
    if (auto tensor = dyn_cast<RankedTensorType>(t)) return tileType(tensor, scalarType(tensor.getElementType()));
    // A tle.gpu buffer is a pointer to its first element in shared memory.
    if (auto buffer = dyn_cast<ir::BufferType>(t)) return scalarType(buffer.getBlockType().getElementType()) + "*";
    return scalarType(t);
  }

  // Is `v` a pointer (or a tile of pointers) into a tle.gpu buffer?
  static bool pointsIntoBuffer(Value v) {
    Type t = v.getType();
    if (auto tensor = dyn_cast<RankedTensorType>(t)) t = tensor.getElementType();
    auto p = dyn_cast<ir::PointerType>(t);
    return p && p.getMemorySpace() == MemorySpace::Shared;
  }

  // tle.gpu buffers take the start of the dynamic shared memory, in program order, 16-byte
  // aligned, for the whole kernel; the scratch of conversions and reductions follows them.
  // Offsets from tle-plan-shared-memory; without them (a pipeline that skipped the pass),
  // one buffer after the other.
  void planBuffers() {
    f_.walk([&](ir::AllocOp alloc) {
      auto buffer = cast<ir::BufferType>(alloc.getType());
      if (buffer.getSpace() != MemorySpace::Shared)
        throw Unsupported{"buffers in memory space '" + std::string(memorySpaceName(buffer.getSpace())) + "'"};
      int64_t bytes = alignedTileBytes(buffer.getBlockType());
      int64_t offset = gpu::bufferOffset(alloc).value_or(bufferBytes_);
      bufferOffsets_[alloc] = offset;
      bufferBytes_ = std::max(bufferBytes_, offset + bytes);
    });
    if (bufferBytes_ > 0) usesShared_ = true;
  }

  static std::string hostType(Type t, bool readonly) {
    if (auto p = dyn_cast<ir::PointerType>(t)) {
      Type e = p.getPointeeType();
      std::string base = e.isInteger(1) ? "bool" : (e.isF16() || e.isBF16() || (isa<FloatType>(e) && e.getIntOrFloatBitWidth() == 8)) ? "void" : scalarType(e);
      return (readonly ? "const " : "") + base + "*";
    }
    if (t.isF16() || t.isBF16()) return "float";  // converted by the launcher
    return scalarType(t);
  }

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

  // A tile's size in bytes, as a C++ constant expression (scratch sizes), and as a number
  // rounded up to 16 (regions the printer lays out itself).
  std::string tileBytesExpression(RankedTensorType t) {
    return "int(sizeof(" + scalarType(t.getElementType()) + ")) * " + type(t) + "::kElements";
  }
  static int64_t alignedTileBytes(RankedTensorType t) {
    int64_t bytes = t.getNumElements() * std::max<int64_t>(1, t.getElementType().getIntOrFloatBitWidth() / 8);
    return (bytes + 15) / 16 * 16;
  }

  // The double-buffered staging of dot operands needs `bytesExpression` (dot.cuh).
  void useStaging(const std::string &bytesExpression) {
    if (std::find(staging_.begin(), staging_.end(), bytesExpression) == staging_.end()) staging_.push_back(bytesExpression);
  }

  std::string useShared(const std::string &bytesExpression) {
    usesShared_ = true;
    if (std::find(scratch_.begin(), scratch_.end(), bytesExpression) == scratch_.end()) scratch_.push_back(bytesExpression);
    return bufferBytes_ > 0 ? "(tle_smem + " + std::to_string(bufferBytes_) + ")" : "tle_smem";
  }

  // ---- ops ----

  void block(Block &b) {
    for (Operation &op : b) {
      if (op.hasTrait<OpTrait::IsTerminator>() && !isa<func::ReturnOp>(op)) continue;
      if (printedWithPrevious_.erase(&op)) continue;
      operation(&op);
    }
  }

  // ---- dot operands copied asynchronously ----
  //
  // A loop-carried operand that PrefetchLoads made (tiles loaded before the loop and again,
  // `depth` iterations ahead, in the body, passed along the carried values and used only by
  // a dot operand conversion) skips registers: the loads become cp.async copies into a ring
  // of depth + 1 slots of shared memory. Each iteration first waits for its own copies and
  // meets the others at a barrier (after which no thread still reads the previous
  // iteration's slot), then copies into that slot the tiles `depth` iterations ahead, and
  // its conversions read their slot with ldmatrix (dot.cuh). What qualifies: 16-bit
  // elements in 16-byte accesses (`tle.vec` 8), zero or no `other`, mma-sized tiles, and,
  // in the loop, every copy issued before the first such conversion.
  struct AsyncOperand {
    scf::ForOp loop;
    gpu::ConvertLayoutOp convert;
    std::string region;     // its slots (a name once printed)
    std::string slotBytes;  // one slot (a name once printed)
    bool named = false;
  };
  struct AsyncLoad {
    size_t operand;
    int prologueSlot;  // -1: the copy in the body
  };
  struct AsyncChain {
    scf::ForOp loop;
    SmallVector<ir::LoadOp> prologue;  // iterations 0 .. depth-1, in order
    ir::LoadOp next;                   // iteration i + depth, in the body
    SmallVector<Value> carried;        // the loop's values that pass the tiles along
  };

  static bool isZeroOrAbsent(Value other) {
    if (!other) return true;
    auto c = other.getDefiningOp<arith::ConstantOp>();
    auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
    if (!dense || !dense.isSplat()) return false;
    Attribute v = dense.getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(v)) return f.getValue().isPosZero();
    if (auto i = dyn_cast<IntegerAttr>(v)) return i.getValue().isZero();
    return false;
  }

  // The loads (before the loop, in the body) behind a dot operand conversion's source, if
  // it is an async candidate: the source is a carried value whose initial value is a load
  // and whose yielded value is the next carried value of the chain, the last one yielding
  // the body's load.
  std::optional<AsyncChain> asyncLoadsFor(gpu::ConvertLayoutOp convert) {
    auto layout = dyn_cast<gpu::DotOperandLayoutAttr>(convert.getType().getEncoding());
    if (!layout || !convert->hasOneUse() || !isa<ir::DotOp>(*convert->getUsers().begin())) return std::nullopt;
    auto arg = dyn_cast<BlockArgument>(convert.getSrc());
    if (!arg || arg.getArgNumber() == 0 || !arg.hasOneUse()) return std::nullopt;
    auto owner = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!owner || arg.getOwner() != convert->getBlock()) return std::nullopt;
    AsyncChain chain{owner, {}, {}, {}};
    Operation *yield = owner.getBody()->getTerminator();
    while (true) {
      unsigned idx = arg.getArgNumber() - 1;
      auto first = owner.getInitArgs()[idx].getDefiningOp<ir::LoadOp>();
      if (!first || !first->hasOneUse() || first->getBlock() != owner->getBlock() || !owner.getResult(idx).use_empty())
        return std::nullopt;
      chain.prologue.push_back(first);
      chain.carried.push_back(arg);
      Value yielded = yield->getOperand(idx);
      if (auto next = yielded.getDefiningOp<ir::LoadOp>()) {
        if (!next->hasOneUse() || next->getBlock() != owner.getBody()) return std::nullopt;
        chain.next = next;
        break;
      }
      auto nextArg = dyn_cast<BlockArgument>(yielded);
      if (!nextArg || nextArg.getOwner() != owner.getBody() || nextArg.getArgNumber() == 0 || !nextArg.hasOneUse() ||
          chain.prologue.size() > 8)
        return std::nullopt;
      arg = nextArg;
    }
    SmallVector<ir::LoadOp> loads(chain.prologue);
    loads.push_back(chain.next);
    for (ir::LoadOp l : loads) {
      auto t = cast<RankedTensorType>(l.getType());
      if (!t.getElementType().isIntOrFloat() || t.getElementType().getIntOrFloatBitWidth() != 16) return std::nullopt;
      if (vectorWidth(l) != 8 || l.getIsVolatile() || !isZeroOrAbsent(l.getOther())) return std::nullopt;
    }
    // mma-sized (is_mma16_operand in tile.cuh).
    auto mma = dyn_cast<gpu::MmaLayoutAttr>(layout.getParent());
    ArrayRef<int64_t> shape = convert.getType().getShape();
    if (!mma || layout.getBits() != 16 || shape[0] % 16 || shape[1] % 16) return std::nullopt;
    if (layout.getOpIdx() == 0 ? shape[0] % (16 * mma.getWarpsM()) : shape[1] % (8 * mma.getWarpsN())) return std::nullopt;
    return chain;
  }

  void planAsyncOperands() {
    std::vector<std::pair<gpu::ConvertLayoutOp, AsyncChain>> candidates;
    f_.walk([&](gpu::ConvertLayoutOp c) {
      if (auto chain = asyncLoadsFor(c)) candidates.emplace_back(c, *chain);
    });
    // Per loop: one depth, and every copy in the body before every conversion.
    llvm::DenseSet<Operation *> rejected;
    for (auto &[ca, a] : candidates)
      for (auto &[cb, b] : candidates)
        if (a.loop == b.loop && (!a.next->isBeforeInBlock(cb) || a.prologue.size() != b.prologue.size()))
          rejected.insert(a.loop);
    // Each loop's slots follow those of the loops around it that have async operands too;
    // loops side by side (the two halves of causal attention) share theirs: the first drains
    // its copies after its last iteration, and the second's first copies follow a barrier.
    auto slotBytes = [&](gpu::ConvertLayoutOp convert) {
      return "tle::round_up1024(" + tileBytesExpression(cast<RankedTensorType>(convert.getSrc().getType())) + ")";
    };
    llvm::DenseMap<Operation *, std::string> loopBytes;  // each loop's own slots, summed
    llvm::SmallVector<Operation *> loops;
    for (auto &[convert, chain] : candidates) {
      if (rejected.count(chain.loop)) continue;
      std::string slots = std::to_string(chain.prologue.size() + 1) + " * " + slotBytes(convert);
      auto [it, fresh] = loopBytes.try_emplace(chain.loop, slots);
      if (fresh) loops.push_back(chain.loop);
      else it->second += " + " + slots;
    }
    llvm::DenseMap<Operation *, std::string> nextOffset;  // where each loop's next operand goes
    std::string total;
    for (Operation *loop : loops) {
      std::string start = "0";
      for (Operation *p = loop->getParentOp(); p; p = p->getParentOp())
        if (loopBytes.count(p)) start += " + " + loopBytes.lookup(p);
      nextOffset[loop] = start;
      std::string end = start + " + " + loopBytes.lookup(loop);
      total = total.empty() ? end : "tle::max_bytes(" + total + ", " + end + ")";
    }
    for (auto &[convert, chain] : candidates) {
      if (rejected.count(chain.loop)) continue;
      const int depth = static_cast<int>(chain.prologue.size());
      std::string bytes = slotBytes(convert);
      std::string &offset = nextOffset[chain.loop];
      AsyncOperand operand{chain.loop, convert, "(tle_async + " + offset + ")", bytes};
      offset = (offset == "0" ? "" : offset + " + ") + std::to_string(depth + 1) + " * " + bytes;
      size_t index = asyncOperands_.size();
      asyncOperands_.push_back(operand);
      asyncOperandOf_[convert] = index;
      for (auto [slot, load] : llvm::enumerate(chain.prologue)) asyncLoads_[load] = {index, static_cast<int>(slot)};
      asyncLoads_[chain.next] = {index, -1};
      for (Value v : chain.carried) asyncCarried_.insert(v);
      ++asyncPerLoop_[chain.loop];
      asyncDepth_[chain.loop] = depth;
    }
    asyncBytes_ = total.empty() ? "0" : total;
    if (!asyncOperands_.empty()) usesShared_ = true;
  }

  // The copy of an async operand load into its slot: slots 0 .. depth-1 before the loop;
  // in the body, the slot the previous iteration read, after this iteration's wait.
  void printAsyncCopy(ir::LoadOp l, const AsyncLoad &info) {
    AsyncOperand &operand = asyncOperands_[info.operand];
    const bool inPrologue = info.prologueSlot >= 0;
    const int depth = asyncDepth_.lookup(operand.loop);
    if (inPrologue && !operand.named) {
      // Name the operand's slots once, before the loop.
      std::string slots = claim("operand_slots"), bytes = claim("operand_slot_bytes");
      line() << "unsigned char* const " << slots << " = " << operand.region << ";\n";
      line() << "constexpr int " << bytes << " = " << operand.slotBytes << ";\n";
      operand.region = slots;
      operand.slotBytes = bytes;
      operand.named = true;
    }
    if (inPrologue && prologueBarriers_.insert(operand.loop).second)
      line() << "tle::barrier();  // the operand slots are free (an earlier run of the loop may still read them)\n";
    std::string slot = std::to_string(info.prologueSlot);
    if (!inPrologue) {
      const std::string &current = slotVars_.lookup(operand.loop);
      if (waitedLoops_.insert(operand.loop).second) {
        // This iteration's tiles were requested `depth` iterations ago; the copies of the
        // iterations in between may stay in flight.
        const int pending = (depth - 1) * asyncPerLoop_.lookup(operand.loop);
        line() << "tle::wait_async_operands<" << pending << ">();  // this iteration's tiles have landed, and every thread has read the last iteration's\n";
      }
      slot = "(" + current + " == 0 ? " + std::to_string(depth) + " : " + current + " - 1)";
    }
    line() << "tle::copy_async_operand<" << type(operand.convert.getType()) << (l.getMask() ? masking(l) : "") << ">(" << expr(l.getPtr())
           << (l.getMask() ? ", " + expr(l.getMask()) : "") << ", " << operand.region << " + " << slot << " * " << operand.slotBytes
           << ");\n";
  }

  // This iteration's slot of an async operand.
  std::string asyncSlot(const AsyncOperand &o) { return o.region + " + " + slotVars_.lookup(o.loop) + " * " + o.slotBytes; }

  // An async operand conversion whose dot reads the slot itself, k step by k step (fewer
  // live registers than fetching the whole operand first): B always; A when B is one too.
  bool readByDot(gpu::ConvertLayoutOp c) {
    if (!asyncOperandOf_.count(c)) return false;
    auto dot = cast<ir::DotOp>(*c->getUsers().begin());
    if (dot.getB() == c.getResult()) return true;
    auto b = dot.getB().getDefiningOp<gpu::ConvertLayoutOp>();
    return b && asyncOperandOf_.count(b);
  }
  std::string slotOf(gpu::ConvertLayoutOp c) { return asyncSlot(asyncOperands_[asyncOperandOf_.lookup(c)]); }

  // A lone dot operand conversion: from its async slot, else through the staging.
  void printDotOperand(gpu::ConvertLayoutOp c) {
    std::string dst = type(c.getType()), src = type(c.getSrc().getType());
    if (auto it = asyncOperandOf_.find(c); it != asyncOperandOf_.end()) {
      const AsyncOperand &o = asyncOperands_[it->second];
      define(c, "tle::fetch_async_operand<" + dst + ", " + src + ">(" + asyncSlot(o) + ")", "fragment");
      return;
    }
    std::string smem = useShared("tle::dot_operand_scratch_bytes<" + dst + ", " + src + ">()");
    if (!c->getParentOfType<LoopLikeOpInterface>()) {  // once per kernel: one buffer
      useStaging("tle::dot_operand_once_staging_bytes<" + dst + ", " + src + ">()");
      define(c, "tle::convert_dot_operand_once<" + dst + ">(" + expr(c.getSrc()) + ", " + smem + ", tle_staging)", "fragment");
      return;
    }
    useStaging("tle::dot_operand_staging_bytes<" + dst + ", " + src + ">()");
    usesStage_ = true;
    define(c, "tle::convert_dot_operand<" + dst + ">(" + expr(c.getSrc()) + ", " + smem + ", tle_staging, tle_stage)", "fragment");
  }

  // The B-operand conversion that follows `a` (an A-operand conversion) and, with it,
  // directly precedes the dot that alone uses both: the two are printed as one call that
  // shares the barriers.
  static gpu::ConvertLayoutOp fusableOperandPair(gpu::ConvertLayoutOp a) {
    auto isOperand = [](gpu::ConvertLayoutOp c, unsigned idx) {
      auto layout = dyn_cast<gpu::DotOperandLayoutAttr>(c.getType().getEncoding());
      return layout && layout.getOpIdx() == idx && c->hasOneUse();
    };
    if (!isOperand(a, 0)) return {};
    auto b = dyn_cast_or_null<gpu::ConvertLayoutOp>(a->getNextNode());
    if (!b || !isOperand(b, 1)) return {};
    auto dot = dyn_cast_or_null<ir::DotOp>(b->getNextNode());
    if (!dot || dot.getA() != a.getResult() || dot.getB() != b.getResult()) return {};
    return b;
  }

  std::string literal(Attribute value, Type t) {
    if (auto i = dyn_cast<IntegerAttr>(value)) {
      if (t.isInteger(1)) return i.getValue().isZero() ? "false" : "true";
      int64_t v = t.getIntOrFloatBitWidth() == 1 ? i.getValue().getZExtValue() : i.getValue().getSExtValue();
      if (t.isInteger(32) && v != INT32_MIN) return std::to_string(v);
      return scalarType(t) + "(" + (v == INT64_MIN ? "INT64_MIN" : std::to_string(v) + (t.isInteger(64) ? "ll" : "")) + ")";
    }
    if (auto f = dyn_cast<FloatAttr>(value)) {
      double v = f.getValueAsDouble();
      if (!std::isfinite(v)) {
        APInt bits = f.getValue().bitcastToAPInt();
        std::string hex = llvm::utohexstr(bits.getZExtValue());
        if (t.isF64()) return "tle::bitcast<double>(0x" + hex + "ull)";
        if (t.isF32()) return "tle::bitcast<float>(0x" + hex + "u)";
        return "tle::bitcast<" + scalarType(t) + ">(uint16_t(0x" + hex + "))";
      }
      if (t.isF32()) return formatFloat(v, true);
      if (t.isF64()) return formatFloat(v, false);
      return "tle::cast<" + scalarType(t) + ">(" + formatFloat(v, true) + ")";
    }
    throw Unsupported{"a constant of this kind"};
  }

  void operation(Operation *op) {
    try {
      printOperation(op);
    } catch (Unsupported &u) {
      if (!u.where) u.where = op->getLoc();
      throw;
    }
  }

  void printOperation(Operation *op) {
    if (!isa<func::ReturnOp>(op)) sourceComment(op);
    // Writes into a tle.gpu buffer other threads may read: barriers on both sides.
    const bool bufferWrite = isa<ir::StoreOp, ir::AtomicRMWOp, ir::AtomicCASOp>(op) && pointsIntoBuffer(op->getOperand(0));
    if (bufferWrite) line() << "tle::barrier();  // earlier reads of the buffer are done\n";
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
        .Case<ir::NumProgramsOp>([&](ir::NumProgramsOp p) { define(op, "tle::num_programs<" + std::to_string(p.getAxis()) + ">()", "num_programs"); })
        .Case<ir::MakeRangeOp>([&](ir::MakeRangeOp r) { define(op, "tle::make_range<" + type(r.getType()) + ">(" + std::to_string(r.getStart()) + ")", "range"); })
        .Case<ir::SplatOp>([&](ir::SplatOp s) { define(op, "tle::full<" + type(s.getType()) + ">(" + expr(s.getSrc()) + ")", "splat"); })
        .Case<ir::BroadcastOp>([&](ir::BroadcastOp b) { define(op, "tle::broadcast<" + type(b.getType()) + ">(" + expr(b.getSrc()) + ")", "bcast"); })
        .Case<ir::ExpandDimsOp>([&](ir::ExpandDimsOp e) {
          define(op, "tle::expand_dims<" + type(e.getType()) + ", " + std::to_string(e.getAxis()) + ">(" + expr(e.getSrc()) + ")", "expanded");
        })
        .Case<gpu::ConvertLayoutOp>([&](gpu::ConvertLayoutOp c) {
          if (readByDot(c)) return;  // the dot reads its slot
          if (gpu::ConvertLayoutOp b = fusableOperandPair(c)) {
            std::string da = type(c.getType()), sa = type(c.getSrc().getType());
            std::string db = type(b.getType()), sb = type(b.getSrc().getType());
            printedWithPrevious_.insert(b);
            if (asyncOperandOf_.count(c) || asyncOperandOf_.count(b)) {  // each its own way
              printDotOperand(c);
              if (!readByDot(b)) printDotOperand(b);
              return;
            }
            std::string smem = useShared("tle::dot_operands_scratch_bytes<" + da + ", " + sa + ", " + db + ", " + sb + ">()");
            useStaging("tle::dot_operands_staging_bytes<" + da + ", " + sa + ", " + db + ", " + sb + ">()");
            usesStage_ = true;
            std::string both = claim("fragments");
            line() << "const auto " << both << " = tle::convert_dot_operands<" << da << ", " << db << ">(" << expr(c.getSrc())
                   << ", " << expr(b.getSrc()) << ", " << smem << ", tle_staging, tle_stage);\n";
            bindPair(both, c.getResult(), "fragment", b.getResult(), "fragment");
            return;
          }
          std::string dst = type(c.getType()), src = type(c.getSrc().getType());
          if (isa<gpu::DotOperandLayoutAttr>(c.getType().getEncoding())) {
            printDotOperand(c);
            return;
          }
          std::string smem = useShared("tle::convert_scratch_bytes<" + dst + ", " + src + ">()");
          define(op, "tle::convert_layout<" + dst + ">(" + expr(c.getSrc()) + ", " + smem + ")",
                 isa<gpu::DotOperandLayoutAttr>(c.getType().getEncoding()) ? "fragment" : "converted");
        })
        .Case<ir::TransOp>([&](ir::TransOp t) {
          std::string dst = type(t.getType()), src = type(t.getSrc().getType());
          std::string order;
          for (int32_t o : t.getOrder()) order += ", " + std::to_string(o);
          std::string smem = useShared(tileBytesExpression(t.getSrc().getType()));
          define(op, "tle::permute<" + dst + order + ">(" + expr(t.getSrc()) + ", " + smem + ")", "transposed");
        })
        .Case<ir::ReshapeOp>([&](ir::ReshapeOp r) {
          std::string dst = type(r.getType()), src = type(r.getSrc().getType());
          std::string smem = useShared(tileBytesExpression(r.getSrc().getType()));
          define(op, "tle::reshape<" + dst + ">(" + expr(r.getSrc()) + ", " + smem + ")", "reshaped");
        })
        .Case<ir::AddPtrOp>([&](ir::AddPtrOp a) { define(op, "tle::addptr(" + expr(a.getPtr()) + ", " + expr(a.getOffset()) + ")", "ptrs"); })
        .Case<ir::LoadOp>([&](ir::LoadOp l) {
          if (auto it = asyncLoads_.find(l); it != asyncLoads_.end()) {
            printAsyncCopy(l, it->second);
            return;
          }
          std::string args = expr(l.getPtr());
          if (l.getMask()) args += ", " + expr(l.getMask());
          if (l.getOther()) args += ", " + expr(l.getOther());
          std::string cache = l.getIsVolatile() ? "cv" : l.getCache() ? l.getCache()->str().substr(1) : "normal";
          define(op, "tle::load<" + std::to_string(vectorWidth(op)) + ", tle::Cache::" + cache + masking(op) + ">(" + args + ")", "loaded");
        })
        .Case<ir::StoreOp>([&](ir::StoreOp s) {
          std::string args = expr(s.getPtr()) + ", " + expr(s.getValue());
          if (s.getMask()) args += ", " + expr(s.getMask());
          std::string cache = s.getCache() ? s.getCache()->str().substr(1) : "normal";
          line() << "tle::store<" << vectorWidth(op) << ", tle::Cache::" << cache << masking(op) << ">(" << args << ");\n";
        })
        .Case<ir::AtomicRMWOp>([&](ir::AtomicRMWOp a) { atomic(op, a.getKind().str(), a.getSem().str(), a.getScope().str()); })
        .Case<ir::AtomicCASOp>([&](ir::AtomicCASOp a) { atomic(op, "cas", a.getSem().str(), a.getScope().str()); })
        .Case<ir::DotOp>([&](ir::DotOp d) {
          if (!isa<gpu::DotOperandLayoutAttr>(d.getA().getType().getEncoding()))
            throw Unsupported{"tl.dot outside the 2-D tensor-core path"};
          std::string precision = d.getInputPrecision().str();
          auto a = d.getA().getDefiningOp<gpu::ConvertLayoutOp>(), b = d.getB().getDefiningOp<gpu::ConvertLayoutOp>();
          if (b && readByDot(b)) {
            std::string db = type(b.getType()), sb = type(b.getSrc().getType());
            if (a && readByDot(a))
              define(op, "tle::dot_from_slots<" + type(a.getType()) + ", " + db + ", " + type(a.getSrc().getType()) + ", " + sb + ">(" +
                             slotOf(a) + ", " + slotOf(b) + ", " + expr(d.getC()) + ")", "acc");
            else
              define(op, "tle::dot_from_slot_b<" + db + ", " + sb + ">(" + expr(d.getA()) + ", " + slotOf(b) + ", " + expr(d.getC()) + ")", "acc");
            return;
          }
          define(op, "tle::dot<tle::Precision::" + precision + ">(" + expr(d.getA()) + ", " + expr(d.getB()) + ", " + expr(d.getC()) + ")", "acc");
        })
        .Case<ir::BarrierOp>([&](ir::BarrierOp) { line() << "tle::barrier();\n"; })
        .Case<ir::ReduceOp>([&](ir::ReduceOp r) { reduce(r); })
        .Case<ir::ScanOp>([&](ir::ScanOp s) { scan(s); })
        .Case<ir::ExclusiveCumsumOp>([&](ir::ExclusiveCumsumOp c) {
          auto srcType = cast<RankedTensorType>(c.getSrc().getType());
          std::string axis = std::to_string(c.getAxis()), src = type(srcType);
          std::string smem = useShared("tle::scan_scratch_bytes<" + axis + ", " + src + ">()");
          std::string both = claim("cumsum");
          line() << "const auto " << both << " = tle::exclusive_cumsum<" << type(c.getExclusive().getType()) << ", "
                 << type(c.getTotal().getType()) << ", " << axis << ", " << (c.getReverse() ? "true" : "false") << ">("
                 << expr(c.getSrc()) << ", " << smem << ");\n";
          bindPair(both, c.getExclusive(), "exclusive", c.getTotal(), "total");
        })
        .Case<ir::JoinOp>([&](ir::JoinOp j) {
          std::string smem = useShared(tileBytesExpression(j.getType()));
          define(op, "tle::join<" + type(j.getType()) + ">(" + expr(j.getLhs()) + ", " + expr(j.getRhs()) + ", " + smem + ")", "joined");
        })
        .Case<ir::SplitOp>([&](ir::SplitOp sp) {
          auto srcType = cast<RankedTensorType>(sp.getSrc().getType());
          std::string smem = useShared(tileBytesExpression(srcType));
          if (!isa<RankedTensorType>(sp.getLhs().getType())) throw Unsupported{"tl.split of a 1-D tensor of two elements"};
          std::string both = claim("halves");
          line() << "const auto " << both << " = tle::split<" << type(sp.getLhs().getType()) << ">(" << expr(sp.getSrc()) << ", "
                 << smem << ");\n";
          bindPair(both, sp.getLhs(), "lhs", sp.getRhs(), "rhs");
        })
        .Case<ir::GatherOp>([&](ir::GatherOp g) {
          auto srcType = cast<RankedTensorType>(g.getSrc().getType());
          std::string smem = useShared(tileBytesExpression(srcType));
          define(op, "tle::gather<" + type(g.getType()) + ", " + std::to_string(g.getAxis()) + ">(" + expr(g.getSrc()) + ", " +
                         expr(g.getIndices()) + ", " + smem + ")",
                 "gathered");
        })
        .Case<ir::ExtractTileOp>([&](ir::ExtractTileOp e) {
          auto srcType = cast<RankedTensorType>(e.getSrc().getType());
          std::string smem = useShared(tileBytesExpression(srcType));
          std::string offsets;
          for (int64_t o : e.getOffsets()) offsets += ", " + std::to_string(o);
          define(op, "tle::extract_tile<" + type(e.getType()) + offsets + ">(" + expr(e.getSrc()) + ", " + smem + ")", "tile");
        })
        .Case<ir::InsertTileOp>([&](ir::InsertTileOp i) {
          auto srcType = cast<RankedTensorType>(i.getSrc().getType());
          std::string smem = useShared(tileBytesExpression(srcType));
          std::string offsets;
          for (int64_t o : i.getOffsets()) offsets += (offsets.empty() ? "" : ", ") + std::to_string(o);
          define(op, "tle::insert_tile<" + offsets + ">(" + expr(i.getSrc()) + ", " + expr(i.getTile()) + ", " + smem + ")", "inserted");
        })
        .Case<ir::AllocOp>([&](ir::AllocOp a) {
          std::string t = type(a.getType());
          define(op, "reinterpret_cast<" + t + ">(tle_smem + " + std::to_string(bufferOffsets_.lookup(op)) + ")", "buffer");
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
          if (isa<ir::BufferType>(c.getDst().getType()))
            line() << "tle::copy_to_buffer(" << expr(c.getSrc()) << ", " << expr(c.getDst()) << ");\n";
          else
            line() << "tle::copy_from_buffer(" << expr(c.getSrc()) << ", " << expr(c.getDst()) << ");\n";
        })
        .Case<gpu::LocalLoadOp>([&](gpu::LocalLoadOp l) {
          define(op, "tle::local_load<" + type(l.getType()) + ">(" + expr(l.getBuffer()) + ")", "loaded");
        })
        .Case<ir::RawCallOp>([&](ir::RawCallOp r) { rawCall(r); })
        .Case<arith::MulUIExtendedOp>([&](arith::MulUIExtendedOp m) {  // tl.umulhi: the high half
          std::string args = "(" + expr(m.getLhs()) + ", " + expr(m.getRhs()) + ")";
          for (auto [i, result] : llvm::enumerate(m->getResults())) {
            if (result.use_empty()) continue;
            std::string name = newName(result, i == 0 ? "low" : "high");
            line() << constDeclaration(result.getType()) << " " << name << " = tle::" << (i == 0 ? "mul" : "umulhi") << args << ";\n";
          }
        })
        .Case<ir::PrintOp>([&](ir::PrintOp p) {
          std::string prefix = p.getPrefix().str();
          if (p.getArgs().empty()) {
            line() << "tle::device_print(" << cString(prefix) << ");\n";
            return;
          }
          for (auto [i, arg] : llvm::enumerate(p.getArgs())) {
            std::string text = prefix + (p.getArgs().size() > 1 ? "(operand " + std::to_string(i) + ") " : "");
            line() << "tle::device_print<" << (p.getIsSigned()[i] ? "true" : "false") << ", " << (p.getHex() ? "true" : "false")
                   << ">(" << cString(text) << ", " << expr(arg) << ");\n";
          }
        })
        .Case<ir::AssertOp>([&](ir::AssertOp a) {
          std::string file = "<unknown>";
          unsigned lineNumber = 0;
          if (auto f = fileLocation(a.getLoc())) file = f->getFilename().str(), lineNumber = f->getLine();
          line() << "tle::device_assert(" << expr(a.getCondition()) << ", " << cString(a.getMessage().str()) << ", "
                 << cString(file) << ", " << lineNumber << ", " << cString(f_.getName().str()) << ");\n";
        })
        .Case<scf::ForOp>([&](scf::ForOp f) { forLoop(f); })
        .Case<scf::IfOp>([&](scf::IfOp i) { ifElse(i); })
        .Case<scf::WhileOp>([&](scf::WhileOp w) { whileLoop(w); })
        .Case<func::ReturnOp>([&](func::ReturnOp) {
          if (indent_ > 1) line() << "return;\n";
        })
        .Default([&](Operation *) { elementwise(op); });
    if (bufferWrite) line() << "tle::barrier();  // the write is visible to every thread\n";
  }

  int vectorWidth(Operation *op) {
    return gpu::vectorWidth(op);
  }
  // The extra template argument of an access whose mask may differ inside a vector.
  static std::string masking(Operation *op) {
    return gpu::maskPerElement(op) ? ", tle::Masking::element" : "";
  }

  void atomic(Operation *op, const std::string &kind, const std::string &sem, const std::string &scope) {
    usesAtomics_ = true;
    static const std::map<std::string, std::string> kinds = {
        {"add", "add"}, {"fadd", "fadd"}, {"max", "max"}, {"min", "min"}, {"umax", "umax"}, {"umin", "umin"},
        {"and", "band"}, {"or", "bor"}, {"xor", "bxor"}, {"xchg", "xchg"}};
    int semCode = sem == "relaxed" ? 0 : sem == "acquire" ? 1 : sem == "release" ? 2 : 3;
    std::string scopeName = scope == "cta" ? "cuda::thread_scope_block" : scope == "sys" ? "cuda::thread_scope_system" : "cuda::thread_scope_device";
    bool tile = isa<RankedTensorType>(op->getResult(0).getType());
    std::string args;
    for (Value v : op->getOperands()) args += (args.empty() ? "" : ", ") + expr(v);
    std::string templ;
    if (kind == "cas") {
      templ = "tle::atomic_cas<" + std::to_string(semCode) + ", " + scopeName + ">";
    } else {
      auto it = kinds.find(kind);
      if (it == kinds.end()) throw Unsupported{"atomic kind '" + kind + "'"};
      templ = "tle::atomic_rmw<tle::AtomicOp::" + it->second + ", " + std::to_string(semCode) + ", " + scopeName + ">";
    }
    if (!tile) {
      // Scalar atomics act once per block and share the result through shared memory.
      std::string smem = useShared("int(sizeof(" + scalarType(op->getResult(0).getType()) + "))");
      std::vector<std::string> parts;
      for (Value v : op->getOperands()) parts.push_back(expr(v));
      if (kind == "cas") args = parts[0] + ", " + parts[1] + ", " + parts[2] + ", " + smem;
      else args = parts[0] + ", " + parts[1] + ", " + smem + (parts.size() > 2 ? ", " + parts[2] : "");
    }
    define(op, templ + "(" + args + ")", "old");
  }

  // The combine region as a lambda over scalars (or pairs, for two operands).
  std::string combineLambda(Block &body, const std::vector<std::string> &elementTypes) {
    size_t n = elementTypes.size();
    std::ostringstream saved;
    saved << body_.str();
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
    std::string result = n == 1 ? expr(ret->getOperand(0))
                                : pairType + "{" + expr(ret->getOperand(0)) + ", " + expr(ret->getOperand(1)) + "}";
    std::string inner = body_.str();
    body_.str("");
    body_ << saved.str();
    indent_ = savedIndent;
    lastLine_ = savedLine;
    std::string argType = n == 1 ? elementTypes[0] : pairType;
    std::string pad(indent_ * 2, ' ');
    std::string lambda = "[&](" + argType + " " + lhs + ", " + argType + " " + rhs + ") {\n";
    std::istringstream lines(inner);
    for (std::string l; std::getline(lines, l);) lambda += pad + "  " + l.substr(2) + "\n";
    return lambda + pad + "  return " + result + ";\n" + pad + "}";
  }

  // TLE-Raw: the native function runs on the block's first `threads` threads. Block
  // arguments are staged row-major in shared memory (one region each) and passed as
  // pointers; after the call they are read back as the op's results. Barriers order the
  // staging, the call and the read-back.
  void rawCall(ir::RawCallOp r) {
    if (r.getLanguage() != "cuda") throw Unsupported{"a raw '" + r.getLanguage().str() + "' function on a CUDA target"};
    if (r.getThreads().size() != 1) throw Unsupported{"a raw function over more than one thread dimension"};
    const int64_t threads = r.getThreads()[0], blockThreads = int64_t(32) * numWarps_;
    if (threads < blockThreads && (r.getSyncScope() == "block" || r.getSyncScope() == "cluster"))
      throw Unsupported{"a block-synchronizing raw function on fewer threads than the block"};
    rawFunctions_.emplace_back(r.getCallee().str(), r.getCode().str());
    // One 16-byte-aligned region per block argument.
    std::vector<int64_t> offsets;
    int64_t total = 0;
    for (auto [arg, space] : llvm::zip(r.getArgs(), r.getSpaces())) {
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      if (!tensor) continue;
      StringRef where = cast<StringAttr>(space).getValue();
      if (!where.empty() && where != "shared") throw Unsupported{"a raw-call block argument in '" + where.str() + "' space"};
      offsets.push_back(total);
      total += alignedTileBytes(tensor);
    }
    std::string base;
    if (total > 0) {
      base = claim("raw_smem");
      line() << "unsigned char* const " << base << " = " << useShared(std::to_string(total)) << ";\n";
    }
    std::vector<std::string> args, regions;
    size_t next = 0;
    for (Value arg : r.getArgs()) {
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      if (!tensor) {
        args.push_back(expr(arg));
        continue;
      }
      std::string element = scalarType(tensor.getElementType());
      std::string region = claim("raw_arg");
      line() << element << "* const " << region << " = reinterpret_cast<" << element << "*>(" << base << " + " << offsets[next++]
             << ");\n";
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

  // Names the two parts of a pair-valued call: `first` and `second` of `both`.
  void bindPair(const std::string &both, Value first, StringRef firstName, Value second, StringRef secondName) {
    for (auto [v, fallback, part] : {std::tuple{first, firstName, "first"}, std::tuple{second, secondName, "second"}}) {
      std::string name = newName(v, fallback);
      line() << constDeclaration(v.getType()) << " " << name << " = " << both << "." << part << ";\n";
    }
  }

  // A C string literal (Sema keeps prefixes and messages printable ASCII).
  static std::string cString(const std::string &text) {
    std::string out = "\"";
    for (char ch : text) {
      if (ch == '"' || ch == '\\') out += '\\';
      if (ch == '?') {
        out += "\\?";  // no trigraphs
        continue;
      }
      if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) > 0x7e) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\%03o", static_cast<unsigned char>(ch));
        out += buf;
        continue;
      }
      out += ch;
    }
    return out + "\"";
  }

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
      line() << constDeclaration(result.getType()) << " " << name << " = tle::" << (i == 0 ? "first" : "second") << "(" << both << ");\n";
    }
  }

  void scan(ir::ScanOp s) {
    CombinedInput in = combinedInput(s.getSrcs(), "scans");
    if (s.getSrcs().size() == 2 && s.getSrcs()[1].getType() != s.getSrcs()[0].getType())
      throw Unsupported{"a two-operand scan whose operands have different layouts"};
    auto srcType = cast<RankedTensorType>(s.getSrcs()[0].getType());
    std::string resultType = tileType(cast<RankedTensorType>(s.getResult(0).getType()), in.element);
    std::string axis = std::to_string(s.getAxis());
    std::string smem = useShared("tle::scan_scratch_bytes<" + axis + ", " + tileType(srcType, in.element) + ">()");
    std::string call = "tle::scan<" + resultType + ", " + axis + ", " + (s.getReverse() ? "true" : "false") + ">(" + in.input +
                       ", " + combineLambda(s.getCombineOp().front(), in.elementTypes) + ", " + smem + ")";
    defineCombined(s, call, "scanned");
  }

  void reduce(ir::ReduceOp r) {
    CombinedInput in = combinedInput(r.getSrcs(), "reductions");
    auto srcType = cast<RankedTensorType>(r.getSrcs()[0].getType());
    std::string axis = std::to_string(r.getAxis());
    std::string smem = useShared("tle::reduce_scratch_bytes<" + axis + ", " + tileType(srcType, in.element) + ">()");
    std::string call = "tle::reduce<" + axis + ">(" + in.input + ", " + combineLambda(r.getCombineOp().front(), in.elementTypes) +
                       ", " + smem + ")";
    if (!isa<RankedTensorType>(r.getResult(0).getType())) call = "tle::scalar(" + call + ")";
    defineCombined(r, call, "reduced");
  }

  // Loop-carried values live in variables declared before the loop and assigned by yields.
  std::vector<std::string> declareCarried(ValueRange inits, ValueRange carried, StringRef fallback) {
    std::vector<std::string> vars;
    for (auto [init, value] : llvm::zip(inits, carried)) {
      if (asyncCarried_.count(value)) {  // lives in shared memory, not in a variable
        vars.emplace_back();
        continue;
      }
      std::string name = newName(value, fallback);
      line() << type(value.getType()) << " " << name;
      if (init) body_ << " = " << expr(init);
      body_ << ";\n";
      vars.push_back(name);
    }
    return vars;
  }
  void assignCarried(const std::vector<std::string> &vars, ValueRange values) {
    // Through temporaries when a yielded value is itself a carried variable (a swap).
    bool needTemps = false;
    for (auto [var, v] : llvm::zip(vars, values))
      if (!var.empty() && std::find(vars.begin(), vars.end(), expr(v)) != vars.end()) needTemps = true;
    std::vector<std::string> sources;
    for (auto [var, v] : llvm::zip(vars, values)) {
      if (var.empty()) {  // an async operand: copied, not assigned
        sources.emplace_back();
        continue;
      }
      if (!needTemps) {
        sources.push_back(expr(v));
        continue;
      }
      std::string tmp = claim("next");
      line() << "const auto " << tmp << " = " << expr(v) << ";\n";
      sources.push_back(tmp);
    }
    for (size_t i = 0; i < vars.size(); ++i)
      if (!vars[i].empty() && vars[i] != sources[i]) line() << vars[i] << " = " << sources[i] << ";\n";
  }

  void forLoop(scf::ForOp f) {
    std::vector<std::string> vars = declareCarried(f.getInitArgs(), f.getRegionIterArgs(), "carried");
    std::string slot;
    if (asyncPerLoop_.count(f)) {
      slot = claim("slot");
      line() << "int " << slot << " = 0;  // the operand slot of this iteration (of " << asyncDepth_.lookup(f) + 1 << ")\n";
      slotVars_[f] = slot;
    }
    std::string iv = claim("i");
    names_[f.getInductionVar()] = iv;
    std::string ivType = scalarType(f.getInductionVar().getType());
    if (auto stages = ir::ownNumStages(f)) line() << "// tl.range(num_stages=" << *stages << ")\n";
    line() << "for (" << ivType << " " << iv << " = " << expr(f.getLowerBound()) << "; " << iv << " < "
           << expr(f.getUpperBound()) << "; " << iv << " += " << expr(f.getStep()) << ") {\n";
    ++indent_;
    block(*f.getBody());
    assignCarried(vars, f.getBody()->getTerminator()->getOperands());
    if (!slot.empty())
      line() << slot << " = " << slot << " == " << asyncDepth_.lookup(f) << " ? 0 : " << slot << " + 1;\n";
    --indent_;
    line() << "}\n";
    // The last iteration's (masked) copies may still be in flight: let them land before the
    // slots can be reused.
    if (!slot.empty()) line() << "tle::wait_async_copies();\n";
    for (auto [i, result] : llvm::enumerate(f.getResults()))
      if (!vars[i].empty()) names_[result] = vars[i];
  }

  void ifElse(scf::IfOp i) {
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

  void whileLoop(scf::WhileOp w) {
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
  void elementwise(Operation *op) {
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
          {P::OEQ, "eq"}, {P::OGT, "gt"}, {P::OGE, "ge"}, {P::OLT, "lt"}, {P::OLE, "le"}, {P::ONE, "one"},
          {P::ORD, "ord"}, {P::UEQ, "ueq"}, {P::UGT, "ugt"}, {P::UGE, "uge"}, {P::ULT, "ult"}, {P::ULE, "ule"},
          {P::UNE, "ne"}, {P::UNO, "uno"}};
      auto it = names.find(c.getPredicate());
      if (it == names.end()) throw Unsupported{"constant float comparisons"};
      define(op, "tle::" + it->second + "(" + args + ")", "cond");
      return;
    }
    throw Unsupported{"the operation '" + name + "'"};
  }

  func::FuncOp f_;
  const CudaOptions &options_;
  std::string layoutsNamespace_;
  std::ostringstream body_;
  int indent_ = 1;
  unsigned lastLine_ = 0;
  llvm::DenseMap<Value, std::string> names_;
  std::set<std::string> used_;
  std::vector<gpu::BlockedLayoutAttr> blocked_;
  std::vector<std::string> scratch_;
  std::vector<std::string> staging_;  // dot-operand staging sizes
  bool usesAtomics_ = false;
  llvm::DenseMap<Operation *, int64_t> bufferOffsets_;
  std::vector<std::pair<std::string, std::string>> rawFunctions_;
  unsigned numWarps_ = 4;
  llvm::DenseSet<Operation *> printedWithPrevious_;
  std::vector<AsyncOperand> asyncOperands_;
  llvm::DenseMap<Operation *, size_t> asyncOperandOf_;  // conversion -> operand
  llvm::DenseMap<Operation *, AsyncLoad> asyncLoads_;
  llvm::DenseSet<Value> asyncCarried_;
  llvm::DenseMap<Operation *, int> asyncPerLoop_;
  llvm::DenseSet<Operation *> prologueBarriers_;
  bool usesStage_ = false;                          // some staging alternates halves (tle_stage)
  llvm::DenseSet<Operation *> waitedLoops_;        // loops whose in-body wait is printed
  llvm::DenseMap<Operation *, int> asyncDepth_;    // loop -> how many iterations ahead it copies
  llvm::DenseMap<Operation *, std::string> slotVars_;
  std::string asyncBytes_ = "0";
  int64_t bufferBytes_ = 0;
  bool usesShared_ = false;
};

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
