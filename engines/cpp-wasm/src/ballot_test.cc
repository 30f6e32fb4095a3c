#include "ballot.h"

#include <gtest/gtest.h>

namespace replicant {
namespace {

TEST(Ballot, InitialBallotHasNoLeader) {
  EXPECT_EQ(kInitialBallot, 0xfu);
  EXPECT_EQ(LeaderOf(kInitialBallot), kNoLeader);
}

TEST(Ballot, LeaderIsTheLowByte) {
  EXPECT_EQ(LeaderOf(0x201), 1u);
  EXPECT_EQ(LeaderOf(0x100), 0u);
  EXPECT_EQ(LeaderOf(0x30e), 14u);
}

TEST(Ballot, NextBallotStartsTheNextRound) {
  EXPECT_EQ(NextBallot(kInitialBallot, 1), 0x101u);  // from "no leader": round 1
  EXPECT_EQ(NextBallot(0x101, 2), 0x202u);
  EXPECT_EQ(NextBallot(0x102, 0), 0x200u);
  EXPECT_EQ(NextBallot(0x1ff, 3), 0x203u);
  EXPECT_EQ(NextBallot(0, 0), 0x100u);
}

TEST(Ballot, NextBallotIsAboveAnyBallotOfTheSameRound) {
  for (uint64_t round = 0; round < 4; round++) {
    for (uint64_t owner = 0; owner < 16; owner++) {
      const uint64_t b = round << 8 | owner;
      for (uint64_t id = 0; id < kMaxNumPeers; id++) {
        EXPECT_GT(NextBallot(b, id), b);
        EXPECT_EQ(LeaderOf(NextBallot(b, id)), id);
      }
    }
  }
}

TEST(Ballot, NextBallotStaysExactNearTwoToThe53) {
  const uint64_t b = (uint64_t{1} << 52) | 0x105;
  EXPECT_EQ(NextBallot(b, 1), (uint64_t{1} << 52) | 0x201);
}

TEST(Ballot, FormatsAsRoundDotLeader) {
  EXPECT_EQ(FormatBallot(0x201), "2.1");
  EXPECT_EQ(FormatBallot(kInitialBallot), "0.15");
}

}  // namespace
}  // namespace replicant
