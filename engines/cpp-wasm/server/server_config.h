// The native server's configuration file (docs/protocol.md, "Native servers"):
//   {"commit_interval_ms":150,"peers":["127.0.0.1:10000",…],"clients":["127.0.0.1:10001",…]}
// A node's id is its position in peers; clients[id] is where its clients connect.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace replicant {
namespace server {

struct Address {
  std::string host;  // a name or a numeric address ("::1" for [::1]:7000)
  std::string port;  // decimal, 1..65535
};

struct ServerConfig {
  uint64_t commit_interval_ms = 150;  // optional in the file: the paper's default
  bool check_quorum = true;           // optional in the file: false is the paper's mode
  std::vector<Address> peers;
  std::vector<Address> clients;
};

// ParseAddress reads "host:port" or "[v6]:port". Returns "" or what is wrong.
std::string ParseAddress(std::string_view text, Address* out);

// ParseServerConfig reads the configuration file's text (docs/protocol.md, "Native servers"):
// peers and clients are required, commit_interval_ms is optional (150), no other field is
// allowed. Returns "" or what is wrong.
std::string ParseServerConfig(std::string_view text, ServerConfig* out);

// ParseNodeId reads the --id argument against a configuration. Returns "" or what is wrong.
std::string ParseNodeId(std::string_view text, const ServerConfig& cfg, uint64_t* out);

}  // namespace server
}  // namespace replicant
