// The native TCP server (docs/protocol.md, "Native servers"): the sans-IO core driven by OS
// threads, as in the paper's C++ Replicant (§4.1):
//   - a thread per client connection reads command lines and steps the core;
//   - a thread per inbound peer connection reads and decodes peer messages and steps the core;
//   - a sender thread per peer dials it, reconnects with back-off and writes queued messages;
//   - a signal thread ends the process cleanly on SIGINT/SIGTERM;
//   - a timer thread arms the core's two timers and feeds their firings back;
//   - one mutex around the core serializes every step (like Replicant's Log mutex); the
//     thread that ran a step dispatches its effects (queue peer messages, write client replies)
//     before releasing it, so effects leave in the order the core emitted them.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "node.h"
#include "server_config.h"
#include "status.h"

namespace replicant {
namespace server {

// Line limits of the native protocols.
constexpr size_t kMaxClientLine = size_t{1} << 20;  // 1 MiB
constexpr size_t kMaxPeerLine = size_t{64} << 20;   // 64 MiB

struct Options {
  bool trace = false;             // log the core's trace records to stderr
  std::optional<uint64_t> seed;   // the core's PRNG seed (default: id + 1, as the Go server)
};

// BlockStopSignals blocks SIGINT and SIGTERM in the calling thread and every thread it
// creates later, so that only the server's signal thread receives them.
void BlockStopSignals();

class Server {
 public:
  Server(ServerConfig cfg, uint64_t id, Options opts);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Listen binds the peer and client listeners. Returns "" or what is wrong.
  std::string Listen();
  // Run starts every thread and the core; it does not return (SIGINT/SIGTERM end the
  // process with status 0). Call it with SIGINT and SIGTERM blocked (BlockStopSignals).
  [[noreturn]] void Run();

 private:
  using Clock = std::chrono::steady_clock;
  struct ClientConn;
  struct PeerLink;

  static bool StartThread(std::function<void()> f);
  void Log(const std::string& line);
  void StepLocked(const Event& ev);  // mu_ held
  void Dispatch(const Effect& e);    // mu_ held

  void AcceptClients();
  void ServeClient(int fd, uint64_t client_id);
  void AcceptPeers();
  void ServePeer(int fd, std::string from);
  void RunPeerLink(PeerLink* link);
  void RunTimers();
  void RunSignals();
  void RunStatus();
  void NoteTimerLateness(Clock::time_point deadline);

  const ServerConfig cfg_;
  const uint64_t id_;
  const Options opts_;
  int client_listener_ = -1;
  int peer_listener_ = -1;

  std::mutex log_mu_;
  DriverCounters counters_;

  // Everything below is guarded by mu_ (the core lock) unless said otherwise.
  std::mutex mu_;
  std::unique_ptr<Node> node_;
  std::condition_variable timer_cv_;
  bool timer_armed_[2] = {false, false};
  Clock::time_point timer_deadline_[2];
  std::map<uint64_t, std::shared_ptr<ClientConn>> clients_;
  uint64_t next_client_k_ = 0;
  std::vector<std::unique_ptr<PeerLink>> links_;  // by peer id (nullptr for ourselves)
  std::string scratch_;
};

}  // namespace server
}  // namespace replicant
