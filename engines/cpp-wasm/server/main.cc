// replicant-server: the C++ engine's native TCP server.
//   replicant-server --config CONFIG.json --id N [--trace] [--seed S]
//                    [--data-dir DIR [--durability log|none] [--fsync always|interval|never]
//                     [--snapshot-every N]] [--log-bound N] [--status-interval-ms N]
// (the configuration may also be given as the first plain argument). With --data-dir the node
// runs durability log: its write-ahead log is DIR/wal.log (docs/protocol.md, "Write-ahead
// log"); without it the node keeps nothing (durability none, the paper's design).
// Exits with status 2 and a message on a missing or malformed configuration, a bad id or an
// unusable address.
#include <malloc.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "server.h"
#include "server_config.h"
#include "stop_signals.h"

namespace {

[[noreturn]] void Usage(const std::string& why) {
  std::fprintf(stderr,
               "replicant-server: %s\n"
               "usage: replicant-server --config CONFIG.json --id N [--trace] [--seed S]\n"
               "       [--data-dir DIR [--durability log|none] [--fsync always|interval|never]\n"
               "        [--snapshot-every N]] [--log-bound N] [--status-interval-ms N]\n"
               "        [--test-peer-reset]\n",
               why.c_str());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
#ifdef M_ARENA_MAX
  // before any thread starts, so no thread ever takes an arena past the limit (limits.h)
  mallopt(M_ARENA_MAX, replicant::server::kMallocArenas);
#endif
  replicant::server::WatchStopSignals();  // the first thread: every later one inherits its block
  std::string config_path, id_text, durability, fsync = "always";
  bool have_id = false;
  replicant::server::Options opts;
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    auto value = [&](const char* name) -> std::string {
      const std::string prefix = std::string(name) + "=";
      if (arg.rfind(prefix, 0) == 0) return arg.substr(prefix.size());
      if (i + 1 >= argc) Usage(std::string(name) + " needs a value");
      return argv[++i];
    };
    // A flag's value as a whole number no larger than max; anything else is a usage error.
    auto whole = [&](const char* name, unsigned long long max, const char* rule) -> uint64_t {
      const std::string s = value(name);
      char* end = nullptr;
      const unsigned long long n = std::strtoull(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' || n > max) Usage(std::string(name) + " must be " + rule);
      return n;
    };
    if (arg == "--id" || arg.rfind("--id=", 0) == 0) {
      id_text = value("--id");
      have_id = true;
    } else if (arg == "--config" || arg.rfind("--config=", 0) == 0) {
      config_path = value("--config");
    } else if (arg == "--seed" || arg.rfind("--seed=", 0) == 0) {
      opts.seed = whole("--seed", (1ULL << 53) - 1, "below 2^53");
    } else if (arg == "--data-dir" || arg.rfind("--data-dir=", 0) == 0) {
      opts.data_dir = value("--data-dir");
      if (opts.data_dir.empty()) Usage("--data-dir needs a directory");
    } else if (arg == "--durability" || arg.rfind("--durability=", 0) == 0) {
      durability = value("--durability");
    } else if (arg == "--fsync" || arg.rfind("--fsync=", 0) == 0) {
      fsync = value("--fsync");
    } else if (arg == "--snapshot-every" || arg.rfind("--snapshot-every=", 0) == 0) {
      opts.snapshot_every = whole("--snapshot-every", 1000000, "between 0 and 1000000");
    } else if (arg == "--log-bound" || arg.rfind("--log-bound=", 0) == 0) {
      opts.log_bound = whole("--log-bound", 1000000, "between 0 and 1000000");
    } else if (arg == "--status-interval-ms" || arg.rfind("--status-interval-ms=", 0) == 0) {
      opts.status_interval = std::chrono::milliseconds(whole("--status-interval-ms", 60000, "between 10 and 60000"));
      if (opts.status_interval.count() < 10) Usage("--status-interval-ms must be between 10 and 60000");
    } else if (arg == "--test-peer-reset") {
      opts.test_peer_reset = true;
    } else if (arg == "--trace") {
      opts.trace = true;
    } else if (!arg.empty() && arg[0] != '-' && config_path.empty()) {
      config_path = arg;
    } else {
      Usage("unknown argument " + arg);
    }
  }
  if (config_path.empty()) Usage("no configuration file given");
  if (!have_id) Usage("no --id given");
  if (durability == "log" || (durability.empty() && !opts.data_dir.empty())) {
    if (opts.data_dir.empty()) Usage("--durability log needs --data-dir");
    const std::string err = replicant::server::ParseFsyncPolicy(fsync, &opts.fsync);
    if (!err.empty()) Usage(err);
  } else if (durability.empty() || durability == "none") {
    if (!opts.data_dir.empty()) Usage("--durability none keeps no data: drop --data-dir");
  } else {
    Usage("--durability must be log or none, not \"" + durability + "\"");
  }

  std::ifstream in(config_path, std::ios::binary);
  if (!in) Usage("cannot read configuration " + config_path);
  std::stringstream text;
  text << in.rdbuf();
  replicant::server::ServerConfig cfg;
  std::string err = replicant::server::ParseServerConfig(text.str(), &cfg);
  if (!err.empty()) Usage("bad configuration " + config_path + ": " + err);
  uint64_t id = 0;
  err = replicant::server::ParseNodeId(id_text, cfg, &id);
  if (!err.empty()) Usage(err);

  replicant::server::Server server(std::move(cfg), id, opts);
  err = server.OpenLog();
  if (!err.empty()) Usage(err);
  err = server.Listen();
  if (!err.empty()) Usage(err);
  server.Run();
}
