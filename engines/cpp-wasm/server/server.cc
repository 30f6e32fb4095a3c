#include "server.h"

#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <system_error>
#include <thread>
#include <utility>

#include "alloc_stats.h"
#include "client.h"
#include "heap_trim.h"
#include "codec.h"
#include "net.h"
#include "peer.h"
#include "stop_signals.h"

namespace replicant {
namespace server {

Server::Server(ServerConfig cfg, uint64_t id, Options opts)
    : cfg_(std::move(cfg)), id_(id), opts_(opts) {
  Config c;
  c.id = id_;
  c.num_peers = cfg_.peers.size();
  c.seed = opts_.seed ? *opts_.seed : id_ + 1;  // the Go server's default
  c.commit_interval_us = cfg_.commit_interval_ms * 1000;
  c.check_quorum = cfg_.check_quorum;
  c.repair_batch = kServerRepairBatch;
  c.election_batch = kServerElectionBatch;
  c.log_bound = opts_.log_bound;
  c.trace = opts_.trace;
  c.max_pending_accepts = kMaxPendingAccepts;
  node_ = std::make_unique<Node>(c);
  for (uint64_t p = 0; p < cfg_.peers.size(); p++) {
    if (p == id_) {
      links_.push_back(nullptr);
      continue;
    }
    auto link = std::make_unique<PeerLink>();
    link->peer = p;
    link->addr = cfg_.peers[p];
    link->counters = &counters_;
    links_.push_back(std::move(link));
  }
}

Server::~Server() = default;

std::string Server::OpenLog() {
  if (opts_.data_dir.empty()) return "";
  WalReadResult held;
  std::string err = Wal::Open(opts_.data_dir, opts_.fsync, &wal_, &held);
  if (!err.empty()) return err;
  if (!held.warning.empty()) Log("warning: " + held.warning);
  restart_records_.resize(held.records.size());
  for (size_t i = 0; i < held.records.size(); i++) {
    if (!DecodeRecord(held.records[i], &restart_records_[i])) {
      return wal_->path() + ": record " + std::to_string(i) + " (a good checksum) is not a record: " +
             held.records[i].substr(0, 80);
    }
  }
  Config c = node_->config();
  c.durability = Durability::kLog;
  c.snapshot_every = opts_.snapshot_every;
  const std::string invalid = Validate(c);
  if (!invalid.empty()) return invalid;
  node_ = std::make_unique<Node>(c);
  return "";
}

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
  // inherited by every peer connection it accepts (docs/protocol.md, "Limits")
  SetReceiveBuffer(peer_listener_, kPeerSocketBufferBytes);
  const Address& client = cfg_.clients[id_];
  client_listener_ = ListenOn(client, &err);
  if (client_listener_ < 0) {
    return "cannot listen on client address " + client.host + ":" + client.port + ": " + err;
  }
  return "";
}

int Server::AcceptNext(int listener, const char* what, std::string* from) {
  for (;;) {
    sockaddr_storage sa{};
    socklen_t len = sizeof sa;
    const int fd = accept4(listener, reinterpret_cast<sockaddr*>(&sa), &len, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno != EINTR && errno != ECONNABORTED) {
        Log(std::string("accepting ") + what + ": " + std::strerror(errno));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      continue;
    }
    SetNoDelay(fd);
    if (from != nullptr) {
      char host[NI_MAXHOST] = "?", port[NI_MAXSERV] = "?";
      getnameinfo(reinterpret_cast<sockaddr*>(&sa), len, host, sizeof host, port, sizeof port,
                  NI_NUMERICHOST | NI_NUMERICSERV);
      *from = std::string(host) + ":" + port;
    }
    return fd;
  }
}

void Server::StopOnSignal(const char* name) {
  Log(std::string("stopping on ") + name + "; stats " + runtime::StatsJson());
  std::fflush(stderr);
  // With a write-ahead log every record the core was told is persisted has been written
  // already (and synced, by policy); without one nothing is durable, as in Replicant.
  if (wal_ != nullptr && opts_.fsync != FsyncPolicy::kAlways) {
    persister_->Stop();  // lets a write in progress end: wal_ is not in use after this
    std::lock_guard<std::mutex> lk(mu_);
    wal_.reset();  // syncs what the kernel holds
  }
  _exit(0);
}

void Server::Run() {
  if (wal_ != nullptr) {
    persister_ = std::make_unique<Persister>(
        [this](const std::string& frames, const std::string* checkpoint) { return wal_->AppendGroup(frames, checkpoint); },
        [this](uint64_t id, size_t batches) {
          counters_.NoteWalGroup(batches);
          OnPersisted(id);
        },
        [this](const std::string& err) {
          Log("write-ahead log: " + err + "; stopping: a node that cannot persist must not answer");
          std::fflush(stderr);
          _exit(1);
        });
  }
  // The restart (or start) is stepped before any peer, client or timer can reach the core: before
  // its restart a node has not read its disk, and a promise it gave would carry none of the slots it
  // accepted (docs/protocol.md, "Nothing before restart"; nemesis java seed 371).
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (wal_ != nullptr) {
      Event restart;
      restart.type = EventType::kRestart;
      restart.records = std::move(restart_records_);
      const size_t count = restart.records.size();
      core_refused_ = false;
      StepLocked(restart, Clock::now());
      if (core_refused_) {
        Log(wal_->path() + ": the core refused the records it holds (a record no node could have written)");
        std::fflush(stderr);
        _exit(2);
      }
      Log("restarted from " + wal_->path() + ": " + std::to_string(count) + " records");
    } else {
      StepLocked(Event{}, Clock::now());  // start
    }
  }
  for (auto& link : links_) {
    if (link) std::thread(&Server::RunPeerLink, this, link.get()).detach();
  }
  std::thread(&Server::AcceptPeers, this).detach();
  std::thread(&Server::RunTimers, this).detach();
  std::thread(&Server::RunStatus, this).detach();
  std::thread(RunHeapTrim, kHeapTrimInterval, &counters_).detach();
  StopSignalsServing([this](const char* name) { StopOnSignal(name); });
  Log("serving peers on " + cfg_.peers[id_].host + ":" + cfg_.peers[id_].port + ", clients on " +
      cfg_.clients[id_].host + ":" + cfg_.clients[id_].port);
  AcceptClients();  // never returns
  std::abort();
}

// RunStatus logs the node's status line every opts_.status_interval, and says when a limit turned
// work away in the last interval (docs/protocol.md, "Native servers").
void Server::RunStatus() {
  uint64_t shed = 0, dropped = 0, refused = 0, groups = 0, batches = 0;
  for (;;) {
    std::this_thread::sleep_for(opts_.status_interval);
    CoreView core;
    {
      std::lock_guard<std::mutex> lk(mu_);
      core = ReadCoreView(node_->StatusFields());
    }
    const uint64_t now_shed = counters_.shed_retries.load(std::memory_order_relaxed);
    const uint64_t now_dropped = counters_.dropped_sends.load(std::memory_order_relaxed);
    const uint64_t now_refused = counters_.clients_refused.load(std::memory_order_relaxed);
    if (now_shed > shed) {
      Log("limit: answered " + std::to_string(now_shed - shed) +
          " client requests retry (in flight: " +
          std::to_string(counters_.in_flight.load(std::memory_order_relaxed)) + " of " +
          std::to_string(kMaxInFlightTotal) + " per node, " + std::to_string(kMaxInFlightPerClient) +
          " per connection)");
    }
    if (now_dropped > dropped) {
      Log("limit: dropped " + std::to_string(now_dropped - dropped) +
          " peer messages (link down or over " + std::to_string(kMaxPeerQueueBytes >> 20) +
          " MiB queued)");
    }
    if (now_refused > refused) {
      Log("limit: refused " + std::to_string(now_refused - refused) + " client connections (" +
          std::to_string(kMaxClients) + " open)");
    }
    shed = now_shed;
    dropped = now_dropped;
    refused = now_refused;
    const uint64_t now_groups = counters_.wal_groups.load(std::memory_order_relaxed);
    const uint64_t now_batches = counters_.wal_batches.load(std::memory_order_relaxed);
    Log(StatusLine(core, counters_, GroupMean(now_groups - groups, now_batches - batches)));
    groups = now_groups;
    batches = now_batches;
    counters_.timer_late_max_us.store(0, std::memory_order_relaxed);
  }
}

// --- the core ---

// NoteTimerLateness records how long after its deadline a timer reached the core.
void Server::NoteTimerLateness(Clock::time_point deadline) {
  const uint64_t late_us = static_cast<uint64_t>(std::max<int64_t>(
      0, std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - deadline).count()));
  uint64_t seen = counters_.timer_late_max_us.load(std::memory_order_relaxed);
  while (late_us > seen && !counters_.timer_late_max_us.compare_exchange_weak(seen, late_us)) {
  }
}

// StepLocked puts the event among the due timers in the order they happened: a timer that came
// due before the event was read goes first, one that came due while the event waited for the
// lock goes after it. Delivering every due timer first instead made a follower whose heartbeat
// arrived in time, but waited behind client work for the lock, see its election timer first and
// start an election against a live leader.
void Server::StepLocked(const Event& ev, Clock::time_point received) {
  DeliverDueTimersLocked(received);
  StepCoreLocked(ev);
  DeliverDueTimersLocked(Clock::now());
}

// StepCoreLocked steps the core and carries out its effects. A persist effect only goes to the
// persister's queue; the core hears it is done (OnPersisted) once it is written (and synced, by
// policy), so nothing that reveals its records leaves first.
void Server::StepCoreLocked(const Event& ev) {
  for (const Effect& e : node_->Step(ev)) Dispatch(e);
}

void Server::OnPersisted(uint64_t persist_id) {
  Event done;
  done.type = EventType::kPersisted;
  done.persist_id = persist_id;
  std::vector<std::shared_ptr<ClientConn>> replied;
  {
    std::lock_guard<std::mutex> lk(mu_);
    StepLocked(done, Clock::now());
    replied.swap(replied_);
  }
  SendReplies(&replied);
}

// SendReplies writes the replies the last steps queued, with the core lock released; what a
// socket does not take now is left to the client's own thread.
void Server::SendReplies(std::vector<std::shared_ptr<ClientConn>>* conns) {
  for (auto& c : *conns) {
    if (c->Flush() && c->Backlog() > 0) c->WakeOwner();
  }
  conns->clear();
}

// DeliverDueTimersLocked steps the core with every timer whose deadline has passed. Every
// step calls it first, so a due heartbeat goes out with the next step of any thread instead of
// waiting for the timer thread to win the core lock against the client threads.
void Server::DeliverDueTimersLocked(Clock::time_point up_to) {
  for (;;) {
    if (up_to.time_since_epoch().count() < next_deadline_.load(std::memory_order_acquire)) {
      return;
    }
    int due = -1;
    Clock::time_point deadline;
    {
      std::lock_guard<std::mutex> tl(timer_mu_);
      for (int t = 0; t < 2; t++) {
        if (timer_armed_[t] && timer_deadline_[t] <= up_to &&
            (due < 0 || timer_deadline_[t] < timer_deadline_[due])) {
          due = t;
        }
      }
      if (due >= 0) {
        timer_armed_[due] = false;
        deadline = timer_deadline_[due];
      }
      UpdateNextDeadlineLocked();
    }
    if (due < 0) return;
    NoteTimerLateness(deadline);
    Event ev;
    ev.type = EventType::kTimer;
    ev.timer = static_cast<TimerName>(due);
    StepCoreLocked(ev);
  }
}

// UpdateNextDeadlineLocked publishes the earliest armed deadline (timer_mu_ held).
void Server::UpdateNextDeadlineLocked() {
  int64_t next = INT64_MAX;
  for (int t = 0; t < 2; t++) {
    if (timer_armed_[t]) next = std::min<int64_t>(next, timer_deadline_[t].time_since_epoch().count());
  }
  next_deadline_.store(next, std::memory_order_release);
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
      if (it == clients_.end()) return;  // the client has gone (its requests left the count)
      ClientConn* c = it->second.get();
      if (c->in_flight > 0) {
        c->in_flight--;
        in_flight_--;
        counters_.in_flight.store(in_flight_, std::memory_order_relaxed);
      }
      std::string line = ReplyLine(e.result);
      line.push_back('\n');
      c->Queue(line, /*wake_owner=*/false);
      replied_.push_back(it->second);
      return;
    }
    case EffectType::kSetTimer: {
      {
        std::lock_guard<std::mutex> tl(timer_mu_);
        const int t = static_cast<int>(e.timer);
        timer_armed_[t] = true;
        timer_deadline_[t] = Clock::now() + std::chrono::microseconds(e.delay_us);
        UpdateNextDeadlineLocked();
      }
      timer_cv_.notify_one();
      return;
    }
    case EffectType::kCancelTimer: {
      {
        std::lock_guard<std::mutex> tl(timer_mu_);
        timer_armed_[static_cast<int>(e.timer)] = false;
        UpdateNextDeadlineLocked();
      }
      timer_cv_.notify_one();
      return;
    }
    case EffectType::kTrace:
      if (opts_.trace) {
        scratch_.clear();
        AppendEffect(scratch_, e);
        Log(scratch_);
      }
      return;
    case EffectType::kError:
      core_refused_ = true;
      Log("the core rejected an event as bad_event");
      return;
    case EffectType::kPersist:
      if (persister_ == nullptr) {
        Log("write-ahead log: a persist effect without a log; stopping: a node that cannot persist must not answer");
        std::fflush(stderr);
        _exit(1);
      }
      persister_->Queue(e.persist_id, e.records);
      return;
    case EffectType::kCollect:  // C++ has no collector: the server never sends gc_pending
      return;
  }
}

// RunTimers sleeps until the earliest armed deadline, then takes the core lock to deliver what
// is due (unless another thread's step has delivered it first).
void Server::RunTimers() {
  for (;;) {
    {
      std::unique_lock<std::mutex> tl(timer_mu_);
      for (;;) {
        int next = -1;
        for (int t = 0; t < 2; t++) {
          if (timer_armed_[t] && (next < 0 || timer_deadline_[t] < timer_deadline_[next])) next = t;
        }
        if (next < 0) {
          timer_cv_.wait(tl);
        } else if (Clock::now() < timer_deadline_[next]) {
          timer_cv_.wait_until(tl, timer_deadline_[next]);
        } else {
          break;
        }
      }
    }
    std::vector<std::shared_ptr<ClientConn>> replied;
    {
      std::lock_guard<std::mutex> lk(mu_);
      DeliverDueTimersLocked(Clock::now());
      replied.swap(replied_);
    }
    SendReplies(&replied);
  }
}

}  // namespace server
}  // namespace replicant
