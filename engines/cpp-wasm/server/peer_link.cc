// PeerLink's queue (peer.h): bounded in bytes and in age, apart from the sockets and threads in
// peer.cc so that unit tests reach it without a server.
#include <utility>

#include "limits.h"
#include "peer.h"

namespace replicant {
namespace server {

void PeerLink::EnqueueAt(std::string line, Clock::time_point now) {
  std::lock_guard<std::mutex> lk(mu);
  if (!up) {
    counters->dropped_sends.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  DropAged(now);
  while (!queue.empty() && queued_bytes + line.size() > kMaxPeerQueueBytes) DropOldest();
  const bool was_empty = queue.empty();  // the sender waits only on an empty queue
  queued_bytes += line.size();
  counters->peer_queue_bytes.fetch_add(line.size(), std::memory_order_relaxed);
  queue.push_back(std::move(line));
  queued_at.push_back(now);
  if (was_empty) cv.notify_one();
}

void PeerLink::DropAged(Clock::time_point now) {
  while (!queued_at.empty() && now - queued_at.front() > kMaxPeerMessageAge) DropOldest();
}

void PeerLink::DropOldest() {
  Forget(queue.front().size());
  queue.pop_front();
  queued_at.pop_front();
  counters->dropped_sends.fetch_add(1, std::memory_order_relaxed);
}

void PeerLink::Forget(size_t bytes) {
  queued_bytes -= bytes;
  counters->peer_queue_bytes.fetch_sub(bytes, std::memory_order_relaxed);
}

}  // namespace server
}  // namespace replicant
