#include "log.h"

#include <algorithm>

namespace replicant {

const char* const kReasonCommandMismatch = "command_mismatch";
const char* const kReasonHigherBallot = "higher_ballot";

// A differing command is a violation only where Paxos forbids it: two chosen (committed or
// executed) commands, equal ballots, or a chosen command against a higher ballot (a later
// leader must re-propose the chosen command). A stale in-progress instance of a lower ballot
// may differ: it was never chosen, so it is simply not taken.
InsertOutcome InsertInto(InstanceMap& m, const Instance& inst) {
  auto it = m.find(inst.index);
  if (it == m.end()) {
    m.emplace(inst.index, inst);
    return InsertOutcome::kStored;
  }
  Instance& stored = it->second;
  const bool same = stored.command == inst.command;
  const bool incoming_chosen =
      inst.state == InstanceState::kCommitted || inst.state == InstanceState::kExecuted;
  if (stored.state == InstanceState::kCommitted || stored.state == InstanceState::kExecuted) {
    if (!same && (incoming_chosen || inst.ballot >= stored.ballot)) return InsertOutcome::kViolation;
    return InsertOutcome::kKept;
  }
  if (inst.ballot > stored.ballot) {
    stored = inst;
    return InsertOutcome::kStored;
  }
  if (!same && (inst.ballot == stored.ballot || incoming_chosen)) return InsertOutcome::kViolation;
  return InsertOutcome::kKept;
}

std::vector<Instance> SortedInstances(const InstanceMap& m) {
  std::vector<Instance> out;
  out.reserve(m.size());
  for (const auto& kv : m) out.push_back(kv.second);
  std::sort(out.begin(), out.end(),
            [](const Instance& a, const Instance& b) { return a.index < b.index; });
  return out;
}

void Log::SetLastIndexAtLeast(uint64_t i) {
  if (i > last_index_) last_index_ = i;
}

uint64_t Log::AdvanceLastIndex() { return ++last_index_; }

void Log::Append(const Instance& inst, std::vector<LogChange>* out) {
  if (inst.index <= global_last_executed_) return;
  switch (InsertInto(instances_, inst)) {
    case InsertOutcome::kStored:
      SetLastIndexAtLeast(inst.index);
      out->push_back(LogChange{LogChangeKind::kStored, inst, nullptr});
      break;
    case InsertOutcome::kViolation:
      out->push_back(LogChange{LogChangeKind::kViolation, inst, kReasonCommandMismatch});
      break;
    case InsertOutcome::kKept:
      break;
  }
}

void Log::Commit(uint64_t index, std::vector<LogChange>* out) {
  auto it = instances_.find(index);
  if (it == instances_.end() || it->second.state != InstanceState::kInProgress) return;
  it->second.state = InstanceState::kCommitted;
  out->push_back(LogChange{LogChangeKind::kStored, it->second, nullptr});
}

void Log::CommitUntil(uint64_t leader_last_executed, uint64_t ballot,
                      std::vector<LogChange>* out) {
  for (uint64_t i = last_executed_ + 1; i <= leader_last_executed; i++) {
    auto it = instances_.find(i);
    if (it == instances_.end()) return;
    Instance& inst = it->second;
    if (inst.ballot > ballot) {
      out->push_back(LogChange{LogChangeKind::kViolation, inst, kReasonHigherBallot});
      return;
    }
    if (inst.ballot < ballot) {
      out->push_back(LogChange{LogChangeKind::kStale, inst, nullptr});
      continue;
    }
    if (inst.state == InstanceState::kInProgress) {
      inst.state = InstanceState::kCommitted;
      out->push_back(LogChange{LogChangeKind::kStored, inst, nullptr});
    }
  }
}

const Instance* Log::NextExecutable() const {
  auto it = instances_.find(last_executed_ + 1);
  if (it == instances_.end() || it->second.state != InstanceState::kCommitted) return nullptr;
  return &it->second;
}

const Instance& Log::MarkExecuted() {
  Instance& inst = instances_.at(last_executed_ + 1);
  inst.state = InstanceState::kExecuted;
  last_executed_++;
  return inst;
}

bool Log::TrimUntil(uint64_t g) {
  uint64_t t = std::min(g, last_executed_);
  if (t <= global_last_executed_) return false;
  for (uint64_t i = global_last_executed_ + 1; i <= t; i++) instances_.erase(i);
  global_last_executed_ = t;
  return true;
}

const Instance* Log::Get(uint64_t index) const {
  auto it = instances_.find(index);
  return it == instances_.end() ? nullptr : &it->second;
}

}  // namespace replicant
