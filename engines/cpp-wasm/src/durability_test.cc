#include "durability.h"

#include <gtest/gtest.h>

#include <string>

#include "codec.h"
#include "node.h"

namespace replicant {
namespace {

const bool kInvariantsOn = (g_check_invariants = true);

Node DurableNode() {
  Config cfg;
  EXPECT_EQ(DecodeConfig(R"({"id":0,"num_peers":1,"seed":1,"durability":"log"})", &cfg), "");
  return Node(cfg);
}

bool Has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(Durability, AReplyWaitsForItsPersist) {
  Node n = DurableNode();
  n.StepJson(R"({"type":"start"})");
  n.StepJson(R"({"type":"timer","timer":"election"})");
  std::string out = n.StepJson(R"({"type":"client","client_id":1,"request_id":1,"line":"put k v"})");
  EXPECT_FALSE(Has(out, R"("reply")")) << out;
  EXPECT_TRUE(Has(out, R"("persist_id":2)")) << out;
  EXPECT_EQ(n.StepJson(R"({"type":"persisted","persist_id":1})"), "");
  EXPECT_TRUE(Has(n.StepJson(R"({"type":"persisted","persist_id":2})"), R"("reply")"));
}

TEST(Durability, ARestartKeepsThePromiseAndTheExecutedPrefix) {
  Node n = DurableNode();
  std::string out = n.StepJson(
      R"({"type":"restart","records":[{"kind":"promise","ballot":512},)"
      R"({"kind":"instance","instance":{"ballot":512,"index":1,"client_id":1,"request_id":1,"state":"committed","command":{"type":"put","key":"k","value":"v"}}}]})");
  EXPECT_TRUE(Has(out, R"("kind":"recovered","ballot":527)")) << out;
  EXPECT_TRUE(Has(out, R"("kind":"execute","index":1)")) << out;
  EXPECT_TRUE(Has(n.StepJson(R"({"type":"restart","records":[]})"), "bad_event"));
}

TEST(Durability, AnUnknownDurabilityIsRefused) {
  Config cfg;
  EXPECT_NE(DecodeConfig(R"({"id":0,"num_peers":1,"seed":1,"durability":"disk"})", &cfg), "");
}

}  // namespace
}  // namespace replicant
