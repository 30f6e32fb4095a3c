#include "codec.h"

#include <gtest/gtest.h>

#include <string>

namespace replicant {
namespace {

const char kAccept[] =
    "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":"
    "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,\"state\":\"in_progress\","
    "\"command\":{\"type\":\"put\",\"key\":\"k\",\"value\":\"v w\"}}}";

std::string Encode(const Message& m) {
  std::string b;
  AppendMessage(b, m);
  return b;
}

TEST(Codec, EveryMessageRoundTrips) {
  const char* lines[] = {
      "{\"type\":\"prepare_request\",\"from\":1,\"to\":0,\"channel_id\":3,\"ballot\":257}",
      "{\"type\":\"prepare_response\",\"from\":0,\"to\":1,\"channel_id\":3,\"ok\":true,"
      "\"ballot\":257,\"instances\":[]}",
      "{\"type\":\"prepare_response\",\"from\":0,\"to\":1,\"channel_id\":3,\"ok\":false,"
      "\"ballot\":513,\"instances\":[{\"ballot\":257,\"index\":1,\"client_id\":7,"
      "\"request_id\":1,\"state\":\"executed\",\"command\":{\"type\":\"get\",\"key\":\"k\"}},"
      "{\"ballot\":257,\"index\":2,\"client_id\":7,\"request_id\":2,\"state\":\"committed\","
      "\"command\":{\"type\":\"del\",\"key\":\"k\"}}]}",
      kAccept,
      "{\"type\":\"accept_response\",\"from\":0,\"to\":1,\"channel_id\":4,\"ok\":true,"
      "\"ballot\":257}",
      "{\"type\":\"commit_request\",\"from\":1,\"to\":0,\"channel_id\":5,\"ballot\":257,"
      "\"last_executed\":4,\"global_last_executed\":2}",
      "{\"type\":\"commit_response\",\"from\":0,\"to\":1,\"channel_id\":5,\"ok\":true,"
      "\"ballot\":257,\"last_executed\":4}",
  };
  for (const char* line : lines) {
    Message m;
    ASSERT_TRUE(DecodeMessage(line, &m)) << line;
    EXPECT_EQ(Encode(m), line);
  }
}

TEST(Codec, FieldOrderAndWhitespaceDoNotMatter) {
  Message m;
  ASSERT_TRUE(DecodeMessage(
      " { \"ballot\" : 257 , \"channel_id\":3,\"to\":0,\"from\":1,\"type\":\"prepare_request\" } ",
      &m));
  EXPECT_EQ(Encode(m),
            "{\"type\":\"prepare_request\",\"from\":1,\"to\":0,\"channel_id\":3,\"ballot\":257}");
}

TEST(Codec, RejectsSchemaErrors) {
  const char* bad[] = {
      // missing, unknown, duplicate fields
      "{\"type\":\"prepare_request\",\"from\":1,\"to\":0,\"channel_id\":3}",
      "{\"type\":\"prepare_request\",\"from\":1,\"to\":0,\"channel_id\":3,\"ballot\":257,\"x\":1}",
      "{\"type\":\"prepare_request\",\"from\":1,\"to\":0,\"to\":0,\"channel_id\":3,\"ballot\":1}",
      // wrong types
      "{\"type\":\"prepare_request\",\"from\":\"1\",\"to\":0,\"channel_id\":3,\"ballot\":257}",
      "{\"type\":\"accept_response\",\"from\":0,\"to\":1,\"channel_id\":4,\"ok\":1,\"ballot\":1}",
      "{\"type\":\"prepare_response\",\"from\":0,\"to\":1,\"channel_id\":3,\"ok\":true,"
      "\"ballot\":257,\"instances\":{}}",
      "{\"type\":\"prepare_request\",\"from\":1,\"to\":0,\"channel_id\":3,\"ballot\":null}",
      // unknown type, type not a string, not an object
      "{\"type\":\"gossip\",\"from\":1,\"to\":0,\"channel_id\":3}",
      "{\"type\":7,\"from\":1,\"to\":0,\"channel_id\":3,\"ballot\":257}",
      "[\"prepare_request\"]",
      // bad instance state and commands
      "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":"
      "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,\"state\":\"done\","
      "\"command\":{\"type\":\"get\",\"key\":\"k\"}}}",
      "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":"
      "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,\"state\":\"in_progress\","
      "\"command\":{\"type\":\"get\",\"key\":\"k\",\"value\":\"v\"}}}",
      "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":"
      "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,\"state\":\"in_progress\","
      "\"command\":{\"type\":\"put\",\"key\":\"k\"}}}",
      "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":"
      "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,\"state\":\"in_progress\","
      "\"command\":{\"type\":\"get\",\"key\":\"a b\"}}}",
      "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":"
      "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,\"state\":\"in_progress\","
      "\"command\":{\"type\":\"put\",\"key\":\"k\",\"value\":\"caf\\u00e9\"}}}",
      "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":"
      "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,\"state\":\"in_progress\","
      "\"command\":{\"type\":\"put\",\"key\":\"k\",\"value\":\"tab\\there\"}}}",
      "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":"
      "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,\"state\":\"in_progress\","
      "\"command\":{\"type\":\"put\",\"key\":\"\",\"value\":\"v\"}}}",
  };
  for (const char* line : bad) {
    Message m;
    EXPECT_FALSE(DecodeMessage(line, &m)) << line;
  }
}

TEST(Codec, EscapedStringsAreDecoded) {
  Message m;
  ASSERT_TRUE(DecodeMessage(
      "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":"
      "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,\"state\":\"in_progress\","
      "\"command\":{\"type\":\"put\",\"key\":\"\\u006b\",\"value\":\"a\\\"b\\\\c\\/\"}}}",
      &m));
  EXPECT_EQ(m.instance.command.key, "k");
  EXPECT_EQ(m.instance.command.value, "a\"b\\c/");
  EXPECT_EQ(Encode(m),
            "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":4,\"instance\":"
            "{\"ballot\":257,\"index\":1,\"client_id\":7,\"request_id\":1,\"state\":"
            "\"in_progress\",\"command\":{\"type\":\"put\",\"key\":\"k\",\"value\":"
            "\"a\\\"b\\\\c/\"}}}");
}

TEST(Codec, Events) {
  Event ev;
  ASSERT_TRUE(DecodeEvent("{\"type\":\"start\"}", &ev));
  EXPECT_EQ(ev.type, EventType::kStart);
  ASSERT_TRUE(DecodeEvent("{\"type\":\"timer\",\"timer\":\"commit\"}", &ev));
  EXPECT_EQ(ev.timer, TimerName::kCommit);
  ASSERT_TRUE(DecodeEvent(
      "{\"line\":\"get \\u0000\",\"type\":\"client\",\"client_id\":7,\"request_id\":1}", &ev));
  EXPECT_EQ(ev.type, EventType::kClient);
  EXPECT_EQ(ev.line, std::string("get \0", 5));  // any string: the parser judges the line
  // Raw bytes >= 0x80 (even invalid UTF-8) are read as they are, as the Go reader does; the
  // command parser then answers bad_command rather than the decoder bad_event.
  ASSERT_TRUE(DecodeEvent("{\"type\":\"client\",\"client_id\":1,\"request_id\":1,"
                          "\"line\":\"put k \xff\xfe\"}",
                          &ev));
  EXPECT_EQ(ev.line, "put k \xff\xfe");
  ASSERT_TRUE(DecodeEvent(std::string("{\"type\":\"message\",\"msg\":") + kAccept + "}", &ev));
  EXPECT_EQ(ev.message.instance.command.value, "v w");

  const char* bad[] = {
      "{\"type\":\"start\",\"x\":1}",
      "{\"type\":\"timer\",\"timer\":\"other\"}",
      "{\"type\":\"timer\"}",
      "{\"type\":\"client\",\"client_id\":-1,\"request_id\":1,\"line\":\"get k\"}",
      "{\"type\":\"client\",\"client_id\":1,\"request_id\":1,\"line\":5}",
      "{\"type\":\"message\",\"msg\":{}}",
      "{\"type\":\"restart\"}",
      "{}",
      "null",
      "{\"type\":\"start\"}\n{\"type\":\"start\"}",
  };
  for (const char* line : bad) EXPECT_FALSE(DecodeEvent(line, &ev)) << line;
}

TEST(Codec, Effects) {
  std::vector<Effect> effects(4);
  effects[0].type = EffectType::kReply;
  effects[0].client_id = 7;
  effects[0].request_id = 1;
  effects[0].result.type = ResultType::kLeaderIs;
  effects[0].result.leader = 2;
  effects[1].type = EffectType::kSetTimer;
  effects[1].timer = TimerName::kElection;
  effects[1].delay_us = 262144;
  effects[2].type = EffectType::kTrace;
  effects[2].trace.kind = TraceKind::kViolation;
  effects[2].trace.index = 3;
  effects[2].trace.reason = "command_mismatch";
  effects[3].type = EffectType::kError;
  std::string b;
  EncodeEffects(b, effects);
  EXPECT_EQ(b,
            "{\"type\":\"reply\",\"client_id\":7,\"request_id\":1,\"result\":\"leader_is\","
            "\"leader\":2}\n"
            "{\"type\":\"set_timer\",\"timer\":\"election\",\"delay_us\":262144}\n"
            "{\"type\":\"trace\",\"kind\":\"violation\",\"index\":3,\"reason\":"
            "\"command_mismatch\"}\n"
            "{\"type\":\"error\",\"error\":\"bad_event\"}\n");
  b.clear();
  EncodeEffects(b, {});
  EXPECT_EQ(b, "");
}

}  // namespace
}  // namespace replicant
