#include "server_config.h"

#include <gtest/gtest.h>

namespace replicant {
namespace server {
namespace {

const char kGood[] =
    "{\"commit_interval_ms\":150,\"peers\":[\"127.0.0.1:10000\",\"localhost:10010\","
    "\"[::1]:10020\"],\"clients\":[\"127.0.0.1:10001\",\"127.0.0.1:10011\",\"127.0.0.1:10021\"]}";

TEST(ServerConfig, ParsesTheExample) {
  ServerConfig c;
  ASSERT_EQ(ParseServerConfig(kGood, &c), "");
  EXPECT_EQ(c.commit_interval_ms, 150u);
  ASSERT_EQ(c.peers.size(), 3u);
  EXPECT_EQ(c.peers[1].host, "localhost");
  EXPECT_EQ(c.peers[2].host, "::1");
  EXPECT_EQ(c.peers[2].port, "10020");
  EXPECT_EQ(c.clients[0].port, "10001");
  uint64_t id = 9;
  EXPECT_EQ(ParseNodeId("2", c, &id), "");
  EXPECT_EQ(id, 2u);
}

TEST(ServerConfig, Errors) {
  ServerConfig c;
  EXPECT_NE(ParseServerConfig("", &c), "");
  EXPECT_NE(ParseServerConfig("{\"peers\":[],\"clients\":[]}", &c), "");
  EXPECT_NE(ParseServerConfig("{\"peers\":[\"a:1\"]}", &c), "");
  EXPECT_NE(ParseServerConfig("{\"peers\":[\"a:1\"],\"clients\":[]}", &c), "");
  EXPECT_NE(ParseServerConfig("{\"peers\":[\"a:1\"],\"clients\":[\"b:2\"],"
                              "\"commit_interval_ms\":0}",
                              &c),
            "");
  EXPECT_NE(ParseServerConfig("{\"peers\":[\"a:1\"],\"clients\":[\"b:2\"],"
                              "\"commit_interval_ms\":1.5}",
                              &c),
            "");
  EXPECT_NE(ParseServerConfig("{\"peers\":[1],\"clients\":[\"b:2\"]}", &c), "");
  EXPECT_NE(ParseServerConfig("{\"peers\":\"a:1\",\"clients\":[\"b:2\"]}", &c), "");
  EXPECT_EQ(ParseServerConfig("{\"commit_interval_ms\":5,\"peers\":[\"a:1\"],\"clients\":[\"b:2\"]}", &c), "");
  EXPECT_EQ(ParseServerConfig("{\"peers\":[\"a:1\"],\"clients\":[\"b:2\"]}", &c), "");
  EXPECT_EQ(c.commit_interval_ms, 150u);  // the default
  EXPECT_EQ(ParseServerConfig("{\"commit_interval_ms\":5,\"peers\":[\"a:1\"],\"clients\":[\"b:2\"],\"x\":1}", &c),
            "unknown field \"x\"");
  uint64_t id;
  ParseServerConfig(kGood, &c);
  EXPECT_NE(ParseNodeId("3", c, &id), "");
  EXPECT_NE(ParseNodeId("-1", c, &id), "");
  EXPECT_NE(ParseNodeId("", c, &id), "");
  EXPECT_NE(ParseNodeId("1x", c, &id), "");
}

TEST(ServerConfig, Addresses) {
  Address a;
  EXPECT_EQ(ParseAddress("127.0.0.1:1", &a), "");
  EXPECT_EQ(ParseAddress("[::]:65535", &a), "");
  EXPECT_NE(ParseAddress("127.0.0.1", &a), "");
  EXPECT_NE(ParseAddress("127.0.0.1:", &a), "");
  EXPECT_NE(ParseAddress(":80", &a), "");
  EXPECT_NE(ParseAddress("h:0", &a), "");
  EXPECT_NE(ParseAddress("h:65536", &a), "");
  EXPECT_NE(ParseAddress("h:8x", &a), "");
  EXPECT_NE(ParseAddress("::1:80", &a), "");
  EXPECT_NE(ParseAddress("[::1]80", &a), "");
  EXPECT_NE(ParseAddress("a b:80", &a), "");
}

}  // namespace
}  // namespace server
}  // namespace replicant
