// Reading a socket a line at a time with a length limit, for client lines (kMaxClientLine) and
// peer frames (kMaxPeerLine): a line over the limit is reported, never buffered without end.
#pragma once

#include <cstddef>
#include <string>

namespace replicant {
namespace server {

// LineReader splits a byte stream into lines ("\n"; the "\n" is not part of the line).
class LineReader {
 public:
  enum class Status { kLine, kNeedMore, kTooLong };

  LineReader(int fd, size_t max_line) : fd_(fd), max_line_(max_line) {}

  // TryLine takes the next complete line from what was read so far.
  Status TryLine(std::string* line);
  // Fill reads once from the socket (blocking); false at end of stream or on error.
  bool Fill();

 private:
  int fd_;
  size_t max_line_;
  std::string buf_;
  size_t start_ = 0;  // first unconsumed byte
  size_t scan_ = 0;   // bytes before this (from start_) hold no '\n'
};

}  // namespace server
}  // namespace replicant
