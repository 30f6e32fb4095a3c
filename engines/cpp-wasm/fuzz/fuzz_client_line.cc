// libFuzzer target: the client-line parser, alone and through a node (leader and follower).
// Run by engines/cpp-wasm/fuzz.sh; findings become tests in src/command_test.cc.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "command.h"
#include "node.h"

namespace {

[[noreturn]] void Fail() { std::abort(); }

std::string Render(const replicant::Command& c) {
  std::string line = replicant::ToString(c.type);
  line += " " + c.key;
  if (c.type == replicant::CommandType::kPut) line += " " + c.value;
  return line;
}

// The leader is recreated every few thousand inputs so that its log and store stay small.
replicant::Node& Leader() {
  static std::unique_ptr<replicant::Node> node;
  static uint64_t uses = 0;
  if (node == nullptr || ++uses % 4096 == 0) {
    replicant::Config c;
    c.num_peers = 1;
    node = std::make_unique<replicant::Node>(c);
    replicant::Event timer;
    timer.type = replicant::EventType::kTimer;
    node->Step(timer);  // a single node elects itself at once
  }
  return *node;
}

replicant::Node& Follower() {
  static replicant::Node* node = [] {
    replicant::Config c;
    c.num_peers = 3;
    return new replicant::Node(c);
  }();
  return *node;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const auto cmd = replicant::ParseCommand(line);
  if (cmd) {
    // A parsed line is well formed and renders back to itself.
    if (!replicant::ValidKey(cmd->key) || !replicant::ValidValue(cmd->value)) Fail();
    if (Render(*cmd) != line) Fail();
  }
  replicant::Event ev;
  ev.type = replicant::EventType::kClient;
  ev.client_id = 1;
  ev.request_id = 1;
  ev.line = std::string(line);
  // The follower answers every line at once with exactly one reply.
  const auto& effects = Follower().Step(ev);
  if (effects.size() != 1 || effects[0].type != replicant::EffectType::kReply) Fail();
  if ((effects[0].result.type == replicant::ResultType::kBadCommand) != !cmd) Fail();
  // The single-node leader executes a good line at once (one reply either way).
  size_t replies = 0;
  for (const auto& e : Leader().Step(ev)) replies += e.type == replicant::EffectType::kReply;
  if (replies != 1) Fail();
  return 0;
}
