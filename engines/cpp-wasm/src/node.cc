#include "node.h"

#include <algorithm>
#include <utility>

#include "binary_codec.h"
#include "codec.h"

namespace replicant {

Node::Node(const Config& cfg) : cfg_(cfg), rng_(cfg.seed), heard_tick_(cfg.num_peers, 0) {
  gc_.peer_executed.assign(cfg.num_peers, 0);
  gc_.collected_seq.assign(cfg.num_peers, 0);
}

const std::vector<Effect>& Node::Step(const Event& ev) {
  effects_.clear();
  counters_.events++;
  if (Durable() && !dur_.started && ev.type != EventType::kStart && ev.type != EventType::kRestart) {
    // Before its restart a durable node has not read its disk: a promise from it would carry none
    // of the slots it accepted, so a candidate missing chosen entries could win with it
    // (docs/protocol.md, "Nothing before restart"; nemesis java seed 371). Refused.
    BadEvent();
    return effects_;
  }
  switch (ev.type) {
    case EventType::kStart:
      dur_.started = true;
      SetTimer(TimerName::kElection, ElectionDelayUs());
      break;
    case EventType::kPersisted:
      OnPersisted(ev.persist_id);
      break;
    case EventType::kRestart:
      OnRestart(ev.records);
      break;
    case EventType::kTimer:
      if (ev.timer == TimerName::kElection) {
        OnElectionTimer();
      } else {
        OnCommitTimer();
      }
      break;
    case EventType::kGcPending:
      OnGcPending(ev.pause_us);
      break;
    case EventType::kGcDone:
      OnGcDone();
      break;
    case EventType::kClient:
      OnClientCommand(ClientRequest{ev.client_id, ev.request_id}, ev.line);
      break;
    case EventType::kMessage:
      if (!ValidMessage(ev.message)) {
        BadEvent();
        break;
      }
      counters_.messages_in++;
      heard_tick_[ev.message.from] = quorum_tick_;
      OnMessage(ev.message);
      break;
  }
  if (Durable() && ev.type != EventType::kPersisted) FinishDurableStep();
  if (g_check_invariants) {
    CheckInvariants();
    CheckDurableInvariants();
  }
  return effects_;
}

void Node::StepJson(std::string_view in, std::string* out) { StepEncoded(in, out, DecodeEvent, EncodeEffects); }

void Node::StepBinary(std::string_view in, std::string* out) {
  StepEncoded(in, out, DecodeBinaryEvent, EncodeBinaryEffects);
}

bool Node::StepBatch(std::string_view in, std::string* out) {
  if (!ValidBatchFraming(in)) return false;
  size_t pos = 0;
  std::string_view event;
  while (pos < in.size() && NextBatchFrame(in, &pos, &event)) {
    batch_effects_.clear();
    StepBinary(event, &batch_effects_);
    AppendBatchFrame(*out, batch_effects_);
  }
  return true;
}

void Node::StepEncoded(std::string_view in, std::string* out, bool (*decode)(std::string_view, Event*),
                       void (*encode)(std::string&, const std::vector<Effect>&)) {
  Event ev;
  if (!decode(in, &ev)) {
    effects_.clear();
    counters_.events++;
    BadEvent();
    encode(*out, effects_);
    return;
  }
  encode(*out, Step(ev));
}

std::string Node::StepJson(std::string_view in) {
  std::string out;
  StepJson(in, &out);
  return out;
}

void Node::BadEvent() {
  counters_.bad_events++;
  Effect e;
  e.type = EffectType::kError;
  effects_.push_back(std::move(e));
}

// ValidMessage applies the semantic checks of docs/protocol.md to a decoded message.
bool Node::ValidMessage(const Message& m) const {
  const uint64_t num = cfg_.num_peers;
  if (m.to != cfg_.id || m.from >= num || m.from == cfg_.id) return false;
  auto real_ballot = [num](uint64_t b) { return LeaderOf(b) < num; };
  switch (m.type) {
    case MessageType::kPrepareRequest:
    case MessageType::kCommitRequest:
      return LeaderOf(m.ballot) == m.from;
    case MessageType::kSnapshot:
      return LeaderOf(m.ballot) == m.from && ValidKVEntries(m.kv);
    case MessageType::kAcceptRequest:
      return LeaderOf(m.instance.ballot) == m.from && m.instance.index >= 1 &&
             m.instance.state == InstanceState::kInProgress;
    case MessageType::kGcRequest:
    case MessageType::kGcRelease:
      return LeaderOf(m.ballot) == m.to;
    case MessageType::kGcGrant:
      return LeaderOf(m.ballot) == m.from;
    case MessageType::kHandoff:
      return LeaderOf(m.ballot) == m.from && m.target < num && m.target != m.from;
    case MessageType::kPrepareResponse:
      for (const Instance& inst : m.instances) {
        if (inst.index < 1 || !real_ballot(inst.ballot)) return false;
      }
      break;
    default:
      break;
  }
  // A ballot naming no leader: the initial one, or a leader's after it stepped down.
  return real_ballot(m.ballot) || LeaderOf(m.ballot) == kNoLeader;
}

uint64_t Node::ElectionDelayUs() {
  const uint64_t lo = cfg_.commit_interval_us * 3 / 2;
  const uint64_t hi = cfg_.commit_interval_us * 2;
  return (lo + rng_.Next() % (hi - lo + 1)) << election_backoff_;
}

void Node::LoseElection() { election_backoff_ = std::min(election_backoff_ + 1, kElectionBackoffMax); }

// --- effect helpers ---

void Node::SetTimer(TimerName t, uint64_t delay_us) {
  Effect e;
  e.type = EffectType::kSetTimer;
  e.timer = t;
  e.delay_us = delay_us;
  effects_.push_back(std::move(e));
}

void Node::CancelTimer(TimerName t) {
  Effect e;
  e.type = EffectType::kCancelTimer;
  e.timer = t;
  effects_.push_back(std::move(e));
}

void Node::Reply(const ClientRequest& c, Result r) {
  counters_.replies++;
  Effect e;
  e.type = EffectType::kReply;
  e.client_id = c.client_id;
  e.request_id = c.request_id;
  e.result = std::move(r);
  effects_.push_back(std::move(e));
}

void Node::Send(const Message& m) {
  counters_.messages_out++;
  Effect e;
  e.type = EffectType::kSend;
  e.message = m;
  effects_.push_back(std::move(e));
}

// Broadcast sends m to every peer in ascending id order on a fresh channel, returned.
uint64_t Node::Broadcast(Message m) {
  m.from = cfg_.id;
  m.channel_id = ++next_channel_id_;
  for (uint64_t p = 0; p < cfg_.num_peers; p++) {
    if (p != cfg_.id) {
      m.to = p;
      Send(m);
    }
  }
  return m.channel_id;
}

// Respond answers request req with m on req's channel.
void Node::Respond(const Message& req, Message m) {
  m.from = cfg_.id;
  m.to = req.from;
  m.channel_id = req.channel_id;
  Send(m);
}

void Node::EmitTrace(const Trace& t) {
  if (!cfg_.trace) return;
  Effect e;
  e.type = EffectType::kTrace;
  e.trace = t;
  effects_.push_back(std::move(e));
}

// ApplyChanges turns what a log operation did into trace records.
void Node::ApplyChanges() {
  for (const LogChange& c : changes_) {
    Trace t;
    switch (c.kind) {
      case LogChangeKind::kStored:
        RecordInstance(c.instance);
        t.kind = TraceKind::kInstance;
        t.index = c.instance.index;
        t.ballot = c.instance.ballot;
        t.state = c.instance.state;
        break;
      case LogChangeKind::kStale:
        t.kind = TraceKind::kStale;
        t.index = c.instance.index;
        t.ballot = c.instance.ballot;
        break;
      case LogChangeKind::kViolation:
        counters_.violations++;
        t.kind = TraceKind::kViolation;
        t.index = c.instance.index;
        t.reason = c.reason;
        break;
    }
    EmitTrace(t);
  }
  changes_.clear();
}

std::vector<Node::AcceptPhase*> Node::SortedAccepts() const {
  std::vector<AcceptPhase*> out;
  out.reserve(accepts_.size());
  for (const auto& kv : accepts_) out.push_back(kv.second.get());
  return out;
}

}  // namespace replicant
