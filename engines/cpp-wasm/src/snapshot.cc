// State transfer (docs/protocol.md, "State transfer"): a follower that needs entries the
// leader has already trimmed (a restarted empty node, a wiped one, one partitioned for long)
// gets the leader's KV store at its last_executed instead, and the leader's repair sends the
// entries after it. Part of repair: only with repair_batch > 0. Mirrors
// engines/go-wasm/core/snapshot.go.
#include <algorithm>
#include <utility>

#include "node.h"

namespace replicant {

bool ValidKVEntries(const KVEntries& kv) {
  for (size_t i = 0; i < kv.size(); i++) {
    if (!ValidKey(kv[i].first) || !ValidValue(kv[i].second) || (i > 0 && !(kv[i - 1].first < kv[i].first))) {
      return false;
    }
  }
  return true;
}

// SendSnapshot sends peer the leader's whole KV store, at the leader's last_executed.
void Node::SendSnapshot(uint64_t peer) {
  Trace t;
  t.kind = TraceKind::kSnapshotSent;
  t.leader = peer;
  t.index = log_.LastExecuted();
  EmitTrace(t);
  next_channel_id_++;
  Message m;
  m.type = MessageType::kSnapshot;
  m.from = cfg_.id;
  m.to = peer;
  m.channel_id = next_channel_id_;
  m.ballot = ballot_;
  m.last_executed = log_.LastExecuted();
  m.kv = kv_.FirstEntries(kv_.Size());
  Send(m);
}

// OnSnapshot installs a leader's snapshot that is ahead of this node: the KV store is
// replaced, every slot up to its last_executed dropped, and last_executed and gle set to it.
// A request that waited for a dropped slot is told to retry: its slot's command may differ.
void Node::OnSnapshot(const Message& m) {
  // The snapshot's ballot does not matter to a node that does not lead: it is chosen state,
  // and a node that followed a higher ballot than its sender's would otherwise stay behind
  // the trim point for good (issue 20; docs/protocol.md, "State transfer").
  if (m.last_executed <= log_.LastExecuted() || (m.ballot < ballot_ && IsLeader())) {
    counters_.stale_responses++;
    return;
  }
  if (m.ballot > ballot_) BecomeFollower(m.ballot);
  InstallSnapshot(m.last_executed, m.kv);
  Trace t;
  t.kind = TraceKind::kSnapshotInstalled;
  t.index = m.last_executed;
  EmitTrace(t);
  if (Durable()) {
    Record r;
    r.kind = RecordKind::kSnapshot;
    r.last_executed = m.last_executed;
    r.kv = m.kv;
    dur_.records.push_back(std::move(r));
  }
  std::vector<uint64_t> dropped;
  for (const auto& [index, c] : awaiting_) {
    if (index <= m.last_executed) dropped.push_back(index);
  }
  std::sort(dropped.begin(), dropped.end());
  for (uint64_t index : dropped) {
    ClientRequest c = awaiting_[index];
    awaiting_.erase(index);
    Result r;
    r.type = ResultType::kRetry;
    Reply(c, r);
  }
  Execute();
}

void Node::InstallSnapshot(uint64_t last_executed, const KVEntries& kv) {
  kv_ = KVStore();
  for (const auto& [key, value] : kv) {
    Command c;
    c.type = CommandType::kPut;
    c.key = key;
    c.value = value;
    kv_.Apply(c);
  }
  log_.InstallSnapshot(last_executed);
}

}  // namespace replicant
