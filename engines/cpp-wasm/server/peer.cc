#include "peer.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#include "codec.h"
#include "limits.h"
#include "line_reader.h"
#include "net.h"
#include "server.h"

namespace replicant {
namespace server {

void Server::AcceptPeers() {
  for (;;) {
    std::string from;
    const int fd = AcceptNext(peer_listener_, "a peer", &from);
    if (!StartThread([this, fd, from] { ServePeer(fd, from); })) {
      Log("cannot start a thread for a peer connection from " + from + "; closing it");
      close(fd);
    }
  }
}

void Server::ServePeer(int fd, std::string from) {
  std::vector<std::shared_ptr<ClientConn>> replied;
  LineReader reader(fd, kMaxPeerLine);
  std::string line;
  Event ev;
  ev.type = EventType::kMessage;
  const uint64_t n = cfg_.peers.size();
  // When the lines now in the reader's buffer were read off the socket.
  Clock::time_point received = Clock::now();
  for (;;) {
    LineReader::Status st;
    while ((st = reader.TryLine(&line)) == LineReader::Status::kLine) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) continue;
      if (!DecodeMessage(line, &ev.message)) {
        counters_.garbage_frames.fetch_add(1, std::memory_order_relaxed);
        Log("dropping a peer line from " + from + " that does not decode: " +
            line.substr(0, 200));
        continue;
      }
      const Message& m = ev.message;
      if (m.to != id_ || m.from >= n || m.from == id_) {
        counters_.garbage_frames.fetch_add(1, std::memory_order_relaxed);
        Log("dropping a peer message from " + from + " with from=" + std::to_string(m.from) +
            " to=" + std::to_string(m.to));
        continue;
      }
      {
        std::lock_guard<std::mutex> lk(mu_);
        StepLocked(ev, received);
        replied.swap(replied_);
      }
      SendReplies(&replied);
    }
    if (st == LineReader::Status::kTooLong) {
      Log("peer " + from + " sent a line over 64 MiB; closing");
      break;
    }
    if (!reader.Fill()) break;
    received = Clock::now();
  }
  close(fd);
}

void Server::RunPeerLink(PeerLink* link) {
  // The redial interval stays under the election timeout (at least 1.5 commit intervals): a
  // restarted peer must hear our heartbeat before its first election timer fires, or it starts
  // an election, wins it with an empty log, and cannot execute what the others have already
  // trimmed (docs/protocol.md, "Native servers").
  const auto kMaxBackoff =
      std::max(std::chrono::milliseconds(cfg_.commit_interval_ms / 2), std::chrono::milliseconds(1));
  const auto kMinBackoff = std::min(std::chrono::milliseconds(25), kMaxBackoff);
  auto backoff = kMinBackoff;
  bool logged_down = false;
  const std::string name = "peer " + std::to_string(link->peer) + " (" + link->addr.host + ":" +
                           link->addr.port + ")";
  for (;;) {
    const int fd = Dial(link->addr);
    if (fd < 0) {
      if (!logged_down) Log("cannot reach " + name + "; retrying");
      logged_down = true;
      std::this_thread::sleep_for(backoff);
      backoff = std::min(backoff * 2, kMaxBackoff);
      continue;
    }
    SetSendBuffer(fd, kPeerSocketBufferBytes);
    Log("connected to " + name);
    logged_down = false;
    backoff = kMinBackoff;
    std::unique_lock<std::mutex> lk(link->mu);
    link->up = true;
    std::string batch;
    bool reset = false;
    for (;;) {
      if (link->queue.empty() && !link->reset_requested) {
        link->cv.wait_for(lk, std::chrono::milliseconds(200));
        if (link->queue.empty() && !link->reset_requested) {
          // Idle: notice a peer that went away (it never writes on this connection).
          pollfd p{fd, POLLIN, 0};
          char byte;
          if (poll(&p, 1, 0) > 0 && recv(fd, &byte, 1, MSG_DONTWAIT) <= 0) break;
          continue;
        }
      }
      if (link->reset_requested) {
        reset = true;
        break;
      }
      // (what waited too long while the peer did not read is dropped, not sent)
      link->DropAged(PeerLink::Clock::now());
      batch.clear();
      while (!link->queue.empty() && batch.size() < (size_t{1} << 20)) {
        batch += link->queue.front();
        link->Forget(link->queue.front().size());
        link->queue.pop_front();
        link->queued_at.pop_front();
      }
      lk.unlock();
      const WriteResult written = WriteWithProgress(fd, batch, kMaxPeerWriteStall);
      lk.lock();
      if (written == WriteResult::kStalled) {
        Log("no write progress to " + name + " for " + std::to_string(kMaxPeerWriteStall.count()) +
            " ms; redialling");
      }
      if (written != WriteResult::kOk) break;
    }
    link->up = false;
    link->reset_requested = false;
    counters_.dropped_sends.fetch_add(link->queue.size(), std::memory_order_relaxed);
    link->Forget(link->queued_bytes);
    link->queue.clear();  // lost with the connection
    link->queued_at.clear();
    lk.unlock();
    if (reset) {
      const linger abortive{1, 0};  // an RST, as a reset from outside: what the kernel held is lost
      setsockopt(fd, SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
      close(fd);
      Log("link to peer " + std::to_string(link->peer) + " at " + link->addr.host + ":" + link->addr.port +
          " broke: reset-peer; reconnecting");
      continue;
    }
    close(fd);
    Log("lost the connection to " + name + "; reconnecting");
  }
}

}  // namespace server
}  // namespace replicant
