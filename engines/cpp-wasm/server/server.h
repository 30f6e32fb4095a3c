// The native TCP server (docs/protocol.md, "Native servers"): the sans-IO core driven by OS
// threads, as in the paper's C++ Replicant (§4.1). server.cc holds the core, its timers, the
// effects dispatched, start, status and stop; client.cc the client connections; peer.cc the
// peer links (docs/engines.md, "The native servers, unit by unit").
//   - a thread per client connection reads command lines and steps the core; replies are
//     queued by whichever thread ran the step and written by it after it released the core
//     lock (what the socket does not take is left to the client's thread, woken by an eventfd);
//   - a thread per inbound peer connection reads and decodes peer messages and steps the core;
//   - a sender thread per peer dials it, reconnects with back-off and writes queued messages;
//   - a signal thread ends the process cleanly on SIGINT/SIGTERM;
//   - a timer thread watches the core's two timers; a status thread logs a status line;
//   - one mutex around the core serializes every step (like Replicant's Log mutex). No socket
//     is written while it is held: effects only go into queues, so a step is short.
//   - A timer that is due is delivered by whichever thread takes the core lock next, before its
//     own event: a heartbeat never waits in line behind client work for the lock.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "limits.h"
#include "node.h"
#include "persister.h"
#include "server_config.h"
#include "status.h"
#include "wal.h"

namespace replicant {
namespace server {

struct ClientConn;  // client.h
struct PeerLink;    // peer.h

struct Options {
  bool trace = false;             // log the core's trace records to stderr
  std::optional<uint64_t> seed;   // the core's PRNG seed (default: id + 1, as the Go server)
  // durability log: the write-ahead log's directory (empty: durability none, the paper's)
  std::string data_dir;
  FsyncPolicy fsync = FsyncPolicy::kAlways;
  // durability log: a checkpoint (snapshot file, log truncated) every this many executed
  // instances; 0 never (docs/protocol.md, "Compaction")
  uint64_t snapshot_every = kServerSnapshotEvery;
  // the core's log_bound (docs/protocol.md, "Log bound"); 0 lets the log grow while a peer is silent
  uint64_t log_bound = kServerLogBound;
  // how often the status line is logged
  std::chrono::milliseconds status_interval = kStatusInterval;
  // --test-peer-reset: the reset-peer command on the client port is on (tests only)
  bool test_peer_reset = false;
};

class Server {
 public:
  Server(ServerConfig cfg, uint64_t id, Options opts);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // OpenLog opens the write-ahead log in opts.data_dir (when given) and reads the records the
  // node will restart from. Returns "" or what is wrong: a node must not start on a log it
  // cannot trust, nor fall back to memory when it cannot write one.
  std::string OpenLog();
  // Listen binds the peer and client listeners. Returns "" or what is wrong.
  std::string Listen();
  // Run starts every thread and the core; it does not return (SIGINT/SIGTERM end the
  // process with status 0). Call it with SIGINT and SIGTERM watched (WatchStopSignals).
  [[noreturn]] void Run();

 private:
  using Clock = std::chrono::steady_clock;

  static bool StartThread(std::function<void()> f);
  void Log(const std::string& line);
  // mu_ held. Timers due by `received` (when the event was read off its socket) go first, the
  // event, then timers that came due while it waited for the lock (see StepLocked).
  void StepLocked(const Event& ev, Clock::time_point received);
  void StepCoreLocked(const Event& ev);  // mu_ held
  void OnPersisted(uint64_t persist_id);  // the persister's thread: a group is written
  void DeliverDueTimersLocked(Clock::time_point up_to);  // mu_ held
  void Dispatch(const Effect& e);    // mu_ held
  void NoteTimerLateness(Clock::time_point deadline);
  void UpdateNextDeadlineLocked();  // timer_mu_ held
  void OnClientLine(ClientConn* conn, uint64_t request_id, std::string line);  // client.cc
  // The reply to a reset-peer line in *reply (its newline included); false when the line is not
  // one (it goes to the core). peer_reset.cc.
  bool PeerResetCommand(std::string_view line, std::string* reply);
  void SendReplies(std::vector<std::shared_ptr<ClientConn>>* conns);

  // AcceptNext waits for the next connection on listener (errors are logged and waited out),
  // turns Nagle off and, when from is given, sets it to the peer's host:port.
  int AcceptNext(int listener, const char* what, std::string* from);
  void AcceptClients();                          // client.cc
  void ServeClient(int fd, uint64_t client_id);  // client.cc
  void AcceptPeers();                            // peer.cc
  void ServePeer(int fd, std::string from);      // peer.cc
  void RunPeerLink(PeerLink* link);              // peer.cc
  void RunTimers();
  [[noreturn]] void StopOnSignal(const char* name);
  void RunStatus();

  const ServerConfig cfg_;
  const uint64_t id_;
  const Options opts_;
  int client_listener_ = -1;
  int peer_listener_ = -1;

  std::mutex log_mu_;
  DriverCounters counters_;

  // The timers, guarded by timer_mu_ (a leaf lock, taken under mu_ or alone).
  std::mutex timer_mu_;
  std::condition_variable timer_cv_;
  bool timer_armed_[2] = {false, false};
  Clock::time_point timer_deadline_[2];
  // The earliest armed deadline (Clock ticks; max when none): read without a lock by every step.
  std::atomic<int64_t> next_deadline_{INT64_MAX};

  // Everything below is guarded by mu_ (the core lock) unless said otherwise.
  std::mutex mu_;
  std::unique_ptr<Node> node_;
  // durability log (OpenLog): the write-ahead log and the records it held at start; the
  // persister (created by Run) writes to wal_ without mu_, so wal_ outlives it
  std::unique_ptr<Wal> wal_;
  std::vector<Record> restart_records_;
  std::unique_ptr<Persister> persister_;
  bool core_refused_ = false;  // the core answered an event bad_event
  std::map<uint64_t, std::shared_ptr<ClientConn>> clients_;
  uint64_t next_client_k_ = 0;
  uint64_t in_flight_ = 0;  // client requests in the core, over all connections
  std::vector<std::shared_ptr<ClientConn>> replied_;  // replies queued by steps, to send after
  std::vector<std::unique_ptr<PeerLink>> links_;  // by peer id (nullptr for ourselves)
  std::string scratch_;
};

}  // namespace server
}  // namespace replicant
