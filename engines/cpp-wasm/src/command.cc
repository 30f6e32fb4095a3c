#include "command.h"

namespace replicant {

namespace {

constexpr const char* kCommandTypeNames[] = {"get", "put", "del", "noop"};
constexpr const char* kResultTypeNames[] = {"ok", "not_found", "retry", "leader_is",
                                            "bad_command", "busy"};

bool IsKeyByte(unsigned char c) { return c >= 0x21 && c <= 0x7e; }
bool IsValueByte(unsigned char c) { return c >= 0x20 && c <= 0x7e; }

}  // namespace

const char* ToString(CommandType t) { return kCommandTypeNames[static_cast<int>(t)]; }
const char* ToString(ResultType r) { return kResultTypeNames[static_cast<int>(r)]; }

std::string ReplyLine(const Result& r) {
  switch (r.type) {
    case ResultType::kOk:
      return r.value;
    case ResultType::kNotFound:
      return "key not found";
    case ResultType::kRetry:
      return "retry";
    case ResultType::kLeaderIs:
      return "leader is " + std::to_string(r.leader);
    case ResultType::kBusy:
      return "busy " + std::to_string(r.pause_us);
    default:
      return "bad command";
  }
}

bool ValidKey(std::string_view k) {
  if (k.empty() || k.size() > kMaxKeyBytes) return false;
  for (unsigned char c : k) {
    if (!IsKeyByte(c)) return false;
  }
  return true;
}

bool ValidValue(std::string_view v) {
  if (v.size() > kMaxValueBytes) return false;
  for (unsigned char c : v) {
    if (!IsValueByte(c)) return false;
  }
  return true;
}

std::optional<Command> ParseCommand(std::string_view line) {
  size_t sp = line.find(' ');
  if (sp == std::string_view::npos) return std::nullopt;
  std::string_view verb = line.substr(0, sp);
  std::string_view rest = line.substr(sp + 1);
  if (verb == "get" || verb == "del") {
    if (!ValidKey(rest)) return std::nullopt;
    Command c;
    c.type = verb == "get" ? CommandType::kGet : CommandType::kDel;
    c.key = std::string(rest);
    return c;
  }
  if (verb == "put") {
    size_t sp2 = rest.find(' ');
    if (sp2 == std::string_view::npos) return std::nullopt;
    std::string_view key = rest.substr(0, sp2);
    std::string_view value = rest.substr(sp2 + 1);
    if (!ValidKey(key) || !ValidValue(value)) return std::nullopt;
    Command c;
    c.type = CommandType::kPut;
    c.key = std::string(key);
    c.value = std::string(value);
    return c;
  }
  return std::nullopt;
}

}  // namespace replicant
