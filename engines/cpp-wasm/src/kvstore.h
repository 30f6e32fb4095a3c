// The replicated state machine: a hash map with a running digest, so that two replicas can be
// compared in O(1). Mirrors engines/go-wasm/core/kvstore.go.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "command.h"

namespace replicant {

// EntryHash is FNV-1a-64 of key, a zero byte, value.
uint64_t EntryHash(std::string_view key, std::string_view value);

class KVStore {
 public:
  // Apply executes one command and returns what the client is told.
  Result Apply(const Command& c);

  size_t Size() const { return entries_.size(); }
  uint64_t Digest() const { return digest_; }

  // FirstEntries returns up to limit entries in ascending byte order of keys.
  std::vector<std::pair<std::string, std::string>> FirstEntries(size_t limit) const;

 private:
  std::unordered_map<std::string, std::string> entries_;
  uint64_t digest_ = 0;  // wrapping sum of EntryHash over all entries
};

}  // namespace replicant
