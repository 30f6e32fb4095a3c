// The batch step (docs/protocol.md, "Batch step"): its framing, and a batch stepping exactly
// as its events do one by one through StepBinary.
#include "binary_codec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "node.h"

namespace replicant {
namespace {

Config OneNode() {
  Config c;
  c.id = 0;
  c.num_peers = 1;
  c.seed = 5;
  return c;
}

std::string JsonEvent(const std::string& json) { return std::string(1, '\0') + json; }

// Start, a client's put (binary), a bad event, a commit timer.
std::vector<std::string> Events() {
  const std::string line = "put k v";
  std::string put = {'\x01', 7, 1, static_cast<char>(line.size())};
  put += line;
  return {JsonEvent("{\"type\":\"start\"}"), put, JsonEvent("{\"type\":\"nope\"}"),
          JsonEvent("{\"type\":\"timer\",\"timer\":\"commit\"}")};
}

std::string Frames(const std::vector<std::string>& bodies) {
  std::string b;
  for (const std::string& body : bodies) AppendBatchFrame(b, body);
  return b;
}

TEST(BatchStep, FramingIsWholeFramesOrAnError) {
  EXPECT_TRUE(ValidBatchFraming(""));
  EXPECT_TRUE(ValidBatchFraming(std::string("\x00\x02\x00{\x01\x09", 6)));
  for (const std::string& bad : {std::string("\x01"), std::string("\x03\x01\x02"), std::string("\x80"),
                                 std::string("\x80\x00", 2), std::string("\x00\xff\xff\xff\xff\xff\xff\xff\x7f", 9)}) {
    EXPECT_FALSE(ValidBatchFraming(bad)) << testing::PrintToString(bad);
  }
  const std::string in("\x02\x07\x08\x00\x01\x09", 6);
  size_t pos = 0;
  std::string_view frame;
  ASSERT_TRUE(NextBatchFrame(in, &pos, &frame));
  EXPECT_EQ(frame, std::string("\x07\x08"));
  ASSERT_TRUE(NextBatchFrame(in, &pos, &frame));
  EXPECT_EQ(frame, "");
  ASSERT_TRUE(NextBatchFrame(in, &pos, &frame));
  EXPECT_EQ(frame, "\x09");
  EXPECT_EQ(pos, in.size());
}

TEST(BatchStep, StepsAsItsEventsOneByOne) {
  Node one(OneNode());
  std::vector<std::string> effects;
  for (const std::string& e : Events()) {
    std::string out;
    one.StepBinary(e, &out);
    effects.push_back(out);
  }
  Node batched(OneNode());
  std::string out;
  ASSERT_TRUE(batched.StepBatch(Frames(Events()), &out));
  EXPECT_EQ(out, Frames(effects));
  EXPECT_EQ(batched.Inspect(), one.Inspect());
  out.clear();
  ASSERT_TRUE(batched.StepBatch("", &out));
  EXPECT_EQ(out, "");
}

TEST(BatchStep, BadFramingStepsNothing) {
  Node n(OneNode());
  const std::string before = n.Inspect();
  std::string in = Frames({JsonEvent("{\"type\":\"start\"}")});
  in += std::string("\x05\x00", 2);  // a frame promising more bytes than there are
  std::string out;
  EXPECT_FALSE(n.StepBatch(in, &out));
  EXPECT_FALSE(n.StepBatch("\x80", &out));
  EXPECT_EQ(out, "");
  EXPECT_EQ(n.Inspect(), before);
}

}  // namespace
}  // namespace replicant
