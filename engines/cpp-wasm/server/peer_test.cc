#include "peer.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <future>
#include <string>

#include "limits.h"
#include "net.h"

namespace replicant {
namespace server {
namespace {

// A message queued for a peer longer than kMaxPeerMessageAge is dropped and counted, whatever
// room the queue has left: a peer that stopped reading gets no backlog of stale messages to
// work through when it resumes (issue 20).
TEST(PeerLink, DropsMessagesQueuedTooLong) {
  DriverCounters c;
  PeerLink link;
  link.counters = &c;
  link.up = true;  // no sender thread: every message stays queued
  const auto t0 = PeerLink::Clock::now();
  const std::string msg(1000, 'x');
  for (int i = 0; i < 100; ++i) link.EnqueueAt(msg, t0);
  EXPECT_EQ(c.dropped_sends.load(), 0u) << "dropped with 100 kB queued and no time passed";
  link.EnqueueAt(msg, t0 + kMaxPeerMessageAge / 2);
  EXPECT_EQ(c.dropped_sends.load(), 0u) << "dropped after half the age limit";
  link.EnqueueAt(msg, t0 + kMaxPeerMessageAge + std::chrono::milliseconds(1));
  // the 100 queued first are over the age; the one queued at half of it is not
  EXPECT_EQ(c.dropped_sends.load(), 100u);
  EXPECT_EQ(link.queue.size(), 2u);
  EXPECT_EQ(link.queued_bytes, 2000u);
  EXPECT_EQ(c.peer_queue_bytes.load(), 2000u);
}

int SocketOption(int fd, int opt) {
  int v = 0;
  socklen_t len = sizeof v;
  EXPECT_EQ(getsockopt(fd, SOL_SOCKET, opt, &v, &len), 0);
  return v;
}

// A loopback link set up as the server sets its peer links: the listener's receive buffer
// (inherited by what it accepts) and the dialer's send buffer bounded.
struct BoundedLoopback {
  int listener = -1;
  int dialed = -1;
  ~BoundedLoopback() {
    if (dialed >= 0) close(dialed);
    if (listener >= 0) close(listener);
  }
};

void OpenBoundedLoopback(BoundedLoopback* link) {
  std::string err;
  link->listener = ListenOn(Address{"127.0.0.1", "0"}, &err);
  ASSERT_GE(link->listener, 0) << err;
  SetReceiveBuffer(link->listener, kPeerSocketBufferBytes);
  sockaddr_storage sa{};
  socklen_t len = sizeof sa;
  ASSERT_EQ(getsockname(link->listener, reinterpret_cast<sockaddr*>(&sa), &len), 0);
  char port[16];
  std::snprintf(port, sizeof port, "%u", ntohs(reinterpret_cast<sockaddr_in*>(&sa)->sin_port));
  link->dialed = Dial(Address{"127.0.0.1", port});
  ASSERT_GE(link->dialed, 0);
  SetSendBuffer(link->dialed, kPeerSocketBufferBytes);
}

// The kernel's buffers of a peer connection are bounded on both ends (autotuned loopback
// buffers held megabytes for a stopped peer, out of reach of the queue's limits), as the server
// sets them: the dialer's send buffer, and the listener's receive buffer, which the connections
// it accepts inherit. Linux reports twice the size asked for (its bookkeeping).
TEST(PeerLink, SocketBuffersAreBounded) {
  BoundedLoopback link;
  ASSERT_NO_FATAL_FAILURE(OpenBoundedLoopback(&link));
  const int dialed = link.dialed;
  const int accepted = accept(link.listener, nullptr, nullptr);
  ASSERT_GE(accepted, 0);
  EXPECT_LE(SocketOption(dialed, SO_SNDBUF), 2 * kPeerSocketBufferBytes);
  EXPECT_LE(SocketOption(accepted, SO_RCVBUF), 2 * kPeerSocketBufferBytes);
  close(accepted);
}

// A link's write that makes no progress for kMaxPeerWriteStall gives up (the sender thread then
// redials) instead of blocking behind a peer that stopped reading (issue 20: after SIGCONT a
// node heard nothing for 8 s while 64 kB sat in the leader's send buffer). The peer here accepts
// and never reads, with small kernel buffers on both ends.
TEST(PeerLink, AWriteThatMakesNoProgressStalls) {
  BoundedLoopback link;
  ASSERT_NO_FATAL_FAILURE(OpenBoundedLoopback(&link));
  const int dialed = link.dialed;
  const int accepted = accept(link.listener, nullptr, nullptr);  // open, never read
  ASSERT_GE(accepted, 0);
  const std::string data(16 * kPeerSocketBufferBytes, 'x');  // far more than both kernels' buffers hold
  auto written = std::async(std::launch::async,
                            [&] { return WriteWithProgress(dialed, data, kMaxPeerWriteStall); });
  const bool done = written.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  if (!done) shutdown(dialed, SHUT_RDWR);  // unblocks the writer so the test can end
  EXPECT_TRUE(done) << "the write was still blocked after 20 s";
  EXPECT_EQ(written.get(), WriteResult::kStalled);
  close(accepted);
}

// A large part of a batch goes into the kernel's buffers without waiting for the peer to read:
// at 32 KiB a 1 MiB batch took dozens of the reader's wake-ups, and on a loaded machine the link
// fell behind a leader loading 1 KB records (issue 16: dropped accepts, elections, snapshots).
// A quarter of a batch, not all of it: Linux caps what a socket may ask at
// net.core.wmem_max/rmem_max (212,992 bytes by default). The peer here never reads.
TEST(PeerLink, AQuarterBatchFitsInTheKernelBuffers) {
  BoundedLoopback link;
  ASSERT_NO_FATAL_FAILURE(OpenBoundedLoopback(&link));
  const int accepted = accept(link.listener, nullptr, nullptr);  // open, never read
  ASSERT_GE(accepted, 0);
  const std::string part(kMaxPeerQueueBytes / 4, 'x');
  EXPECT_EQ(WriteWithProgress(link.dialed, part, kMaxPeerWriteStall), WriteResult::kOk)
      << part.size() << " bytes did not fit in the link's kernel buffers";
  close(accepted);
}

}  // namespace
}  // namespace server
}  // namespace replicant
