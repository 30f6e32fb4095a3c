#include "server.h"

#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <functional>
#include <system_error>
#include <thread>
#include <utility>

#include "alloc_stats.h"
#include "codec.h"
#include "net.h"

namespace replicant {
namespace server {

// A connected client. Replies are written by whichever thread ran the step, under the core
// lock, without blocking (MSG_DONTWAIT); what the socket does not take waits in `pending` and
// the client's own thread flushes it when the socket drains.
struct Server::ClientConn {
  int fd = -1;
  uint64_t client_id = 0;
  std::mutex mu;  // guards pending and broken
  std::string pending;
  bool broken = false;

  static constexpr size_t kMaxPending = size_t{64} << 20;

  void WriteLocked(std::string_view data) {
    if (broken) return;
    if (pending.empty()) {
      while (!data.empty()) {
        const ssize_t n = send(fd, data.data(), data.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0) {
          if (errno == EINTR) continue;
          if (errno == EAGAIN || errno == EWOULDBLOCK) break;
          Break();
          return;
        }
        data.remove_prefix(static_cast<size_t>(n));
      }
    }
    if (data.empty()) return;
    if (pending.size() + data.size() > kMaxPending) {  // the client stopped reading
      Break();
      return;
    }
    pending.append(data.data(), data.size());
  }

  void Write(std::string_view data) {
    std::lock_guard<std::mutex> lk(mu);
    WriteLocked(data);
  }

  // Flush writes what is pending without blocking.
  void Flush() {
    std::lock_guard<std::mutex> lk(mu);
    if (broken) return;
    std::string rest = std::move(pending);
    pending.clear();
    WriteLocked(rest);
  }

  bool HasPending() {
    std::lock_guard<std::mutex> lk(mu);
    return !pending.empty();
  }

  bool Broken() {
    std::lock_guard<std::mutex> lk(mu);
    return broken;
  }

  void Break() {
    broken = true;
    pending.clear();
    shutdown(fd, SHUT_RDWR);  // wakes the client's thread; it closes the socket
  }
};

// The outbound connection to one peer, owned by its sender thread. While the link is down,
// messages for the peer are dropped, as a network would drop them; what is queued when a
// connection breaks is lost with it (docs/protocol.md, "Native servers").
struct Server::PeerLink {
  uint64_t peer = 0;
  Address addr;
  std::mutex mu;  // guards everything below
  std::condition_variable cv;
  std::deque<std::string> queue;
  size_t queued_bytes = 0;
  bool up = false;  // connected: messages are queued only while true
  uint64_t dropped = 0;

  static constexpr size_t kMaxQueuedMessages = size_t{1} << 16;
  static constexpr size_t kMaxQueuedBytes = size_t{256} << 20;

  void Enqueue(std::string line) {
    std::lock_guard<std::mutex> lk(mu);
    if (!up || queue.size() >= kMaxQueuedMessages ||
        queued_bytes + line.size() > kMaxQueuedBytes) {
      dropped++;
      return;
    }
    queued_bytes += line.size();
    queue.push_back(std::move(line));
    cv.notify_one();
  }
};

Server::Server(ServerConfig cfg, uint64_t id, Options opts)
    : cfg_(std::move(cfg)), id_(id), opts_(opts) {
  Config c;
  c.id = id_;
  c.num_peers = cfg_.peers.size();
  c.seed = opts_.seed ? *opts_.seed : id_ + 1;  // the Go server's default
  c.commit_interval_us = cfg_.commit_interval_ms * 1000;
  c.check_quorum = cfg_.check_quorum;
  c.repair_batch = kServerRepairBatch;
  c.trace = opts_.trace;
  node_ = std::make_unique<Node>(c);
  for (uint64_t p = 0; p < cfg_.peers.size(); p++) {
    if (p == id_) {
      links_.push_back(nullptr);
      continue;
    }
    auto link = std::make_unique<PeerLink>();
    link->peer = p;
    link->addr = cfg_.peers[p];
    links_.push_back(std::move(link));
  }
}

Server::~Server() = default;

// StartThread runs f on a detached thread; false if the system has no thread to give (the
// connection is then refused rather than the process ended).
bool Server::StartThread(std::function<void()> f) {
  try {
    std::thread(std::move(f)).detach();
    return true;
  } catch (const std::system_error&) {
    return false;
  }
}

// Log writes "[cpp nI] 2026/11/22 13:02:28.123456 message", the Go server's format.
void Server::Log(const std::string& line) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t secs = std::chrono::system_clock::to_time_t(now);
  const long micros = static_cast<long>(
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
      1000000);
  std::tm tm{};
  localtime_r(&secs, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y/%m/%d %H:%M:%S", &tm);
  std::lock_guard<std::mutex> lk(log_mu_);
  std::fprintf(stderr, "[cpp n%llu] %s.%06ld %s\n", static_cast<unsigned long long>(id_), stamp,
               micros, line.c_str());
}

std::string Server::Listen() {
  std::string err;
  const Address& peer = cfg_.peers[id_];
  peer_listener_ = ListenOn(peer, &err);
  if (peer_listener_ < 0) return "cannot listen on peer address " + peer.host + ":" + peer.port + ": " + err;
  const Address& client = cfg_.clients[id_];
  client_listener_ = ListenOn(client, &err);
  if (client_listener_ < 0) {
    return "cannot listen on client address " + client.host + ":" + client.port + ": " + err;
  }
  return "";
}

void BlockStopSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void Server::RunSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {
  }
  Log(std::string("stopping on ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") + "; stats " +
      runtime::StatsJson());
  std::fflush(stderr);
  // Nothing is durable (as in Replicant): the sockets close with the process.
  _exit(0);
}

void Server::Run() {
  std::thread(&Server::RunSignals, this).detach();
  for (auto& link : links_) {
    if (link) std::thread(&Server::RunPeerLink, this, link.get()).detach();
  }
  std::thread(&Server::AcceptPeers, this).detach();
  std::thread(&Server::RunTimers, this).detach();
  {
    std::lock_guard<std::mutex> lk(mu_);
    StepLocked(Event{});  // start
  }
  Log("serving peers on " + cfg_.peers[id_].host + ":" + cfg_.peers[id_].port + ", clients on " +
      cfg_.clients[id_].host + ":" + cfg_.clients[id_].port);
  AcceptClients();  // never returns
  std::abort();
}

// --- the core ---

void Server::StepLocked(const Event& ev) {
  for (const Effect& e : node_->Step(ev)) Dispatch(e);
}

void Server::Dispatch(const Effect& e) {
  switch (e.type) {
    case EffectType::kSend: {
      PeerLink* link = e.message.to < links_.size() ? links_[e.message.to].get() : nullptr;
      if (link == nullptr) return;
      std::string line;
      line.reserve(128);
      AppendMessage(line, e.message);
      line.push_back('\n');
      link->Enqueue(std::move(line));
      return;
    }
    case EffectType::kReply: {
      auto it = clients_.find(e.client_id);
      if (it == clients_.end()) return;  // the client has gone
      std::string line = ReplyLine(e.result);
      line.push_back('\n');
      it->second->Write(line);
      return;
    }
    case EffectType::kSetTimer: {
      const int t = static_cast<int>(e.timer);
      timer_armed_[t] = true;
      timer_deadline_[t] = Clock::now() + std::chrono::microseconds(e.delay_us);
      timer_cv_.notify_one();
      return;
    }
    case EffectType::kCancelTimer:
      timer_armed_[static_cast<int>(e.timer)] = false;
      timer_cv_.notify_one();
      return;
    case EffectType::kTrace:
      if (opts_.trace) {
        scratch_.clear();
        AppendEffect(scratch_, e);
        Log(scratch_);
      }
      return;
    case EffectType::kError:
      Log("the core rejected an event as bad_event");
      return;
  }
}

void Server::RunTimers() {
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    int next = -1;
    for (int t = 0; t < 2; t++) {
      if (timer_armed_[t] && (next < 0 || timer_deadline_[t] < timer_deadline_[next])) next = t;
    }
    if (next < 0) {
      timer_cv_.wait(lk);
      continue;
    }
    if (Clock::now() < timer_deadline_[next]) {
      timer_cv_.wait_until(lk, timer_deadline_[next]);
      continue;  // re-examine: the timer may have been re-armed or cancelled meanwhile
    }
    timer_armed_[next] = false;
    Event ev;
    ev.type = EventType::kTimer;
    ev.timer = static_cast<TimerName>(next);
    StepLocked(ev);
  }
}

// --- clients ---

void Server::AcceptClients() {
  for (;;) {
    const int fd = accept4(client_listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno != EINTR && errno != ECONNABORTED) {
        Log(std::string("accepting a client: ") + std::strerror(errno));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      continue;
    }
    SetNoDelay(fd);
    uint64_t client_id;
    {
      std::lock_guard<std::mutex> lk(mu_);
      client_id = id_ + cfg_.peers.size() * ++next_client_k_;  // k = 1, 2, … as in the Go server
    }
    if (!StartThread([this, fd, client_id] { ServeClient(fd, client_id); })) {
      Log("cannot start a thread for a new client; closing it");
      close(fd);
    }
  }
}

void Server::ServeClient(int fd, uint64_t client_id) {
  auto conn = std::make_shared<ClientConn>();
  conn->fd = fd;
  conn->client_id = client_id;
  {
    std::lock_guard<std::mutex> lk(mu_);
    clients_[client_id] = conn;
  }
  LineReader reader(fd, kMaxClientLine);
  std::string line;
  uint64_t request_id = 0;
  Event ev;
  ev.type = EventType::kClient;
  ev.client_id = client_id;
  for (bool open = true; open;) {
    LineReader::Status st;
    while ((st = reader.TryLine(&line)) == LineReader::Status::kLine) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      ev.request_id = ++request_id;
      ev.line = std::move(line);
      std::lock_guard<std::mutex> lk(mu_);
      StepLocked(ev);
    }
    if (st == LineReader::Status::kTooLong) {
      Log("client " + std::to_string(client_id) + " sent a line over 1 MiB; closing");
      conn->Write("bad command\n");
      break;
    }
    pollfd p{};
    p.fd = fd;
    p.events = static_cast<short>(POLLIN | (conn->HasPending() ? POLLOUT : 0));
    const int r = poll(&p, 1, 200);
    if (r < 0 && errno != EINTR) break;
    if (r > 0 && (p.revents & POLLOUT) != 0) conn->Flush();
    if (r > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR)) != 0) open = reader.Fill();
    if (conn->Broken()) break;
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    clients_.erase(client_id);
  }
  // Let a last reply ("bad command") reach the client before the socket closes.
  for (int i = 0; i < 10 && conn->HasPending() && !conn->Broken(); i++) {
    pollfd p{fd, POLLOUT, 0};
    if (poll(&p, 1, 100) > 0) conn->Flush();
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
}

// --- peers ---

void Server::AcceptPeers() {
  for (;;) {
    sockaddr_storage sa{};
    socklen_t len = sizeof sa;
    const int fd = accept4(peer_listener_, reinterpret_cast<sockaddr*>(&sa), &len, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno != EINTR && errno != ECONNABORTED) {
        Log(std::string("accepting a peer: ") + std::strerror(errno));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      continue;
    }
    SetNoDelay(fd);
    char host[NI_MAXHOST] = "?", port[NI_MAXSERV] = "?";
    getnameinfo(reinterpret_cast<sockaddr*>(&sa), len, host, sizeof host, port, sizeof port,
                NI_NUMERICHOST | NI_NUMERICSERV);
    std::string from = std::string(host) + ":" + port;
    if (!StartThread([this, fd, from] { ServePeer(fd, from); })) {
      Log("cannot start a thread for a peer connection from " + from + "; closing it");
      close(fd);
    }
  }
}

void Server::ServePeer(int fd, std::string from) {
  LineReader reader(fd, kMaxPeerLine);
  std::string line;
  Event ev;
  ev.type = EventType::kMessage;
  const uint64_t n = cfg_.peers.size();
  for (;;) {
    LineReader::Status st;
    while ((st = reader.TryLine(&line)) == LineReader::Status::kLine) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) continue;
      if (!DecodeMessage(line, &ev.message)) {
        Log("dropping a peer line from " + from + " that does not decode: " +
            line.substr(0, 200));
        continue;
      }
      const Message& m = ev.message;
      if (m.to != id_ || m.from >= n || m.from == id_) {
        Log("dropping a peer message from " + from + " with from=" + std::to_string(m.from) +
            " to=" + std::to_string(m.to));
        continue;
      }
      std::lock_guard<std::mutex> lk(mu_);
      StepLocked(ev);
    }
    if (st == LineReader::Status::kTooLong) {
      Log("peer " + from + " sent a line over 64 MiB; closing");
      break;
    }
    if (!reader.Fill()) break;
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
    Log("connected to " + name);
    logged_down = false;
    backoff = kMinBackoff;
    std::unique_lock<std::mutex> lk(link->mu);
    link->up = true;
    std::string batch;
    for (;;) {
      if (link->queue.empty()) {
        link->cv.wait_for(lk, std::chrono::milliseconds(200));
        if (link->queue.empty()) {
          // Idle: notice a peer that went away (it never writes on this connection).
          pollfd p{fd, POLLIN, 0};
          char byte;
          if (poll(&p, 1, 0) > 0 && recv(fd, &byte, 1, MSG_DONTWAIT) <= 0) break;
          continue;
        }
      }
      batch.clear();
      while (!link->queue.empty() && batch.size() < (size_t{1} << 20)) {
        batch += link->queue.front();
        link->queued_bytes -= link->queue.front().size();
        link->queue.pop_front();
      }
      lk.unlock();
      const bool ok = WriteAll(fd, batch);
      lk.lock();
      if (!ok) break;
    }
    link->up = false;
    link->queue.clear();  // lost with the connection
    link->queued_bytes = 0;
    lk.unlock();
    close(fd);
    Log("lost the connection to " + name + "; reconnecting");
  }
}

}  // namespace server
}  // namespace replicant
