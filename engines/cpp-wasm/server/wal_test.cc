#include "wal.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "codec.h"
#include "node.h"

namespace replicant {
namespace server {
namespace {

Record Promise(uint64_t ballot) {
  Record r;
  r.kind = RecordKind::kPromise;
  r.ballot = ballot;
  return r;
}

std::string TempDir(const std::string& name) {
  std::string tmpl = ::testing::TempDir() + "replicant-wal-" + name + "-XXXXXX";
  char* made = mkdtemp(tmpl.data());
  EXPECT_NE(made, nullptr);
  return tmpl;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
}

void WriteWal(const std::string& dir, const std::vector<Record>& records) {
  std::unique_ptr<Wal> w;
  WalReadResult held;
  ASSERT_EQ(Wal::Open(dir, FsyncPolicy::kAlways, &w, &held), "");
  ASSERT_EQ(w->Append(records), "");
}

bool Has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(Wal, Crc32cMatchesTheStandardCheckValue) { EXPECT_EQ(Crc32c("123456789"), 0xe3069283u); }

TEST(Wal, ParsesTheFsyncPolicies) {
  FsyncPolicy p;
  EXPECT_EQ(ParseFsyncPolicy("always", &p), "");
  EXPECT_EQ(p, FsyncPolicy::kAlways);
  EXPECT_EQ(ParseFsyncPolicy("interval", &p), "");
  EXPECT_EQ(p, FsyncPolicy::kInterval);
  EXPECT_EQ(ParseFsyncPolicy("never", &p), "");
  EXPECT_EQ(p, FsyncPolicy::kNever);
  EXPECT_TRUE(Has(ParseFsyncPolicy("sometimes", &p), "--fsync must be"));
}

TEST(Wal, ReadsBackWhatItWroteAcrossOpens) {
  const std::string dir = TempDir("readback");
  WriteWal(dir, {Promise(257), Promise(513)});
  WriteWal(dir, {Promise(769)});
  std::unique_ptr<Wal> w;
  WalReadResult held;
  ASSERT_EQ(Wal::Open(dir, FsyncPolicy::kNever, &w, &held), "");
  ASSERT_EQ(held.records.size(), 3u);
  EXPECT_EQ(held.warning, "");
  EXPECT_EQ(held.records[2], R"({"kind":"promise","ballot":769})");
  Record r;
  ASSERT_TRUE(DecodeRecord(held.records[1], &r));
  EXPECT_EQ(r.kind, RecordKind::kPromise);
  EXPECT_EQ(r.ballot, 513u);
}

// The Go server's bytes for the same two records: a data dir of one server reads in another.
TEST(Wal, WritesTheGoServersFrames) {
  const std::string dir = TempDir("frames");
  WriteWal(dir, {Promise(257)});
  const std::string data = ReadFile(dir + "/wal.log");
  const std::string payload = R"({"kind":"promise","ballot":257})";
  ASSERT_EQ(data.size(), kWalFrameHeader + payload.size());
  EXPECT_EQ(static_cast<unsigned char>(data[0]), payload.size());
  EXPECT_EQ(data.substr(1, 3), std::string(3, '\0'));
  const uint32_t sum = Crc32c(payload);
  for (int i = 0; i < 4; i++) {
    EXPECT_EQ(static_cast<unsigned char>(data[4 + i]), (sum >> (8 * i)) & 0xff);
  }
  EXPECT_EQ(data.substr(8), payload);
}

TEST(Wal, TruncatesATornTailWithAWarning) {
  for (const std::string& tail : {std::string("\x01\x02\x03", 3), std::string("\x28\0\0\0\x01\x02\x03\x04{", 9)}) {
    const std::string dir = TempDir("torn");
    WriteWal(dir, {Promise(257)});
    const std::string path = dir + "/wal.log";
    const std::string good = ReadFile(path);
    WriteFile(path, good + tail);
    std::unique_ptr<Wal> w;
    WalReadResult held;
    ASSERT_EQ(Wal::Open(dir, FsyncPolicy::kAlways, &w, &held), "");
    EXPECT_EQ(held.records.size(), 1u);
    EXPECT_TRUE(Has(held.warning, "torn tail at offset 39")) << held.warning;
    EXPECT_EQ(ReadFile(path).size(), good.size());
    // Appending after the cut continues the good frames.
    ASSERT_EQ(w->Append({Promise(513)}), "");
    w.reset();
    ASSERT_EQ(Wal::Open(dir, FsyncPolicy::kAlways, &w, &held), "");
    EXPECT_EQ(held.records.size(), 2u);
    EXPECT_EQ(held.warning, "");
  }
}

TEST(Wal, ALastFrameWithABadChecksumIsATornTail) {
  const std::string dir = TempDir("lastsum");
  WriteWal(dir, {Promise(257), Promise(513)});
  const std::string path = dir + "/wal.log";
  std::string data = ReadFile(path);
  data[data.size() - 3] ^= 1;
  WriteFile(path, data);
  std::unique_ptr<Wal> w;
  WalReadResult held;
  ASSERT_EQ(Wal::Open(dir, FsyncPolicy::kAlways, &w, &held), "");
  EXPECT_EQ(held.records.size(), 1u);
  EXPECT_TRUE(Has(held.warning, "the last frame's checksum fails")) << held.warning;
}

TEST(Wal, RefusesACorruptRecordInTheMiddleNamingFileAndOffset) {
  const std::string dir = TempDir("corrupt");
  WriteWal(dir, {Promise(257), Promise(513)});
  const std::string path = dir + "/wal.log";
  std::string data = ReadFile(path);
  data[20] ^= 1;  // inside the first record, which has a second one after it
  WriteFile(path, data);
  std::unique_ptr<Wal> w;
  WalReadResult held;
  const std::string err = Wal::Open(dir, FsyncPolicy::kAlways, &w, &held);
  EXPECT_TRUE(Has(err, path) && Has(err, "corrupt record at offset 0")) << err;
  EXPECT_EQ(w, nullptr);
  EXPECT_EQ(ReadFile(path).size(), data.size()) << "a refused log must be left as it is";
}

TEST(Wal, AHugeLengthAtTheEndIsATornTail) {
  WalReadResult held;
  std::string data;
  AppendFrame(&data, R"({"kind":"promise","ballot":257})");
  std::string bad("\xff\xff\xff\x7f\0\0\0\0", 8);
  const std::string err = ReadFrames("x/wal.log", bad + std::string(64, ' ') + data, &held);
  // a length beyond the bound that also runs past the end is a write the crash cut short
  EXPECT_EQ(err, "");
  EXPECT_TRUE(Has(held.warning, "a frame length of")) << held.warning;
}

TEST(Wal, NeedsAUsableDataDir) {
  std::unique_ptr<Wal> w;
  WalReadResult held;
  const std::string dir = TempDir("dirs");
  EXPECT_TRUE(Has(Wal::Open(dir + "/missing", FsyncPolicy::kAlways, &w, &held), "missing"));
  WriteFile(dir + "/file", "");
  EXPECT_TRUE(Has(Wal::Open(dir + "/file", FsyncPolicy::kAlways, &w, &held), "is not a directory"));
  if (geteuid() != 0) {  // root writes anywhere
    mkdir((dir + "/ro").c_str(), 0555);
    EXPECT_TRUE(Has(Wal::Open(dir + "/ro", FsyncPolicy::kAlways, &w, &held), "cannot open"));
  }
  EXPECT_EQ(w, nullptr);
}

TEST(Wal, TheIntervalPolicyWritesAndStops) {
  const std::string dir = TempDir("interval");
  {
    std::unique_ptr<Wal> w;
    WalReadResult held;
    ASSERT_EQ(Wal::Open(dir, FsyncPolicy::kInterval, &w, &held), "");
    ASSERT_EQ(w->Append({Promise(257)}), "");
  }
  std::unique_ptr<Wal> w;
  WalReadResult held;
  ASSERT_EQ(Wal::Open(dir, FsyncPolicy::kNever, &w, &held), "");
  EXPECT_EQ(held.records.size(), 1u);
}

}  // namespace
}  // namespace server
}  // namespace replicant

namespace replicant {
namespace server {
namespace {

// A single-node core in durability log driven the way the server drives it: every persist
// effect appended to the Wal, then `persisted`. Returns the node.
std::unique_ptr<Node> DurableNode(uint64_t snapshot_every) {
  Config c;
  c.num_peers = 1;
  c.seed = 1;
  c.durability = Durability::kLog;
  c.snapshot_every = snapshot_every;
  // checkpoints need both batches (Validate), as the server runs them
  c.repair_batch = kServerRepairBatch;
  c.election_batch = kServerElectionBatch;
  return std::make_unique<Node>(c);
}

void StepOnWal(Node& n, Wal& w, const Event& ev) {
  std::vector<Event> next{ev};
  while (!next.empty()) {
    const Event e = next.back();
    next.pop_back();
    for (const Effect& eff : n.Step(e)) {
      if (eff.type != EffectType::kPersist) continue;
      ASSERT_EQ(w.Append(eff.records), "");
      Event done;
      done.type = EventType::kPersisted;
      done.persist_id = eff.persist_id;
      next.push_back(done);
    }
  }
}

Record Checkpoint(uint64_t last_executed) {
  Record r;
  r.kind = RecordKind::kCheckpoint;
  r.ballot = 257;
  r.last_executed = last_executed;
  r.kv = {{"k", std::to_string(last_executed)}};
  return r;
}

Record CommittedPut(uint64_t index) {
  Record r;
  r.kind = RecordKind::kInstance;
  r.instance.ballot = 257;
  r.instance.index = index;
  r.instance.client_id = 1;
  r.instance.request_id = index;
  r.instance.state = InstanceState::kCommitted;
  r.instance.command.type = CommandType::kPut;
  r.instance.command.key = "k";
  r.instance.command.value = std::to_string(index);
  return r;
}

std::string Frames(const std::vector<Record>& records) {
  std::string out, payload;
  for (const Record& r : records) {
    payload.clear();
    AppendRecord(payload, r);
    AppendFrame(&out, payload);
  }
  return out;
}

// Under 2,000 puts with snapshot_every 64 the log stays bounded (without compaction it ends
// above 2,000 × 150 bytes), and a node restarted from the snapshot and the log has the same
// KV store as before.
TEST(WalCompaction, TheLogStaysBoundedAndARestartEqualsTheNodeBefore) {
  const std::string dir = TempDir("bounded");
  std::unique_ptr<Wal> w;
  WalReadResult held;
  ASSERT_EQ(Wal::Open(dir, FsyncPolicy::kNever, &w, &held), "");
  auto n = DurableNode(64);
  StepOnWal(*n, *w, Event{});
  Event elect;
  elect.type = EventType::kTimer;
  StepOnWal(*n, *w, elect);
  uint64_t max_log = 0;
  for (uint64_t i = 1; i <= 2000; i++) {
    Event put;
    put.type = EventType::kClient;
    put.client_id = 1;
    put.request_id = i;
    put.line = "put k" + std::to_string(i % 37) + " v" + std::to_string(i);
    StepOnWal(*n, *w, put);
    max_log = std::max(max_log, w->Size());
  }
  EXPECT_LE(max_log, 64u * 2 * 250) << "the log grew with the load";
  EXPECT_FALSE(ReadFile(dir + "/snapshot").empty());
  const std::string before = n->Inspect();
  w.reset();
  std::unique_ptr<Wal> again;
  ASSERT_EQ(Wal::Open(dir, FsyncPolicy::kNever, &again, &held), "");
  Event restart;
  restart.type = EventType::kRestart;
  for (const std::string& raw : held.records) {
    Record r;
    ASSERT_TRUE(DecodeRecord(raw, &r)) << raw;
    restart.records.push_back(r);
  }
  EXPECT_LT(restart.records.size(), 70u) << "a restart replays more than the tail";
  auto m = DurableNode(64);
  m->Step(restart);
  const std::string after = m->Inspect();
  auto kv = [](const std::string& inspect) { return inspect.substr(inspect.find("\"kv\":"), inspect.find("\"prepare\":") - inspect.find("\"kv\":")); };
  EXPECT_EQ(kv(after), kv(before));
  EXPECT_TRUE(Has(after, "\"last_executed\":2000,")) << after;
}

// A crash between the steps of a compaction loses nothing: the checkpoint is appended before
// the snapshot is renamed, and the log is emptied only after.
TEST(WalCompaction, ACrashBetweenItsStepsLosesNothing) {
  const std::string old_snapshot = Frames({Checkpoint(1)});
  const std::string before = Frames({CommittedPut(2), CommittedPut(3)});
  const std::string batch = Frames({Checkpoint(3), CommittedPut(4)});
  struct Case {
    std::string snapshot, tmp, log;
  };
  for (const Case& c : {Case{old_snapshot, batch.substr(0, 9), before + batch}, Case{batch, "", before + batch}}) {
    const std::string dir = TempDir("crash");
    WriteFile(dir + "/snapshot", c.snapshot);
    if (!c.tmp.empty()) WriteFile(dir + "/snapshot.tmp", c.tmp);
    WriteFile(dir + "/wal.log", c.log);
    std::unique_ptr<Wal> w;
    WalReadResult held;
    ASSERT_EQ(Wal::Open(dir, FsyncPolicy::kNever, &w, &held), "");
    ASSERT_EQ(held.records.size(), 2u);
    EXPECT_TRUE(Has(held.records[0], "\"last_executed\":3,")) << held.records[0];
    EXPECT_TRUE(Has(held.records[1], "\"index\":4,")) << held.records[1];
    struct stat st {};
    EXPECT_NE(stat((dir + "/snapshot.tmp").c_str(), &st), 0) << "the temp file was left behind";
  }
}

TEST(WalCompaction, ACorruptSnapshotIsANamedError) {
  const std::string good = Frames({Checkpoint(3), CommittedPut(4)});
  std::string flipped = good;
  flipped[12] ^= 0x20;
  for (const std::string& data : {flipped, good.substr(0, good.size() - 3), Frames({CommittedPut(4)}), std::string()}) {
    const std::string dir = TempDir("corrupt");
    WriteFile(dir + "/snapshot", data);
    std::unique_ptr<Wal> w;
    WalReadResult held;
    const std::string err = Wal::Open(dir, FsyncPolicy::kNever, &w, &held);
    EXPECT_TRUE(Has(err, "corrupt snapshot") && Has(err, dir + "/snapshot")) << err;
  }
}

}  // namespace
}  // namespace server
}  // namespace replicant
