// Client commands and their results. Mirrors engines/go-wasm/core/command.go.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace replicant {

// kNoop fills a log slot no promise covered when a leader takes over (docs/protocol.md, Replay);
// it changes nothing and no client line parses to it.
enum class CommandType : uint8_t { kGet, kPut, kDel, kNoop };

const char* ToString(CommandType t);

// Limits on what a client may store; longer input is a bad command.
constexpr size_t kMaxKeyBytes = 256;
constexpr size_t kMaxValueBytes = 65536;

struct Command {
  CommandType type = CommandType::kGet;
  std::string key;
  std::string value;  // only for put

  bool operator==(const Command& o) const {
    return type == o.type && key == o.key && value == o.value;
  }
  bool operator!=(const Command& o) const { return !(*this == o); }
};

// ResultType is what a client is told.
// kBusy: GC mitigation (MITMEM), retry at another replica now.
enum class ResultType : uint8_t { kOk, kNotFound, kRetry, kLeaderIs, kBadCommand, kBusy };

const char* ToString(ResultType r);

struct Result {
  ResultType type = ResultType::kOk;
  std::string value;    // for ok
  uint64_t leader = 0;    // for leader_is
  uint64_t pause_us = 0;  // for busy: the predicted pause
};

// ReplyLine renders a result as the client text protocol's reply line (without "\n").
std::string ReplyLine(const Result& r);

// ValidKey: 1..kMaxKeyBytes printable bytes, no space.
bool ValidKey(std::string_view k);
// ValidValue: 0..kMaxValueBytes printable bytes (spaces allowed).
bool ValidValue(std::string_view v);

// ParseCommand reads one client line ("get k", "put k v", "del k"). The value of a put is the
// rest of the line after the key and one space; it may hold spaces or be empty.
std::optional<Command> ParseCommand(std::string_view line);

}  // namespace replicant
