// Persist effects, the persisted and restart events (docs/protocol.md, "Durability").
// Mirrors engines/go-wasm/core/durability.go.
#include "durability.h"

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <utility>

#include "node.h"

namespace replicant {

const char* ToString(Durability d) { return d == Durability::kLog ? "log" : "none"; }
const char* ToString(RecordKind k) {
  switch (k) {
    case RecordKind::kPromise:
      return "promise";
    case RecordKind::kInstance:
      return "instance";
    case RecordKind::kSnapshot:
      return "snapshot";
    case RecordKind::kCheckpoint:
      return "checkpoint";
  }
  return "";
}

// RecordInstance notes a stored slot for this step's persist effect. A slot stored and then
// committed in the same step is written once, as its later form.
void Node::RecordInstance(const Instance& inst) {
  if (!Durable()) return;
  std::vector<Record>& rs = dur_.records;
  if (!rs.empty() && rs.back().kind == RecordKind::kInstance && rs.back().instance.index == inst.index) {
    rs.back().instance = inst;
    return;
  }
  Record r;
  r.kind = RecordKind::kInstance;
  r.instance = inst;
  rs.push_back(std::move(r));
}

// FinishDurableStep ends a step in `log` mode: a changed ballot becomes a promise record
// (first in the batch), the records become one persist effect, and while any persist is
// outstanding every send and reply of the step waits for the newest one.
void Node::FinishDurableStep() {
  if (CheckpointDue()) {
    TakeCheckpoint();
  } else if (ballot_ != dur_.recorded_ballot) {
    Record r;
    r.kind = RecordKind::kPromise;
    r.ballot = ballot_;
    dur_.records.insert(dur_.records.begin(), std::move(r));
    dur_.recorded_ballot = ballot_;
  }
  if (!dur_.records.empty()) dur_.issued_id++;
  if (dur_.issued_id > dur_.done_id) {
    std::vector<Effect> kept;
    for (Effect& e : effects_) {
      if (e.type == EffectType::kSend || e.type == EffectType::kReply) {
        dur_.held.emplace_back(dur_.issued_id, std::move(e));
      } else {
        kept.push_back(std::move(e));
      }
    }
    effects_ = std::move(kept);
  }
  if (!dur_.records.empty()) {
    Effect e;
    e.type = EffectType::kPersist;
    e.persist_id = dur_.issued_id;
    e.records = std::move(dur_.records);
    dur_.records.clear();
    effects_.push_back(std::move(e));
  }
}

// CheckpointDue: snapshot_every instances were executed since the last checkpoint.
bool Node::CheckpointDue() const {
  const uint64_t every = cfg_.snapshot_every;
  return every > 0 && log_.LastExecuted() >= dur_.checkpointed_at + every;
}

// TakeCheckpoint replaces this step's records by a checkpoint: the ballot and the KV store at
// last_executed, then every slot after it as stored. Everything the step recorded is in it, and
// so is everything recorded before, so a driver may drop every earlier record once it is written.
void Node::TakeCheckpoint() {
  const uint64_t le = log_.LastExecuted();
  dur_.records.clear();
  Record c;
  c.kind = RecordKind::kCheckpoint;
  c.ballot = ballot_;
  c.last_executed = le;
  c.kv = kv_.FirstEntries(kv_.Size());
  dur_.records.push_back(std::move(c));
  for (const Instance& inst : log_.Instances()) {
    if (inst.index <= le) continue;
    Record r;
    r.kind = RecordKind::kInstance;
    r.instance = inst;
    dur_.records.push_back(std::move(r));
  }
  dur_.recorded_ballot = ballot_;
  dur_.checkpointed_at = le;
}

// OnPersisted releases, in their original order, the effects that waited for persists up to
// id. Persists complete in the order they were issued, so one id covers all before it.
void Node::OnPersisted(uint64_t id) {
  if (id == 0 || id > dur_.issued_id) {
    BadEvent();
    return;
  }
  if (id <= dur_.done_id) return;  // already reported
  dur_.done_id = id;
  size_t released = 0;
  while (released < dur_.held.size() && dur_.held[released].first <= id) {
    effects_.push_back(std::move(dur_.held[released].second));
    released++;
  }
  dur_.held.erase(dur_.held.begin(), dur_.held.begin() + static_cast<std::ptrdiff_t>(released));
}

// ValidRecord applies the semantic checks of a peer message to a record read back from disk.
bool Node::ValidRecord(const Record& r) const {
  const uint64_t num = cfg_.num_peers;
  if (r.kind == RecordKind::kPromise) return LeaderOf(r.ballot) < num || LeaderOf(r.ballot) == kNoLeader;
  if (r.kind == RecordKind::kSnapshot) return ValidKVEntries(r.kv);
  if (r.kind == RecordKind::kCheckpoint) {
    return (LeaderOf(r.ballot) < num || LeaderOf(r.ballot) == kNoLeader) && ValidKVEntries(r.kv);
  }
  const Instance& inst = r.instance;
  return inst.index >= 1 && LeaderOf(inst.ballot) < num && inst.state != InstanceState::kExecuted;
}

// OnRestart boots the node from its persisted records: the highest promise, the slots as
// last stored (a later record of a slot replaces an earlier one), then the executor replays
// the committed prefix into the KV store. A node that led comes back leading nobody, at its
// round, so it cannot send under a ballot it may have used before the crash.
void Node::OnRestart(const std::vector<Record>& records) {
  if (dur_.started || !std::all_of(records.begin(), records.end(), [this](const Record& r) { return ValidRecord(r); })) {
    BadEvent();
    return;
  }
  dur_.started = true;
  uint64_t ballot = ballot_;
  for (const Record& r : records) {
    if (r.kind == RecordKind::kPromise) {
      ballot = std::max(ballot, r.ballot);
    } else if (r.kind == RecordKind::kInstance) {
      if (r.instance.index > log_.GlobalLastExecuted()) log_.Restore(r.instance);  // not inside a snapshot
      ballot = std::max(ballot, r.instance.ballot);
    } else {
      if (r.last_executed > log_.LastExecuted()) InstallSnapshot(r.last_executed, r.kv);
      if (r.kind == RecordKind::kCheckpoint) ballot = std::max(ballot, r.ballot);
    }
  }
  if (LeaderOf(ballot) == cfg_.id) ballot = (ballot & ~uint64_t{0xff}) | kNoLeader;  // above the recorded one
  ballot_ = ballot;
  dur_.recorded_ballot = ballot;
  Trace t;
  t.kind = TraceKind::kRecovered;
  t.ballot = ballot_;
  t.last_index = log_.LastIndex();
  t.count = records.size();
  EmitTrace(t);
  Execute();
  dur_.checkpointed_at = log_.LastExecuted();
  SetTimer(TimerName::kElection, ElectionDelayUs());
}

void Node::CheckDurableInvariants() const {
  auto fail = [this](const char* what) {
    std::fprintf(stderr, "invariant: node %llu: %s\n", static_cast<unsigned long long>(cfg_.id), what);
    std::abort();
  };
  if (dur_.done_id > dur_.issued_id) fail("persist done beyond the last issued");
  if (!dur_.held.empty() &&
      (dur_.held.front().first <= dur_.done_id || dur_.held.back().first > dur_.issued_id)) {
    fail("a held effect waits for a persist already done or never issued");
  }
  if (!Durable() && (dur_.issued_id != 0 || !dur_.held.empty())) fail("persist state in durability none");
  if (Durable() && dur_.recorded_ballot != ballot_) fail("the ballot is not recorded");
}

}  // namespace replicant
