// Client connections of the native server (server.h): a line of text per request in, a reply
// line per request out. The server's client half lives in client.cc: accepting connections
// (AcceptClients), each connection's thread (ServeClient) and handing a line to the core or
// answering `retry` at the in-flight bounds (OnClientLine).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace replicant {
namespace server {

// A connected client. Replies are queued by whichever thread ran the step (under the core
// lock, without a system call) and written by that thread once it has released the core lock;
// what the socket does not take then is left to the client's own thread, woken by an eventfd.
struct ClientConn {
  int fd = -1;
  int wake_fd = -1;  // eventfd: a reply was queued while `pending` was empty
  uint64_t client_id = 0;
  uint64_t in_flight = 0;  // requests in the core, not yet answered; guarded by the core lock
  std::mutex write_mu;     // held by whoever is writing to the socket, so bytes keep their order
  std::mutex mu;           // guards pending and broken
  std::string pending;     // replies not yet written
  bool broken = false;

  // Queue adds reply bytes; never blocks. With wake_owner the client's own thread is woken to
  // write them; otherwise the caller writes them (Flush) after releasing the core lock.
  void Queue(std::string_view data, bool wake_owner = true);
  void WakeOwner();
  size_t Backlog();
  // Flush writes what the socket takes without blocking; false if the connection failed.
  bool Flush();
};

}  // namespace server
}  // namespace replicant
