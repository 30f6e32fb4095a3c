// Invariant checks run after every step in test builds. Mirrors
// engines/go-wasm/core/invariants.go.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "log.h"
#include "node.h"

namespace replicant {

std::string Log::InvariantError() const {
  if (last_executed_ > last_index_) return "last_executed > last_index";
  if (global_last_executed_ > last_executed_) return "gle > last_executed";
  for (const auto& [index, inst] : instances_) {
    if (index <= global_last_executed_) return "index " + std::to_string(index) + " stored at or below gle";
    if (inst.state == InstanceState::kExecuted && index > last_executed_) {
      return "index " + std::to_string(index) + " executed beyond last_executed";
    }
  }
  return "";
}

void Node::CheckInvariants() const {
  std::string err = log_.InvariantError();
  for (uint64_t p = 0; err.empty() && p < heard_tick_.size(); p++) {
    if (heard_tick_[p] > quorum_tick_) err = "a peer heard after the current tick";
  }
  if (err.empty() && !IsLeader() &&
      (!accepts_.empty() || commit_round_ != nullptr || !replay_queue_.empty())) {
    err = "a follower holds leader state";
  }
  if (err.empty() && IsLeader() && prepare_ != nullptr) err = "a leader holds a prepare phase";
  if (err.empty()) err = CheckGcInvariants();
  if (!err.empty()) {
    std::fprintf(stderr, "invariant: node %llu: %s\n", static_cast<unsigned long long>(cfg_.id),
                 err.c_str());
    std::abort();
  }
}

}  // namespace replicant
