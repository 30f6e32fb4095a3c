// Events go into Node::Step; effects come out. Messages travel between nodes.
// Mirrors engines/go-wasm/core/messages.go.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "command.h"
#include "durability.h"
#include "instance.h"

namespace replicant {

enum class MessageType : uint8_t {
  kPrepareRequest,
  kPrepareResponse,
  kAcceptRequest,
  kAcceptResponse,
  kCommitRequest,
  kCommitResponse,
  kSnapshot,  // state transfer: the leader's KV store at its last_executed
  // GC mitigation (mitigation.cc)
  kGcRequest,  // a follower asks its leader for permission to collect
  kGcGrant,    // the leader lets it
  kGcRelease,  // the collection ended, the grant is free
  kHandoff,    // a leader about to collect asks a peer to take over
};

const char* ToString(MessageType t);

// Message is one peer message; which fields matter depends on type (docs/protocol.md).
struct Message {
  MessageType type = MessageType::kPrepareRequest;
  uint64_t from = 0;
  uint64_t to = 0;
  uint64_t channel_id = 0;
  bool ok = false;
  uint64_t ballot = 0;
  uint64_t last_executed = 0;
  uint64_t global_last_executed = 0;
  Instance instance;               // accept_request
  std::vector<Instance> instances;  // prepare_response
  uint64_t from_index = 0;          // prepare_request/response with bounded elections (>= 1)
  uint64_t next_index = 0;          // prepare_response with bounded elections: 0 when whole
  KVEntries kv;                     // snapshot: every entry, ascending keys
  uint64_t pause_us = 0;            // gc_request: the predicted pause
  uint64_t target = 0;              // handoff: the peer asked to take over
  uint64_t collecting = 0;          // handoff: the peers holding grants, a bit per peer
  uint64_t collecting_ticks = 0;    // handoff: the most heartbeats any of those grants may still be held
};

enum class TimerName : uint8_t { kElection, kCommit };

const char* ToString(TimerName t);

enum class EventType : uint8_t {
  kStart,
  kTimer,
  kClient,
  kMessage,
  kPersisted,  // the driver wrote every record up to persist_id
  kRestart,    // a restarted node's persisted records
  kGcPending,  // the runtime will collect soon (GC mitigation)
  kGcDone,     // the collection the core asked for has ended
};

struct Event {
  EventType type = EventType::kStart;
  TimerName timer = TimerName::kElection;
  uint64_t client_id = 0;
  uint64_t request_id = 0;
  std::string line;
  Message message;
  uint64_t persist_id = 0;      // persisted
  std::vector<Record> records;  // restart
  uint64_t pause_us = 0;        // gc_pending: the predicted pause
};

enum class TraceKind : uint8_t {
  kFollower,
  kLeader,
  kElection,
  kElectionAbandoned,
  kReplay,
  kInstance,
  kExecute,
  kStale,
  kAcceptTimeout,
  kTrim,
  kCommitGle,
  kViolation,
  kStepDown,
  kRepair,
  kRecovered,
  kFill,
  kSnapshotSent,
  kSnapshotInstalled,
  kGcAsk,
  kGcGrant,
  kGcQueued,
  kGcRelease,
  kGcGrantExpired,
  kHandoff,
  kGcTimeout,
  kGcDone,
};

const char* ToString(TraceKind k);

// Trace is a record of a state change; which fields matter depends on kind.
struct Trace {
  TraceKind kind = TraceKind::kFollower;
  uint64_t ballot = 0;
  uint64_t leader = 0;  // follower: the new leader; repair, gc_*: the peer; handoff: the target
  uint64_t last_index = 0;
  uint64_t index = 0;
  InstanceState state = InstanceState::kInProgress;
  ResultType result = ResultType::kOk;
  uint64_t count = 0;  // replay: entries; step_down: nodes heard (itself included); recovered: records
  uint64_t from_index = 0;
  uint64_t to_index = 0;
  uint64_t value = 0;            // trim: the new gle; commit_gle: the learned gle; step_down: the window
  const char* reason = nullptr;  // violation
};

// kCollect: GC mitigation, run the announced collection now.
enum class EffectType : uint8_t { kSend, kReply, kSetTimer, kCancelTimer, kTrace, kError, kPersist, kCollect };

struct Effect {
  EffectType type = EffectType::kSend;
  Message message;          // send
  uint64_t client_id = 0;   // reply
  uint64_t request_id = 0;  // reply
  Result result;            // reply
  TimerName timer = TimerName::kElection;
  uint64_t delay_us = 0;
  Trace trace;
  uint64_t persist_id = 0;      // persist
  std::vector<Record> records;  // persist
  uint64_t pause_us = 0;        // collect
};

}  // namespace replicant
