#include <gtest/gtest.h>

#include "codec.h"
#include "config.h"

namespace replicant {
namespace {

TEST(Config, DefaultsAndKnobs) {
  Config c;
  ASSERT_EQ(DecodeConfig("{\"id\":1,\"num_peers\":3,\"seed\":9}", &c), "");
  EXPECT_EQ(c.id, 1u);
  EXPECT_EQ(c.commit_interval_us, 150000u);
  EXPECT_EQ(c.accept_timeout_ticks, 3u);
  EXPECT_EQ(c.max_pending_accepts, 4096u);
  EXPECT_TRUE(c.trace);
  ASSERT_EQ(DecodeConfig("{\"trace\":false,\"seed\":0,\"num_peers\":1,\"id\":0,"
                         "\"commit_interval_us\":1000,\"accept_timeout_ticks\":1000,"
                         "\"max_pending_accepts\":1}",
                         &c),
            "");
  EXPECT_FALSE(c.trace);
  EXPECT_EQ(c.commit_interval_us, 1000u);
}

TEST(Config, Errors) {
  Config c;
  EXPECT_EQ(DecodeConfig("{", &c), "config: not valid JSON");
  EXPECT_EQ(DecodeConfig("[]", &c), "config: not a JSON object");
  EXPECT_EQ(DecodeConfig("{\"id\":0,\"num_peers\":3}", &c),
            "config: id, num_peers and seed are required");
  EXPECT_EQ(DecodeConfig("{\"id\":0,\"num_peers\":3,\"seed\":1,\"colour\":1}", &c),
            "config: unknown field \"colour\"");
  EXPECT_EQ(DecodeConfig("{\"id\":0,\"num_peers\":3,\"seed\":1,\"trace\":1}", &c),
            "config: trace must be true or false");
  EXPECT_EQ(DecodeConfig("{\"id\":\"0\",\"num_peers\":3,\"seed\":1}", &c),
            "config: id must be a non-negative integer below 2^53");
  EXPECT_EQ(DecodeConfig("{\"id\":3,\"num_peers\":3,\"seed\":1}", &c),
            "config: id must be below num_peers");
  EXPECT_EQ(DecodeConfig("{\"id\":0,\"num_peers\":16,\"seed\":1}", &c),
            "config: num_peers must be between 1 and 15");
  EXPECT_EQ(DecodeConfig("{\"id\":0,\"num_peers\":0,\"seed\":1}", &c),
            "config: num_peers must be between 1 and 15");
  EXPECT_EQ(DecodeConfig("{\"id\":0,\"num_peers\":3,\"seed\":1,\"commit_interval_us\":999}", &c),
            "config: commit_interval_us must be between 1000 and 60000000");
  EXPECT_EQ(DecodeConfig("{\"id\":0,\"num_peers\":3,\"seed\":1,\"accept_timeout_ticks\":0}", &c),
            "config: accept_timeout_ticks must be between 1 and 1000");
  EXPECT_EQ(
      DecodeConfig("{\"id\":0,\"num_peers\":3,\"seed\":1,\"max_pending_accepts\":1000001}", &c),
      "config: max_pending_accepts must be between 1 and 1000000");
  EXPECT_EQ(DecodeConfig("{\"id\":0,\"num_peers\":3,\"seed\":9007199254740992}", &c),
            "config: not valid JSON");
  EXPECT_EQ(DecodeConfig("{\"id\":0,\"id\":0,\"num_peers\":3,\"seed\":1}", &c),
            "config: not valid JSON");
}

}  // namespace
}  // namespace replicant
