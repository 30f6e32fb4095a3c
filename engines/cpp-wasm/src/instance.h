// One slot of the replicated log. Mirrors engines/go-wasm/core/instance.go.
#pragma once

#include <cstdint>

#include "command.h"

namespace replicant {

enum class InstanceState : uint8_t { kInProgress, kCommitted, kExecuted };

const char* ToString(InstanceState s);

struct Instance {
  uint64_t ballot = 0;
  uint64_t index = 0;
  uint64_t client_id = 0;
  uint64_t request_id = 0;
  InstanceState state = InstanceState::kInProgress;
  Command command;
};

}  // namespace replicant
