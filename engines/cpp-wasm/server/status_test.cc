#include "status.h"

#include <gtest/gtest.h>

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

TEST(Status, LineCarriesEveryCounter) {
  DriverCounters c;
  c.shed_retries = 5;
  CoreView v;
  v.role = "follower";
  const std::string line = StatusLine(v, c, "0.00");
  EXPECT_EQ(line.rfind("status {\"role\":\"follower\",\"leader\":null,", 0), 0u) << line;
  EXPECT_NE(line.find("\"shed_retries\":5,"), std::string::npos) << line;
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
