#include "server_config.h"

#include "ballot.h"
#include "json.h"

namespace replicant {
namespace server {

std::string ParseAddress(std::string_view text, Address* out) {
  const std::string shown = "\"" + std::string(text) + "\"";
  std::string_view host, port;
  if (!text.empty() && text[0] == '[') {
    const size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return "address " + shown + " is not [host]:port";
    }
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) return "address " + shown + " has no :port";
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string_view::npos) {
      return "address " + shown + " must write an IPv6 host in brackets";
    }
  }
  if (host.empty()) return "address " + shown + " has no host";
  for (char c : host) {
    if (c <= ' ' || c > '~') return "address " + shown + " has a bad host";
  }
  if (port.empty() || port.size() > 5) return "address " + shown + " has a bad port";
  unsigned value = 0;
  for (char c : port) {
    if (c < '0' || c > '9') return "address " + shown + " has a bad port";
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (value < 1 || value > 65535) return "address " + shown + " has a port outside 1..65535";
  out->host = std::string(host);
  out->port = std::string(port);
  return "";
}

namespace {

std::string ParseAddressList(const JsonValue& v, const char* name, std::vector<Address>* out) {
  if (v.kind != JsonKind::kArray) return std::string(name) + " must be an array of \"host:port\"";
  out->clear();
  for (const JsonValue& item : v.items) {
    if (item.kind != JsonKind::kString) {
      return std::string(name) + " must be an array of \"host:port\"";
    }
    Address a;
    std::string err = ParseAddress(item.s, &a);
    if (!err.empty()) return std::string(name) + ": " + err;
    out->push_back(std::move(a));
  }
  return "";
}

}  // namespace

std::string ParseServerConfig(std::string_view text, ServerConfig* out) {
  JsonValue v;
  if (!ParseJson(text, &v)) return "not valid JSON (strict: integers only, no duplicate fields)";
  if (v.kind != JsonKind::kObject) return "not a JSON object";
  ServerConfig cfg;
  bool have_peers = false, have_clients = false;
  for (const JsonField& f : v.fields) {
    if (f.name == "commit_interval_ms") {
      if (f.value.kind != JsonKind::kNumber || f.value.n < 1 || f.value.n > 60000) {
        return "commit_interval_ms must be an integer between 1 and 60000";
      }
      cfg.commit_interval_ms = f.value.n;
    } else if (f.name == "check_quorum") {
      if (f.value.kind != JsonKind::kBool) return "check_quorum must be true or false";
      cfg.check_quorum = f.value.b;
    } else if (f.name == "peers") {
      std::string err = ParseAddressList(f.value, "peers", &cfg.peers);
      if (!err.empty()) return err;
      have_peers = true;
    } else if (f.name == "clients") {
      std::string err = ParseAddressList(f.value, "clients", &cfg.clients);
      if (!err.empty()) return err;
      have_clients = true;
    } else {
      return "unknown field \"" + f.name + "\"";
    }
  }
  if (!have_peers) return "peers is missing";
  if (!have_clients) return "clients is missing";
  if (cfg.peers.empty() || cfg.peers.size() > kMaxNumPeers) {
    return "peers must list between 1 and 15 addresses";
  }
  if (cfg.clients.size() != cfg.peers.size()) {
    return "clients must list one address per peer";
  }
  *out = std::move(cfg);
  return "";
}

std::string ParseNodeId(std::string_view text, const ServerConfig& cfg, uint64_t* out) {
  if (text.empty() || text.size() > 3) return "--id must be a small non-negative integer";
  uint64_t id = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return "--id must be a small non-negative integer";
    id = id * 10 + static_cast<uint64_t>(c - '0');
  }
  if (id >= cfg.peers.size()) {
    return "--id " + std::to_string(id) + " is not a position in peers (0.." +
           std::to_string(cfg.peers.size() - 1) + ")";
  }
  *out = id;
  return "";
}

}  // namespace server
}  // namespace replicant
