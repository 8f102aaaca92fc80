// Automatic specialization: variants of a kernel that assume what Triton's JIT would have
// seen at run time (aligned pointers, strides of 1, integers divisible by 16: here by 16 bytes of
// elements, see integerDivisor). Passes.td describes the roles and the variants; the launcher
// (CUDA printer) checks the assumptions.
#include "transforms/common/Passes.h"

#include "ir/Dialect.h"
#include "ir/KernelSettings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/BitVector.h"

namespace tle::common {

#define GEN_PASS_DEF_SPECIALIZEPARAMETERS
#include "transforms/common/Passes.h.inc"

using namespace mlir;

namespace {

enum class Role {
  None,        // nothing to gain: a float, a pointer only read as a scalar, a hinted parameter
  Vector,      // a pointer reached by tensor accesses: alignment lets them vectorize
  UnitStride,  // an integer that strides the last dimension of an address
  Address,     // another integer that reaches an address (a stride, an offset)
  Size,        // an integer compared with indices or bounding a loop (sizes)
};

enum class Assume { Nothing, Divisible, One };  // Divisible: pointers 16-byte aligned, integers by integerDivisor

bool isSpecializableInteger(Type t) {
  auto i = dyn_cast<IntegerType>(t);
  return i && (i.getWidth() == 32 || i.getWidth() == 64);
}

// Ops whose result is their first operand converted or reshaped (the same value for
// specialization).
bool passesValueOn(Operation *op) {
  return isa<ir::SplatOp, ir::BroadcastOp, ir::ExpandDimsOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp>(op);
}

// The values computed from `arg` by the operations that carry an offset forward (casts,
// shape changes, +, -, *), through loop-carried values; `direct` is the subset that is
// `arg` itself, only converted or reshaped.
struct Derived {
  llvm::SmallPtrSet<Value, 16> all, direct;
};

Derived derivedValues(Value arg) {
  Derived d;
  SmallVector<std::pair<Value, bool>> work{{arg, true}};
  auto add = [&](Value v, bool direct) {
    bool fresh = d.all.insert(v).second;
    if (direct && d.direct.insert(v).second)
      work.push_back({v, true});
    else if (fresh)
      work.push_back({v, false});
  };
  d.all.insert(arg);
  d.direct.insert(arg);
  while (!work.empty()) {
    auto [v, direct] = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (passesValueOn(user))
        add(user->getResult(0), direct);
      else if (isa<arith::MulIOp, arith::AddIOp, arith::SubIOp>(user))
        add(user->getResult(0), false);
      else if (auto loop = dyn_cast<scf::ForOp>(user)) {
        unsigned first = loop.getNumControlOperands();
        if (use.getOperandNumber() >= first) {
          unsigned i = use.getOperandNumber() - first;
          add(loop.getRegionIterArgs()[i], false);
          add(loop.getResult(i), false);
        }
      } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        if (auto loop = dyn_cast<scf::ForOp>(yield->getParentOp())) {
          add(loop.getRegionIterArgs()[use.getOperandNumber()], false);
          add(loop.getResult(use.getOperandNumber()), false);
        }
      }
    }
  }
  return d;
}

// An index tensor that varies along its last axis only: [N] or [1, ..., 1, N].
bool variesAlongLastAxisOnly(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  if (!tensor || tensor.getRank() == 0 || tensor.getShape().back() <= 1) return false;
  for (int64_t extent : tensor.getShape().drop_back())
    if (extent != 1) return false;
  return true;
}

Role integerRole(const Derived &d) {
  bool address = false, unit = false, size = false;
  for (Value v : d.all)
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned n = use.getOperandNumber();
      if (auto addptr = dyn_cast<ir::AddPtrOp>(user)) {
        if (use.get() == addptr.getOffset()) address = true;
      } else if (auto make = dyn_cast<ir::MakeBlockPtrOp>(user)) {
        unsigned strides = 1 + make.getShape().size(), offsets = strides + make.getStrides().size();
        ArrayRef<int32_t> order = make.getOrder();
        if (n < strides) size = true;
        else address = true;
        if (n >= strides && n < offsets && d.direct.count(v) && !order.empty() && n - strides == static_cast<unsigned>(order.front()))
          unit = true;
      } else if (auto desc = dyn_cast<ir::MakeTensorDescOp>(user)) {
        unsigned strides = 1 + desc.getShape().size();
        if (n < strides) size = true;
        else address = true;
        if (d.direct.count(v) && n == strides + desc.getStrides().size() - 1) unit = true;
      } else if (isa<arith::CmpIOp>(user)) {
        size = true;  // a mask or a bound: divisibility makes runs of equal mask bits
      } else if (auto loop = dyn_cast<scf::ForOp>(user); loop && n < loop.getNumControlOperands()) {
        size = true;
      } else if (isa<arith::MulIOp>(user) && d.direct.count(v)) {
        // arange along the last axis times this integer: the stride of the fastest dimension
        Value other = user->getOperand(n == 0 ? 1 : 0);
        if (variesAlongLastAxisOnly(other.getType()) && !d.direct.count(other)) unit = true;
      }
    }
  if (address) return unit ? Role::UnitStride : Role::Address;
  return size ? Role::Size : Role::None;
}

// Whether `indices`, a tensor computed from a size (a comparison with it, a remainder by it),
// runs along the last axis of the tiles it reaches, the contiguous one of a row-major tile:
// a tensor of rank 2 or more whose last extent is not 1, or a 1-D tensor that becomes one
// ([1, N] by expand_dims, broadcast, or used as it is in an access). A [N] that becomes
// [N, 1] runs along rows.
bool runsAlongLastAxis(Value indices) {
  SmallVector<Value> work{indices};
  llvm::SmallPtrSet<Value, 16> seen{indices};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    if (!tensor) continue;
    if (tensor.getRank() >= 2) {
      if (tensor.getShape().back() != 1) return true;
      continue;
    }
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto expand = dyn_cast<ir::ExpandDimsOp>(user)) {
        if (expand.getAxis() == 0) return true;
        continue;  // [N, 1]: along the rows
      }
      if (isa<ir::LoadOp, ir::StoreOp, ir::AddPtrOp, ir::BroadcastOp>(user)) return true;
      for (Value r : user->getResults())
        if (seen.insert(r).second) work.push_back(r);
    }
  }
  return false;
}

// Whether a size (Role::Size; `d`, its derived values) bounds an axis that accesses are
// vectorized along: compared with or dividing indices along a tile's last axis, or the shape
// of a block pointer's or descriptor's fastest dimension. Tutorial 03's K (the mask along A's rows of K) and N (B's
// columns, `% N`) do; M (`% M` and the store mask, along rows) does not.
bool boundsContiguousAxis(const Derived &d) {
  for (Value v : d.all)
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned n = use.getOperandNumber();
      if (isa<arith::CmpIOp, arith::RemSIOp, arith::RemUIOp, arith::DivSIOp, arith::DivUIOp>(user)) {
        if (runsAlongLastAxis(user->getResult(0))) return true;
      } else if (auto make = dyn_cast<ir::MakeBlockPtrOp>(user)) {
        ArrayRef<int32_t> order = make.getOrder();
        if (n >= 1 && n < 1 + make.getShape().size() && (order.empty() || n - 1 == static_cast<unsigned>(order.front()))) return true;
      } else if (auto desc = dyn_cast<ir::MakeTensorDescOp>(user)) {
        if (n == desc.getShape().size()) return true;  // the last dimension's extent
      }
    }
  return false;
}

// A pointer whose derived values include a tensor of pointers or a block pointer. The
// pointer is followed through offsets, loop-carried values, the results of `if` and
// `select` it may become, and the ops that pass it on as it is or at a peer's address
// (dl.symm_at, tle.remote, dl.consume_token: the symmetric heap keeps alignment).
Role pointerRole(Value arg) {
  SmallVector<Value> work{arg};
  llvm::SmallPtrSet<Value, 16> seen{arg};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<ir::MakeBlockPtrOp, ir::MakeTensorDescOp>(user)) return Role::Vector;
      if (isa<ir::SplatOp, ir::BroadcastOp, ir::ExpandDimsOp>(user)) return Role::Vector;
      if (isa<ir::AddPtrOp>(user) && use.getOperandNumber() == 0) {
        Value r = user->getResult(0);
        if (isa<RankedTensorType>(r.getType())) return Role::Vector;
        if (seen.insert(r).second) work.push_back(r);
      } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
        unsigned first = loop.getNumControlOperands();
        if (use.getOperandNumber() >= first) {
          Value inner = loop.getRegionIterArgs()[use.getOperandNumber() - first];
          if (seen.insert(inner).second) work.push_back(inner);
        }
      } else if (isa<scf::YieldOp>(user) && isa<scf::IfOp>(user->getParentOp())) {
        Value merged = user->getParentOp()->getResult(use.getOperandNumber());
        if (seen.insert(merged).second) work.push_back(merged);
      } else if ((isa<arith::SelectOp>(user) && use.getOperandNumber() > 0) ||
                 (isa<ir::SymmAtOp, ir::RemoteOp, ir::ConsumeTokenOp>(user) && use.getOperandNumber() == 0)) {
        Value passed = user->getResult(0);
        if (isa<RankedTensorType>(passed.getType())) return Role::Vector;
        if (seen.insert(passed).second) work.push_back(passed);
      }
    }
  }
  return Role::None;
}

// A dot operand loaded through a tensor of pointers `base + i * s_first + j * s_last`
// (i varying along the first axis only, j along the last): the base pointer's parameter and
// the integer parameters striding each axis. A caller may hand the matrix in either order
// (tutorial 03's fp8 B and nn.Linear's weights are K-contiguous), and only the variant
// compiled for that order reads it in 16-byte chunks.
struct OperandStrides {
  unsigned pointer;
  llvm::SmallVector<unsigned> first, last;
};

// The function argument `v` is, through splats, broadcasts, expansions and integer casts.
std::optional<unsigned> directArgument(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!passesValueOn(def)) return std::nullopt;
    v = def->getOperand(0);
  }
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp())) return std::nullopt;
  return arg.getArgNumber();
}

// The axis a rank-2 index tensor varies along alone ([N, 1]: 0, [1, N]: 1).
std::optional<int> soleAxis(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  if (!tensor || tensor.getRank() != 2) return std::nullopt;
  if (tensor.getDimSize(0) > 1 && tensor.getDimSize(1) == 1) return 0;
  if (tensor.getDimSize(0) == 1 && tensor.getDimSize(1) > 1) return 1;
  return std::nullopt;
}

// Adds the parameters multiplying an index of one axis in `offset` (a sum of such terms).
void collectAxisStrides(Value offset, OperandStrides &out) {
  SmallVector<Value> work{offset};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def) continue;
    if (isa<arith::AddIOp, arith::SubIOp>(def)) {
      work.append(def->operand_begin(), def->operand_end());
    } else if (isa<ir::BroadcastOp, arith::ExtSIOp, arith::ExtUIOp>(def)) {
      work.push_back(def->getOperand(0));
    } else if (isa<arith::MulIOp>(def)) {
      for (int side : {0, 1}) {
        std::optional<unsigned> arg = directArgument(def->getOperand(side));
        std::optional<int> axis = soleAxis(def->getOperand(1 - side).getType());
        if (arg && axis) (*axis == 0 ? out.first : out.last).push_back(*arg);
      }
    }
  }
}

// The pointer parameter and axis strides of each dot operand loaded by pointer arithmetic.
SmallVector<OperandStrides> dotOperandStrides(func::FuncOp kernel) {
  SmallVector<OperandStrides> found;
  kernel.walk([&](ir::DotOp dot) {
    for (Value operand : {dot.getA(), dot.getB()}) {
      Value v = operand;
      while (Operation *def = v.getDefiningOp()) {  // conversions and transposes of the loaded tile
        if (!isa<ir::TransOp>(def) && !(def->getNumOperands() == 1 && isa<arith::ArithDialect>(def->getDialect()))) break;
        v = def->getOperand(0);
      }
      auto load = v.getDefiningOp<ir::LoadOp>();
      if (!load) continue;
      OperandStrides strides;
      Value ptr = load.getPtr();
      bool reached = false;
      for (int steps = 0; steps < 32 && !reached; ++steps) {
        if (auto arg = dyn_cast<BlockArgument>(ptr)) {
          if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()); loop && arg.getArgNumber() > 0) {
            ptr = loop.getInitArgs()[arg.getArgNumber() - 1];  // the pointers the loop starts from
            continue;
          }
          if (isa<func::FuncOp>(arg.getOwner()->getParentOp())) {
            strides.pointer = arg.getArgNumber();
            reached = true;
          }
          break;
        }
        Operation *def = ptr.getDefiningOp();
        if (auto add = dyn_cast<ir::AddPtrOp>(def)) {
          collectAxisStrides(add.getOffset(), strides);
          ptr = add.getPtr();
        } else if (isa<ir::SplatOp, ir::BroadcastOp, ir::ExpandDimsOp>(def)) {
          ptr = def->getOperand(0);
        } else {
          break;
        }
      }
      if (reached && !strides.first.empty() && !strides.last.empty()) found.push_back(std::move(strides));
    }
  });
  return found;
}

// What the variants assume an integer divisible by: the elements of the target's widest
// vector (16 bytes on CUDA) of the smallest type a pointer parameter, hinted or not, points
// to: 8 for a kernel of 16-bit tiles, 4 for fp32, 16 with fp8. An offset or a size that many
// elements keeps every row aligned to that vector and every mask uniform over it, as 16
// does, and admits more arguments: K = 1000 runs the variants of a 16-bit matmul, where
// Triton's JIT (divisibility 16) reads its rows element by element. Without a pointer
// parameter (the integers reach a symmetric heap or a descriptor only), the vector's bytes.
// Elements count at most 8 bytes, so that the divisor is at least 2: a variant's assumption
// is always one the launcher tests.
unsigned integerDivisor(func::FuncOp kernel) {
  constexpr int64_t kWidestElement = 8;
  const int64_t vectorBytes = ir::targetOf(kernel).vectorBytes();
  std::optional<int64_t> smallest;
  for (BlockArgument arg : kernel.getArguments()) {
    auto pointer = dyn_cast<ir::PointerType>(arg.getType());
    if (!pointer) continue;
    Type pointee = pointer.getPointeeType();
    const int64_t bytes = pointee.isIntOrFloat() ? std::clamp<int64_t>(ir::elementBytes(pointee), 1, kWidestElement) : 1;
    smallest = std::min(smallest.value_or(bytes), bytes);
  }
  return static_cast<unsigned>(vectorBytes / smallest.value_or(1));
}

struct SpecializeParametersPass : impl::SpecializeParametersBase<SpecializeParametersPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> kernels;
    auto kernelAttr = getContext().getOrLoadDialect<ir::TleDialect>()->getKernelAttrHelper();
    for (auto f : getOperation().getOps<func::FuncOp>())
      if (kernelAttr.isAttrPresent(f) && ir::dispatchSymbol(f).empty() && !f.isExternal()) kernels.push_back(f);
    for (func::FuncOp f : kernels) specialize(f);
  }

  void specialize(func::FuncOp kernel) {
    SmallVector<Role> roles;
    llvm::BitVector contiguousSizes(kernel.getNumArguments());
    bool any = false;
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
      Value arg = kernel.getArgument(i);
      Role role = Role::None;
      if (ir::parameterDivisibility(kernel, i) == 1) {
        if (isa<ir::PointerType>(arg.getType())) {
          role = pointerRole(arg);
        } else if (isSpecializableInteger(arg.getType())) {
          Derived d = derivedValues(arg);
          role = integerRole(d);
          if (role == Role::Size && boundsContiguousAxis(d)) contiguousSizes.set(i);
        }
      }
      roles.push_back(role);
      any |= role != Role::None;
    }
    if (!any) return;
    // (1) everything Triton would specialize on; (2) the same, the sizes of rows free (only
    // where some sizes bound a contiguous axis and some do not); (3) the same, every size free.
    enum class FreeSizes { None, Rows, All };
    const unsigned sizeCount = llvm::count(roles, Role::Size);
    const unsigned contiguousCount = contiguousSizes.count();
    SmallVector<SmallVector<Assume>> variants;
    for (FreeSizes free : {FreeSizes::None, FreeSizes::Rows, FreeSizes::All}) {
      if (free != FreeSizes::None && sizeCount == 0) break;
      if (free == FreeSizes::Rows && (contiguousCount == 0 || contiguousCount == sizeCount)) continue;
      SmallVector<Assume> v;
      for (auto [i, r] : llvm::enumerate(roles)) {
        const bool freed = r == Role::Size && (free == FreeSizes::All || (free == FreeSizes::Rows && !contiguousSizes.test(i)));
        v.push_back(r == Role::None || freed ? Assume::Nothing : r == Role::UnitStride ? Assume::One : Assume::Divisible);
      }
      if (llvm::all_of(v, [](Assume a) { return a == Assume::Nothing; })) continue;
      variants.push_back(std::move(v));
    }
    // (4, 5) as (1) for a dot operand stored the other way round: its first axis' strides
    // equal to 1, its last axis' divisible (at most two such operands).
    if (!variants.empty()) {
      unsigned added = 0;
      SmallVector<unsigned, 2> pointers;
      for (const OperandStrides &o : dotOperandStrides(kernel)) {
        auto is = [&](ArrayRef<unsigned> args, Role role) {
          return llvm::all_of(args, [&](unsigned a) { return roles[a] == role; });
        };
        if (added == 2 || roles[o.pointer] != Role::Vector || !is(o.last, Role::UnitStride) || !is(o.first, Role::Address) ||
            llvm::is_contained(pointers, o.pointer))
          continue;
        pointers.push_back(o.pointer);
        SmallVector<Assume> v = variants.front();
        for (unsigned a : o.first) v[a] = Assume::One;
        for (unsigned a : o.last) v[a] = Assume::Divisible;
        variants.push_back(std::move(v));
        ++added;
      }
    }
    const unsigned divisor = integerDivisor(kernel);
    std::string symbol = kernel.getSymName().str();
    ir::setDispatch(kernel, symbol, 0);
    OpBuilder b(kernel->getContext());
    b.setInsertionPointAfter(kernel);
    for (auto [index, assumptions] : llvm::enumerate(variants)) {
      auto variant = cast<func::FuncOp>(b.clone(*kernel));
      variant.setSymName(ir::variantSymbol(symbol, static_cast<unsigned>(index + 1)));
      ir::setDispatch(variant, symbol, static_cast<unsigned>(index + 1));
      llvm::BitVector constant(variant.getNumArguments());
      OpBuilder entry = OpBuilder::atBlockBegin(&variant.front());
      for (auto [i, assume] : llvm::enumerate(assumptions)) {
        if (assume == Assume::Divisible) {
          const bool pointer = isa<ir::PointerType>(variant.getArgument(static_cast<unsigned>(i)).getType());
          ir::setParameterDivisibility(variant, static_cast<unsigned>(i), pointer ? 16 : divisor);
        } else if (assume == Assume::One) {
          Value arg = variant.getArgument(static_cast<unsigned>(i));
          auto one = entry.create<arith::ConstantOp>(arg.getLoc(), entry.getIntegerAttr(arg.getType(), 1));
          arg.replaceAllUsesWith(one);
          constant.set(i);
        }
      }
      variant.eraseArguments(constant);
      b.setInsertionPointAfter(variant);
    }
  }
};

}  // namespace

}  // namespace tle::common
