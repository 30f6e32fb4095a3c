// The test hook that resets a peer link from inside the server (docs/protocol.md, "Native
// servers", "reset-peer"): the cluster tests used to reset links through forwarding proxies,
// whose event loop stalled under load and held every peer message meanwhile (docs/
// reliability.md, "Fifth series"). Off unless the server was started with --test-peer-reset.
#include <string>
#include <string_view>

#include "peer.h"
#include "server.h"

namespace replicant {
namespace server {

namespace {

constexpr std::string_view kPeerResetVerb = "reset-peer";

// A peer id in decimal digits only (no sign, no spaces, at most 3 digits), below num_peers and
// not self; false otherwise.
bool ParsePeerId(std::string_view arg, uint64_t num_peers, uint64_t self, uint64_t* out) {
  if (arg.empty() || arg.size() > 3) return false;
  uint64_t n = 0;
  for (char c : arg) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  if (n >= num_peers || n == self) return false;
  *out = n;
  return true;
}

// Quotes arg for an error line as the other servers do (printable ASCII kept, the rest escaped).
std::string Quoted(std::string_view arg) {
  static const char kHex[] = "0123456789abcdef";
  std::string q = "\"";
  for (unsigned char c : arg) {
    if (c == '"' || c == '\\') {
      q += '\\';
      q += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      q += static_cast<char>(c);
    } else {
      q += "\\x";
      q += kHex[c >> 4];
      q += kHex[c & 15];
    }
  }
  return q + "\"";
}

}  // namespace

bool PeerLink::RequestReset() {
  std::lock_guard<std::mutex> lk(mu);
  if (!up) return false;
  counters->dropped_sends.fetch_add(queue.size(), std::memory_order_relaxed);
  Forget(queued_bytes);
  queue.clear();
  queued_at.clear();
  reset_requested = true;
  cv.notify_one();
  return true;
}

bool Server::PeerResetCommand(std::string_view line, std::string* reply) {
  if (line != kPeerResetVerb && (line.size() <= kPeerResetVerb.size() || line.substr(0, kPeerResetVerb.size() + 1) != "reset-peer ")) {
    return false;
  }
  if (!opts_.test_peer_reset) {
    *reply = "error reset-peer is off: start the server with --test-peer-reset\n";
    return true;
  }
  const std::string_view arg = line.size() > kPeerResetVerb.size() ? line.substr(kPeerResetVerb.size() + 1) : std::string_view();
  uint64_t peer = 0;
  if (!ParsePeerId(arg, links_.size(), id_, &peer)) {
    *reply = "error reset-peer takes one peer id, 0 to " + std::to_string(links_.size() - 1) + " and not this node's own (" +
             std::to_string(id_) + "): got " + Quoted(arg) + "\n";
    return true;
  }
  links_[peer]->RequestReset();
  *reply = "reset peer " + std::to_string(peer) + "\n";
  return true;
}

}  // namespace server
}  // namespace replicant
