#include "kvstore.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif


namespace replicant {
namespace {

Command Cmd(CommandType t, const std::string& k, const std::string& v = "") {
  Command c;
  c.type = t;
  c.key = k;
  c.value = v;
  return c;
}

TEST(KVStore, ApplyResults) {
  KVStore kv;
  EXPECT_EQ(kv.Apply(Cmd(CommandType::kGet, "a")).type, ResultType::kNotFound);
  EXPECT_EQ(kv.Apply(Cmd(CommandType::kDel, "a")).type, ResultType::kNotFound);
  Result put = kv.Apply(Cmd(CommandType::kPut, "a", "1"));
  EXPECT_EQ(put.type, ResultType::kOk);
  EXPECT_EQ(put.value, "");
  Result get = kv.Apply(Cmd(CommandType::kGet, "a"));
  EXPECT_EQ(get.type, ResultType::kOk);
  EXPECT_EQ(get.value, "1");
  Result del = kv.Apply(Cmd(CommandType::kDel, "a"));
  EXPECT_EQ(del.type, ResultType::kOk);
  EXPECT_EQ(del.value, "");
  EXPECT_EQ(kv.Size(), 0u);
}

// Reference digests computed by the Go core (engines/go-wasm/core/kvstore.go) with `go run`.
TEST(KVStore, DigestMatchesTheGoCore) {
  KVStore kv;
  EXPECT_EQ(kv.Digest(), 0u);
  kv.Apply(Cmd(CommandType::kPut, "a", "1"));
  EXPECT_EQ(kv.Digest(), 0xe5d2e8190426ecefULL);
  kv.Apply(Cmd(CommandType::kPut, "b", "2"));
  EXPECT_EQ(kv.Digest(), 0xe5a25e3217060726ULL);
  kv.Apply(Cmd(CommandType::kPut, "k", ""));
  EXPECT_EQ(kv.Digest(), 0xee603c39cc67d8a4ULL);
  kv.Apply(Cmd(CommandType::kDel, "a"));
  EXPECT_EQ(kv.Digest(), 0x088d5420c840ebb5ULL);
}

TEST(KVStore, DigestIsFnv1aOfKeyZeroValue) {
  // FNV-1a-64 of the three bytes 'a', 0x00, '1' written out by hand.
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : {'a', '\0', '1'}) h = (h ^ c) * 0x100000001b3ULL;
  EXPECT_EQ(EntryHash("a", "1"), h);
  EXPECT_NE(EntryHash("ab", ""), EntryHash("a", "b"));  // the separator matters
}

TEST(KVStore, DigestIsOrderIndependentAndTracksOverwrites) {
  KVStore x, y;
  x.Apply(Cmd(CommandType::kPut, "a", "1"));
  x.Apply(Cmd(CommandType::kPut, "b", "2"));
  y.Apply(Cmd(CommandType::kPut, "b", "old"));
  y.Apply(Cmd(CommandType::kPut, "a", "1"));
  y.Apply(Cmd(CommandType::kPut, "b", "2"));
  EXPECT_EQ(x.Digest(), y.Digest());
  x.Apply(Cmd(CommandType::kDel, "a"));
  x.Apply(Cmd(CommandType::kDel, "b"));
  EXPECT_EQ(x.Digest(), 0u);  // the wrapping sum returns to zero
}

TEST(KVStore, FirstEntriesAreSortedAndLimited) {
  KVStore kv;
  for (int i = 99; i >= 0; i--) {
    kv.Apply(Cmd(CommandType::kPut, "k" + std::to_string(i), std::to_string(i)));
  }
  auto first = kv.FirstEntries(64);
  ASSERT_EQ(first.size(), 64u);
  EXPECT_EQ(first[0].first, "k0");
  EXPECT_EQ(first[1].first, "k1");
  EXPECT_EQ(first[2].first, "k10");  // byte order, not numeric
  for (size_t i = 1; i < first.size(); i++) EXPECT_LT(first[i - 1].first, first[i].first);
  EXPECT_EQ(kv.FirstEntries(1000).size(), 100u);
  // '!' < 'A' < 'a' < '~' in byte order.
  KVStore mixed;
  for (const char* k : {"~", "a", "A", "!"}) mixed.Apply(Cmd(CommandType::kPut, k, "v"));
  auto order = mixed.FirstEntries(4);
  EXPECT_EQ(order[0].first, "!");
  EXPECT_EQ(order[1].first, "A");
  EXPECT_EQ(order[2].first, "a");
  EXPECT_EQ(order[3].first, "~");
}

// Random puts, overwrites of other lengths and deletes against std::map: the open-addressing
// table's backward-shift delete must leave every key reachable, and the digest must be the
// sum over what remains.
TEST(KVStore, RandomHistoryMatchesAMap) {
  KVStore kv;
  std::map<std::string, std::string> ref;
  uint64_t x = 0x9e3779b97f4a7c15ULL;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (int step = 0; step < 20000; step++) {
    const std::string k = "k" + std::to_string(next() % 700);
    const uint64_t op = next() % 10;
    if (op < 5) {
      const std::string v(next() % 12, static_cast<char>('a' + step % 26));
      kv.Apply(Cmd(CommandType::kPut, k, v));
      ref[k] = v;
    } else if (op < 8) {
      const Result r = kv.Apply(Cmd(CommandType::kDel, k));
      EXPECT_EQ(r.type, ref.erase(k) ? ResultType::kOk : ResultType::kNotFound);
    } else {
      const Result r = kv.Apply(Cmd(CommandType::kGet, k));
      auto it = ref.find(k);
      ASSERT_EQ(r.type, it == ref.end() ? ResultType::kNotFound : ResultType::kOk) << k;
      if (it != ref.end()) {
        EXPECT_EQ(r.value, it->second);
      }
    }
    ASSERT_EQ(kv.Size(), ref.size());
  }
  uint64_t digest = 0;
  for (const auto& [k, v] : ref) digest += EntryHash(k, v);
  EXPECT_EQ(kv.Digest(), digest);
  auto all = kv.FirstEntries(ref.size());
  ASSERT_EQ(all.size(), ref.size());
  size_t i = 0;
  for (const auto& [k, v] : ref) {
    EXPECT_EQ(all[i].first, k);
    EXPECT_EQ(all[i++].second, v);
  }
}

TEST(KVStore, CopyAndMoveKeepEntries) {
  KVStore a;
  for (int i = 0; i < 50; i++) a.Apply(Cmd(CommandType::kPut, "k" + std::to_string(i), "v"));
  KVStore b(a);
  a.Apply(Cmd(CommandType::kDel, "k0"));
  EXPECT_EQ(b.Size(), 50u);
  EXPECT_EQ(b.Apply(Cmd(CommandType::kGet, "k0")).value, "v");
  KVStore c(std::move(b));
  EXPECT_EQ(c.Size(), 50u);
  c = KVStore();  // what a snapshot install does
  EXPECT_EQ(c.Size(), 0u);
  EXPECT_EQ(c.Digest(), 0u);
  EXPECT_EQ(c.Apply(Cmd(CommandType::kGet, "k1")).type, ResultType::kNotFound);
  c = a;
  EXPECT_EQ(c.Size(), 49u);
  EXPECT_EQ(c.Digest(), a.Digest());
}

// What the store takes from malloc per YCSB record (23-byte key, 500-byte value) against the
// record's raw bytes, with the counting allocator of the native server linked in as here. The
// benchmarks give a node 1.25 x the raw data plus its footprint (docs/benchmarks.md); the
// unordered_map of std::strings took 1.34 x here (1.25 x without the counting headers) and
// left no room, so C++ nodes were OOM-killed at ratio 1.25.
TEST(KVStore, YcsbRecordsCostAtMostATenthMoreThanTheirBytesAndSlots) {
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "measures glibc's malloc";
#else
  constexpr size_t kRecords = 20000;
  const struct mallinfo2 before = mallinfo2();
  KVStore kv;
  Command c;
  c.type = CommandType::kPut;
  c.value.assign(500, 'v');
  for (size_t i = 0; i < kRecords; i++) {
    char key[32];
    std::snprintf(key, sizeof key, "user%019zu", i * 7919);
    c.key = key;
    kv.Apply(c);
  }
  const struct mallinfo2 after = mallinfo2();
  const double raw = kRecords * (23.0 + 500.0);
  const double taken = static_cast<double>(after.uordblks - before.uordblks) +
                       static_cast<double>(after.hblkhd - before.hblkhd);
  std::printf("kvstore: %zu YCSB records, %.1f bytes/record from malloc, %.3f x raw (table %.3f x)\n",
              kRecords, taken / kRecords, taken / raw, kv.HeapBytes() / raw);
  EXPECT_LE(taken / raw, 1.12);  // 1.096 here; the slot table is 37-75 % full
#endif
}

}  // namespace
}  // namespace replicant
