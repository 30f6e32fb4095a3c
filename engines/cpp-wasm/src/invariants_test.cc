// The invariant check must be able to fail: a node whose state breaks an invariant stops on its
// next step, naming the invariant. Mirrors engines/go-wasm/core/invariants_test.go.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "node.h"

namespace replicant {

struct InvariantTestAccess {
  static void SetGle(Node& n, uint64_t v) { n.log_.global_last_executed_ = v; }
  static void SetLastExecuted(Node& n, uint64_t v) { n.log_.last_executed_ = v; }
  static const Log& LogOf(const Node& n) { return n.log_; }
};

namespace {

Event ElectionTimer() {
  Event e;
  e.type = EventType::kTimer;
  e.timer = TimerName::kElection;
  return e;
}

// A started node that has run one election timer (a candidate), checked after every step.
std::unique_ptr<Node> CandidateNode() {
  g_check_invariants = true;
  Config c;
  c.id = 0;
  c.num_peers = 3;
  c.seed = 1;
  auto n = std::make_unique<Node>(c);
  n->Step(Event{});
  n->Step(ElectionTimer());
  return n;
}

TEST(InvariantsDeathTest, GleAboveLastExecutedIsCaught) {
  auto n = CandidateNode();
  InvariantTestAccess::SetGle(*n, InvariantTestAccess::LogOf(*n).LastExecuted() + 1);
  EXPECT_DEATH(n->Step(ElectionTimer()), "invariant: node 0: gle > last_executed");
}

TEST(InvariantsDeathTest, LastExecutedAboveLastIndexIsCaught) {
  auto n = CandidateNode();
  InvariantTestAccess::SetLastExecuted(*n, InvariantTestAccess::LogOf(*n).LastIndex() + 1);
  EXPECT_DEATH(n->Step(ElectionTimer()), "invariant: node 0: last_executed > last_index");
}

TEST(InvariantsDeathTest, SoundNodeDoesNotStop) {
  auto n = CandidateNode();
  n->Step(ElectionTimer());
  SUCCEED();
}

}  // namespace
}  // namespace replicant
