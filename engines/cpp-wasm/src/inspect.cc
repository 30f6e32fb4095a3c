// The inspect view: the node's whole state as one canonical object (docs/protocol.md,
// "Inspect"). Mirrors engines/go-wasm/core/inspect.go. Also the status fields, the part of it a
// server's status line reports (Java's Inspect.statusFields).
#include "codec.h"
#include "json.h"
#include "node.h"

namespace replicant {

namespace {

std::string Hex16(uint64_t v) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; i--) {
    out[static_cast<size_t>(i)] = kDigits[v & 0xf];
    v >>= 4;
  }
  return out;
}

}  // namespace

void Node::AppendRoleBallotLeader(std::string& b, bool first) const {
  const char* role = "follower";
  if (IsLeader()) {
    role = "leader";
  } else if (prepare_ != nullptr) {
    role = "candidate";
  }
  AppendStringField(b, "role", role, first);
  AppendUintField(b, "ballot", ballot_, false);
  AppendField(b, "leader", false);
  if (LeaderOf(ballot_) == kNoLeader) {
    b.append("null");
  } else {
    AppendUint(b, LeaderOf(ballot_));
  }
}

std::string Node::StatusFields() const {
  std::string b = "{";
  AppendRoleBallotLeader(b, true);
  AppendUintField(b, "last_index", log_.LastIndex(), false);
  AppendUintField(b, "last_executed", log_.LastExecuted(), false);
  AppendUintField(b, "global_last_executed", log_.GlobalLastExecuted(), false);
  AppendUintField(b, "replay_remaining", replay_queue_.size(), false);
  AppendUintField(b, "elections", counters_.elections, false);
  b.push_back('}');
  return b;
}

std::string Node::Inspect() const {
  std::string b = "{";
  AppendUintField(b, "id", cfg_.id, true);
  AppendUintField(b, "num_peers", cfg_.num_peers, false);
  AppendRoleBallotLeader(b, false);
  AppendBoolField(b, "commit_received", commit_received_, false);
  AppendUintField(b, "last_index", log_.LastIndex(), false);
  AppendUintField(b, "last_executed", log_.LastExecuted(), false);
  AppendUintField(b, "global_last_executed", log_.GlobalLastExecuted(), false);

  AppendField(b, "log", false);
  b.push_back('[');
  bool first = true;
  for (const Instance& inst : log_.Instances()) {
    if (!first) b.push_back(',');
    first = false;
    AppendInstance(b, inst);
  }
  b.push_back(']');

  AppendField(b, "kv", false);
  b.push_back('{');
  AppendUintField(b, "size", kv_.Size(), true);
  AppendStringField(b, "digest", Hex16(kv_.Digest()), false);
  AppendField(b, "entries", false);
  AppendKVEntries(b, kv_.FirstEntries(kInspectKVEntries));
  b.push_back('}');

  AppendField(b, "prepare", false);
  if (prepare_ == nullptr) {
    b.append("null");
  } else {
    b.push_back('{');
    AppendUintField(b, "ballot", prepare_->ballot, true);
    AppendUintField(b, "channel_id", prepare_->channel_id, false);
    AppendUintField(b, "promises", prepare_->promises, false);
    b.push_back('}');
  }

  AppendField(b, "accepts", false);
  b.push_back('[');
  first = true;
  for (const auto& kv : accepts_) {
    const AcceptPhase& ph = *kv.second;
    if (!first) b.push_back(',');
    first = false;
    b.push_back('{');
    AppendUintField(b, "channel_id", ph.channel_id, true);
    AppendUintField(b, "index", ph.instance.index, false);
    AppendUintField(b, "votes", ph.votes, false);
    AppendUintField(b, "ticks", ph.ticks, false);
    AppendBoolField(b, "client", ph.has_client, false);
    b.push_back('}');
  }
  b.push_back(']');

  AppendUintField(b, "replay_remaining", replay_queue_.size(), false);
  AppendField(b, "commit_round", false);
  if (commit_round_ == nullptr) {
    b.append("null");
  } else {
    b.push_back('{');
    AppendUintField(b, "channel_id", commit_round_->channel_id, true);
    AppendUintField(b, "answered", commit_round_->answered_count, false);
    b.push_back('}');
  }
  AppendUintField(b, "commit_gle", commit_gle_, false);

  const Counters& c = counters_;
  AppendField(b, "counters", false);
  b.push_back('{');
  AppendUintField(b, "events", c.events, true);
  AppendUintField(b, "messages_in", c.messages_in, false);
  AppendUintField(b, "messages_out", c.messages_out, false);
  AppendUintField(b, "client_commands", c.client_commands, false);
  AppendUintField(b, "replies", c.replies, false);
  AppendUintField(b, "executed", c.executed, false);
  AppendUintField(b, "elections", c.elections, false);
  AppendUintField(b, "bad_events", c.bad_events, false);
  AppendUintField(b, "stale_responses", c.stale_responses, false);
  AppendUintField(b, "accept_timeouts", c.accept_timeouts, false);
  AppendUintField(b, "violations", c.violations, false);
  b.append("}}");
  return b;
}

}  // namespace replicant
