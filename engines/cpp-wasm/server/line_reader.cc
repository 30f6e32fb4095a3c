#include "line_reader.h"

#include <sys/socket.h>
#include <sys/types.h>

#include <cerrno>
#include <cstring>

namespace replicant {
namespace server {

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
