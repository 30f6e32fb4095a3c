#include "command.h"

#include <gtest/gtest.h>

#include <string>

namespace replicant {
namespace {

TEST(ParseCommand, GoodLines) {
  auto get = ParseCommand("get k");
  ASSERT_TRUE(get);
  EXPECT_EQ(get->type, CommandType::kGet);
  EXPECT_EQ(get->key, "k");
  EXPECT_EQ(get->value, "");

  auto del = ParseCommand("del some-key!");
  ASSERT_TRUE(del);
  EXPECT_EQ(del->type, CommandType::kDel);
  EXPECT_EQ(del->key, "some-key!");

  auto put = ParseCommand("put k hello world");
  ASSERT_TRUE(put);
  EXPECT_EQ(put->type, CommandType::kPut);
  EXPECT_EQ(put->key, "k");
  EXPECT_EQ(put->value, "hello world");
}

TEST(ParseCommand, PutValueIsTheRestOfTheLine) {
  auto empty = ParseCommand("put k ");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->value, "");
  auto spaces = ParseCommand("put k  two  spaces ");
  ASSERT_TRUE(spaces);
  EXPECT_EQ(spaces->value, " two  spaces ");
}

TEST(ParseCommand, Limits) {
  EXPECT_TRUE(ParseCommand("get " + std::string(256, 'k')));
  EXPECT_FALSE(ParseCommand("get " + std::string(257, 'k')));
  EXPECT_TRUE(ParseCommand("put k " + std::string(65536, 'v')));
  EXPECT_FALSE(ParseCommand("put k " + std::string(65537, 'v')));
  EXPECT_TRUE(ParseCommand("put ! ~"));  // the ends of the printable range
}

TEST(ParseCommand, BadLines) {
  const char* bad[] = {
      "",           "get",        "get ",          "GET k",     "Get k",   "get  k",
      "get k ",     "get k x",    "del k v",       "put",       "put k",   "put  k v",
      "frob k",     "get\tk",     "put k\tv",      "get k\r",   "put k v\r", "putk v",
      " get k",     "get \x7f",   "put k caf\xc3\xa9",
  };
  for (const char* line : bad) EXPECT_FALSE(ParseCommand(line)) << "accepted: " << line;
  EXPECT_FALSE(ParseCommand(std::string("get a\0b", 7)));
  EXPECT_FALSE(ParseCommand(std::string("put k a\0b", 9)));
}

TEST(ValidKeyAndValue, ByteRanges) {
  for (int c = 0; c < 256; c++) {
    const std::string s(1, static_cast<char>(c));
    EXPECT_EQ(ValidKey(s), c >= 0x21 && c <= 0x7e) << c;
    EXPECT_EQ(ValidValue(s), c >= 0x20 && c <= 0x7e) << c;
  }
  EXPECT_FALSE(ValidKey(""));
  EXPECT_TRUE(ValidValue(""));
}

TEST(ReplyLine, EveryResult) {
  Result ok;
  ok.value = "v 1";
  EXPECT_EQ(ReplyLine(ok), "v 1");
  Result r;
  r.type = ResultType::kNotFound;
  EXPECT_EQ(ReplyLine(r), "key not found");
  r.type = ResultType::kRetry;
  EXPECT_EQ(ReplyLine(r), "retry");
  r.type = ResultType::kLeaderIs;
  r.leader = 2;
  EXPECT_EQ(ReplyLine(r), "leader is 2");
  r.type = ResultType::kBadCommand;
  EXPECT_EQ(ReplyLine(r), "bad command");
}

}  // namespace
}  // namespace replicant
