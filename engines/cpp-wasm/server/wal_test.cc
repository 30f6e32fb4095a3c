#include "wal.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "codec.h"

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
