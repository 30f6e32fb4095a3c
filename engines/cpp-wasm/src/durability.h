// Durability (docs/protocol.md, "Durability"): in `log` mode the core names what must be on
// disk (persist effects) and keeps every message and reply back until the driver reports
// that everything persisted so far is there. The core never touches a disk; a restarted node
// is handed its records in a `restart` event. Mirrors engines/go-wasm/core/durability.go.
#pragma once

#include <cstdint>
#include <vector>

#include "instance.h"

namespace replicant {

enum class Durability : uint8_t {
  kNone,  // the paper's design: nothing survives a restart
  kLog,   // promises and accepted instances are persisted before anything reveals them
};

const char* ToString(Durability d);

enum class RecordKind : uint8_t {
  kPromise,   // the node's ballot: it accepts nothing below
  kInstance,  // a log slot as stored (in progress or committed)
};

const char* ToString(RecordKind k);

// Record is one durable record: what a persist effect asks for and a restart hands back.
struct Record {
  RecordKind kind = RecordKind::kPromise;
  uint64_t ballot = 0;  // promise
  Instance instance;    // instance
};

}  // namespace replicant
