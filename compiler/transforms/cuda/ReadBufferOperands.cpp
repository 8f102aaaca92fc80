// Dot operands read in place from shared-memory buffers. A warp-specialized kernel hands its
// tiles from partition to partition in tle.gpu buffers (pipe slots): a producer stores a tile
// through tle.gpu.local_ptr, a consumer loads it whole and feeds it to tl.dot (FlagTree's
// warp-specialized Sparse MLA: Q, the gathered KV rows and P). Loaded, such a tile goes to
// registers and back to shared memory (the staging region) for ldmatrix or wgmma; with the
// buffers filling shared memory there is not even room for the staging. Here such a buffer
// is laid out as the dots read it (each 2-D tile, the buffer or one slot of it, in dot.cuh's
// Swizzle16 arrangement with rows along dimension 0), every tle_gpu.local_ptr and
// tle_gpu.local_load of it follows that arrangement, and the dots read the tile in place:
//
//   %q = tle.alloc {tle_gpu.operand_buffer}
//   %v = tle_gpu.buffer_operand %slot : <tensor<64x256xbf16>, smem> -> <1, staged, operand>
//   %acc = tle_gpu.ring_dot %a, %v, %c          (a: registers, or another buffer_operand)
//
// A buffer qualifies when its tiles are 2-D, of 16-bit elements, with power-of-two sides of
// at least 64 elements (the 128-byte swizzle) by 8 rows, and it is reached only through
// tle.buffer_slot, pipe fields, tle_gpu.local_ptr without indices (whose pointers are only
// loaded from and stored to, perhaps transposed) and tle_gpu.local_load. A load qualifies
// when it reads a whole tile unmasked, only dot-operand conversions read it (perhaps through a
// transpose; an A operand not transposed: wgmma reads A K-major), and nothing between it and
// those dots may write memory. Ordering: the tiles reach a reading partition through pipes,
// whose commit fences the writers' stores for wgmma's proxy (pipe.cuh), so only
// warp-specialized kernels are taken, and a partition that reads a buffer in place writes it
// only after its last such read (Sparse MLA's output, staged in Q's buffer after the loop).
#include "transforms/cuda/Passes.h"

#include "ir/KernelSettings.h"
#include "transforms/common/AxisInfo.h"
#include "transforms/cuda/LayoutChoices.h"
#include "transforms/cuda/OperandCopies.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace tle::cuda {

#define GEN_PASS_DEF_READBUFFEROPERANDS
#include "transforms/cuda/Passes.h.inc"

using namespace mlir;

namespace {

// One dot-operand conversion of a loaded tile.
struct Consumer {
  gpu::ConvertLayoutOp convert;
  ir::TransOp trans;   // the loaded value's transpose the conversion reads; null: the value
  bool transposed;     // the operand is the buffer's tile transposed
  unsigned opIdx;
};

struct Candidate {
  ir::LoadOp load;
  gpu::LocalPtrOp pointers;
  ir::TransOp pointerTrans;  // tle-transpose-loads' transposed pointers; null: none
  SmallVector<Consumer> consumers;
};

bool isSixteenBitFloat(Type t) { return t.isF16() || t.isBF16(); }

// The buffer's 2-D tiles are a whole number of swizzle atoms (64 elements, 128 bytes, per row;
// 8 rows per group), with power-of-two sides as every tile's.
bool swizzlableTile(RankedTensorType tile) {
  if (tile.getRank() != 2 || !isSixteenBitFloat(tile.getElementType())) return false;
  const int64_t rows = tile.getDimSize(0), cols = tile.getDimSize(1);
  return llvm::isPowerOf2_64(rows) && llvm::isPowerOf2_64(cols) && cols >= 64 && rows >= 8;
}

gpu::LocalPtrOp wholeTilePointers(Value ptr) {
  auto pointers = ptr.getDefiningOp<gpu::LocalPtrOp>();
  return pointers && pointers.getIndices().empty() ? pointers : gpu::LocalPtrOp();
}

std::optional<Candidate> candidateOf(ir::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2 || load.getMask() || load.getOther() || load.getIsVolatile() || !isSixteenBitFloat(type.getElementType()))
    return std::nullopt;
  Candidate c{load, wholeTilePointers(load.getPtr()), {}, {}};
  if (!c.pointers) {
    c.pointerTrans = load.getPtr().getDefiningOp<ir::TransOp>();
    if (!c.pointerTrans || c.pointerTrans.getOrder() != ArrayRef<int32_t>{1, 0}) return std::nullopt;
    c.pointers = wholeTilePointers(c.pointerTrans.getSrc());
    if (!c.pointers) return std::nullopt;
  }
  auto take = [&](Operation *user, ir::TransOp trans) {
    auto convert = dyn_cast<gpu::ConvertLayoutOp>(user);
    std::optional<unsigned> opIdx = convert ? operandConversion(convert, /*copiedFromSource=*/false) : std::nullopt;
    if (!opIdx) return false;
    const bool transposed = (c.pointerTrans != nullptr) != (trans != nullptr);
    if (*opIdx == 0 && transposed) return false;  // A is read K-major: along the buffer's rows
    c.consumers.push_back({convert, trans, transposed, *opIdx});
    return true;
  };
  for (Operation *user : load->getUsers()) {
    if (auto trans = dyn_cast<ir::TransOp>(user)) {
      if (trans.getOrder() != ArrayRef<int32_t>{1, 0} || trans->use_empty()) return std::nullopt;
      for (Operation *u : trans->getUsers())
        if (!take(u, trans)) return std::nullopt;
    } else if (!take(user, {})) {
      return std::nullopt;
    }
  }
  if (c.consumers.empty()) return std::nullopt;
  // Read where the dots are: nothing in between may write memory.
  Block *block = load->getBlock();
  for (Consumer &u : c.consumers)
    for (Operation *user : u.convert->getUsers()) {
      Operation *at = block->findAncestorOpInBlock(*user);
      if (!at || writesBetween(load, at)) return std::nullopt;
    }
  return c;
}

class BufferOperands {
 public:
  BufferOperands(func::FuncOp f, gpu::WarpSpecializeOp ws) : f_(f), ws_(ws) {}

  void run() {
    llvm::MapVector<Operation *, SmallVector<Candidate>> byAlloc;
    f_.walk([&](ir::LoadOp load) {
      std::optional<Candidate> c = candidateOf(load);
      if (!c) return;
      if (ir::AllocOp alloc = gpu::allocOf(c->pointers.getBuffer())) byAlloc[alloc].push_back(std::move(*c));
    });
    llvm::DenseMap<Value, std::pair<Candidate *, Consumer *>> operandOf;  // conversion result -> its candidate
    for (auto &[alloc, candidates] : byAlloc) {
      if (!qualifies(cast<ir::AllocOp>(alloc), candidates)) continue;
      for (Candidate &c : candidates)
        for (Consumer &u : c.consumers) operandOf[u.convert.getResult()] = {&c, &u};
    }
    // The dots that read B in place (a ring dot's B is a slot); A too where it can.
    llvm::SetVector<ir::DotOp> dots;
    for (auto &[value, entry] : operandOf)
      for (Operation *user : value.getUsers())
        if (auto dot = dyn_cast<ir::DotOp>(user); dot && operandOf.count(dot.getB())) dots.insert(dot);
    if (dots.empty()) return;
    for (ir::DotOp dot : dots)
      for (Value operand : {Value(dot.getA()), Value(dot.getB())})
        if (auto it = operandOf.find(operand); it != operandOf.end()) gpu::setOperandBuffer(gpu::allocOf(it->second.first->pointers.getBuffer()));
    OpBuilder b(f_.getContext());
    for (ir::DotOp dot : dots) {
      b.setInsertionPoint(dot);
      Value a = dot.getA();
      if (auto it = operandOf.find(a); it != operandOf.end()) a = view(b, *it->second.first, *it->second.second);
      auto [candidate, consumer] = operandOf.lookup(dot.getB());
      Value slotB = view(b, *candidate, *consumer);
      auto ringDot = b.create<gpu::RingDotOp>(dot.getLoc(), dot.getType(), a, slotB, dot.getC(), /*in_flight=*/false);
      dot.replaceAllUsesWith(ringDot.getResult());
      dot.erase();
    }
    SmallVector<Candidate *> replaced;
    for (auto &[value, entry] : operandOf)
      if (!llvm::is_contained(replaced, entry.first)) replaced.push_back(entry.first);
    eraseDead(replaced);
    widenAccesses();
  }

 private:
  // Whether `alloc` can take the operand arrangement: its tiles, its uses, and the order of
  // its in-place reads and writes within each partition.
  bool qualifies(ir::AllocOp alloc, SmallVector<Candidate> &candidates) {
    auto buffer = cast<ir::BufferType>(alloc.getType());
    RankedTensorType tile = buffer.getBlockType();
    if (buffer.getSpace() != MemorySpace::Shared || tile.getRank() < 2) return false;
    auto tileShape = tile.getShape().take_back(2);
    if (!swizzlableTile(RankedTensorType::get(tileShape, tile.getElementType()))) return false;
    SmallVector<Operation *> writes;
    SmallVector<Value> work{alloc.getResult()};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (isa<ir::PipeCreateOp>(user)) continue;
        if (auto slot = dyn_cast<ir::BufferSlotOp>(user)) {
          work.push_back(slot.getResult());
          continue;
        }
        if (auto load = dyn_cast<gpu::LocalLoadOp>(user)) {
          if (cast<ir::BufferType>(load.getBuffer().getType()).getBlockType().getRank() != 2) return false;
          continue;
        }
        auto pointers = dyn_cast<gpu::LocalPtrOp>(user);
        if (!pointers || !pointers.getIndices().empty() || cast<ir::BufferType>(v.getType()).getBlockType().getRank() != 2) return false;
        if (!pointerUses(pointers, writes)) return false;
      }
    }
    // In-place reads and writes of one partition: the writes after the last read.
    for (Candidate &c : candidates)
      for (Consumer &u : c.consumers)
        for (Operation *dot : u.convert->getUsers())
          for (Operation *write : writes) {
            const unsigned p = gpu::partitionOf(dot);
            if (gpu::partitionOf(write) != p) continue;
            if (p == 0 || !ws_) return false;  // the default partition also runs the code before the partitions
            Block &entry = ws_.getWorkerRegions()[p - 1].front();
            Operation *readAt = entry.findAncestorOpInBlock(*dot), *writeAt = entry.findAncestorOpInBlock(*write);
            if (!readAt || !writeAt || !readAt->isBeforeInBlock(writeAt)) return false;
          }
    return true;
  }

  // The pointers' uses: loads and stores through them (perhaps transposed); collects the stores.
  static bool pointerUses(gpu::LocalPtrOp pointers, SmallVector<Operation *> &writes) {
    SmallVector<Value> values{pointers.getResult()};
    for (size_t i = 0; i < values.size(); ++i)
      for (OpOperand &use : values[i].getUses()) {
        Operation *user = use.getOwner();
        if (auto trans = dyn_cast<ir::TransOp>(user)) {
          values.push_back(trans.getResult());
        } else if (isa<ir::LoadOp>(user) && use.getOperandNumber() == 0) {
        } else if (isa<ir::StoreOp>(user) && use.getOperandNumber() == 0) {
          writes.push_back(user);
        } else {
          return false;
        }
      }
    return true;
  }

  // The buffer tile as the consumer's operand: its staged tile is the buffer's (or its
  // transpose) in 16-byte chunks along the buffer's rows.
  Value view(OpBuilder &b, Candidate &c, Consumer &u) {
    Value buffer = c.pointers.getBuffer();
    RankedTensorType tile = cast<ir::BufferType>(buffer.getType()).getBlockType();
    const int64_t rows = tile.getDimSize(0), cols = tile.getDimSize(1);
    const unsigned lanesAlong = static_cast<unsigned>(std::min<int64_t>(32, cols / kOperandChunkElements));
    const unsigned warps = gpu::partitionWarps(f_, gpu::partitionOf(c.load));
    SmallVector<unsigned> spt{1, kOperandChunkElements}, tpw{32 / lanesAlong, lanesAlong}, wpc{warps, 1}, order{1, 0};
    SmallVector<int64_t> shape{rows, cols};
    if (u.transposed) {
      std::swap(spt[0], spt[1]), std::swap(tpw[0], tpw[1]), std::swap(wpc[0], wpc[1]), std::swap(shape[0], shape[1]);
      order = {0, 1};
    }
    auto staged = RankedTensorType::get(shape, tile.getElementType(), gpu::BlockedLayoutAttr::get(b.getContext(), spt, tpw, wpc, order));
    auto type = gpu::OperandRingType::get(b.getContext(), 1, staged, u.convert.getType());
    return b.create<gpu::BufferOperandOp>(c.load.getLoc(), type, buffer);
  }

  // The conversions, transposes, loads and pointers of the tiles now read in place, where
  // nothing else reads them (users before the values they use).
  static void eraseDead(SmallVector<Candidate *> &replaced) {
    llvm::SetVector<Operation *> ops;
    for (Candidate *c : replaced)
      for (Consumer &u : c->consumers) ops.insert(u.convert);
    for (Candidate *c : replaced)
      for (Consumer &u : c->consumers)
        if (u.trans) ops.insert(u.trans);
    for (Candidate *c : replaced) ops.insert(c->load);
    for (Candidate *c : replaced)
      if (c->pointerTrans) ops.insert(c->pointerTrans);
    for (Candidate *c : replaced) ops.insert(c->pointers);
    for (Operation *op : ops)
      if (op->use_empty()) op->erase();
  }

  // Loads and stores through an operand buffer's pointers move a thread's consecutive
  // elements along the buffer's rows as one vector, up to a whole 16-byte chunk (the swizzle
  // keeps each chunk in one piece): 8 for a blocked layout with 8 a thread, 2 for an mma
  // accumulator (attention's P, stored for the other consumer's dot). A mask not uniform over
  // a vector is checked per element.
  void widenAccesses() {
    common::AxisAnalysis axis(f_);
    f_.walk([&](Operation *op) {
      if (!isa<ir::LoadOp, ir::StoreOp>(op)) return;
      gpu::LocalPtrOp pointers = wholeTilePointers(op->getOperand(0));
      if (!pointers || !gpu::isOperandBuffer(gpu::allocOf(pointers.getBuffer()))) return;
      auto type = cast<RankedTensorType>(pointers.getType());
      std::optional<std::pair<unsigned, unsigned>> run = registerRunDimension(type.getEncoding());
      if (!run || run->first != 1) return;
      // The largest power of two dividing the run, at most a chunk: a thread's run starts at a
      // multiple of its length, so such a vector never straddles two chunks.
      const unsigned vec = std::min<unsigned>(kOperandChunkElements, run->second & -run->second);
      if (vec < 2) return;
      gpu::setVectorWidth(op, static_cast<int>(vec));
      Value mask = isa<ir::LoadOp>(op) ? cast<ir::LoadOp>(op).getMask() : cast<ir::StoreOp>(op).getMask();
      bool uniform = !mask || axis.lookup(mask).constancy[1] % vec == 0;
      if (auto load = dyn_cast<ir::LoadOp>(op); load && load.getOther())
        uniform = uniform && axis.lookup(load.getOther()).constancy[1] % vec == 0;
      if (!uniform) gpu::setMaskPerElement(op);
    });
  }

  func::FuncOp f_;
  gpu::WarpSpecializeOp ws_;
};

struct ReadBufferOperandsPass : impl::ReadBufferOperandsBase<ReadBufferOperandsPass> {
  using ReadBufferOperandsBase::ReadBufferOperandsBase;

  void runOnOperation() override {
    func::FuncOp f = getOperation();
    gpu::WarpSpecializeOp ws = gpu::warpSpecializeOf(f);
    if (!ws || !ir::targetOf(f, target).has(Feature::MmaSync)) return;
    BufferOperands(f, ws).run();
  }
};

}  // namespace

}  // namespace tle::cuda
