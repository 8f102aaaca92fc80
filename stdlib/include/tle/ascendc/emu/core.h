// One emulated AI core: its on-chip memories, the hazard state of its pipes, its pending event
// flags and its findings. Every block of a launch runs on a fresh Core; AscendC calls reach it
// through a thread-local pointer (currentCore), so blocks running on different threads never
// share state.
#pragma once

#include "tle/ascendc/emu/findings.h"
#include "tle/ascendc/emu/hazards.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tle::ascendc::emu {

enum class MemoryKind : uint8_t { UB, L1, L0A, L0B, L0C };
inline constexpr int kMemoryKindCount = 5;

struct MemorySpec {
  const char *name;
  uint32_t capacity;   // bytes per core
  uint32_t alignment;  // bytes; buffer starts and tensor offsets must be multiples of it
};

// Atlas A2 (Ascend 910B): the vector core's Unified Buffer and the cube core's L1 and L0
// buffers, with the address alignment CANN gives for each memory (NPU architecture 2201). Some
// instructions ask for more: Mmad's L0C result 1024 bytes (one 16x16 float fractal), LoadData's
// and Mmad's L0A/L0B operands 512 bytes (one fractal).
inline const MemorySpec &memorySpec(MemoryKind kind) {
  static const MemorySpec specs[kMemoryKindCount] = {
      {"UB", 192 * 1024, 32},  {"L1", 512 * 1024, 32},  {"L0A", 64 * 1024, 512},
      {"L0B", 64 * 1024, 512}, {"L0C", 128 * 1024, 64},
  };
  return specs[int(kind)];
}

// On-chip memory starts as 0xFF bytes: NaN as float or half, -1 as a signed integer, so reads
// of never-written data stand out.
inline constexpr uint8_t kPoisonByte = 0xFF;

// Whether a memory's uninitialised reads are tracked per byte (the cube memories) rather than
// per 32-byte granule (UB). The cube path moves whole fractals whose padding rows and columns
// hold no data (an ND2NZ copy leaves them untouched, Mmad ignores them), so a per-byte record of
// which bytes hold defined data, carried along by the copies, tells a read of padding that
// matters from one that does not.
inline bool tracksDefinedBytes(MemoryKind kind) { return kind != MemoryKind::UB; }

// Which kind of AI core the kernel runs on (ASCEND_IS_AIV / ASCEND_IS_AIC).
enum class CoreKind : uint8_t { vector, cube };

inline std::string byteRange(const char *memory, uint64_t lo, uint64_t hi) {
  char text[96];
  if (std::string(memory) == "GM")
    std::snprintf(text, sizeof text, "GM bytes [0x%llx, 0x%llx)", (unsigned long long)lo, (unsigned long long)hi);
  else
    std::snprintf(text, sizeof text, "%s bytes [%llu, %llu)", memory, (unsigned long long)lo, (unsigned long long)hi);
  return text;
}

class Core {
public:
  static constexpr size_t kMaxFindings = 256;  // per core; the rest are counted, not kept

  Core(uint32_t blockIdx, uint32_t blockDim, CoreKind kind) : blockIdx_(blockIdx), blockDim_(blockDim), kind_(kind) {}
  Core(const Core &) = delete;
  Core &operator=(const Core &) = delete;

  uint32_t blockIdx() const { return blockIdx_; }
  uint32_t blockDim() const { return blockDim_; }
  CoreKind kind() const { return kind_; }

  void report(FindingKind kind, std::string message) {
    if (findings_.size() < kMaxFindings) findings_.push_back({blockIdx_, kind, std::move(message)});
    else ++droppedFindings_;
  }

  Findings takeFindings() {
    Findings out = std::move(findings_);
    if (droppedFindings_)
      out.push_back({blockIdx_, FindingKind::truncated,
                     std::to_string(droppedFindings_) + " further findings of this core were dropped"});
    findings_.clear();
    droppedFindings_ = 0;
    return out;
  }

  // The bytes of an on-chip memory (its whole capacity), created poisoned on first use.
  uint8_t *memory(MemoryKind kind) { return local(kind).bytes.data(); }
  // For memories that track it (tracksDefinedBytes): 1 for each byte holding defined data.
  uint8_t *definedBytes(MemoryKind kind) { return local(kind).defined.data(); }
  void setDefined(MemoryKind kind, uint64_t lo, uint64_t hi, bool defined) {
    LocalMemory &m = local(kind);
    if (m.defined.empty() || hi <= lo) return;
    hi = std::min<uint64_t>(hi, m.defined.size());
    if (lo < hi) std::fill(m.defined.begin() + int64_t(lo), m.defined.begin() + int64_t(hi), uint8_t(defined));
  }
  GranuleHistory &history(MemoryKind kind) { return local(kind).history; }
  IntervalHistory &globalHistory() { return global_; }

  PipeClocks &clocks() { return clocks_; }
  const PipeClocks &clocks() const { return clocks_; }
  const std::vector<OpRecord> &ops() const { return ops_; }

  // Issues a data operation to `pipe`; returns its index in the operation log.
  int32_t issue(Pipe pipe, const char *name) {
    uint64_t seq = clocks_.issue(pipe);
    ops_.push_back({pipe, seq, name});
    return int32_t(ops_.size() - 1);
  }

  void setFlag(int event, int32_t id) {
    const PipePair pipes = kHardEventPipes[event];
    if (!validEventId(event, id, "SetFlag")) return;
    std::optional<Clock> &slot = pendingFlags_[size_t(event)][size_t(id)];
    if (slot) {
      // Undefined on hardware (the flag is one bit); keep the first token, which is what a
      // WaitFlag released by the first set would have seen.
      report(FindingKind::double_set_flag,
             flagName("SetFlag", event, id) + " sets a flag that is already set and not yet waited " +
                 "(undefined behaviour on hardware; a later PipeBarrier may hang)");
      return;
    }
    slot = clocks_.token(pipes.src);
  }

  void waitFlag(int event, int32_t id) {
    const PipePair pipes = kHardEventPipes[event];
    if (!validEventId(event, id, "WaitFlag")) return;
    std::optional<Clock> &slot = pendingFlags_[size_t(event)][size_t(id)];
    if (!slot) {
      report(FindingKind::unset_flag, flagName("WaitFlag", event, id) +
                                          " waits on a flag never set before it in program order (the " +
                                          pipeName(pipes.dst) +
                                          " pipe hangs on hardware unless a later SetFlag releases it)");
      return;
    }
    clocks_.learn(pipes.dst, *slot);
    slot.reset();
  }

  // End of the kernel: flags still set would confuse the next kernel's waits.
  void finishKernel() {
    for (int event = 0; event < kHardEventCount; ++event)
      for (int id = 0; id < kEventIdCount; ++id)
        if (pendingFlags_[size_t(event)][size_t(id)]) {
          report(FindingKind::unwaited_flag, flagName("SetFlag", event, id) +
                                                 " is never waited (the flag stays set after the kernel ends)");
          pendingFlags_[size_t(event)][size_t(id)].reset();
        }
  }

  static std::string flagName(const char *call, int event, int32_t id) {
    const PipePair pipes = kHardEventPipes[event];
    return std::string(call) + "<" + hardEventName(pipes.src, pipes.dst) + ">(" + std::to_string(id) + ")";
  }

private:
  struct LocalMemory {
    LocalMemory(uint32_t capacity, bool trackDefined)
        : bytes(capacity, kPoisonByte), defined(trackDefined ? capacity : 0, 0), history(capacity) {}
    std::vector<uint8_t> bytes;
    std::vector<uint8_t> defined;  // empty unless tracksDefinedBytes
    GranuleHistory history;
  };

  LocalMemory &local(MemoryKind kind) {
    std::unique_ptr<LocalMemory> &m = memories_[size_t(kind)];
    if (!m) m = std::make_unique<LocalMemory>(memorySpec(kind).capacity, tracksDefinedBytes(kind));
    return *m;
  }

  bool validEventId(int event, int32_t id, const char *call) {
    if (id >= 0 && id < kEventIdCount) return true;
    report(FindingKind::bad_event_id,
           flagName(call, event, id) + ": event ids are 0.." + std::to_string(kEventIdCount - 1));
    return false;
  }

  uint32_t blockIdx_;
  uint32_t blockDim_;
  CoreKind kind_;
  std::array<std::unique_ptr<LocalMemory>, kMemoryKindCount> memories_;
  IntervalHistory global_;
  PipeClocks clocks_;
  std::vector<OpRecord> ops_;
  std::array<std::array<std::optional<Clock>, kEventIdCount>, kHardEventCount> pendingFlags_{};
  Findings findings_;
  uint64_t droppedFindings_ = 0;
};

namespace detail {
inline thread_local Core *currentCore = nullptr;
}

// The core running on this thread; AscendC calls outside tle::ascendc::emu::launch throw.
inline Core &currentCore() {
  if (!detail::currentCore)
    throw std::logic_error("AscendC emulation: an AscendC API was called outside tle::ascendc::emu::launch");
  return *detail::currentCore;
}

// Makes `core` the current core of this thread for the scope's lifetime.
class CurrentCoreScope {
public:
  explicit CurrentCoreScope(Core &core) : previous_(detail::currentCore) { detail::currentCore = &core; }
  ~CurrentCoreScope() { detail::currentCore = previous_; }
  CurrentCoreScope(const CurrentCoreScope &) = delete;
  CurrentCoreScope &operator=(const CurrentCoreScope &) = delete;

private:
  Core *previous_;
};

// One data operation on a pipe: declare what it reads, then what it writes; finish() (or the
// destructor) turns the hazards found into findings. Reads are declared first so that an
// in-place operation is checked against earlier writers, not against itself.
class Operation {
public:
  Operation(Core &core, Pipe pipe, const char *name) : core_(core), self_(core.issue(pipe, name)) {}
  ~Operation() { finish(); }
  Operation(const Operation &) = delete;
  Operation &operator=(const Operation &) = delete;

  // A read whose data matters: hazards, and reads of bytes holding no defined data.
  void readLocal(MemoryKind kind, uint64_t lo, uint64_t hi) {
    if (!tracksDefinedBytes(kind)) {
      readGranules(kind, lo, hi, /*checkUninitialised=*/true);
      return;
    }
    readGranules(kind, lo, hi, /*checkUninitialised=*/false);
    checkDefined(kind, lo, hi);
  }

  // A read that only moves the bytes (their definedness travels with them, see
  // tracksDefinedBytes): hazards only.
  void readLocalHazardsOnly(MemoryKind kind, uint64_t lo, uint64_t hi) {
    readGranules(kind, lo, hi, /*checkUninitialised=*/!tracksDefinedBytes(kind));
  }

  // Reports the bytes of [lo, hi) that hold no defined data (memories that track it).
  void checkDefined(MemoryKind kind, uint64_t lo, uint64_t hi) {
    if (!tracksDefinedBytes(kind)) return;
    const uint8_t *defined = core_.definedBytes(kind);
    hi = std::min<uint64_t>(hi, memorySpec(kind).capacity);
    for (uint64_t at = lo; at < hi;) {
      if (defined[at]) {
        ++at;
        continue;
      }
      uint64_t end = at;
      while (end < hi && !defined[end]) ++end;
      violations_.add(FindingKind::uninitialised_read, kNoOp, memorySpec(kind).name, at, end);
      at = end;
    }
  }

  // A write; the bytes then hold defined data (an instruction writing padding it leaves
  // undefined says so with Core::setDefined afterwards).
  void writeLocal(MemoryKind kind, uint64_t lo, uint64_t hi) {
    AccessChecker checker(core_.ops(), core_.clocks(), self_);
    const char *memory = memorySpec(kind).name;
    core_.history(kind).forEach(lo, hi, [&](AccessState &state, uint64_t a, uint64_t b) {
      checker.checkWrite(state, memory, a, b, violations_);
      checker.recordWrite(state);
    });
    core_.setDefined(kind, lo, hi, true);
  }

  void readGlobal(const void *address, uint64_t bytes) {
    AccessChecker checker(core_.ops(), core_.clocks(), self_);
    uint64_t lo = uint64_t(reinterpret_cast<uintptr_t>(address));
    core_.globalHistory().forEach(lo, lo + bytes, [&](AccessState &state, uint64_t a, uint64_t b) {
      checker.checkRead(state, "GM", a, b, /*onChip=*/false, violations_);
      checker.recordRead(state);
    });
  }

  void writeGlobal(const void *address, uint64_t bytes) {
    AccessChecker checker(core_.ops(), core_.clocks(), self_);
    uint64_t lo = uint64_t(reinterpret_cast<uintptr_t>(address));
    core_.globalHistory().forEach(lo, lo + bytes, [&](AccessState &state, uint64_t a, uint64_t b) {
      checker.checkWrite(state, "GM", a, b, violations_);
    });
    core_.globalHistory().assignWriter(lo, lo + bytes, self_);
  }

  void finish() {
    if (finished_) return;
    finished_ = true;
    for (const Violation &v : violations_.list()) core_.report(v.kind, message(v));
  }


private:
  void readGranules(MemoryKind kind, uint64_t lo, uint64_t hi, bool checkUninitialised) {
    AccessChecker checker(core_.ops(), core_.clocks(), self_);
    const char *memory = memorySpec(kind).name;
    core_.history(kind).forEach(lo, hi, [&](AccessState &state, uint64_t a, uint64_t b) {
      checker.checkRead(state, memory, a, b, checkUninitialised, violations_);
      checker.recordRead(state);
    });
  }

  std::string message(const Violation &v) const {
    const OpRecord &self = core_.ops()[size_t(self_)];
    const std::string range = byteRange(v.memory, v.lo, v.hi);
    if (v.kind == FindingKind::uninitialised_read) {
      if (std::string(v.memory) == memorySpec(MemoryKind::UB).name)
        return describeOp(self) + " reads " + range + " that nothing in this kernel has written (stale data on hardware)";
      return describeOp(self) + " reads " + range +
             " that hold no defined data: nothing in this kernel wrote them, or they are padding that an instruction "
             "left undefined (stale data on hardware)";
    }
    const OpRecord &other = core_.ops()[size_t(v.other)];
    const std::string unordered = " with no " + orderingRemedy(other.pipe, self.pipe) + " ordering them";
    switch (v.kind) {
    case FindingKind::hazard_raw: return describeOp(self) + " reads " + range + " written by " + describeOp(other) + unordered;
    case FindingKind::hazard_war: return describeOp(self) + " writes " + range + " read by " + describeOp(other) + unordered;
    default: return describeOp(self) + " writes " + range + " also written by " + describeOp(other) + unordered;
    }
  }

  Core &core_;
  int32_t self_;
  ViolationList violations_;
  bool finished_ = false;
};

}  // namespace tle::ascendc::emu
