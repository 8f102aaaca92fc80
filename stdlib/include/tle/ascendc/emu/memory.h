// AscendC's memory objects: TPosition, TPipe and TBuf (which carve buffers out of a core's
// on-chip memories), LocalTensor (a typed view of on-chip memory) and GlobalTensor (a typed
// view of global memory, here host memory). Scalar accesses (GetValue/SetValue) are operations
// of the S pipe and take part in the hazard model.
#pragma once

#include "tle/ascendc/emu/core.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

namespace AscendC {

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};
using QuePosition = TPosition;

}  // namespace AscendC

namespace tle::ascendc::emu {

inline const char *positionName(AscendC::TPosition pos) {
  using AscendC::TPosition;
  switch (pos) {
  case TPosition::GM: return "GM";
  case TPosition::A1: return "A1";
  case TPosition::A2: return "A2";
  case TPosition::B1: return "B1";
  case TPosition::B2: return "B2";
  case TPosition::C1: return "C1";
  case TPosition::C2: return "C2";
  case TPosition::CO1: return "CO1";
  case TPosition::CO2: return "CO2";
  case TPosition::VECIN: return "VECIN";
  case TPosition::VECOUT: return "VECOUT";
  case TPosition::VECCALC: return "VECCALC";
  case TPosition::SPM: return "SPM";
  case TPosition::TSCM: return "TSCM";
  case TPosition::C2PIPE2GM: return "C2PIPE2GM";
  case TPosition::C2PIPE2LOCAL: return "C2PIPE2LOCAL";
  case TPosition::MAX: return "MAX";
  }
  return "?";
}

// The on-chip memory behind a logical position, where the emulation models one.
inline std::optional<MemoryKind> positionMemory(AscendC::TPosition pos) {
  using AscendC::TPosition;
  switch (pos) {
  case TPosition::VECIN:
  case TPosition::VECOUT:
  case TPosition::VECCALC: return MemoryKind::UB;
  case TPosition::A1:
  case TPosition::B1:
  case TPosition::C1:
  case TPosition::TSCM: return MemoryKind::L1;
  case TPosition::A2: return MemoryKind::L0A;
  case TPosition::B2: return MemoryKind::L0B;
  case TPosition::CO1: return MemoryKind::L0C;
  default: return std::nullopt;
  }
}

inline uint64_t alignUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

// Where a LocalTensor lies: a byte offset in one on-chip memory of the current core, and the
// end of the TBuf it came from.
struct LocalRegion {
  bool bound = false;  // false for a default-constructed tensor
  MemoryKind memory = MemoryKind::UB;
  AscendC::TPosition position = AscendC::TPosition::VECCALC;
  uint32_t byteOffset = 0;
  uint32_t elements = 0;
  uint32_t bufferEnd = 0;  // byte offset just past its TBuf
};

}  // namespace tle::ascendc::emu

namespace AscendC {

template <class T>
class LocalTensor;

namespace emu_detail {
using namespace ::tle::ascendc::emu;

// Checks an access of `bytes` bytes from the start of `tensor` by `op`. Reports a bounds finding
// when it leaves the tensor; returns false (skip the access) when it would leave the core's
// memory or the tensor is not bound to a buffer.
template <class T>
bool checkLocalExtent(Core &core, const char *op, const char *role, const LocalTensor<T> &tensor, uint64_t bytes) {
  const LocalRegion &r = tensor.emuRegion();
  if (!r.bound) {
    core.report(FindingKind::bad_argument,
                std::string(op) + ": " + role + " is a LocalTensor that no TBuf handed out (default-constructed)");
    return false;
  }
  const uint64_t tensorBytes = uint64_t(r.elements) * sizeof(T);
  const uint64_t end = uint64_t(r.byteOffset) + bytes;
  if (bytes > tensorBytes)
    core.report(FindingKind::bounds, std::string(op) + ": " + role + " accesses " +
                                         byteRange(memorySpec(r.memory).name, r.byteOffset, end) +
                                         ", beyond its tensor of " + std::to_string(r.elements) + " elements (" +
                                         std::to_string(tensorBytes) + " bytes)");
  if (end > memorySpec(r.memory).capacity) {
    core.report(FindingKind::bounds, std::string(op) + ": " + role + " would access " +
                                         byteRange(memorySpec(r.memory).name, r.byteOffset, end) + ", beyond the " +
                                         memorySpec(r.memory).name + " of the core; the access is skipped");
    return false;
  }
  return true;
}

// Reports an operand whose start is not a multiple of `alignment` bytes (the access still
// happens at the given address).
template <class T>
void checkAligned(Core &core, const char *op, const char *role, const LocalTensor<T> &tensor, uint32_t alignment) {
  const LocalRegion &r = tensor.emuRegion();
  if (r.bound && r.byteOffset % alignment != 0)
    core.report(FindingKind::alignment, std::string(op) + ": " + role + " starts at " + memorySpec(r.memory).name +
                                            " byte " + std::to_string(r.byteOffset) + ", not " +
                                            std::to_string(alignment) + "-byte aligned");
}

}  // namespace emu_detail

template <class T>
class LocalTensor {
public:
  using PrimType = T;

  LocalTensor() = default;

  // Scalar read (S pipe).
  T GetValue(const uint32_t index) const {
    using namespace ::tle::ascendc::emu;
    Core &core = currentCore();
    T value{};
    if (!scalarAccess(core, "LocalTensor::GetValue", index)) return value;
    const uint64_t lo = region_.byteOffset + uint64_t(index) * sizeof(T);
    Operation op(core, Pipe::S, "GetValue");
    op.readLocal(region_.memory, lo, lo + sizeof(T));
    op.finish();
    std::memcpy(&value, core.memory(region_.memory) + lo, sizeof(T));
    return value;
  }

  // Scalar write (S pipe).
  template <class S>
  void SetValue(const uint32_t index, const S value) const {
    using namespace ::tle::ascendc::emu;
    Core &core = currentCore();
    if (!scalarAccess(core, "LocalTensor::SetValue", index)) return;
    const uint64_t lo = region_.byteOffset + uint64_t(index) * sizeof(T);
    Operation op(core, Pipe::S, "SetValue");
    op.writeLocal(region_.memory, lo, lo + sizeof(T));
    op.finish();
    const T converted = static_cast<T>(value);
    std::memcpy(core.memory(region_.memory) + lo, &converted, sizeof(T));
  }

  // The tensor from element `offset` on.
  LocalTensor operator[](const uint32_t offset) const {
    LocalTensor view = *this;
    if (offset > region_.elements && region_.bound)
      ::tle::ascendc::emu::currentCore().report(
          ::tle::ascendc::emu::FindingKind::bounds,
          "LocalTensor::operator[](" + std::to_string(offset) + ") starts beyond its " +
              std::to_string(region_.elements) + " elements");
    view.region_.byteOffset = uint32_t(region_.byteOffset + uint64_t(offset) * sizeof(T));
    view.region_.elements = offset < region_.elements ? region_.elements - offset : 0;
    return view;
  }

  uint32_t GetSize() const { return region_.elements; }

  void SetSize(const uint32_t size) {
    if (region_.bound && uint64_t(region_.byteOffset) + uint64_t(size) * sizeof(T) > region_.bufferEnd)
      ::tle::ascendc::emu::currentCore().report(
          ::tle::ascendc::emu::FindingKind::bounds,
          "LocalTensor::SetSize(" + std::to_string(size) + ") extends the tensor beyond its TBuf");
    region_.elements = size;
  }

  template <class U>
  LocalTensor<U> ReinterpretCast() const {
    ::tle::ascendc::emu::LocalRegion r = region_;
    r.elements = uint32_t(uint64_t(region_.elements) * sizeof(T) / sizeof(U));
    return LocalTensor<U>::emuMake(r);
  }

  // The byte address within its on-chip memory.
  uint64_t GetPhyAddr() const { return region_.byteOffset; }
  uint64_t GetPhyAddr(const uint32_t offset) const { return region_.byteOffset + uint64_t(offset) * sizeof(T); }
  int32_t GetPosition() const { return int32_t(region_.position); }

  // Emulation only: where the tensor lies.
  const ::tle::ascendc::emu::LocalRegion &emuRegion() const { return region_; }
  static LocalTensor emuMake(const ::tle::ascendc::emu::LocalRegion &region) {
    LocalTensor t;
    t.region_ = region;
    return t;
  }

private:
  bool scalarAccess(::tle::ascendc::emu::Core &core, const char *call, uint32_t index) const {
    using namespace ::tle::ascendc::emu;
    if (!region_.bound) {
      core.report(FindingKind::bad_argument, std::string(call) + " on a LocalTensor that no TBuf handed out");
      return false;
    }
    const uint64_t hi = region_.byteOffset + (uint64_t(index) + 1) * sizeof(T);
    if (index >= region_.elements)
      core.report(FindingKind::bounds, std::string(call) + "(" + std::to_string(index) + ") beyond its " +
                                           std::to_string(region_.elements) + " elements");
    if (hi > memorySpec(region_.memory).capacity) {
      core.report(FindingKind::bounds, std::string(call) + "(" + std::to_string(index) +
                                           ") would leave the core's memory; skipped");
      return false;
    }
    return true;
  }

  ::tle::ascendc::emu::LocalRegion region_;
};

template <class T>
class GlobalTensor {
public:
  using PrimType = T;

  // bufferSize in elements; copies beyond it are reported and skipped.
  void SetGlobalBuffer(T *buffer, uint64_t bufferSize) {
    address_ = buffer;
    size_ = bufferSize;
    sized_ = true;
  }
  void SetGlobalBuffer(T *buffer) {
    address_ = buffer;
    size_ = 0;
    sized_ = false;
  }

  const T *GetPhyAddr() const { return address_; }
  T *GetPhyAddr(const uint64_t offset) const { return address_ + offset; }
  uint64_t GetSize() const { return size_; }

  // Scalar read of global memory (S pipe).
  T GetValue(const uint64_t offset) const {
    using namespace ::tle::ascendc::emu;
    Core &core = currentCore();
    T value{};
    if (!scalarAccess(core, "GlobalTensor::GetValue", offset)) return value;
    Operation op(core, Pipe::S, "GetValue");
    op.readGlobal(address_ + offset, sizeof(T));
    op.finish();
    std::memcpy(&value, address_ + offset, sizeof(T));
    return value;
  }

  // Scalar write of global memory (S pipe).
  void SetValue(const uint64_t offset, T value) {
    using namespace ::tle::ascendc::emu;
    Core &core = currentCore();
    if (!scalarAccess(core, "GlobalTensor::SetValue", offset)) return;
    Operation op(core, Pipe::S, "SetValue");
    op.writeGlobal(address_ + offset, sizeof(T));
    op.finish();
    std::memcpy(address_ + offset, &value, sizeof(T));
  }

  GlobalTensor operator[](const uint64_t offset) const {
    GlobalTensor view = *this;
    view.address_ = address_ + offset;
    view.size_ = offset < size_ ? size_ - offset : 0;
    return view;
  }

  template <class U>
  GlobalTensor<U> ReinterpretCast() const {
    GlobalTensor<U> view;
    if (sized_) view.SetGlobalBuffer(reinterpret_cast<U *>(address_), size_ * sizeof(T) / sizeof(U));
    else view.SetGlobalBuffer(reinterpret_cast<U *>(address_));
    return view;
  }

  // Emulation only: whether SetGlobalBuffer gave a size (then accesses are bounds-checked).
  bool emuSized() const { return sized_; }

private:
  bool scalarAccess(::tle::ascendc::emu::Core &core, const char *call, uint64_t offset) const {
    using namespace ::tle::ascendc::emu;
    if (!address_) {
      core.report(FindingKind::bad_argument, std::string(call) + " before SetGlobalBuffer");
      return false;
    }
    if (sized_ && offset >= size_) {
      core.report(FindingKind::bounds, std::string(call) + "(" + std::to_string(offset) + ") beyond its " +
                                           std::to_string(size_) + " elements; skipped");
      return false;
    }
    return true;
  }

  T *address_ = nullptr;
  uint64_t size_ = 0;
  bool sized_ = false;
};

namespace emu_detail {

// Checks an access of `bytes` bytes from the start of global tensor `tensor`; returns false
// (skip it) when it has no buffer or leaves a buffer of known size (host memory is not ours to
// overrun).
template <class T>
bool checkGlobalExtent(Core &core, const char *op, const char *role, const GlobalTensor<T> &tensor, uint64_t bytes) {
  if (!tensor.GetPhyAddr()) {
    core.report(FindingKind::bad_argument, std::string(op) + ": " + role + " is a GlobalTensor without SetGlobalBuffer");
    return false;
  }
  if (tensor.emuSized() && bytes > tensor.GetSize() * sizeof(T)) {
    core.report(FindingKind::bounds, std::string(op) + ": " + role + " accesses " + std::to_string(bytes) +
                                         " bytes of a GlobalTensor of " + std::to_string(tensor.GetSize()) +
                                         " elements; the copy is skipped");
    return false;
  }
  return true;
}

}  // namespace emu_detail

class TPipe;

// A buffer of one on-chip memory, carved out by TPipe::InitBuffer.
template <TPosition pos = TPosition::LCM>
class TBuf {
public:
  // The whole buffer.
  template <class T>
  LocalTensor<T> Get() {
    return make<T>("TBuf::Get", 0, length_ / sizeof(T));
  }
  // Its first `len` elements.
  template <class T>
  LocalTensor<T> Get(uint32_t len) {
    return make<T>("TBuf::Get", 0, len);
  }
  // `size` elements from byte `bufOffset` on.
  template <class T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
    return make<T>("TBuf::GetWithOffset", bufOffset, size);
  }

private:
  friend class TPipe;

  template <class T>
  LocalTensor<T> make(const char *call, uint32_t byteOffset, uint32_t elements) {
    using namespace ::tle::ascendc::emu;
    Core &core = currentCore();
    if (!initialised_) {
      core.report(FindingKind::bad_argument, std::string(call) + " on a TBuf<" + positionName(pos) +
                                                 "> that TPipe::InitBuffer has not initialised");
      return LocalTensor<T>();
    }
    const MemorySpec &spec = memorySpec(memory_);
    if (byteOffset % spec.alignment != 0)
      core.report(FindingKind::alignment, std::string(call) + ": byte offset " + std::to_string(byteOffset) +
                                              " in a " + spec.name + " buffer is not " +
                                              std::to_string(spec.alignment) + "-byte aligned");
    const uint64_t end = uint64_t(byteOffset) + uint64_t(elements) * sizeof(T);
    if (end > length_)
      core.report(FindingKind::bounds, std::string(call) + ": bytes [" + std::to_string(byteOffset) + ", " +
                                           std::to_string(end) + ") of a TBuf of " + std::to_string(length_) +
                                           " bytes");
    LocalRegion region;
    region.bound = true;
    region.memory = memory_;
    region.position = pos;
    region.byteOffset = start_ + byteOffset;
    region.elements = elements;
    region.bufferEnd = start_ + length_;
    return LocalTensor<T>::emuMake(region);
  }

  ::tle::ascendc::emu::MemoryKind memory_ = ::tle::ascendc::emu::MemoryKind::UB;
  uint32_t start_ = 0;
  uint32_t length_ = 0;
  bool initialised_ = false;
};

// Hands out buffers of the core's memories, each starting where the previous one of the same
// memory ended (rounded up to the memory's alignment).
class TPipe {
public:
  TPipe() = default;
  TPipe(const TPipe &) = delete;
  TPipe &operator=(const TPipe &) = delete;

  void Init() { used_ = {}; }
  void Destroy() { used_ = {}; }

  template <TPosition pos>
  bool InitBuffer(TBuf<pos> &buf, uint32_t len) {
    using namespace ::tle::ascendc::emu;
    Core &core = currentCore();
    const std::optional<MemoryKind> memory = positionMemory(pos);
    if (!memory) {
      core.report(FindingKind::bad_argument, std::string("TPipe::InitBuffer: TPosition::") + positionName(pos) +
                                                 " has no on-chip memory in the emulation");
      return false;
    }
    const MemorySpec &spec = memorySpec(*memory);
    const uint64_t start = alignUp(used_[size_t(*memory)], spec.alignment);
    const uint64_t end = start + alignUp(len, spec.alignment);
    buf.memory_ = *memory;
    buf.start_ = uint32_t(start);
    buf.length_ = len;
    buf.initialised_ = true;
    used_[size_t(*memory)] = uint32_t(end);
    if (end > spec.capacity) {
      core.report(FindingKind::capacity, "TPipe::InitBuffer of " + std::to_string(len) + " bytes at " +
                                             positionName(pos) + " needs " + byteRange(spec.name, start, end) +
                                             ", but a core has " + std::to_string(spec.capacity) + " bytes of " +
                                             spec.name);
      return false;
    }
    return true;
  }

private:
  std::array<uint32_t, ::tle::ascendc::emu::kMemoryKindCount> used_{};
};

}  // namespace AscendC
