// Node: one Replicant peer, the sans-IO core. It is advanced only by Step.
// Mirrors engines/go-wasm/core/node.go (state, Step, effect helpers); the protocol handlers
// are in multipaxos.cc and the inspect view in inspect.cc, as in the Go core.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ballot.h"
#include "config.h"
#include "kvstore.h"
#include "log.h"
#include "messages.h"
#include "prng.h"

namespace replicant {

// g_check_invariants makes every Step verify the node's invariants (docs/protocol.md,
// "Invariants every engine asserts") and abort on a broken one. Test builds turn it on.
inline bool g_check_invariants = false;

// kMaxFill bounds the no-ops a new leader proposes (docs/protocol.md, Replay): sixteen full
// windows of the servers' 4,096 pending accepts. Holes are indexes a leader assigned that no
// promise holds; each leader leaves at most its window of them, and the next leader fills them.
constexpr uint64_t kMaxFill = 65536;

// HolesToFill counts the indexes after gle, up to max_last_index, that merged lacks.
uint64_t HolesToFill(uint64_t gle, uint64_t max_last_index, const InstanceMap& merged);

// Counters are the node's running totals, shown by Inspect.
struct Counters {
  uint64_t events = 0, messages_in = 0, messages_out = 0, client_commands = 0, replies = 0,
           executed = 0, elections = 0, bad_events = 0, stale_responses = 0,
           accept_timeouts = 0, violations = 0;
};

// kInspectKVEntries is how many KV entries (in ascending key order) Inspect lists.
constexpr size_t kInspectKVEntries = 64;

class Node {
 public:
  // cfg must be valid (Validate returns "").
  explicit Node(const Config& cfg);

  const Config& config() const { return cfg_; }

  // Step advances the node by one event. The returned effects are valid until the next Step.
  const std::vector<Effect>& Step(const Event& ev);
  // StepJson decodes one canonical event, steps, and appends the effects to *out as JSON
  // Lines.
  void StepJson(std::string_view in, std::string* out);
  std::string StepJson(std::string_view in);
  // StepBinary is StepJson in the binary encoding (docs/protocol.md, "Binary step").
  void StepBinary(std::string_view in, std::string* out);
  // StepBatch steps each frame's event as StepBinary would and appends one frame of effects
  // per event to *out (docs/protocol.md, "Batch step"); false, with nothing stepped, when the
  // framing is bad.
  bool StepBatch(std::string_view in, std::string* out);

  // Inspect returns the node's whole state as canonical JSON (docs/protocol.md, "Inspect").
  std::string Inspect() const;
  // StatusFields returns the few Inspect fields a server's status line reports (role, ballot,
  // leader, last_index, last_executed, global_last_executed, replay_remaining, elections) in
  // Inspect's spelling: no log and no KV, so it costs the same at any state size, while a
  // server's status loop calls it under the core's lock up to ten times a second.
  std::string StatusFields() const;

 private:
  friend struct InvariantTestAccess;  // invariants_test.cc breaks a node on purpose
  struct ClientRequest {
    uint64_t client_id = 0;
    uint64_t request_id = 0;
  };

  struct PreparePhase {
    uint64_t ballot = 0;
    uint64_t channel_id = 0;
    uint64_t promises = 0;
    uint32_t answered = 0;  // a bit per peer
    InstanceMap merged;
    uint64_t max_last_index = 0;
    // bounded elections: the from_index last asked of each peer, and whether any answer came
    // since the election timer last fired
    std::array<uint64_t, kMaxNumPeers> asked{};
    bool progressed = false;
    uint64_t backoff = 0;  // election_backoff_ when the phase opened: its leader waits longer
  };

  struct AcceptPhase {
    uint64_t channel_id = 0;
    Instance instance;
    uint64_t votes = 0;
    uint32_t answered = 0;
    uint64_t ticks = 0;
    bool has_client = false;
    ClientRequest client;
    bool replay = false;
  };

  // RepairStream is the repair batch a leader has in flight to one peer: when every entry of it
  // is acknowledged, the next batch goes out at once instead of at the next heartbeat, so a
  // follower catches up at the rate the link carries, not repair_batch per heartbeat.
  struct RepairStream {
    uint64_t channel_id = 0;  // 0: none in flight
    uint64_t to_index = 0;    // the batch's last index
    uint64_t awaiting = 0;    // acknowledgements still to come
  };

  struct CommitRound {
    uint64_t channel_id = 0;
    uint64_t last_executed = 0;  // what the heartbeat told the peers
    uint32_t answered = 0;
    uint64_t answered_count = 0;
    uint64_t min_last_executed = 0;
  };

  // node.cc
  void BadEvent();
  // One step on an encoded event; an event that does not decode is a bad event.
  void StepEncoded(std::string_view in, std::string* out, bool (*decode)(std::string_view, Event*),
                   void (*encode)(std::string&, const std::vector<Effect>&));
  bool ValidMessage(const Message& m) const;
  bool IsLeader() const { return LeaderOf(ballot_) == cfg_.id; }
  // AppendRoleBallotLeader writes "role", "ballot" and "leader" (null while there is none) as
  // Inspect and StatusFields both spell them.
  void AppendRoleBallotLeader(std::string& b, bool first) const;
  uint64_t Majority() const { return cfg_.num_peers / 2 + 1; }
  // Whether this node's own open prepare phase has a ballot above b. With bounded elections
  // such a candidate refuses b instead of abandoning its phase for it: when two candidates'
  // prepares cross, the higher ballot wins that round, where both used to give up and try
  // again (docs/protocol.md, "Bounded elections").
  bool CampaignsAbove(uint64_t b) const {
    return cfg_.election_batch > 0 && prepare_ && prepare_->ballot > b;
  }
  // InLease: with check-quorum on, a node that leads or hears a live leader refuses
  // prepares, so a node that cannot hear the others cannot depose a leader a majority
  // still follows.
  bool InLease() const {
    return cfg_.check_quorum && (IsLeader() || commit_received_ || lease_held_);
  }
  void CheckInvariants() const;
  uint64_t ElectionDelayUs();
  // LoseElection counts a lost election (every election_abandoned): the next waits double.
  void LoseElection();
  void SetTimer(TimerName t, uint64_t delay_us);
  void CancelTimer(TimerName t);
  void Reply(const ClientRequest& c, Result r);
  void Send(const Message& m);
  uint64_t Broadcast(Message m);
  void Respond(const Message& req, Message m);
  void EmitTrace(const Trace& t);
  void ApplyChanges();
  std::vector<AcceptPhase*> SortedAccepts() const;

  // multipaxos.cc
  void BecomeFollower(uint64_t b);
  void BecomeLeader(uint64_t b, uint64_t max_last_index, const InstanceMap& merged,
                    uint64_t backoff);
  void OnElectionTimer();
  void AbandonElection();
  void OnPrepareRequest(const Message& m);
  void RefusePrepare(const Message& m);
  void OnPrepareResponse(const Message& m);
  void MergeOwnLogAgain(PreparePhase& p);
  bool SkipsExecutedReplay() const;
  void StartReplay(InstanceMap merged, bool skip_executed);
  void FillHoles(InstanceMap& merged);
  Message PromiseChunk(uint64_t from) const;
  void ReplayNext();
  void StartAccept(const Instance& inst, const ClientRequest* client, bool replay);
  void Accepted(std::unique_ptr<AcceptPhase> ph);  // ph is already out of accepts_
  void FailWhileLeader(AcceptPhase* ph);
  void OnClientCommand(const ClientRequest& c, std::string_view line);
  void OnAcceptRequest(const Message& m);
  void AskForGap(uint64_t leader, uint64_t index);
  void OnGapAsk(const Message& m);
  void OnAcceptResponse(const Message& m);
  void OnCommitTimer();
  void TrimAndOpenCommitRound();
  void TrimUntil(uint64_t g);
  void LearnGle(uint64_t g);
  uint64_t BoundFloor(uint64_t last_executed) const;
  void OnCommitRequest(const Message& m);
  void OnCommitResponse(const Message& m);
  void Repair(uint64_t peer, uint64_t from, uint64_t up_to);
  void RepairAcknowledged(const Message& m);
  uint64_t HeardWithin(uint64_t window_ticks) const;
  void StepDown(uint64_t heard);
  void Execute();
  void OnMessage(const Message& m);

  // durability.cc
  bool Durable() const { return cfg_.durability == Durability::kLog; }
  void RecordInstance(const Instance& inst);
  void FinishDurableStep();
  bool CheckpointDue() const;
  void TakeCheckpoint();
  void OnPersisted(uint64_t id);
  bool ValidRecord(const Record& r) const;
  void OnRestart(const std::vector<Record>& records);
  void CheckDurableInvariants() const;

  // mitigation.cc
  enum class GcPhase : uint8_t {
    kIdle,
    kWaiting,     // a follower that wants permission (asked, or waits for a leader)
    kHandingOff,  // a leader waiting for its successor's election
    kCollecting,  // the driver was told to collect
  };
  struct GcGrantEntry {
    uint64_t peer = 0, channel_id = 0, ticks = 0, allowed_ticks = 0;
  };
  struct GcAskEntry {
    uint64_t peer = 0, channel_id = 0, pause_us = 0;
  };
  // GcState is one node's part in the mitigation.
  struct GcState {
    GcPhase phase = GcPhase::kIdle;
    uint64_t pause_us = 0;
    uint64_t channel_id = 0;  // this node's ask; 0: not sent yet
    bool granted = false;     // the collection runs under a grant, to be released at gc_done
    uint64_t grant_leader = 0, grant_ballot = 0, grant_channel = 0;
    uint64_t handoff_ticks = 0;
    // the last handoff heard: its successor's prepare passes the lease
    uint64_t handoff_ballot = 0, handoff_target = 0;
    // the grants the last handoff passed on (a bit per peer) and the most heartbeats any of
    // them may still be held; the target keeps them as its own when it wins
    uint64_t inherited_collecting = 0, inherited_ticks = 0;
    // leader state
    std::vector<GcGrantEntry> grants;
    std::vector<GcAskEntry> queue;
    std::vector<uint64_t> peer_executed;  // each peer's last_executed, from its latest commit_response
    std::vector<uint64_t> collected_seq;  // grant order: higher collected more recently
    uint64_t next_collected = 0;
  };
  uint64_t MaxCollecting() const;
  void OnGcPending(uint64_t pause_us);
  void Collect();
  void AskToCollect();
  void SendAsk();
  void HandOff();
  void OnHandoff(const Message& m);
  bool HandoffPrepare(const Message& m) const;
  void GcLeaveLeadership();
  void GcBecomeLeader();
  bool TakesOverFromHandoff() const;
  void GcAfterCommitRequest();
  bool GcOnElectionTimer();
  void GcHandoffTick();
  void GcGrantTicks();
  int GrantIndex(uint64_t peer) const;
  int QueuedIndex(uint64_t peer) const;
  void OnGcRequest(const Message& m);
  void Grant(const GcAskEntry& a);
  void GrantFromQueue();
  void OnGcGrant(const Message& m);
  void OnGcDone();
  void OnGcRelease(const Message& m);
  bool GcClientReply(const ClientRequest& c);
  std::string CheckGcInvariants() const;
  void StartElection();

  // snapshot.cc
  void SendSnapshot(uint64_t peer);
  void OnSnapshot(const Message& m);
  void InstallSnapshot(uint64_t last_executed, const KVEntries& kv);

  Config cfg_;
  uint64_t ballot_ = kInitialBallot;
  Log log_;
  KVStore kv_;
  SplitMix64 rng_;
  bool commit_received_ = false;
  uint64_t last_prepare_ballot_ = 0;
  uint64_t next_channel_id_ = 0;
  std::unique_ptr<PreparePhase> prepare_;
  // Open accept phases by channel id. An ordered map: iterating it is ascending channel
  // order, which the protocol asks for.
  std::map<uint64_t, std::unique_ptr<AcceptPhase>> accepts_;
  std::deque<Instance> replay_queue_;
  std::unique_ptr<CommitRound> commit_round_;
  std::array<RepairStream, kMaxNumPeers> repairs_{};  // per peer (leader)
  uint64_t commit_gle_ = 0;
  uint64_t gap_asked_from_ = 0;  // follower: the last_executed + 1 it last asked the leader to repair from
  std::unordered_map<uint64_t, ClientRequest> awaiting_;  // index -> the request it answers
  Counters counters_;
  // check-quorum (Config::check_quorum): heartbeats since this node became leader, the
  // heartbeat count when each peer was last heard, and whether the last election timer
  // found a leader's heartbeat (the follower's lease).
  uint64_t quorum_tick_ = 0;
  std::vector<uint64_t> heard_tick_;
  bool lease_held_ = false;
  // election backoff (docs/protocol.md, "Election backoff"): elections this node lost since it
  // last saw a leader, at most kElectionBackoffMax; every election delay it draws is multiplied
  // by 2 to that power. leader_backoff_ keeps the winning phase's value: the leader's accept
  // time-out is stretched by that factor for its term. quorum_backoff_ stretches its quorum
  // window by the same factor only until a majority has answered within the unstretched window
  // after one full stretched one; then it is 0.
  uint64_t election_backoff_ = 0;
  uint64_t leader_backoff_ = 0;
  uint64_t quorum_backoff_ = 0;

  // Persist bookkeeping (durability.cc; all zero in durability none).
  struct DurableState {
    bool started = false;         // a start or restart event was seen; a later restart is bad
    uint64_t issued_id = 0;       // the last persist id handed out
    uint64_t done_id = 0;         // the driver reported every persist up to this one done
    uint64_t recorded_ballot = kInitialBallot;  // the ballot of the last promise record
    uint64_t checkpointed_at = 0;  // last_executed at the last checkpoint (or at the restart)
    std::vector<Record> records;  // this step's records, emitted as one persist effect
    std::vector<std::pair<uint64_t, Effect>> held;  // sends and replies waiting: (persist id, effect)
  };
  DurableState dur_;
  GcState gc_;  // GC mitigation (mitigation.cc)

  std::vector<Effect> effects_;     // the current step's output
  std::string batch_effects_;       // StepBatch: one event's effects, kept for its capacity
  std::vector<LogChange> changes_;  // scratch for log operations
};

}  // namespace replicant
