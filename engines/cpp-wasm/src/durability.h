// Durability (docs/protocol.md, "Durability"): in `log` mode the core names what must be on
// disk (persist effects) and keeps every message and reply back until the driver reports
// that everything persisted so far is there. The core never touches a disk; a restarted node
// is handed its records in a `restart` event. Mirrors engines/go-wasm/core/durability.go.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "instance.h"

namespace replicant {

enum class Durability : uint8_t {
  kNone,  // the paper's design: nothing survives a restart
  kLog,   // promises and accepted instances are persisted before anything reveals them
};

const char* ToString(Durability d);

// KVEntries is every KV entry in ascending key order: a snapshot's payload (snapshot.cc).
using KVEntries = std::vector<std::pair<std::string, std::string>>;

// ValidKVEntries: keys and values valid, keys strictly ascending (one canonical form).
bool ValidKVEntries(const KVEntries& kv);

enum class RecordKind : uint8_t {
  kPromise,   // the node's ballot: it accepts nothing below
  kInstance,  // a log slot as stored (in progress or committed)
  kSnapshot,  // an installed snapshot: the KV store at last_executed
  // kCheckpoint: the node's own snapshot, first in a batch that also holds its ballot and every
  // slot after last_executed, so the batch supersedes every record written before it.
  kCheckpoint,
};

const char* ToString(RecordKind k);

// Record is one durable record: what a persist effect asks for and a restart hands back.
struct Record {
  RecordKind kind = RecordKind::kPromise;
  uint64_t ballot = 0;  // promise, checkpoint
  Instance instance;    // instance
  uint64_t last_executed = 0;  // snapshot, checkpoint
  KVEntries kv;                // snapshot, checkpoint
};

}  // namespace replicant
