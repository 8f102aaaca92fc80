// The hazard model of one AI core. On hardware the pipes (S, V, M, MTE1, MTE2, MTE3, FIX) run
// independently: an instruction issued to one pipe may still be running while a later one on
// another pipe starts. A CPU run executes everything in program order, so it is right even
// where hardware is not. To report what hardware may get wrong, every data operation gets a
// sequence number on its pipe, and each pipe keeps a vector clock of how many operations of
// every pipe it is guaranteed to see completed. Only SetFlag/WaitFlag (a token carrying the
// setter's knowledge) and PipeBarrier advance those clocks. Every byte range remembers its last
// writer and its last reader on each pipe; an access not ordered after them is a hazard.
#pragma once

#include "tle/ascendc/emu/findings.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace tle::ascendc::emu {

enum class Pipe : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX };
inline constexpr int kPipeCount = 7;

inline const char *pipeName(Pipe pipe) {
  switch (pipe) {
  case Pipe::S: return "S";
  case Pipe::V: return "V";
  case Pipe::M: return "M";
  case Pipe::MTE1: return "MTE1";
  case Pipe::MTE2: return "MTE2";
  case Pipe::MTE3: return "MTE3";
  case Pipe::FIX: return "FIX";
  }
  return "?";
}

struct PipePair {
  Pipe src;
  Pipe dst;
};

// Source and destination pipe of each AscendC::HardEvent value, in that enum's order (sync.h
// checks the count). The name of an event is "<src>_<dst>".
inline constexpr PipePair kHardEventPipes[] = {
    {Pipe::MTE2, Pipe::MTE1}, {Pipe::MTE1, Pipe::MTE2}, {Pipe::MTE1, Pipe::M},    {Pipe::M, Pipe::MTE1},
    {Pipe::MTE2, Pipe::V},    {Pipe::V, Pipe::MTE2},    {Pipe::MTE3, Pipe::V},    {Pipe::V, Pipe::MTE3},
    {Pipe::M, Pipe::V},       {Pipe::V, Pipe::M},       {Pipe::V, Pipe::V},       {Pipe::MTE3, Pipe::MTE1},
    {Pipe::MTE1, Pipe::MTE3}, {Pipe::MTE1, Pipe::V},    {Pipe::MTE2, Pipe::M},    {Pipe::M, Pipe::MTE2},
    {Pipe::V, Pipe::MTE1},    {Pipe::M, Pipe::FIX},     {Pipe::FIX, Pipe::M},     {Pipe::MTE3, Pipe::MTE2},
    {Pipe::MTE2, Pipe::MTE3}, {Pipe::S, Pipe::V},       {Pipe::V, Pipe::S},       {Pipe::S, Pipe::MTE2},
    {Pipe::MTE2, Pipe::S},    {Pipe::S, Pipe::MTE3},    {Pipe::MTE3, Pipe::S},    {Pipe::MTE2, Pipe::FIX},
    {Pipe::FIX, Pipe::MTE2},  {Pipe::FIX, Pipe::S},     {Pipe::M, Pipe::S},       {Pipe::FIX, Pipe::MTE3},
    {Pipe::MTE1, Pipe::FIX},  {Pipe::FIX, Pipe::MTE1},  {Pipe::FIX, Pipe::FIX},
};
inline constexpr int kHardEventCount = int(sizeof(kHardEventPipes) / sizeof(kHardEventPipes[0]));
inline constexpr int kEventIdCount = 8;  // event ids 0..7 on Atlas A2

inline std::string hardEventName(Pipe src, Pipe dst) { return std::string(pipeName(src)) + "_" + pipeName(dst); }

inline bool hasHardEvent(Pipe src, Pipe dst) {
  for (const PipePair &pair : kHardEventPipes)
    if (pair.src == src && pair.dst == dst) return true;
  return false;
}

// How a consumer pipe is ordered after a producer pipe in AscendC.
inline std::string orderingRemedy(Pipe producer, Pipe consumer) {
  if (producer == consumer) return std::string("PipeBarrier<PIPE_") + pipeName(producer) + ">";
  if (hasHardEvent(producer, consumer)) return "SetFlag/WaitFlag " + hardEventName(producer, consumer);
  return "synchronisation (there is no HardEvent " + hardEventName(producer, consumer) +
         "; PipeBarrier<PIPE_ALL> would order them)";
}

using Clock = std::array<uint64_t, kPipeCount>;

// issued[P]: operations issued to pipe P so far (the last one's sequence number).
// known[P][Q]: how many of Q's operations P is guaranteed to see completed.
class PipeClocks {
public:
  // A new operation on `pipe`; returns its sequence number (1, 2, ...).
  uint64_t issue(Pipe pipe) {
    uint64_t seq = ++issued_[index(pipe)];
    // The scalar unit executes its own loads and stores one after another.
    if (pipe == Pipe::S) known_[index(Pipe::S)][index(Pipe::S)] = seq;
    return seq;
  }
  uint64_t issued(Pipe pipe) const { return issued_[index(pipe)]; }
  bool sees(Pipe observer, Pipe producer, uint64_t seq) const {
    return known_[index(observer)][index(producer)] >= seq;
  }
  // What SetFlag from `src` carries: everything src knows, and all of src's own operations.
  Clock token(Pipe src) const {
    Clock token = known_[index(src)];
    token[index(src)] = issued_[index(src)];
    return token;
  }
  // WaitFlag on `dst`: it now knows whatever the token's setter knew.
  void learn(Pipe dst, const Clock &token) {
    Clock &known = known_[index(dst)];
    for (int q = 0; q < kPipeCount; ++q) known[q] = std::max(known[q], token[q]);
  }
  void barrier(Pipe pipe) { known_[index(pipe)][index(pipe)] = issued_[index(pipe)]; }
  void barrierAll() {
    for (Clock &known : known_) known = issued_;
  }

private:
  static int index(Pipe pipe) { return int(pipe); }
  Clock issued_{};
  std::array<Clock, kPipeCount> known_{};
};

// One operation in a core's log; histories name operations by their index in the log.
struct OpRecord {
  Pipe pipe;
  uint64_t seq;      // its number on its pipe
  const char *name;  // the API call, e.g. "DataCopyPad"
};

inline std::string describeOp(const OpRecord &op) {
  return std::string(pipeName(op.pipe)) + " " + op.name + " #" + std::to_string(op.seq);
}

inline constexpr int32_t kNoOp = -1;

// The last writer and the last reader on each pipe of some bytes (operation log indices).
struct AccessState {
  int32_t writer = kNoOp;
  std::array<int32_t, kPipeCount> readers = {kNoOp, kNoOp, kNoOp, kNoOp, kNoOp, kNoOp, kNoOp};

  bool operator==(const AccessState &other) const { return writer == other.writer && readers == other.readers; }
};

// A hazard of one operation against one earlier operation, over a byte range of one memory.
struct Violation {
  FindingKind kind;
  int32_t other;       // the earlier operation (kNoOp for an uninitialised read)
  const char *memory;  // "UB", "GM", ...
  uint64_t lo, hi;     // byte range (offsets in the memory; addresses for GM)
};

// Collects the hazards of one operation, merging those against the same earlier operation.
class ViolationList {
public:
  void add(FindingKind kind, int32_t other, const char *memory, uint64_t lo, uint64_t hi) {
    for (Violation &v : list_) {
      if (v.kind == kind && v.other == other && v.memory == memory) {
        v.lo = std::min(v.lo, lo);
        v.hi = std::max(v.hi, hi);
        return;
      }
    }
    list_.push_back({kind, other, memory, lo, hi});
  }
  const std::vector<Violation> &list() const { return list_; }

private:
  std::vector<Violation> list_;
};

// Checks accesses of the operation `self` against the histories, and records them.
class AccessChecker {
public:
  AccessChecker(const std::vector<OpRecord> &ops, const PipeClocks &clocks, int32_t self)
      : ops_(ops), clocks_(clocks), self_(self), pipe_(ops[size_t(self)].pipe) {}

  // A read must see the last write. Reading what nothing wrote reads stale data, which matters
  // for on-chip memories only (GM holds the host's data).
  void checkRead(const AccessState &state, const char *memory, uint64_t lo, uint64_t hi, bool onChip,
                 ViolationList &out) const {
    if (state.writer == kNoOp) {
      if (onChip) out.add(FindingKind::uninitialised_read, kNoOp, memory, lo, hi);
      return;
    }
    if (state.writer != self_ && !completedBefore(state.writer))
      out.add(FindingKind::hazard_raw, state.writer, memory, lo, hi);
  }

  // A write must come after the last reads and the last write on other pipes; a pipe's own
  // earlier accesses are ordered by in-order issue.
  void checkWrite(const AccessState &state, const char *memory, uint64_t lo, uint64_t hi, ViolationList &out) const {
    for (int p = 0; p < kPipeCount; ++p) {
      int32_t reader = state.readers[size_t(p)];
      if (reader == kNoOp || reader == self_ || Pipe(p) == pipe_) continue;
      if (!completedBefore(reader)) out.add(FindingKind::hazard_war, reader, memory, lo, hi);
    }
    if (state.writer != kNoOp && state.writer != self_ && ops_[size_t(state.writer)].pipe != pipe_ &&
        !completedBefore(state.writer))
      out.add(FindingKind::hazard_waw, state.writer, memory, lo, hi);
  }

  void recordRead(AccessState &state) const { state.readers[size_t(pipe_)] = self_; }
  void recordWrite(AccessState &state) const {
    state = AccessState();  // earlier readers were checked (or reported) against this write
    state.writer = self_;
  }

private:
  bool completedBefore(int32_t op) const {
    const OpRecord &earlier = ops_[size_t(op)];
    return clocks_.sees(pipe_, earlier.pipe, earlier.seq);
  }

  const std::vector<OpRecord> &ops_;
  const PipeClocks &clocks_;
  int32_t self_;
  Pipe pipe_;
};

// Access history of an on-chip memory, one state per 32-byte granule (the unit in which UB,
// L1 and L0 are accessed).
class GranuleHistory {
public:
  static constexpr uint64_t kGranule = 32;

  explicit GranuleHistory(uint64_t bytes) : states_(size_t((bytes + kGranule - 1) / kGranule)) {}

  // Calls f(state, lo, hi) for every granule overlapping [lo, hi), with the part of [lo, hi)
  // inside it.
  template <class F>
  void forEach(uint64_t lo, uint64_t hi, F &&f) {
    if (hi <= lo) return;
    uint64_t first = lo / kGranule, last = std::min<uint64_t>((hi - 1) / kGranule, states_.size() - 1);
    for (uint64_t g = first; g <= last && g < states_.size(); ++g)
      f(states_[size_t(g)], std::max(lo, g * kGranule), std::min(hi, (g + 1) * kGranule));
  }

private:
  std::vector<AccessState> states_;
};

// Access history of global memory by exact byte intervals (GM is byte-addressed, and
// neighbouring rows of different tiles often share 32-byte granules).
class IntervalHistory {
public:
  // Calls f(state, lo, hi) for pieces that exactly cover [lo, hi), splitting stored intervals
  // at the ends and creating untouched pieces for gaps.
  template <class F>
  void forEach(uint64_t lo, uint64_t hi, F &&f) {
    if (hi <= lo) return;
    split(lo);
    split(hi);
    uint64_t at = lo;
    auto it = segments_.lower_bound(lo);
    while (at < hi) {
      if (it == segments_.end() || it->first > at) {  // a gap: nothing recorded there yet
        uint64_t gapEnd = (it == segments_.end()) ? hi : std::min(hi, it->first);
        it = segments_.emplace_hint(it, at, Segment{gapEnd, AccessState()});
      }
      f(it->second.state, it->first, it->second.end);
      at = it->second.end;
      ++it;
    }
  }

  // After a write of [lo, hi) by `op`: one piece with that writer and no readers.
  void assignWriter(uint64_t lo, uint64_t hi, int32_t op) {
    if (hi <= lo) return;
    split(lo);
    split(hi);
    segments_.erase(segments_.lower_bound(lo), segments_.lower_bound(hi));
    AccessState state;
    state.writer = op;
    segments_.emplace(lo, Segment{hi, state});
  }

private:
  struct Segment {
    uint64_t end;
    AccessState state;
  };

  // Makes `at` the start of a piece if it falls strictly inside one.
  void split(uint64_t at) {
    auto it = segments_.upper_bound(at);
    if (it == segments_.begin()) return;
    --it;
    if (it->first < at && at < it->second.end) {
      Segment tail{it->second.end, it->second.state};
      it->second.end = at;
      segments_.emplace_hint(std::next(it), at, tail);
    }
  }

  std::map<uint64_t, Segment> segments_;
};

}  // namespace tle::ascendc::emu
