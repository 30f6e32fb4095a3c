#include "client.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

#include "line_reader.h"
#include "net.h"
#include "server.h"

namespace replicant {
namespace server {

void ClientConn::Queue(std::string_view data, bool wake_owner) {
  bool wake;
  {
    std::lock_guard<std::mutex> lk(mu);
    if (broken) return;
    wake = pending.empty() && wake_owner;
    pending.append(data.data(), data.size());
  }
  if (wake) WakeOwner();
}

void ClientConn::WakeOwner() {
  const uint64_t one = 1;
  [[maybe_unused]] ssize_t n = write(wake_fd, &one, sizeof one);
}

size_t ClientConn::Backlog() {
  std::lock_guard<std::mutex> lk(mu);
  return pending.size();
}

bool ClientConn::Flush() {
  std::lock_guard<std::mutex> wl(write_mu);
  std::string out;
  {
    std::lock_guard<std::mutex> lk(mu);
    if (broken) return false;
    out.swap(pending);
  }
  size_t off = 0;
  while (off < out.size()) {
    const ssize_t n = send(fd, out.data() + off, out.size() - off, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      std::lock_guard<std::mutex> lk(mu);
      broken = true;
      pending.clear();
      return false;
    }
    off += static_cast<size_t>(n);
  }
  if (off < out.size()) {  // put the rest back in front of what was queued meanwhile
    std::lock_guard<std::mutex> lk(mu);
    out.erase(0, off);
    out += pending;
    pending.swap(out);
  }
  return true;
}

void Server::AcceptClients() {
  for (;;) {
    const int fd = AcceptNext(client_listener_, "a client", nullptr);
    if (counters_.clients.load(std::memory_order_relaxed) >= kMaxClients) {
      counters_.clients_refused.fetch_add(1, std::memory_order_relaxed);
      [[maybe_unused]] ssize_t n = send(fd, "retry\n", 6, MSG_DONTWAIT | MSG_NOSIGNAL);
      shutdown(fd, SHUT_WR);
      close(fd);
      continue;
    }
    uint64_t client_id;
    {
      std::lock_guard<std::mutex> lk(mu_);
      client_id = id_ + cfg_.peers.size() * ++next_client_k_;  // k = 1, 2, … as in the Go server
    }
    counters_.clients.fetch_add(1, std::memory_order_relaxed);
    if (!StartThread([this, fd, client_id] { ServeClient(fd, client_id); })) {
      Log("cannot start a thread for a new client; closing it");
      counters_.clients.fetch_sub(1, std::memory_order_relaxed);
      close(fd);
    }
  }
}

// OnClientLine hands one request to the core, or answers `retry` itself when the connection or
// the node already has as many requests in the core as the limits allow.
void Server::OnClientLine(ClientConn* conn, uint64_t request_id, std::string line) {
  std::string reset_reply;
  if (PeerResetCommand(line, &reset_reply)) {
    // (answered at once, not in the core's order: an operator's connection)
    conn->Queue(reset_reply, /*wake_owner=*/false);  // the client's own thread: it flushes next
    return;
  }
  std::vector<std::shared_ptr<ClientConn>> replied;
  bool stepped = false;
  const Clock::time_point received = Clock::now();
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (conn->in_flight < kMaxInFlightPerClient && in_flight_ < kMaxInFlightTotal) {
      conn->in_flight++;
      in_flight_++;
      counters_.in_flight.store(in_flight_, std::memory_order_relaxed);
      Event ev;
      ev.type = EventType::kClient;
      ev.client_id = conn->client_id;
      ev.request_id = request_id;
      ev.line = std::move(line);
      StepLocked(ev, received);
      replied.swap(replied_);
      stepped = true;
    }
  }
  SendReplies(&replied);
  if (stepped) return;
  counters_.shed_retries.fetch_add(1, std::memory_order_relaxed);
  conn->Queue("retry\n", /*wake_owner=*/false);  // the client's own thread: it flushes next
}

void Server::ServeClient(int fd, uint64_t client_id) {
  auto conn = std::make_shared<ClientConn>();
  conn->fd = fd;
  conn->client_id = client_id;
  conn->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (conn->wake_fd < 0) {
    Log(std::string("cannot serve a client: eventfd: ") + std::strerror(errno));
    close(fd);
    counters_.clients.fetch_sub(1, std::memory_order_relaxed);
    return;
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    clients_[client_id] = conn;
  }
  LineReader reader(fd, kMaxClientLine);
  std::string line;
  uint64_t request_id = 0;
  bool paused = false;
  for (bool open = true; open;) {
    LineReader::Status st = LineReader::Status::kNeedMore;
    while (conn->Backlog() < kMaxReplyBacklogBytes &&
           (st = reader.TryLine(&line)) == LineReader::Status::kLine) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      OnClientLine(conn.get(), ++request_id, std::move(line));
    }
    if (st == LineReader::Status::kTooLong) {
      Log("client " + std::to_string(client_id) + " sent a line over 1 MiB; closing");
      conn->Queue("bad command\n");
      break;
    }
    if (!conn->Flush()) break;
    // A client that does not read its replies is not read from either: its requests wait in
    // the kernel's buffers, not in ours.
    const bool reading = conn->Backlog() < kMaxReplyBacklogBytes;
    if (!reading && !paused) counters_.reads_paused.fetch_add(1, std::memory_order_relaxed);
    paused = !reading;
    pollfd p[2] = {};
    p[0].fd = fd;
    p[0].events = static_cast<short>((reading ? POLLIN : 0) | (conn->Backlog() > 0 ? POLLOUT : 0));
    p[1].fd = conn->wake_fd;
    p[1].events = POLLIN;
    const int r = poll(p, 2, 1000);
    if (r < 0 && errno != EINTR) break;
    if (r <= 0) continue;
    if ((p[1].revents & POLLIN) != 0) {
      uint64_t v;
      [[maybe_unused]] ssize_t n = read(conn->wake_fd, &v, sizeof v);
    }
    if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
      if (!reading) break;  // gone while we were not reading
      open = reader.Fill();
    }
  }
  // The client stopped sending (or is gone): give replies still in flight a moment to arrive.
  for (int i = 0; i < 50; i++) {
    uint64_t waiting;
    {
      std::lock_guard<std::mutex> lk(mu_);
      waiting = conn->in_flight;
    }
    if (!conn->Flush() || (waiting == 0 && conn->Backlog() == 0)) break;
    pollfd p{conn->wake_fd, POLLIN, 0};
    if (poll(&p, 1, 100) > 0) {
      uint64_t v;
      [[maybe_unused]] ssize_t n = read(conn->wake_fd, &v, sizeof v);
    }
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    in_flight_ -= conn->in_flight;
    conn->in_flight = 0;
    counters_.in_flight.store(in_flight_, std::memory_order_relaxed);
    clients_.erase(client_id);
  }
  shutdown(fd, SHUT_WR);
  // Closing a socket with unread input resets the connection, which can destroy the last
  // reply before the client reads it; read (and discard) what is left for a moment first.
  char sink[65536];
  for (int i = 0; i < 64; i++) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0 || recv(fd, sink, sizeof sink, 0) <= 0) break;
  }
  close(fd);
  close(conn->wake_fd);
  counters_.clients.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace server
}  // namespace replicant
