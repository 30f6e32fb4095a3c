// GC mitigation (docs/protocol.md, "GC mitigation"): what a node does when its runtime says a
// collection is coming. BLADE asks before collecting (at most f nodes at once) and moves the
// leadership away first; MITMEM answers busy to requests it would hold past their deadline.
// The core never collects: it tells the driver when (a collect effect), and hears gc_done.
// Mirrors engines/go-wasm/core/mitigation.go.
#include "mitigation.h"

#include <algorithm>

#include "node.h"

namespace replicant {

namespace {
constexpr const char* kMitigationNames[] = {"none", "blade", "mitmem", "both"};
// Heartbeats a handing-off leader waits for its successor before it collects as leader.
constexpr uint64_t kHandoffTimeoutTicks = 2;
// Heartbeats a grant may outlive its predicted pause before it expires.
constexpr uint64_t kGcGrantSlackTicks = 2;

Trace PeerTrace(TraceKind kind, uint64_t peer) {
  Trace t;
  t.kind = kind;
  t.leader = peer;
  return t;
}
}  // namespace

const char* ToString(Mitigation m) { return kMitigationNames[static_cast<int>(m)]; }

bool ParseMitigation(std::string_view s, Mitigation* out) {
  for (int i = 0; i < 4; i++) {
    if (s == kMitigationNames[i]) {
      *out = static_cast<Mitigation>(i);
      return true;
    }
  }
  return false;
}

uint64_t Node::MaxCollecting() const { return (cfg_.num_peers - 1) / 2; }

void Node::OnGcPending(uint64_t pause_us) {
  if (gc_.phase != GcPhase::kIdle) return;
  gc_.pause_us = pause_us;
  if (!Blade(cfg_.mitigation) || cfg_.num_peers == 1) {
    Collect();
    return;
  }
  if (IsLeader()) {
    HandOff();
    return;
  }
  gc_.phase = GcPhase::kWaiting;
  gc_.channel_id = 0;
  if (LeaderOf(ballot_) != kNoLeader) AskToCollect();
}

void Node::Collect() {
  gc_.phase = GcPhase::kCollecting;
  Effect e;
  e.type = EffectType::kCollect;
  e.pause_us = gc_.pause_us;
  effects_.push_back(std::move(e));
}

void Node::AskToCollect() {
  gc_.channel_id = ++next_channel_id_;
  EmitTrace(PeerTrace(TraceKind::kGcAsk, LeaderOf(ballot_)));
  SendAsk();
}

void Node::SendAsk() {
  Message m;
  m.type = MessageType::kGcRequest;
  m.from = cfg_.id;
  m.to = LeaderOf(ballot_);
  m.channel_id = gc_.channel_id;
  m.ballot = ballot_;
  m.pause_us = gc_.pause_us;
  Send(m);
}

// HandOff asks the most up-to-date peer without a grant (then the one that collected most
// recently, then the lowest id) to take over; with none, the leader collects where it is.
void Node::HandOff() {
  bool found = false;
  uint64_t target = 0;
  for (uint64_t p = 0; p < cfg_.num_peers; p++) {
    if (p == cfg_.id || GrantIndex(p) >= 0 || QueuedIndex(p) >= 0) continue;
    if (!found || gc_.peer_executed[p] > gc_.peer_executed[target] ||
        (gc_.peer_executed[p] == gc_.peer_executed[target] &&
         gc_.collected_seq[p] > gc_.collected_seq[target])) {
      target = p;
      found = true;
    }
  }
  if (!found) {
    Collect();
    return;
  }
  gc_.phase = GcPhase::kHandingOff;
  gc_.handoff_ticks = 0;
  gc_.handoff_ballot = ballot_;
  gc_.handoff_target = target;
  uint64_t collecting = 0, collecting_ticks = 0;
  for (const GcGrantEntry& g : gc_.grants) {
    collecting |= uint64_t{1} << g.peer;
    collecting_ticks = std::max(collecting_ticks, g.allowed_ticks - g.ticks);
  }
  EmitTrace(PeerTrace(TraceKind::kHandoff, target));
  Message m;
  m.type = MessageType::kHandoff;
  m.ballot = ballot_;
  m.target = target;
  m.collecting = collecting;
  m.collecting_ticks = collecting_ticks;
  m.last_executed = log_.LastExecuted();
  Broadcast(m);
}

void Node::OnHandoff(const Message& m) {
  if (m.ballot != ballot_) {
    counters_.stale_responses++;
    return;
  }
  gc_.handoff_ballot = m.ballot;
  gc_.handoff_target = m.target;
  gc_.inherited_collecting = m.collecting;
  gc_.inherited_ticks = m.collecting_ticks;
  // the old leader's commit point, committed as its heartbeat would: only entries stored at its
  // ballot (each holds the value chosen there), so the target asks from above it
  log_.CommitUntil(m.last_executed, m.ballot, &changes_);
  ApplyChanges();
  Execute();
  if (m.target == cfg_.id) StartElection();
}

// HandoffPrepare: a prepare from the successor a leader named, at a node still under that
// leader's ballot, is not refused by the lease (the leader asked for this election).
bool Node::HandoffPrepare(const Message& m) const {
  return gc_.handoff_ballot != 0 && ballot_ == gc_.handoff_ballot && m.from == gc_.handoff_target;
}

// GcLeaveLeadership drops the leader's grants and queue; a leader that was handing off now
// waits for its successor's first heartbeat to ask for permission.
void Node::GcLeaveLeadership() {
  gc_.grants.clear();
  gc_.queue.clear();
  if (gc_.phase == GcPhase::kHandingOff) {
    gc_.phase = GcPhase::kWaiting;
    gc_.channel_id = 0;
  }
}

// TakesOverFromHandoff: this node is winning the election a handoff asked it to start.
bool Node::TakesOverFromHandoff() const {
  return gc_.handoff_ballot != 0 && gc_.handoff_target == cfg_.id && ballot_ > gc_.handoff_ballot;
}

// GcBecomeLeader starts the leader state afresh, except that a handoff's target keeps the
// grants its predecessor passed on (their holders may still be collecting: granting others at
// once would let more than f collect together right after the handoff).
void Node::GcBecomeLeader() {
  std::fill(gc_.peer_executed.begin(), gc_.peer_executed.end(), 0);
  std::fill(gc_.collected_seq.begin(), gc_.collected_seq.end(), 0);
  gc_.grants.clear();
  gc_.queue.clear();
  if (TakesOverFromHandoff()) {
    for (uint64_t p = 0; p < cfg_.num_peers; p++) {
      if ((gc_.inherited_collecting & (uint64_t{1} << p)) != 0 && p != cfg_.id &&
          gc_.grants.size() < MaxCollecting()) {
        GcGrantEntry g;
        g.peer = p;
        g.allowed_ticks = gc_.inherited_ticks;
        gc_.grants.push_back(g);
      }
    }
  }
  gc_.inherited_collecting = 0;
  gc_.inherited_ticks = 0;
}

// GcAfterCommitRequest: a waiting node that had no leader to ask asks the one it now hears.
void Node::GcAfterCommitRequest() {
  if (gc_.phase == GcPhase::kWaiting && gc_.channel_id == 0 && LeaderOf(ballot_) != kNoLeader &&
      !IsLeader()) {
    AskToCollect();
  }
}

// GcOnElectionTimer runs at a follower's election timer; true means the step is done.
bool Node::GcOnElectionTimer() {
  if (gc_.phase != GcPhase::kWaiting) return false;
  if (commit_received_ && LeaderOf(ballot_) != kNoLeader) {
    if (gc_.channel_id == 0) {
      AskToCollect();
    } else {
      SendAsk();
    }
    return false;
  }
  // a whole election delay without a heartbeat: nobody will answer the ask
  EmitTrace(PeerTrace(TraceKind::kGcTimeout, 0));
  Collect();
  SetTimer(TimerName::kElection, ElectionDelayUs());
  return true;
}

// GcHandoffTick runs at a leader's heartbeat, after check-quorum. A node that won while it
// waited to collect (a handoff's target) hands off here, not as it wins: by now the asks of
// peers about to collect hold grants or queue places, so it does not hand the leadership
// straight back to one of them (two nodes would pass it to and fro and serve nothing).
void Node::GcHandoffTick() {
  if (gc_.phase == GcPhase::kWaiting) {
    gc_.phase = GcPhase::kIdle;
    HandOff();
    return;
  }
  if (gc_.phase != GcPhase::kHandingOff) return;
  gc_.handoff_ticks++;
  if (gc_.handoff_ticks >= kHandoffTimeoutTicks) {
    EmitTrace(PeerTrace(TraceKind::kGcTimeout, 0));
    Collect();
  }
}

void Node::GcGrantTicks() {
  std::vector<GcGrantEntry> kept;
  for (GcGrantEntry gr : gc_.grants) {
    gr.ticks++;
    if (gr.ticks >= gr.allowed_ticks) {
      EmitTrace(PeerTrace(TraceKind::kGcGrantExpired, gr.peer));
      continue;
    }
    kept.push_back(gr);
  }
  gc_.grants = std::move(kept);
  GrantFromQueue();
}

int Node::GrantIndex(uint64_t peer) const {
  for (size_t i = 0; i < gc_.grants.size(); i++) {
    if (gc_.grants[i].peer == peer) return static_cast<int>(i);
  }
  return -1;
}

int Node::QueuedIndex(uint64_t peer) const {
  for (size_t i = 0; i < gc_.queue.size(); i++) {
    if (gc_.queue[i].peer == peer) return static_cast<int>(i);
  }
  return -1;
}

void Node::OnGcRequest(const Message& m) {
  if (!IsLeader() || m.ballot != ballot_) {
    counters_.stale_responses++;
    return;
  }
  const int i = GrantIndex(m.from);
  if (i >= 0) {
    gc_.grants[i].channel_id = m.channel_id;
    Message g;
    g.type = MessageType::kGcGrant;
    g.ballot = ballot_;
    Respond(m, std::move(g));
    return;
  }
  if (QueuedIndex(m.from) >= 0) return;
  const GcAskEntry ask{m.from, m.channel_id, m.pause_us};
  if (gc_.grants.size() < MaxCollecting()) {
    Grant(ask);
    return;
  }
  gc_.queue.push_back(ask);
  Trace t = PeerTrace(TraceKind::kGcQueued, m.from);
  t.count = gc_.queue.size();
  EmitTrace(t);
}

void Node::Grant(const GcAskEntry& a) {
  gc_.collected_seq[a.peer] = ++gc_.next_collected;
  const uint64_t ci = cfg_.commit_interval_us;
  gc_.grants.push_back(GcGrantEntry{a.peer, a.channel_id, 0, (a.pause_us + ci - 1) / ci + kGcGrantSlackTicks});
  EmitTrace(PeerTrace(TraceKind::kGcGrant, a.peer));
  Message m;
  m.type = MessageType::kGcGrant;
  m.from = cfg_.id;
  m.to = a.peer;
  m.channel_id = a.channel_id;
  m.ballot = ballot_;
  Send(m);
}

void Node::GrantFromQueue() {
  while (gc_.grants.size() < MaxCollecting() && !gc_.queue.empty()) {
    const GcAskEntry a = gc_.queue.front();
    gc_.queue.erase(gc_.queue.begin());
    Grant(a);
  }
}

void Node::OnGcGrant(const Message& m) {
  if (m.ballot != ballot_) {
    counters_.stale_responses++;
    return;
  }
  if (gc_.phase != GcPhase::kWaiting || m.channel_id != gc_.channel_id) {
    // not needed any more (it timed out and collected, or finished): free the slot
    counters_.stale_responses++;
    Message r;
    r.type = MessageType::kGcRelease;
    r.ballot = m.ballot;
    Respond(m, std::move(r));
    return;
  }
  gc_.granted = true;
  gc_.grant_leader = m.from;
  gc_.grant_ballot = m.ballot;
  gc_.grant_channel = m.channel_id;
  Collect();
}

void Node::OnGcDone() {
  if (gc_.phase != GcPhase::kCollecting) return;
  gc_.phase = GcPhase::kIdle;
  EmitTrace(PeerTrace(TraceKind::kGcDone, 0));
  if (gc_.granted) {
    gc_.granted = false;
    Message m;
    m.type = MessageType::kGcRelease;
    m.from = cfg_.id;
    m.to = gc_.grant_leader;
    m.channel_id = gc_.grant_channel;
    m.ballot = gc_.grant_ballot;
    // after a leadership change the grant lives on at the new leader (a handoff passes it
    // on): release it there, or it would hold a slot until it expires
    const uint64_t leader = LeaderOf(ballot_);
    if (ballot_ != gc_.grant_ballot && leader != kNoLeader && leader != cfg_.id) {
      m.to = leader;
      m.ballot = ballot_;
    }
    Send(m);
  }
}

void Node::OnGcRelease(const Message& m) {
  const int i = IsLeader() && m.ballot == ballot_ ? GrantIndex(m.from) : -1;
  if (i < 0) {
    counters_.stale_responses++;
    return;
  }
  gc_.grants.erase(gc_.grants.begin() + i);
  EmitTrace(PeerTrace(TraceKind::kGcRelease, m.from));
  GrantFromQueue();
}

// GcClientReply answers c if the mitigation decides its reply: MITMEM's busy when the request
// would wait out a pause longer than its deadline; retry at a handing-off leader (its
// successor is taking over).
bool Node::GcClientReply(const ClientRequest& c) {
  Result r;
  if (Mitmem(cfg_.mitigation) && gc_.phase == GcPhase::kCollecting &&
      gc_.pause_us > cfg_.mitmem_deadline_us) {
    r.type = ResultType::kBusy;
    r.pause_us = gc_.pause_us;
  } else if (gc_.phase == GcPhase::kHandingOff && IsLeader()) {
    r.type = ResultType::kRetry;
  } else {
    return false;
  }
  Reply(c, std::move(r));
  return true;
}

std::string Node::CheckGcInvariants() const {
  if (gc_.grants.size() > MaxCollecting()) return "more grants held than f";
  if (!IsLeader() && (!gc_.grants.empty() || !gc_.queue.empty() || gc_.phase == GcPhase::kHandingOff)) {
    return "a follower holds GC leader state";
  }
  return "";
}

}  // namespace replicant
