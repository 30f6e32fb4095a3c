// The replicated state machine: a hash map with a running digest, so that two replicas can be
// compared in O(1). Mirrors engines/go-wasm/core/kvstore.go.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "command.h"

namespace replicant {

// EntryHash is FNV-1a-64 of key, a zero byte, value.
uint64_t EntryHash(std::string_view key, std::string_view value);

class KVStore {
 public:
  KVStore() = default;
  KVStore(const KVStore& o);
  KVStore(KVStore&& o) noexcept;
  KVStore& operator=(KVStore o) noexcept;
  ~KVStore();

  // Apply executes one command and returns what the client is told.
  Result Apply(const Command& c);

  size_t Size() const { return size_; }
  uint64_t Digest() const { return digest_; }

  // FirstEntries returns up to limit entries in ascending byte order of keys.
  std::vector<std::pair<std::string, std::string>> FirstEntries(size_t limit) const;

  // HeapBytes is what the table asks of the allocator (slots and entry blocks, without the
  // allocator's own headers): what the store costs per record against its raw bytes.
  size_t HeapBytes() const;

 private:
  // One heap block per record: the two lengths, then the key's and the value's bytes. A
  // std::unordered_map<std::string, std::string> took three blocks (node, key past the small
  // string buffer, value) and cost 1.25 x the raw bytes of a YCSB record before the native
  // server's counting allocator added its header to each of the three (docs/benchmarks.md).
  struct Entry {
    uint32_t key_len;
    uint32_t value_len;
    char* Bytes() { return reinterpret_cast<char*>(this + 1); }
    const char* Bytes() const { return reinterpret_cast<const char*>(this + 1); }
    std::string_view Key() const { return {Bytes(), key_len}; }
    std::string_view Value() const { return {Bytes() + key_len, value_len}; }
  };
  static Entry* NewEntry(std::string_view key, std::string_view value);
  static void FreeEntry(Entry* e);

  // Open addressing with linear probing over a power-of-two table of entry pointers (nullptr:
  // empty); deletion shifts the probe run back, so there are no tombstones.
  size_t Home(std::string_view key) const;
  size_t Find(std::string_view key) const;  // the slot holding key, or slots_.size()
  void Place(Entry* e);                     // into the first empty slot of its probe run
  void Grow();
  void EraseSlot(size_t i);

  std::vector<Entry*> slots_;
  size_t size_ = 0;
  uint64_t digest_ = 0;  // wrapping sum of EntryHash over all entries
};

}  // namespace replicant
