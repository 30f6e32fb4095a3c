#include "kvstore.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace replicant
