// Peer links of the native server (server.h): newline-delimited messages to and from the other
// nodes. The server's peer half lives in peer.cc: accepting inbound connections (AcceptPeers),
// a reader thread per inbound connection that steps the core (ServePeer), and a sender thread
// per peer that dials it and writes its queue (RunPeerLink).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

#include "server_config.h"
#include "status.h"

namespace replicant {
namespace server {

// The outbound connection to one peer, owned by its sender thread. While the link is down,
// messages for the peer are dropped, as a network would drop them; what is queued when a
// connection breaks is lost with it; over kMaxPeerQueueBytes the oldest messages are dropped,
// and so is a message queued longer than kMaxPeerMessageAge; a connection whose writes make no
// progress for kMaxPeerWriteStall is closed and redialled (docs/protocol.md, "Limits").
struct PeerLink {
  using Clock = std::chrono::steady_clock;
  uint64_t peer = 0;
  Address addr;
  DriverCounters* counters = nullptr;
  std::mutex mu;  // guards everything below
  std::condition_variable cv;
  std::deque<std::string> queue;
  std::deque<Clock::time_point> queued_at;  // when each queued message was queued
  size_t queued_bytes = 0;
  bool up = false;  // connected: messages are queued only while true
  // reset-peer asked the sender to close this connection abortively and redial (peer_reset.cc)
  bool reset_requested = false;

  // Enqueue queues one message line while the link is up (drops it otherwise, the lines queued
  // over kMaxPeerMessageAge ago, and the oldest lines over kMaxPeerQueueBytes); never blocks
  // on the socket. EnqueueAt takes the time as now (a test's clock).
  void Enqueue(std::string line) { EnqueueAt(std::move(line), Clock::now()); }
  void EnqueueAt(std::string line, Clock::time_point now);
  // DropAged drops (and counts) every message queued over kMaxPeerMessageAge before now (mu held).
  void DropAged(Clock::time_point now);
  // DropOldest drops (and counts) the oldest queued message (mu held).
  void DropOldest();
  // Forget takes bytes that left the queue off the counts (mu held).
  void Forget(size_t bytes);
  // RequestReset drops what is queued and has the sender close its connection with an RST
  // (SO_LINGER 0) and redial, as after a TCP reset from outside; a write under way finishes
  // first. False when the link is down (nothing to reset). peer_reset.cc.
  bool RequestReset();
};

}  // namespace server
}  // namespace replicant
