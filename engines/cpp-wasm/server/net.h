// Small POSIX socket helpers for the native server: listening, dialing, whole writes and a
// line reader with a length limit. Every socket gets TCP_NODELAY (§4.6 of the paper: Nagle's
// algorithm off in every implementation).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "server_config.h"

namespace replicant {
namespace server {

// ListenOn binds and listens on addr; returns the socket or -1 with *error set.
int ListenOn(const Address& addr, std::string* error);
// Dial connects to addr; returns the socket or -1.
int Dial(const Address& addr);
// SetNoDelay turns Nagle's algorithm off.
void SetNoDelay(int fd);
// WriteAll writes every byte (blocking); false if the connection failed.
bool WriteAll(int fd, std::string_view data);

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
