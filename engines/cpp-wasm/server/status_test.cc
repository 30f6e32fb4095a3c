#include "status.h"

#include <gtest/gtest.h>

#include <string>

#include "node.h"

namespace replicant {
namespace server {
namespace {

TEST(Status, ReadsTheNodesOwnFieldsNotTheLogs) {
  const CoreView v = ReadCoreView(
      R"({"id":1,"num_peers":3,"role":"leader","ballot":257,"leader":1,"commit_received":false,)"
      R"("log":[{"ballot":2,"index":1}],"counters":{"events":9,"elections":2,"bad_events":0}})");
  EXPECT_EQ(v.role, "leader");
  EXPECT_EQ(v.leader, "1");
  EXPECT_EQ(v.ballot, 257u);
  EXPECT_EQ(v.elections, 2u);
}

// The line a status loop would log from text, with every server counter at zero.
std::string LineFrom(const std::string& core_json) {
  DriverCounters c;
  return StatusLine(ReadCoreView(core_json), c, "0.00");
}

Event TimerEvent(TimerName t) {
  Event e;
  e.type = EventType::kTimer;
  e.timer = t;
  return e;
}

TEST(Status, StatusFieldsGiveTheSameLineAsInspectAsFollowerCandidateAndLeader) {
  Config three;
  three.num_peers = 3;
  three.seed = 5;
  Node follower(three);
  follower.Step(Event{});
  EXPECT_EQ(LineFrom(follower.StatusFields()), LineFrom(follower.Inspect()));

  Node candidate(three);  // its prepare goes nowhere: it stays a candidate
  candidate.Step(Event{});
  candidate.Step(TimerEvent(TimerName::kElection));
  ASSERT_NE(candidate.StatusFields().find("\"role\":\"candidate\""), std::string::npos);
  EXPECT_EQ(LineFrom(candidate.StatusFields()), LineFrom(candidate.Inspect()));

  Config one;
  one.num_peers = 1;
  one.seed = 5;
  Node leader(one);  // a single node commits at once
  leader.Step(Event{});
  leader.Step(TimerEvent(TimerName::kElection));
  for (uint64_t i = 1; i <= 5; i++) {
    Event put;
    put.type = EventType::kClient;
    put.client_id = 7;
    put.request_id = i;
    put.line = "put k" + std::to_string(i) + " v";
    leader.Step(put);
  }
  const std::string line = LineFrom(leader.StatusFields());
  EXPECT_NE(line.find("\"role\":\"leader\",\"leader\":0,"), std::string::npos) << line;
  EXPECT_NE(line.find("\"elections\":1,\"last_index\":5,\"last_executed\":5,"), std::string::npos) << line;
  EXPECT_EQ(line, LineFrom(leader.Inspect()));
}

TEST(Status, LineCarriesEveryCounter) {
  DriverCounters c;
  c.shed_retries = 5;
  c.malloc_trims = 3;
  c.malloc_trim_cpu_us = 120;
  CoreView v;
  v.role = "follower";
  const std::string line = StatusLine(v, c, "0.00");
  EXPECT_EQ(line.rfind("status {\"role\":\"follower\",\"leader\":null,", 0), 0u) << line;
  EXPECT_NE(line.find("\"shed_retries\":5,"), std::string::npos) << line;
  EXPECT_NE(line.find("\"malloc_trims\":3,\"malloc_trim_cpu_us\":120}"), std::string::npos) << line;
  EXPECT_EQ(line.back(), '}');
}

TEST(Status, GroupMeanIsBatchesPerGroupWithTwoDecimals) {
  EXPECT_EQ(GroupMean(0, 0), "0.00");
  EXPECT_EQ(GroupMean(1, 1), "1.00");
  EXPECT_EQ(GroupMean(4, 10), "2.50");
  EXPECT_EQ(GroupMean(3, 10), "3.33");
}

}  // namespace
}  // namespace server
}  // namespace replicant
