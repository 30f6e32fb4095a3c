// What a node reports about itself in its log: the once-a-second `status {...}` line
// (docs/protocol.md, "Native servers"). The same keys in all four servers, so tests and
// people read any node's log the same way.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace replicant {
namespace server {

// The driver's own running totals and levels. Written by many threads, read by the status
// thread; relaxed atomics are enough for figures that are only reported.
struct DriverCounters {
  std::atomic<uint64_t> clients{0};            // client connections open
  std::atomic<uint64_t> clients_refused{0};    // connections turned away over kMaxClients
  std::atomic<uint64_t> in_flight{0};          // client requests in the core, not yet answered
  std::atomic<uint64_t> shed_retries{0};       // requests answered `retry` by the driver's limits
  std::atomic<uint64_t> reads_paused{0};       // times a client's reading paused on its backlog
  std::atomic<uint64_t> peer_queue_bytes{0};   // bytes queued for all peers, not yet written
  std::atomic<uint64_t> dropped_sends{0};      // peer messages dropped (link down or queue full)
  std::atomic<uint64_t> garbage_frames{0};     // peer lines that did not decode or were misaddressed
  std::atomic<uint64_t> timer_late_max_us{0};  // worst timer lateness since the last status line
  std::atomic<uint64_t> wal_groups{0};   // group writes the persister made (one sync each under --fsync always)
  std::atomic<uint64_t> wal_batches{0};  // persist batches those groups carried
  std::atomic<uint64_t> malloc_trims{0};        // heap trims made (heap_trim.h)
  std::atomic<uint64_t> malloc_trim_cpu_us{0};  // the CPU time they took, in all

  // NoteWalGroup counts one group write that carried `batches` persist batches (batches first:
  // a reader that sees the group sees its batches, so a mean is never below 1).
  void NoteWalGroup(size_t batches) {
    wal_batches.fetch_add(batches, std::memory_order_relaxed);
    wal_groups.fetch_add(1, std::memory_order_relaxed);
  }
};

// GroupMean is the mean persist batches per group write between two readings of the WAL
// counters, "0.00" when there was none: above 1, requests shared a sync (the group commit).
std::string GroupMean(uint64_t groups, uint64_t batches);

// The core's side of a status line, read from its status fields (Inspect's spelling:
// Node::StatusFields).
struct CoreView {
  std::string role = "?";
  std::string leader = "null";  // a node id, or null
  uint64_t ballot = 0;
  uint64_t elections = 0;
  uint64_t last_index = 0;
  uint64_t last_executed = 0;
  uint64_t global_last_executed = 0;
  uint64_t replay_remaining = 0;
};

// ReadCoreView picks role, leader, ballot and counters.elections out of an Inspect object or
// Node::StatusFields (canonical: the first "ballot" and "leader" keys are the node's own).
CoreView ReadCoreView(std::string_view inspect_json);

// StatusLine renders `status {...}` (without a newline); wal_mean is the mean group size since
// the previous line (GroupMean).
std::string StatusLine(const CoreView& core, const DriverCounters& c, const std::string& wal_mean);

}  // namespace server
}  // namespace replicant
