#include "log.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace replicant {
namespace {

Instance Put(uint64_t index, uint64_t ballot, const std::string& value,
             InstanceState state = InstanceState::kInProgress) {
  Instance i;
  i.index = index;
  i.ballot = ballot;
  i.client_id = 7;
  i.request_id = index;
  i.state = state;
  i.command.type = CommandType::kPut;
  i.command.key = "k";
  i.command.value = value;
  return i;
}

// --- the merge rule, case by case (docs/protocol.md, "Data", insert) ---

TEST(MergeRule, EmptySlotStores) {
  InstanceMap m;
  EXPECT_EQ(InsertInto(m, Put(3, 0x101, "a")), InsertOutcome::kStored);
  EXPECT_EQ(m.at(3).command.value, "a");
}

TEST(MergeRule, CommittedOrExecutedIsKept) {
  for (auto state : {InstanceState::kCommitted, InstanceState::kExecuted}) {
    InstanceMap m;
    InsertInto(m, Put(1, 0x101, "a", state));
    EXPECT_EQ(InsertInto(m, Put(1, 0x202, "a")), InsertOutcome::kKept);
    EXPECT_EQ(m.at(1).ballot, 0x101u);
    EXPECT_EQ(m.at(1).state, state);
    // A later ballot must carry the chosen command: another one is a safety violation.
    EXPECT_EQ(InsertInto(m, Put(1, 0x202, "b")), InsertOutcome::kViolation);
    EXPECT_EQ(InsertInto(m, Put(1, 0x101, "b")), InsertOutcome::kViolation);
    // Two chosen commands that differ, whatever the ballots.
    EXPECT_EQ(InsertInto(m, Put(1, 0x001, "b", InstanceState::kCommitted)),
              InsertOutcome::kViolation);
    EXPECT_EQ(m.at(1).command.value, "a");
  }
}

TEST(MergeRule, AStaleLowerBallotMayDifferFromAChosenOne) {
  InstanceMap m;
  InsertInto(m, Put(1, 0x202, "a", InstanceState::kCommitted));
  // Written under an earlier leader and never chosen: not taken, and no violation.
  EXPECT_EQ(InsertInto(m, Put(1, 0x101, "b")), InsertOutcome::kKept);
  EXPECT_EQ(m.at(1).command.value, "a");
}

TEST(MergeRule, AChosenLowerBallotMustMatchAHigherInProgressOne) {
  InstanceMap m;
  InsertInto(m, Put(1, 0x202, "a"));
  EXPECT_EQ(InsertInto(m, Put(1, 0x101, "a", InstanceState::kCommitted)), InsertOutcome::kKept);
  EXPECT_EQ(InsertInto(m, Put(1, 0x101, "b", InstanceState::kCommitted)),
            InsertOutcome::kViolation);
  EXPECT_EQ(InsertInto(m, Put(1, 0x101, "b")), InsertOutcome::kKept);  // stale, not chosen
  EXPECT_EQ(m.at(1).ballot, 0x202u);
  EXPECT_EQ(m.at(1).state, InstanceState::kInProgress);
}

TEST(MergeRule, InProgressWithLowerBallotIsReplaced) {
  InstanceMap m;
  InsertInto(m, Put(1, 0x101, "a"));
  EXPECT_EQ(InsertInto(m, Put(1, 0x202, "b")), InsertOutcome::kStored);
  EXPECT_EQ(m.at(1).ballot, 0x202u);
  EXPECT_EQ(m.at(1).command.value, "b");
}

TEST(MergeRule, EqualBallotsKeepTheStoredOne) {
  InstanceMap m;
  InsertInto(m, Put(1, 0x101, "a"));
  EXPECT_EQ(InsertInto(m, Put(1, 0x101, "a")), InsertOutcome::kKept);
  EXPECT_EQ(InsertInto(m, Put(1, 0x101, "b")), InsertOutcome::kViolation);
  EXPECT_EQ(m.at(1).command.value, "a");
}

TEST(MergeRule, HigherStoredBallotIsKept) {
  InstanceMap m;
  InsertInto(m, Put(1, 0x202, "a"));
  EXPECT_EQ(InsertInto(m, Put(1, 0x101, "b")), InsertOutcome::kKept);
  EXPECT_EQ(m.at(1).command.value, "a");
}

// --- the log ---

TEST(Log, AppendRaisesLastIndexAndReportsChanges) {
  Log log;
  std::vector<LogChange> changes;
  log.Append(Put(5, 0x101, "a"), &changes);
  EXPECT_EQ(log.LastIndex(), 5u);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, LogChangeKind::kStored);
  log.Append(Put(2, 0x101, "b"), &changes);
  EXPECT_EQ(log.LastIndex(), 5u);  // the maximum is kept
  log.Append(Put(2, 0x101, "b"), &changes);  // kept: no change reported
  EXPECT_EQ(changes.size(), 2u);
  log.Append(Put(2, 0x101, "c"), &changes);
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[2].kind, LogChangeKind::kViolation);
  EXPECT_STREQ(changes[2].reason, kReasonCommandMismatch);
}

TEST(Log, CommitOnlyMovesInProgress) {
  Log log;
  std::vector<LogChange> changes;
  log.Append(Put(1, 0x101, "a"), &changes);
  changes.clear();
  log.Commit(1, &changes);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].instance.state, InstanceState::kCommitted);
  log.Commit(1, &changes);  // already committed
  log.Commit(9, &changes);  // missing
  EXPECT_EQ(changes.size(), 1u);
}

TEST(Log, ExecutorOrder) {
  Log log;
  std::vector<LogChange> changes;
  log.Append(Put(2, 0x101, "b"), &changes);
  log.Commit(2, &changes);
  EXPECT_EQ(log.NextExecutable(), nullptr);  // slot 1 is a hole
  log.Append(Put(1, 0x101, "a"), &changes);
  EXPECT_EQ(log.NextExecutable(), nullptr);  // slot 1 is not committed
  log.Commit(1, &changes);
  ASSERT_NE(log.NextExecutable(), nullptr);
  EXPECT_EQ(log.MarkExecuted().index, 1u);
  EXPECT_EQ(log.MarkExecuted().index, 2u);
  EXPECT_EQ(log.LastExecuted(), 2u);
  EXPECT_EQ(log.Get(1)->state, InstanceState::kExecuted);
  EXPECT_EQ(log.NextExecutable(), nullptr);
}

TEST(Log, CommitUntilStopsAtAGapAndReportsStale) {
  Log log;
  std::vector<LogChange> changes;
  log.Append(Put(1, 0x202, "a"), &changes);
  log.Append(Put(2, 0x101, "b"), &changes);  // written under an earlier leader
  log.Append(Put(3, 0x202, "c"), &changes);
  log.Append(Put(5, 0x202, "e"), &changes);  // after the gap at 4
  changes.clear();
  log.CommitUntil(10, 0x202, &changes);
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].kind, LogChangeKind::kStored);
  EXPECT_EQ(changes[0].instance.index, 1u);
  EXPECT_EQ(changes[1].kind, LogChangeKind::kStale);
  EXPECT_EQ(changes[1].instance.index, 2u);
  EXPECT_EQ(changes[2].kind, LogChangeKind::kStored);
  EXPECT_EQ(changes[2].instance.index, 3u);
  EXPECT_EQ(log.Get(2)->state, InstanceState::kInProgress);
  EXPECT_EQ(log.Get(5)->state, InstanceState::kInProgress);
}

TEST(Log, CommitUntilHonoursTheLeadersLastExecuted) {
  Log log;
  std::vector<LogChange> changes;
  log.Append(Put(1, 0x101, "a"), &changes);
  log.Append(Put(2, 0x101, "b"), &changes);
  changes.clear();
  log.CommitUntil(1, 0x101, &changes);
  EXPECT_EQ(changes.size(), 1u);
  EXPECT_EQ(log.Get(2)->state, InstanceState::kInProgress);
}

TEST(Log, CommitUntilStopsAtAHigherBallot) {
  Log log;
  std::vector<LogChange> changes;
  log.Append(Put(1, 0x303, "a"), &changes);
  log.Append(Put(2, 0x101, "b"), &changes);
  changes.clear();
  log.CommitUntil(2, 0x202, &changes);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, LogChangeKind::kViolation);
  EXPECT_STREQ(changes[0].reason, kReasonHigherBallot);
}

TEST(Log, TrimIsClampedToLastExecuted) {
  Log log;
  std::vector<LogChange> changes;
  for (uint64_t i = 1; i <= 4; i++) {
    log.Append(Put(i, 0x101, "v"), &changes);
    log.Commit(i, &changes);
  }
  log.MarkExecuted();
  log.MarkExecuted();
  EXPECT_TRUE(log.TrimUntil(10));  // only up to last_executed = 2
  EXPECT_EQ(log.GlobalLastExecuted(), 2u);
  EXPECT_EQ(log.Get(1), nullptr);
  EXPECT_EQ(log.Get(2), nullptr);
  EXPECT_NE(log.Get(3), nullptr);
  EXPECT_EQ(log.Len(), 2u);
  EXPECT_FALSE(log.TrimUntil(1));  // never goes back
  EXPECT_FALSE(log.TrimUntil(2));
  EXPECT_EQ(log.GlobalLastExecuted(), 2u);
}

TEST(Log, TrimOnAnEmptyRestartedLogDoesNothing) {
  Log log;
  EXPECT_FALSE(log.TrimUntil(100));
  EXPECT_EQ(log.GlobalLastExecuted(), 0u);
}

TEST(Log, AppendIgnoresTrimmedIndices) {
  Log log;
  std::vector<LogChange> changes;
  log.Append(Put(1, 0x101, "a"), &changes);
  log.Commit(1, &changes);
  log.MarkExecuted();
  log.TrimUntil(1);
  changes.clear();
  log.Append(Put(1, 0x202, "z"), &changes);
  EXPECT_TRUE(changes.empty());
  EXPECT_EQ(log.Get(1), nullptr);
}

TEST(Log, InstancesAreInIndexOrder) {
  Log log;
  std::vector<LogChange> changes;
  for (uint64_t i : {9, 3, 7, 1, 5, 2, 8}) log.Append(Put(i, 0x101, "v"), &changes);
  std::vector<Instance> all = log.Instances();
  ASSERT_EQ(all.size(), 7u);
  for (size_t k = 1; k < all.size(); k++) EXPECT_LT(all[k - 1].index, all[k].index);
  InstanceMap copy = log.Copy();
  EXPECT_EQ(copy.size(), 7u);
}

TEST(Log, AdvanceLastIndex) {
  Log log;
  EXPECT_EQ(log.AdvanceLastIndex(), 1u);
  log.SetLastIndexAtLeast(7);
  EXPECT_EQ(log.AdvanceLastIndex(), 8u);
  log.SetLastIndexAtLeast(3);
  EXPECT_EQ(log.LastIndex(), 8u);
}

}  // namespace
}  // namespace replicant
