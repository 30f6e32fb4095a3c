// Everything a native server buffers has a limit (docs/protocol.md, "Native servers",
// "Limits"): the same values in all four servers. Beyond a limit the server answers `retry`,
// stops reading, or drops the oldest peer message, and counts it in its status line.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace replicant {
namespace server {

// Longest client line (bad command, connection closed) and peer line (link closed).
constexpr size_t kMaxClientLine = size_t{1} << 20;  // 1 MiB
constexpr size_t kMaxPeerLine = size_t{64} << 20;   // 64 MiB
// Client connections open at once; one more is told `retry` and closed.
constexpr uint64_t kMaxClients = 256;
// Client requests handed to the core and not yet answered, per connection and per node;
// one more is answered `retry` by the server without reaching the core.
constexpr uint64_t kMaxInFlightPerClient = 64;
constexpr uint64_t kMaxInFlightTotal = 1024;
// Reply bytes a client has not read yet; above this the server stops reading its requests.
constexpr size_t kMaxReplyBacklogBytes = size_t{1} << 20;  // 1 MiB
// Accept phases the core keeps open (its max_pending_accepts); more: the core answers `retry`.
constexpr uint64_t kMaxPendingAccepts = 256;
// Bytes queued for one peer and not yet written; over it the oldest messages are dropped.
constexpr size_t kMaxPeerQueueBytes = size_t{1} << 20;  // 1 MiB
// A message queued for a peer longer than this is dropped (the peer stopped reading: what it
// would get after resuming is stale, and working through it starves the node that must catch
// up; repair and snapshots bring it back instead; issue 20).
constexpr std::chrono::milliseconds kMaxPeerMessageAge{1000};
// A link whose writes make no progress this long while it has bytes to send is closed and
// redialled (a peer that stopped reading, or a receive window that closed while it was stopped
// and whose reopening went unnoticed: a fresh connection has neither; issue 20).
constexpr std::chrono::milliseconds kMaxPeerWriteStall{1000};
// The kernel's send buffer of a link and receive buffer of a peer connection: the bytes the
// kernel keeps for a stopped peer, where neither age nor size limits reach them (autotuned,
// loopback buffers held megabytes: seconds of stale traffic). As large as the peer queue, so
// one batch goes into the kernel in one write: at 32 KiB a link moved about 128 KiB per wake-up
// of the reader, below a leader's rate on a loaded machine while it loads 1 KB records, so the
// queue overflowed, followers lost accepts, and elections and snapshots followed (issue 16;
// data/native/2026-11-28-rust-followers).
constexpr int kPeerSocketBufferBytes = static_cast<int>(kMaxPeerQueueBytes);
// How often a node logs its status line (--status-interval-ms sets another, for tests that
// time an event more finely than a second).
constexpr std::chrono::milliseconds kStatusInterval{1000};
// The most malloc arenas the process uses (glibc's M_ARENA_MAX, set at start-up). Every reset
// peer connection starts a new reader thread; with glibc's default (8 per core) a new thread
// can take a fresh arena while the old reader still holds its own, and an arena keeps the pages
// it once held, so resident memory climbed 1-2.5 MiB a minute under a reset every 5 s
// (docs/reliability.md, issue 20). One arena: then no thread can take another, so the heap is
// one arena whatever the resets, as MALLOC_ARENA_MAX=1 showed (8 of 8 series flat). Its lock is
// no bottleneck here: every thread already takes turns at the core's mutex, and an interleaved
// A/B on cpp,cpp,cpp measured no cost beyond the noise (npm run cluster:server-ab; one arena
// / glibc's default, 10 pairs: median 1.09, 0.70-2.23; two arenas 0.89, 0.66-1.51).
constexpr int kMallocArenas = 1;
// How often the server hands the heap's free pages back to the kernel (malloc_trim, heap_trim.h).
// glibc returns by itself only free memory at the top of the heap, so what a burst of entries
// and peer lines took stayed in RSS after the log was trimmed: the held steps of issue 20's
// memory run (docs/reliability.md). On a timer rather than after each log trim: a trim runs
// every commit interval (150 ms) and under the core lock, while memory freed in a burst can wait
// a second; the JVM's launcher trims at the same interval (-XX:TrimNativeHeapInterval=1000).
constexpr std::chrono::milliseconds kHeapTrimInterval{1000};

}  // namespace server
}  // namespace replicant
