// Everything a Node is created with (docs/protocol.md, "Data"). Mirrors
// engines/go-wasm/core/config.go.
#pragma once

#include <cstdint>
#include <string>

namespace replicant {

struct Config {
  uint64_t id = 0;
  uint64_t num_peers = 3;
  uint64_t seed = 0;
  uint64_t commit_interval_us = 150000;  // the paper's default commit interval (§3.2.2)
  uint64_t accept_timeout_ticks = 3;     // heartbeats an accept phase may wait for a majority
  uint64_t max_pending_accepts = 4096;   // open accept phases before clients are told to retry
  bool trace = true;                     // emit trace records
};

inline Config DefaultConfig() { return Config{}; }

// Validate returns an empty string for a valid configuration, else what is wrong.
std::string Validate(const Config& c);

}  // namespace replicant
