// Everything a Node is created with (docs/protocol.md, "Data"). Mirrors
// engines/go-wasm/core/config.go.
#pragma once

#include <cstdint>
#include <string>

#include "durability.h"
#include "mitigation.h"

namespace replicant {

struct Config {
  uint64_t id = 0;
  uint64_t num_peers = 3;
  uint64_t seed = 0;
  uint64_t commit_interval_us = 150000;  // the paper's default commit interval (§3.2.2)
  uint64_t accept_timeout_ticks = 3;     // heartbeats an accept phase may wait for a majority
  uint64_t max_pending_accepts = 4096;   // open accept phases before clients are told to retry
  bool trace = true;                     // emit trace records
  // check_quorum: a leader that heard from no majority for kQuorumWindowTicks heartbeats
  // steps down, and a node that hears a live leader refuses prepares (docs/protocol.md).
  // Off keeps the paper's behaviour.
  bool check_quorum = false;
  // repair_batch: at most this many log entries a leader re-sends to a follower whose
  // heartbeat answer shows it could not execute what the leader had (a lost accept, a stale
  // entry); 0 turns repair off, the paper's behaviour.
  uint64_t repair_batch = 0;
  // election_batch: bounded elections (docs/protocol.md, "Bounded elections"). A candidate asks
  // only for instances after its gle, a promise travels in chunks of at most this many
  // instances, a prepare phase that hears answers is not abandoned, and a new leader replays
  // this many instances at once. 0 turns it off, the paper's behaviour.
  uint64_t election_batch = 0;
  // log_bound: the most executed entries a leader keeps between trims (docs/protocol.md, "Log
  // bound"). The leader raises gle to at least last_executed − log_bound without waiting for
  // every peer, so one node down does not stop trimming; a node behind that point is sent a
  // snapshot and cannot win an election. 0 turns it off, the paper's behaviour; it needs
  // repair_batch and election_batch (the snapshot and the prepare's from_index).
  uint64_t log_bound = 0;
  // durability: none (the paper's, the lab's preset) or log (persist before revealing).
  Durability durability = Durability::kNone;
  // snapshot_every: in durability log, a checkpoint persist (the KV store, the ballot and the
  // slots after it) every this many executed instances, so a driver can compact its records
  // (docs/protocol.md, "Compaction"). 0, the default, takes none.
  uint64_t snapshot_every = 0;
  // mitigation: what a node does when its runtime announces a collection (mitigation.cc);
  // none collects at once, the paper's behaviour.
  Mitigation mitigation = Mitigation::kNone;
  // mitmem_deadline_us: MITMEM answers busy when the predicted pause is longer than this.
  uint64_t mitmem_deadline_us = 20000;  // the MITMEM paper's 20 ms SLO
};

// kServerRepairBatch is the repair batch the native servers use (docs/protocol.md, "Repair").
constexpr uint64_t kServerRepairBatch = 256;
// kServerElectionBatch is the election batch the native servers use (docs/protocol.md,
// "Bounded elections").
constexpr uint64_t kServerElectionBatch = 256;
// kServerLogBound is the log bound the native servers use (docs/protocol.md, "Log bound"):
// far above what a live follower lags (repair_batch 256, 256 accepts in flight), small enough
// that a leader's log stays a few megabytes while a follower is down.
constexpr uint64_t kServerLogBound = 16384;
// kServerSnapshotEvery is the checkpoint interval the native servers use (docs/protocol.md,
// "Compaction").
constexpr uint64_t kServerSnapshotEvery = 4096;

// kQuorumWindowTicks is the check-quorum window in heartbeats: 2 commit intervals, the
// longest election timeout.
constexpr uint64_t kQuorumWindowTicks = 2;

// kElectionBackoffMax is the most an election delay is doubled after lost elections: 2^3 = 8
// times (docs/protocol.md, "Election backoff").
constexpr uint64_t kElectionBackoffMax = 3;

inline Config DefaultConfig() { return Config{}; }

// Validate returns an empty string for a valid configuration, else what is wrong.
std::string Validate(const Config& c);

}  // namespace replicant
