// The MultiPaxos log: slots by index and the three counters of the protocol
// (docs/protocol.md, "Data"). Mirrors engines/go-wasm/core/log.go.
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "instance.h"

namespace replicant {

// LogChangeKind names what happened to a slot during a log operation, so that the protocol
// can turn it into a trace record.
enum class LogChangeKind : uint8_t {
  kStored,     // a slot was filled, replaced or committed
  kStale,      // commit_until met an instance of an older ballot
  kViolation,  // a safety check failed
};

// Violation reasons, as they appear in trace records.
extern const char* const kReasonCommandMismatch;
extern const char* const kReasonHigherBallot;

struct LogChange {
  LogChangeKind kind = LogChangeKind::kStored;
  Instance instance;             // the slot after the change (kStale: the stale instance)
  const char* reason = nullptr;  // for kViolation
};

// Slots by index. A hash map, as in Replicant; nothing iterates it without sorting first.
using InstanceMap = std::unordered_map<uint64_t, Instance>;

// InsertOutcome is the result of the merge rule.
enum class InsertOutcome : uint8_t { kKept, kStored, kViolation };

// InsertInto applies the merge rule of docs/protocol.md ("Data", insert) to one slot of m.
InsertOutcome InsertInto(InstanceMap& m, const Instance& inst);

// SortedInstances returns the slots of m in ascending index order.
std::vector<Instance> SortedInstances(const InstanceMap& m);

class Log {
 public:
  uint64_t LastIndex() const { return last_index_; }
  uint64_t LastExecuted() const { return last_executed_; }
  uint64_t GlobalLastExecuted() const { return global_last_executed_; }
  size_t Len() const { return instances_.size(); }

  // SetLastIndexAtLeast raises last_index (a new leader keeps the maximum it has seen).
  void SetLastIndexAtLeast(uint64_t i);
  // AdvanceLastIndex reserves the next index for a new command.
  uint64_t AdvanceLastIndex();

  // Append stores inst by the merge rule; indices already trimmed are ignored.
  void Append(const Instance& inst, std::vector<LogChange>* out);
  // InstallSnapshot drops every slot up to last_executed and moves the counters there.
  void InstallSnapshot(uint64_t last_executed) {
    for (auto it = instances_.begin(); it != instances_.end();) {
      it = it->first <= last_executed ? instances_.erase(it) : std::next(it);
    }
    last_executed_ = last_executed;
    global_last_executed_ = last_executed;
    SetLastIndexAtLeast(last_executed);
  }
  // Restore puts a slot back exactly as a durable record holds it (restart only).
  void Restore(const Instance& inst) {
    SetLastIndexAtLeast(inst.index);
    instances_[inst.index] = inst;
  }
  // Commit marks an in-progress slot committed.
  void Commit(uint64_t index, std::vector<LogChange>* out);
  // CommitUntil commits, up to the leader's last_executed, the slots written under the
  // leader's ballot; it stops at the first gap.
  void CommitUntil(uint64_t leader_last_executed, uint64_t ballot, std::vector<LogChange>* out);

  // NextExecutable returns the slot after last_executed if it is committed.
  const Instance* NextExecutable() const;
  // MarkExecuted records that the slot after last_executed was applied.
  const Instance& MarkExecuted();

  // TrimUntil drops executed slots up to min(g, last_executed); it reports whether gle moved.
  bool TrimUntil(uint64_t g);

  // Get returns the slot at index, or nullptr.
  const Instance* Get(uint64_t index) const;
  // Instances returns every stored slot in ascending index order.
  std::vector<Instance> Instances() const { return SortedInstances(instances_); }
  // InvariantError describes the first broken log invariant, or is empty.
  std::string InvariantError() const;
  // Copy returns a copy of the slots (a candidate's merged log starts from its own).
  InstanceMap Copy() const { return instances_; }

 private:
  friend struct InvariantTestAccess;  // invariants_test.cc breaks a log on purpose
  InstanceMap instances_;
  uint64_t last_index_ = 0;
  uint64_t last_executed_ = 0;
  uint64_t global_last_executed_ = 0;
};

}  // namespace replicant
