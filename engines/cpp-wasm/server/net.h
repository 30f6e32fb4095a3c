// Small POSIX socket helpers for the native server: listening, dialing and whole writes. Every
// socket gets TCP_NODELAY (§4.6 of the paper: Nagle's algorithm off in every implementation).
#pragma once

#include <chrono>
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
// SetSendBuffer / SetReceiveBuffer fix the kernel's buffer of a socket at bytes (Linux
// reports twice that); a listener's receive buffer is inherited by the connections it accepts.
void SetSendBuffer(int fd, int bytes);
void SetReceiveBuffer(int fd, int bytes);
// WriteAll writes every byte (blocking); false if the connection failed.
bool WriteAll(int fd, std::string_view data);
enum class WriteResult { kOk, kFailed, kStalled };
// WriteWithProgress writes every byte, giving up (kStalled) when none is taken for `stall`: a
// peer that stopped reading (or a closed receive window whose reopening went unnoticed) gets a
// fresh connection instead of a writer blocked behind it (issue 20).
WriteResult WriteWithProgress(int fd, std::string_view data, std::chrono::milliseconds stall);

}  // namespace server
}  // namespace replicant
