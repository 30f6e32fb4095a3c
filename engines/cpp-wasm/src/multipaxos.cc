// The protocol handlers, in the order of docs/protocol.md ("The protocol"). Every effect is
// emitted in the order that document gives. Mirrors engines/go-wasm/core/multipaxos.go.
#include <algorithm>
#include <utility>

#include "node.h"

namespace replicant {

namespace {
uint32_t PeerBit(uint64_t id) { return uint32_t{1} << id; }
}  // namespace

// BecomeFollower adopts a higher ballot seen from a peer.
void Node::BecomeFollower(uint64_t b) {
  if (b <= ballot_ || LeaderOf(b) == cfg_.id) return;
  const bool was_leader = IsLeader();
  const bool had_leader = LeaderOf(ballot_) != kNoLeader;
  ballot_ = b;
  Trace t;
  t.kind = TraceKind::kFollower;
  t.ballot = b;
  t.leader = LeaderOf(b);
  EmitTrace(t);
  AbandonElection();
  if (was_leader) {
    CancelTimer(TimerName::kCommit);
    for (AcceptPhase* ph : SortedAccepts()) {
      if (ph->has_client) {
        Result r;
        r.type = ResultType::kLeaderIs;
        r.leader = LeaderOf(b);
        Reply(ph->client, std::move(r));
      }
    }
    accepts_.clear();
    replay_queue_.clear();
    commit_round_.reset();
    GcLeaveLeadership();
  }
  if (was_leader || !had_leader) SetTimer(TimerName::kElection, ElectionDelayUs());
}

void Node::BecomeLeader(uint64_t b, uint64_t max_last_index, const InstanceMap& merged,
                        uint64_t backoff) {
  log_.SetLastIndexAtLeast(max_last_index);
  ballot_ = b;
  // the election's own wait bounds the round trip; the leader waits as long for answers
  leader_backoff_ = backoff;
  quorum_backoff_ = backoff;
  election_backoff_ = 0;
  quorum_tick_ = 0;
  std::fill(heard_tick_.begin(), heard_tick_.end(), 0);
  const bool skip_executed = SkipsExecutedReplay();
  GcBecomeLeader();
  commit_gle_ = log_.GlobalLastExecuted();
  repairs_.fill(RepairStream{});
  Trace t;
  t.kind = TraceKind::kLeader;
  t.ballot = b;
  t.last_index = log_.LastIndex();
  EmitTrace(t);
  CancelTimer(TimerName::kElection);
  TrimAndOpenCommitRound();
  SetTimer(TimerName::kCommit, cfg_.commit_interval_us);
  StartReplay(merged, skip_executed);
}

// --- election ---

void Node::OnElectionTimer() {
  if (IsLeader()) return;
  lease_held_ = commit_received_;
  if (GcOnElectionTimer()) return;
  if (commit_received_) {
    commit_received_ = false;
    SetTimer(TimerName::kElection, ElectionDelayUs());
    return;
  }
  if (prepare_ != nullptr && prepare_->progressed) {
    // bounded elections: a phase still hearing answers is slow, not failed
    prepare_->progressed = false;
    SetTimer(TimerName::kElection, ElectionDelayUs());
    return;
  }
  StartElection();
}

// StartElection is steps 3-6 of the election timer: a handoff's target runs them at once.
void Node::StartElection() {
  AbandonElection();
  const uint64_t b = NextBallot(std::max(ballot_, last_prepare_ballot_), cfg_.id);
  last_prepare_ballot_ = b;
  counters_.elections++;
  auto p = std::make_unique<PreparePhase>();
  p->ballot = b;
  p->promises = 1;
  p->merged = log_.Copy();
  p->max_last_index = log_.LastIndex();
  p->backoff = election_backoff_;
  Trace t;
  t.kind = TraceKind::kElection;
  t.ballot = b;
  EmitTrace(t);
  if (p->promises >= Majority()) {
    BecomeLeader(b, p->max_last_index, p->merged, p->backoff);
    return;
  }
  Message m;
  m.type = MessageType::kPrepareRequest;
  m.ballot = b;
  if (cfg_.election_batch > 0) {
    // everything up to our last_executed is chosen and held (or trimmed: executed
    // everywhere) in our own log, which the merged log starts from: no promise needs it
    m.from_index = log_.LastExecuted() + 1;
    p->asked.fill(m.from_index);
  }
  p->channel_id = Broadcast(std::move(m));
  prepare_ = std::move(p);
  SetTimer(TimerName::kElection, ElectionDelayUs());
}

// AbandonElection closes this node's open prepare phase, if it has one: says so in the trace and
// counts the lost election (LoseElection).
void Node::AbandonElection() {
  if (prepare_ == nullptr) return;
  const uint64_t abandoned = prepare_->ballot;
  prepare_.reset();
  Trace a;
  a.kind = TraceKind::kElectionAbandoned;
  a.ballot = abandoned;
  EmitTrace(a);
  LoseElection();
}

void Node::OnPrepareRequest(const Message& m) {
  if (m.from_index > 0 && m.from_index <= log_.GlobalLastExecuted()) {
    // The candidate has not executed everything this node trimmed: a promise from here could
    // not carry those chosen entries, and the candidate would fill them with no-ops
    // (docs/protocol.md, "Log bound"). Refused whatever the ballot, which stays as it is; a
    // leader also sends the candidate a snapshot, as it would to a follower that far behind.
    RefusePrepare(m);
    // this node's own next election goes above the refused one: an up-to-date node must be
    // able to outbid a behind candidate whose crossing prepares it keeps refusing
    last_prepare_ballot_ = std::max(last_prepare_ballot_, m.ballot);
    if (IsLeader() && cfg_.repair_batch > 0) {
      repairs_[m.from] = RepairStream{};
      SendSnapshot(m.from);
    }
    return;
  }
  if (m.from_index > 0 && m.ballot == ballot_ && LeaderOf(m.ballot) == m.from) {
    // the candidate this node promised asks for the next chunk of that promise
    Respond(m, PromiseChunk(m.from_index));
    return;
  }
  if (m.ballot > ballot_ && !CampaignsAbove(m.ballot) && (!InLease() || HandoffPrepare(m))) {
    // BecomeFollower re-arms the election timer only for a node that led or knew no leader;
    // one that promises gives the candidate a whole election delay in every case
    const bool rearm = !IsLeader() && LeaderOf(ballot_) != kNoLeader;
    BecomeFollower(m.ballot);
    if (rearm) SetTimer(TimerName::kElection, ElectionDelayUs());
    if (m.from_index > 0) {
      Respond(m, PromiseChunk(m.from_index));
      return;
    }
    Message r;
    r.type = MessageType::kPrepareResponse;
    r.ok = true;
    r.ballot = ballot_;
    r.instances = log_.Instances();  // everything stored is above gle: the rest is trimmed
    Respond(m, std::move(r));
    return;
  }
  RefusePrepare(m);
}

// RefusePrepare answers a prepare with a refusal: this node's ballot, so that the candidate can
// go above it, and the request's from_index, so that the candidate can match the answer.
void Node::RefusePrepare(const Message& m) {
  Message r;
  r.type = MessageType::kPrepareResponse;
  r.ok = false;
  r.ballot = ballot_;
  r.from_index = m.from_index;
  Respond(m, std::move(r));
}

// PromiseChunk is one bounded part of a promise: the stored instances from index `from` on, at
// most election_batch of them (all when 0), and where the next chunk starts (0: none).
Message Node::PromiseChunk(uint64_t from) const {
  Message r;
  r.type = MessageType::kPrepareResponse;
  r.ok = true;
  r.ballot = ballot_;
  r.from_index = from;
  for (const Instance& inst : log_.Instances()) {
    if (inst.index < from) continue;
    if (cfg_.election_batch > 0 && r.instances.size() == cfg_.election_batch) {
      r.next_index = inst.index;
      break;
    }
    r.instances.push_back(inst);
  }
  return r;
}

void Node::OnPrepareResponse(const Message& m) {
  PreparePhase* p = prepare_.get();
  if (p == nullptr || m.channel_id != p->channel_id || (p->answered & PeerBit(m.from)) != 0 ||
      m.from_index != p->asked[m.from]) {
    counters_.stale_responses++;
    return;
  }
  if (!m.ok) {
    AbandonElection();
    BecomeFollower(m.ballot);
    return;
  }
  for (const Instance& inst : m.instances) {
    if (InsertInto(p->merged, inst) == InsertOutcome::kViolation) {
      changes_.push_back(LogChange{LogChangeKind::kViolation, inst, kReasonCommandMismatch});
    }
    p->max_last_index = std::max(p->max_last_index, inst.index);
  }
  ApplyChanges();
  p->progressed = cfg_.election_batch > 0;
  if (m.next_index != 0) {
    // a chunk of a longer promise: ask this peer alone for the next one, on the same channel
    p->asked[m.from] = m.next_index;
    Message next;
    next.type = MessageType::kPrepareRequest;
    next.from = cfg_.id;
    next.to = m.from;
    next.channel_id = p->channel_id;
    next.ballot = p->ballot;
    next.from_index = m.next_index;
    Send(next);
    return;
  }
  p->answered |= PeerBit(m.from);
  p->promises++;
  if (p->promises >= Majority()) {
    std::unique_ptr<PreparePhase> won = std::move(prepare_);
    MergeOwnLogAgain(*won);
    if (HolesToFill(log_.GlobalLastExecuted(), won->max_last_index, won->merged) > kMaxFill) {
      // a promise reported an index no run of leaders could have left that far beyond every
      // other entry (a forged or corrupt frame): leading would propose that many no-ops and
      // wait at the index for ever. Refusing the phase is as safe as losing its messages; the
      // election timer tries again.
      Trace a;
      a.kind = TraceKind::kElectionAbandoned;
      a.ballot = won->ballot;
      EmitTrace(a);
      LoseElection();
      BadEvent();
      return;
    }
    BecomeLeader(won->ballot, won->max_last_index, won->merged, won->backoff);
  }
}

// HolesToFill counts the indexes after gle, up to max_last_index, that merged lacks: the
// no-ops FillHoles would add. Counted over merged, not over the indexes: the range may be huge.
uint64_t HolesToFill(uint64_t gle, uint64_t max_last_index, const InstanceMap& merged) {
  if (max_last_index <= gle) return 0;
  uint64_t held = 0;
  for (const auto& [index, inst] : merged) {
    if (index > gle && index <= max_last_index) held++;
  }
  return max_last_index - gle - held;
}

// MergeOwnLogAgain takes the candidate's own promise as it wins rather than only when the
// phase opened: until then its acceptor still voted for the old leader, whose commands those
// votes may have chosen (docs/protocol.md, Election). Once leader it accepts nothing below.
void Node::MergeOwnLogAgain(PreparePhase& p) {
  for (const Instance& inst : log_.Instances()) {
    if (InsertInto(p.merged, inst) == InsertOutcome::kViolation) {
      changes_.push_back(LogChange{LogChangeKind::kViolation, inst, kReasonCommandMismatch});
    }
  }
  p.max_last_index = std::max(p.max_last_index, log_.LastIndex());
  ApplyChanges();
}

// --- replay ---

// SkipsExecutedReplay: a new leader, with bounded elections and repair, replays only above its
// own last_executed. Those entries are chosen (it executed them); re-proposing them served only
// lagging peers, which repair serves from their reported last_executed (docs/protocol.md,
// Replay, "Skipping the executed prefix").
bool Node::SkipsExecutedReplay() const { return cfg_.election_batch > 0 && cfg_.repair_batch > 0; }

void Node::StartReplay(InstanceMap merged, bool skip_executed) {
  FillHoles(merged);
  std::vector<Instance> sorted = SortedInstances(merged);
  replay_queue_.assign(std::make_move_iterator(sorted.begin()),
                       std::make_move_iterator(sorted.end()));
  if (skip_executed) {
    // what this leader executed is chosen and reaches lagging peers by repair
    while (!replay_queue_.empty() && replay_queue_.front().index <= log_.LastExecuted()) replay_queue_.pop_front();
  }
  if (replay_queue_.empty()) return;
  Trace t;
  t.kind = TraceKind::kReplay;
  t.count = replay_queue_.size();
  t.from_index = replay_queue_.front().index;
  t.to_index = replay_queue_.back().index;
  EmitTrace(t);
  // one entry at a time (the paper's); with bounded elections election_batch at once, each
  // commit starting the next, so the window stays full
  const uint64_t window = std::max<uint64_t>(cfg_.election_batch, 1);
  for (uint64_t i = 0; i < window && !replay_queue_.empty() && IsLeader(); i++) ReplayNext();
}

// FillHoles puts a no-op into merged at every index after gle, up to the last index any
// promise reported, that no promise holds. Nothing can have been chosen there (a chosen entry
// sits on a majority, and every majority shares a node with the promises), yet without an entry
// the executor would wait at that index for ever (docs/protocol.md, Replay).
void Node::FillHoles(InstanceMap& merged) {
  uint64_t count = 0, from = 0, to = 0;
  for (uint64_t i = log_.GlobalLastExecuted() + 1; i <= log_.LastIndex(); i++) {
    if (merged.count(i) != 0) continue;
    Instance noop;
    noop.ballot = ballot_;
    noop.index = i;
    noop.command.type = CommandType::kNoop;
    merged.emplace(i, std::move(noop));
    if (count == 0) from = i;
    count++;
    to = i;
  }
  if (count == 0) return;
  Trace t;
  t.kind = TraceKind::kFill;
  t.count = count;
  t.from_index = from;
  t.to_index = to;
  EmitTrace(t);
}

void Node::ReplayNext() {
  if (replay_queue_.empty()) return;
  Instance inst = std::move(replay_queue_.front());
  replay_queue_.pop_front();
  inst.ballot = ballot_;
  inst.state = InstanceState::kInProgress;
  StartAccept(inst, nullptr, true);
}

// --- accept ---

void Node::StartAccept(const Instance& inst, const ClientRequest* client, bool replay) {
  log_.Append(inst, &changes_);
  ApplyChanges();
  auto ph = std::make_unique<AcceptPhase>();
  ph->instance = inst;
  ph->votes = 1;
  if (client != nullptr) {
    ph->has_client = true;
    ph->client = *client;
  }
  ph->replay = replay;
  if (ph->votes >= Majority()) {
    Accepted(std::move(ph));
    return;
  }
  Message m;
  m.type = MessageType::kAcceptRequest;
  m.instance = inst;
  ph->channel_id = Broadcast(std::move(m));
  const uint64_t ch = ph->channel_id;
  accepts_.emplace(ch, std::move(ph));
}

// Accepted runs when a phase reached a majority; the phase is already out of accepts_.
void Node::Accepted(std::unique_ptr<AcceptPhase> ph) {
  log_.Commit(ph->instance.index, &changes_);
  ApplyChanges();
  if (ph->has_client) awaiting_[ph->instance.index] = ph->client;
  Execute();
  if (ph->replay) ReplayNext();
}

// FailWhileLeader ends an accept phase that timed out or met a stale reject: its client is
// told to retry, and the slot is proposed again so the executor never waits on a hole.
void Node::FailWhileLeader(AcceptPhase* ph) {
  auto node = accepts_.extract(ph->channel_id);
  if (node.empty()) return;  // not open: nothing to fail
  if (ph->has_client) {
    Result r;
    r.type = ResultType::kRetry;
    Reply(ph->client, std::move(r));
    ph->has_client = false;
  }
  ph->votes = 1;
  ph->answered = 0;
  ph->ticks = 0;
  Message m;
  m.type = MessageType::kAcceptRequest;
  m.instance = ph->instance;
  ph->channel_id = Broadcast(std::move(m));
  node.key() = ph->channel_id;
  accepts_.insert(std::move(node));
}

void Node::OnClientCommand(const ClientRequest& c, std::string_view line) {
  counters_.client_commands++;
  std::optional<Command> cmd = ParseCommand(line);
  Result r;
  if (!cmd) {
    r.type = ResultType::kBadCommand;
    Reply(c, std::move(r));
  } else if (gc_.phase != GcPhase::kIdle && GcClientReply(c)) {
  } else if (IsLeader()) {
    if (accepts_.size() >= cfg_.max_pending_accepts) {
      r.type = ResultType::kRetry;
      Reply(c, std::move(r));
      return;
    }
    Instance inst;
    inst.ballot = ballot_;
    inst.index = log_.AdvanceLastIndex();
    inst.client_id = c.client_id;
    inst.request_id = c.request_id;
    inst.state = InstanceState::kInProgress;
    inst.command = std::move(*cmd);
    StartAccept(inst, &c, false);
  } else if (LeaderOf(ballot_) != kNoLeader) {
    r.type = ResultType::kLeaderIs;
    r.leader = LeaderOf(ballot_);
    Reply(c, std::move(r));
  } else {
    r.type = ResultType::kRetry;
    Reply(c, std::move(r));
  }
}

void Node::OnAcceptRequest(const Message& m) {
  const Instance& inst = m.instance;
  Message r;
  r.type = MessageType::kAcceptResponse;
  if (inst.ballot < ballot_) {
    r.ok = false;
    r.ballot = ballot_;
    Respond(m, std::move(r));
    return;
  }
  log_.Append(inst, &changes_);
  ApplyChanges();
  if (inst.ballot > ballot_) BecomeFollower(inst.ballot);
  r.ok = true;
  r.ballot = ballot_;
  Respond(m, std::move(r));
  AskForGap(m.from, inst.index);
}

// AskForGap: a follower that accepts an entry whose predecessor it neither executed nor holds
// has lost an accept, and asks the sender at once with the message its heartbeat answer is (a
// commit_response on channel 0, its last_executed) instead of waiting for the next heartbeat.
// It asks once per last_executed, so a burst of later accepts over the same gap asks once.
void Node::AskForGap(uint64_t leader, uint64_t index) {
  const uint64_t next = log_.LastExecuted() + 1;
  if (cfg_.repair_batch == 0 || IsLeader() || index <= next || gap_asked_from_ == next) return;
  if (log_.Get(index - 1) != nullptr) return;
  gap_asked_from_ = next;
  Message ask;
  ask.type = MessageType::kCommitResponse;
  ask.from = cfg_.id;
  ask.to = leader;
  ask.ok = true;
  ask.ballot = ballot_;
  ask.last_executed = next - 1;
  Send(ask);
}

void Node::OnAcceptResponse(const Message& m) {
  auto it = accepts_.find(m.channel_id);
  if (it == accepts_.end() || (it->second->answered & PeerBit(m.from)) != 0) {
    counters_.stale_responses++;
    RepairAcknowledged(m);
    return;
  }
  AcceptPhase* ph = it->second.get();
  ph->answered |= PeerBit(m.from);
  if (m.ok) {
    ph->votes++;
    if (ph->votes >= Majority()) {
      std::unique_ptr<AcceptPhase> done = std::move(it->second);
      accepts_.erase(it);
      Accepted(std::move(done));
    }
    return;
  }
  BecomeFollower(m.ballot);
  // Demotion clears accepts_; if we are still leader the reject was older than our ballot.
  if (IsLeader()) FailWhileLeader(ph);
}

// --- commit (heartbeat, learning, trimming) ---

void Node::OnCommitTimer() {
  if (!IsLeader()) return;
  if (cfg_.check_quorum) {
    quorum_tick_++;
    const uint64_t window = kQuorumWindowTicks << quorum_backoff_;
    const uint64_t heard = HeardWithin(window);
    if (heard < Majority()) {
      StepDown(heard);
      return;
    }
    // the stretched window only covers the first answers' round trip; once answers flow as
    // often as the plain window asks, a lost majority is noticed as fast as ever
    if (quorum_backoff_ > 0 && quorum_tick_ >= window && HeardWithin(kQuorumWindowTicks) >= Majority()) {
      quorum_backoff_ = 0;
    }
  }
  GcHandoffTick();
  commit_round_.reset();
  for (AcceptPhase* ph : SortedAccepts()) {
    ph->ticks++;
    if (ph->ticks >= cfg_.accept_timeout_ticks << leader_backoff_) {
      counters_.accept_timeouts++;
      Trace t;
      t.kind = TraceKind::kAcceptTimeout;
      t.index = ph->instance.index;
      t.ballot = ph->instance.ballot;
      EmitTrace(t);
      FailWhileLeader(ph);
    }
  }
  GcGrantTicks();
  TrimAndOpenCommitRound();
  SetTimer(TimerName::kCommit, cfg_.commit_interval_us);
}

void Node::TrimAndOpenCommitRound() {
  const uint64_t floor = BoundFloor(log_.LastExecuted());
  if (floor > commit_gle_) LearnGle(floor);  // a peer that has not answered holds trimming back no further
  TrimUntil(commit_gle_);
  const uint64_t last_executed = log_.LastExecuted();
  if (cfg_.num_peers == 1) {
    LearnGle(last_executed);
    return;
  }
  Message m;
  m.type = MessageType::kCommitRequest;
  m.ballot = ballot_;
  m.last_executed = last_executed;
  m.global_last_executed = commit_gle_;
  const uint64_t ch = Broadcast(std::move(m));
  commit_round_ = std::make_unique<CommitRound>();
  commit_round_->channel_id = ch;
  commit_round_->min_last_executed = last_executed;
  commit_round_->last_executed = last_executed;
}

void Node::TrimUntil(uint64_t g) {
  if (log_.TrimUntil(g)) {
    Trace t;
    t.kind = TraceKind::kTrim;
    t.value = log_.GlobalLastExecuted();
    EmitTrace(t);
  }
}

// BoundFloor is the gle a leader keeps at least with a log bound: last_executed − log_bound
// (0 without a bound or below it).
uint64_t Node::BoundFloor(uint64_t last_executed) const {
  if (cfg_.log_bound == 0 || last_executed <= cfg_.log_bound) return 0;
  return last_executed - cfg_.log_bound;
}

void Node::LearnGle(uint64_t g) {
  if (g != commit_gle_) {
    commit_gle_ = g;
    Trace t;
    t.kind = TraceKind::kCommitGle;
    t.value = g;
    EmitTrace(t);
  }
}

void Node::OnCommitRequest(const Message& m) {
  Message r;
  r.type = MessageType::kCommitResponse;
  if (m.ballot < ballot_) {
    r.ok = false;
    r.ballot = ballot_;
    Respond(m, std::move(r));
    return;
  }
  commit_received_ = true;
  election_backoff_ = 0;  // a leader is seen: elections are back to their base delay
  log_.CommitUntil(m.last_executed, m.ballot, &changes_);
  ApplyChanges();
  Execute();
  TrimUntil(m.global_last_executed);
  if (m.ballot > ballot_) BecomeFollower(m.ballot);
  r.ok = true;
  r.ballot = ballot_;
  r.last_executed = log_.LastExecuted();
  Respond(m, std::move(r));
  GcAfterCommitRequest();
}

void Node::OnCommitResponse(const Message& m) {
  if (m.channel_id == 0 && IsLeader() && cfg_.repair_batch > 0 && m.ok && m.from < kMaxNumPeers) {
    OnGapAsk(m);
    return;
  }
  CommitRound* r = commit_round_.get();
  if (r == nullptr || m.channel_id != r->channel_id || (r->answered & PeerBit(m.from)) != 0) {
    counters_.stale_responses++;
    return;
  }
  r->answered |= PeerBit(m.from);
  if (!m.ok) {
    commit_round_.reset();
    BecomeFollower(m.ballot);
    return;
  }
  r->answered_count++;
  gc_.peer_executed[m.from] = m.last_executed;
  r->min_last_executed = std::min(r->min_last_executed, m.last_executed);
  if (m.last_executed < r->last_executed && cfg_.repair_batch > 0) {
    if (m.last_executed < log_.GlobalLastExecuted()) {
      repairs_[m.from] = RepairStream{};
      SendSnapshot(m.from);  // what it needs next is trimmed here (snapshot.cc)
    } else {
      Repair(m.from, m.last_executed + 1, r->last_executed);
    }
  }
  if (r->answered_count == cfg_.num_peers - 1) {
    const uint64_t learned = std::max(r->min_last_executed, BoundFloor(r->last_executed));
    commit_round_.reset();
    LearnGle(learned);
  }
}

// --- repair ---

// OnGapAsk answers a follower's ask (AskForGap) as its heartbeat answer would be answered,
// unless a repair batch to it is already in flight: that stream reaches the gap by itself.
void Node::OnGapAsk(const Message& m) {
  if (repairs_[m.from].awaiting > 0 || m.last_executed >= log_.LastExecuted()) return;
  if (m.last_executed < log_.GlobalLastExecuted()) {
    repairs_[m.from] = RepairStream{};
    SendSnapshot(m.from);
    return;
  }
  Repair(m.from, m.last_executed + 1, log_.LastExecuted());
}

// Repair re-sends to peer, as accept requests under this leader's ballot, the entries from
// `from` up to up_to: it lacked them (a lost accept) or held them from an older ballot (stale).
// At most repair_batch at a time, on one channel id whose answers match no accept phase; when
// all of them are acknowledged the next batch follows (RepairAcknowledged). The next heartbeat
// commits them.
void Node::Repair(uint64_t peer, uint64_t from, uint64_t up_to) {
  repairs_[peer] = RepairStream{};
  std::vector<Instance> batch;
  for (uint64_t i = from; i <= up_to && batch.size() < cfg_.repair_batch; i++) {
    const Instance* inst = log_.Get(i);
    // trimmed, or still being replayed (the replay will send it)
    if (inst == nullptr || (inst->ballot != ballot_ && i > log_.LastExecuted())) break;
    // An executed entry is chosen, so it goes out under this leader's ballot whatever ballot
    // wrote it: a follower that promised this ballot refuses an older one, and an entry a
    // previous term of this leader chose is never replayed.
    batch.push_back(*inst);
    batch.back().ballot = ballot_;
    batch.back().state = InstanceState::kInProgress;
  }
  if (batch.empty()) return;
  Trace t;
  t.kind = TraceKind::kRepair;
  t.leader = peer;
  t.from_index = batch.front().index;
  t.to_index = batch.back().index;
  EmitTrace(t);
  const uint64_t channel = ++next_channel_id_;
  const uint64_t to_index = batch.back().index;
  const uint64_t count = batch.size();
  for (Instance& inst : batch) {
    Message m;
    m.type = MessageType::kAcceptRequest;
    m.from = cfg_.id;
    m.to = peer;
    m.channel_id = channel;
    m.instance = std::move(inst);
    Send(m);
  }
  repairs_[peer] = RepairStream{channel, to_index, count};
}

// RepairAcknowledged counts an accept_response to a repair batch; the last one of the batch
// sends the next, up to this leader's last_executed (every entry up to it is chosen). A
// refusal or a lost answer ends the stream; the next heartbeat answer starts it again.
void Node::RepairAcknowledged(const Message& m) {
  if (!IsLeader() || m.from >= kMaxNumPeers) return;
  RepairStream& s = repairs_[m.from];
  if (s.awaiting == 0 || m.channel_id != s.channel_id) return;
  if (!m.ok) {
    s = RepairStream{};
    return;
  }
  if (--s.awaiting == 0) Repair(m.from, s.to_index + 1, log_.LastExecuted());
}

// --- check-quorum ---

// HeardWithin counts the nodes (this one included) heard within the last window_ticks
// heartbeats. A new leader's peers count as heard at its tick 0, which gives every peer one
// full window to answer.
uint64_t Node::HeardWithin(uint64_t window_ticks) const {
  uint64_t heard = 1;
  for (uint64_t p = 0; p < heard_tick_.size(); p++) {
    if (p != cfg_.id && heard_tick_[p] + window_ticks >= quorum_tick_) heard++;
  }
  return heard;
}

// StepDown ends a leadership that no majority answers: the ballot keeps its round but
// names no leader, so heartbeats stop and a connected majority elects a new leader.
void Node::StepDown(uint64_t heard) {
  Trace t;
  t.kind = TraceKind::kStepDown;
  t.ballot = ballot_;
  t.count = heard;
  t.value = (kQuorumWindowTicks << quorum_backoff_) * cfg_.commit_interval_us;
  EmitTrace(t);
  ballot_ = (ballot_ & ~uint64_t{0xff}) | kNoLeader;
  CancelTimer(TimerName::kCommit);
  for (AcceptPhase* ph : SortedAccepts()) {
    if (ph->has_client) {
      Result r;
      r.type = ResultType::kRetry;
      Reply(ph->client, std::move(r));
    }
  }
  accepts_.clear();
  replay_queue_.clear();
  commit_round_.reset();
  GcLeaveLeadership();
  commit_received_ = false;
  lease_held_ = false;
  SetTimer(TimerName::kElection, ElectionDelayUs());
}

// --- executor ---

void Node::Execute() {
  for (;;) {
    const Instance* inst = log_.NextExecutable();
    if (inst == nullptr) return;
    Result result = kv_.Apply(inst->command);
    const uint64_t index = inst->index;
    log_.MarkExecuted();
    counters_.executed++;
    Trace t;
    t.kind = TraceKind::kExecute;
    t.index = index;
    t.result = result.type;
    EmitTrace(t);
    auto it = awaiting_.find(index);
    if (it != awaiting_.end()) {
      const ClientRequest c = it->second;
      awaiting_.erase(it);
      Reply(c, std::move(result));
    }
  }
}

void Node::OnMessage(const Message& m) {
  switch (m.type) {
    case MessageType::kPrepareRequest:
      OnPrepareRequest(m);
      break;
    case MessageType::kPrepareResponse:
      OnPrepareResponse(m);
      break;
    case MessageType::kAcceptRequest:
      OnAcceptRequest(m);
      break;
    case MessageType::kAcceptResponse:
      OnAcceptResponse(m);
      break;
    case MessageType::kCommitRequest:
      OnCommitRequest(m);
      break;
    case MessageType::kCommitResponse:
      OnCommitResponse(m);
      break;
    case MessageType::kSnapshot:
      OnSnapshot(m);
      break;
    case MessageType::kGcRequest:
      OnGcRequest(m);
      break;
    case MessageType::kGcGrant:
      OnGcGrant(m);
      break;
    case MessageType::kGcRelease:
      OnGcRelease(m);
      break;
    case MessageType::kHandoff:
      OnHandoff(m);
      break;
  }
}

}  // namespace replicant
