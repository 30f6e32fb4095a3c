#include "net.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
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

LineReader::Status LineReader::TryLine(std::string* line) {
  const size_t avail = buf_.size() - start_;
  const void* nl = avail > scan_ ? std::memchr(buf_.data() + start_ + scan_, '\n', avail - scan_)
                                 : nullptr;
  if (nl == nullptr) {
    scan_ = avail;
    return avail > max_line_ ? Status::kTooLong : Status::kNeedMore;
  }
  const size_t len = static_cast<size_t>(static_cast<const char*>(nl) - (buf_.data() + start_));
  if (len > max_line_) return Status::kTooLong;
  line->assign(buf_, start_, len);
  start_ += len + 1;
  scan_ = 0;
  return Status::kLine;
}

bool LineReader::Fill() {
  if (start_ > 0 && start_ >= buf_.size() / 2) {  // drop what was consumed
    buf_.erase(0, start_);
    start_ = 0;
  }
  const size_t old = buf_.size();
  buf_.resize(old + 65536);
  ssize_t n;
  do {
    n = recv(fd_, &buf_[old], 65536, 0);
  } while (n < 0 && errno == EINTR);
  buf_.resize(old + (n > 0 ? static_cast<size_t>(n) : 0));
  return n > 0;
}

}  // namespace server
}  // namespace replicant
