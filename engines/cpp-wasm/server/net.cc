#include "net.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace replicant {
namespace server {

namespace {

addrinfo* Resolve(const Address& addr, bool passive, std::string* error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = passive ? AI_PASSIVE : 0;
  addrinfo* res = nullptr;
  const int rc = getaddrinfo(addr.host.c_str(), addr.port.c_str(), &hints, &res);
  if (rc != 0) {
    if (error != nullptr) *error = gai_strerror(rc);
    return nullptr;
  }
  return res;
}

}  // namespace

void SetNoDelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

void SetSendBuffer(int fd, int bytes) { setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes); }

void SetReceiveBuffer(int fd, int bytes) { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes); }

int ListenOn(const Address& addr, std::string* error) {
  addrinfo* res = Resolve(addr, true, error);
  if (res == nullptr) return -1;
  int fd = -1;
  for (addrinfo* ai = res; ai != nullptr; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      *error = std::strerror(errno);
      continue;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    SetNoDelay(fd);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 128) == 0) break;
    *error = std::strerror(errno);
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  return fd;
}

int Dial(const Address& addr) {
  addrinfo* res = Resolve(addr, false, nullptr);
  if (res == nullptr) return -1;
  int fd = -1;
  for (addrinfo* ai = res; ai != nullptr; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    SetNoDelay(fd);
    int rc;
    do {
      rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
    } while (rc != 0 && errno == EINTR);
    if (rc == 0) break;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  return fd;
}

bool WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

WriteResult WriteWithProgress(int fd, std::string_view data, std::chrono::milliseconds stall) {
  while (!data.empty()) {
    pollfd p{fd, POLLOUT, 0};
    const int ready = poll(&p, 1, static_cast<int>(stall.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return WriteResult::kFailed;
    if (ready == 0) return WriteResult::kStalled;
    const ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      return WriteResult::kFailed;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return WriteResult::kOk;
}

}  // namespace server
}  // namespace replicant
