#include "node.h"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "codec.h"
#include "json.h"

namespace replicant {
namespace {
// Test builds check the core's invariants after every step.
const bool kInvariantsOn = (g_check_invariants = true);
}  // namespace
}  // namespace replicant

namespace replicant {
namespace {

Config MakeConfig(uint64_t id, uint64_t n, uint64_t seed) {
  Config c;
  c.id = id;
  c.num_peers = n;
  c.seed = seed;
  return c;
}

Event Timer(TimerName t) {
  Event e;
  e.type = EventType::kTimer;
  e.timer = t;
  return e;
}

Event Client(uint64_t client, uint64_t request, const std::string& line) {
  Event e;
  e.type = EventType::kClient;
  e.client_id = client;
  e.request_id = request;
  e.line = line;
  return e;
}

// A scripted cluster: a FIFO network, every effect kept as canonical JSON.
struct Cluster {
  std::vector<std::unique_ptr<Node>> nodes;
  std::deque<Message> network;
  std::vector<Effect> replies;
  std::vector<std::string> log;  // "nI: <effect>"

  Cluster(uint64_t n, uint64_t seed) {
    for (uint64_t i = 0; i < n; i++) nodes.push_back(std::make_unique<Node>(MakeConfig(i, n, seed + i)));
    for (uint64_t i = 0; i < n; i++) Step(i, Event{});
  }

  void Step(uint64_t i, const Event& ev) {
    for (const Effect& e : nodes[i]->Step(ev)) {
      std::string line = "n" + std::to_string(i) + ": ";
      AppendEffect(line, e);
      log.push_back(line);
      if (e.type == EffectType::kSend) network.push_back(e.message);
      if (e.type == EffectType::kReply) replies.push_back(e);
    }
  }

  void DeliverAll() {
    while (!network.empty()) {
      Event ev;
      ev.type = EventType::kMessage;
      ev.message = network.front();
      network.pop_front();
      Step(ev.message.to, ev);
    }
  }

  std::string Field(uint64_t i, const char* name) {
    JsonValue v;
    EXPECT_TRUE(ParseJson(nodes[i]->Inspect(), &v));
    const JsonValue* f = v.Find(name);
    if (f == nullptr) return "?";
    if (f->kind == JsonKind::kString) return f->s;
    if (f->kind == JsonKind::kNumber) return std::to_string(f->n);
    if (f->kind == JsonKind::kNull) return "null";
    return "…";
  }
};

TEST(Node, StartArmsTheElectionTimerFromTheSeed) {
  // The same draw as the shared transcript election_cold_start.txt (seed 1, node 0).
  Node n(MakeConfig(0, 3, 1));
  EXPECT_EQ(n.StepJson("{\"type\":\"start\"}"),
            "{\"type\":\"set_timer\",\"timer\":\"election\",\"delay_us\":269038}\n");
}

TEST(Node, ElectionDelayIsWithinOneAndAHalfToTwoIntervals) {
  Node n(MakeConfig(0, 3, 77));
  for (int i = 0; i < 200; i++) {
    const auto& effects = n.Step(Event{});
    ASSERT_EQ(effects.size(), 1u);
    EXPECT_GE(effects[0].delay_us, 225000u);
    EXPECT_LE(effects[0].delay_us, 300000u);
  }
}

TEST(Node, SingleNodeCommitsAtOnce) {
  Cluster c(1, 5);
  c.Step(0, Timer(TimerName::kElection));
  EXPECT_EQ(c.Field(0, "role"), "leader");
  c.Step(0, Client(7, 1, "put k v"));
  c.Step(0, Client(7, 2, "get k"));
  c.Step(0, Client(7, 3, "del nope"));
  ASSERT_EQ(c.replies.size(), 3u);
  EXPECT_EQ(c.replies[0].result.type, ResultType::kOk);
  EXPECT_EQ(c.replies[1].result.value, "v");
  EXPECT_EQ(c.replies[2].result.type, ResultType::kNotFound);
  EXPECT_EQ(c.Field(0, "last_executed"), "3");
  c.Step(0, Timer(TimerName::kCommit));  // learns gle = 3 (n = 1)
  c.Step(0, Timer(TimerName::kCommit));  // trims to it
  EXPECT_EQ(c.Field(0, "global_last_executed"), "3");
}

TEST(Node, ThreeNodesReplicate) {
  Cluster c(3, 1);
  c.Step(1, Timer(TimerName::kElection));
  c.DeliverAll();
  EXPECT_EQ(c.Field(1, "role"), "leader");
  EXPECT_EQ(c.Field(0, "leader"), "1");
  c.Step(1, Client(7, 1, "put a 1"));
  c.Step(1, Client(7, 2, "put b 2"));
  c.DeliverAll();
  ASSERT_EQ(c.replies.size(), 2u);
  EXPECT_EQ(c.replies[0].request_id, 1u);
  EXPECT_EQ(c.replies[1].request_id, 2u);
  // A heartbeat carries last_executed; followers commit and execute.
  c.Step(1, Timer(TimerName::kCommit));
  c.DeliverAll();
  for (uint64_t i = 0; i < 3; i++) {
    EXPECT_EQ(c.Field(i, "last_executed"), "2") << i;
    EXPECT_EQ(c.Field(i, "last_index"), "2") << i;
  }
  const std::string d = c.nodes[0]->Inspect();
  EXPECT_NE(d.find("\"digest\":\"e5a25e3217060726\""), std::string::npos) << d;
  // The next heartbeat trims everywhere to the learned gle.
  c.Step(1, Timer(TimerName::kCommit));
  c.DeliverAll();
  c.Step(1, Timer(TimerName::kCommit));
  c.DeliverAll();
  for (uint64_t i = 0; i < 3; i++) EXPECT_EQ(c.Field(i, "global_last_executed"), "2") << i;
  // A follower answers at once.
  c.Step(0, Client(8, 1, "get a"));
  EXPECT_EQ(c.replies.back().result.type, ResultType::kLeaderIs);
  EXPECT_EQ(c.replies.back().result.leader, 1u);
}

TEST(Node, NoLeaderMeansRetryAndBadLinesAreBadCommands) {
  Cluster c(3, 1);
  c.Step(0, Client(7, 1, "get a"));
  c.Step(0, Client(7, 2, "get"));
  ASSERT_EQ(c.replies.size(), 2u);
  EXPECT_EQ(c.replies[0].result.type, ResultType::kRetry);
  EXPECT_EQ(c.replies[1].result.type, ResultType::kBadCommand);
}

TEST(Node, MaxPendingAcceptsTellsClientsToRetry) {
  Config cfg = MakeConfig(0, 3, 1);
  cfg.max_pending_accepts = 1;
  Node n(cfg);
  n.Step(Timer(TimerName::kElection));
  Event promise;
  promise.type = EventType::kMessage;
  ASSERT_TRUE(DecodeMessage("{\"type\":\"prepare_response\",\"from\":1,\"to\":0,"
                            "\"channel_id\":1,\"ok\":true,\"ballot\":256,\"instances\":[]}",
                            &promise.message));
  n.Step(promise);
  n.Step(Client(7, 1, "put a 1"));
  const auto& effects = n.Step(Client(7, 2, "put b 2"));
  ASSERT_EQ(effects.size(), 1u);
  EXPECT_EQ(effects[0].result.type, ResultType::kRetry);
}

TEST(Node, AcceptTimeoutRepliesRetryAndReproposes) {
  Cluster c(3, 1);
  c.Step(1, Timer(TimerName::kElection));
  c.DeliverAll();
  c.Step(1, Client(7, 1, "put a 1"));
  c.network.clear();  // the accept requests are lost
  for (int i = 0; i < 3; i++) c.Step(1, Timer(TimerName::kCommit));
  ASSERT_EQ(c.replies.size(), 1u);
  EXPECT_EQ(c.replies[0].result.type, ResultType::kRetry);
  EXPECT_NE(c.nodes[1]->Inspect().find("\"accept_timeouts\":1"), std::string::npos);
  // The slot is proposed again and commits once the network delivers.
  c.DeliverAll();
  c.Step(1, Timer(TimerName::kCommit));
  c.DeliverAll();
  for (uint64_t i = 0; i < 3; i++) EXPECT_EQ(c.Field(i, "last_executed"), "1") << i;
}

TEST(Node, RetriedElectionsUseRisingBallots) {
  Node n(MakeConfig(2, 3, 1));
  n.Step(Event{});
  n.Step(Timer(TimerName::kElection));
  EXPECT_NE(n.Inspect().find("\"prepare\":{\"ballot\":258,"), std::string::npos);
  n.Step(Timer(TimerName::kElection));  // no answers: a new round, above the last prepare
  const std::string view = n.Inspect();
  EXPECT_NE(view.find("\"prepare\":{\"ballot\":514,"), std::string::npos) << view;
  EXPECT_NE(view.find("\"elections\":2"), std::string::npos);
  EXPECT_NE(view.find("\"ballot\":15,"), std::string::npos);  // not adopted until won
}

TEST(Node, BadEventsChangeNothingButTheCounters) {
  Node n(MakeConfig(0, 3, 1));
  const std::string before = n.Inspect();
  const char* bad[] = {
      "", "{}", "{\"type\":\"start\"} x",
      // semantic checks: wrong to, from out of range, from == id, foreign ballot
      "{\"type\":\"message\",\"msg\":{\"type\":\"prepare_request\",\"from\":1,\"to\":2,"
      "\"channel_id\":1,\"ballot\":257}}",
      "{\"type\":\"message\",\"msg\":{\"type\":\"prepare_request\",\"from\":3,\"to\":0,"
      "\"channel_id\":1,\"ballot\":259}}",
      "{\"type\":\"message\",\"msg\":{\"type\":\"prepare_request\",\"from\":0,\"to\":0,"
      "\"channel_id\":1,\"ballot\":256}}",
      "{\"type\":\"message\",\"msg\":{\"type\":\"prepare_request\",\"from\":1,\"to\":0,"
      "\"channel_id\":1,\"ballot\":258}}",
      "{\"type\":\"message\",\"msg\":{\"type\":\"accept_response\",\"from\":1,\"to\":0,"
      "\"channel_id\":1,\"ok\":true,\"ballot\":260}}",
  };
  for (const char* ev : bad) {
    EXPECT_EQ(n.StepJson(ev), "{\"type\":\"error\",\"error\":\"bad_event\"}\n") << ev;
  }
  const std::string after = n.Inspect();
  EXPECT_NE(after.find("\"events\":8,"), std::string::npos) << after;
  EXPECT_NE(after.find("\"bad_events\":8,"), std::string::npos) << after;
  EXPECT_NE(after.find("\"messages_in\":0,"), std::string::npos) << after;
  // Everything else is as before.
  EXPECT_EQ(before.substr(0, before.find("\"counters\"")), after.substr(0, after.find("\"counters\"")));
}

TEST(Node, AResponseWithNoLeaderBallotIsAccepted) {
  Node n(MakeConfig(0, 3, 1));
  EXPECT_EQ(n.StepJson("{\"type\":\"message\",\"msg\":{\"type\":\"accept_response\",\"from\":1,"
                       "\"to\":0,\"channel_id\":1,\"ok\":false,\"ballot\":15}}"),
            "");  // a stale response: ignored and counted
  EXPECT_NE(n.Inspect().find("\"stale_responses\":1"), std::string::npos);
}

TEST(Node, InspectShape) {
  Node n(MakeConfig(0, 3, 1));
  EXPECT_EQ(n.Inspect(),
            "{\"id\":0,\"num_peers\":3,\"role\":\"follower\",\"ballot\":15,\"leader\":null,"
            "\"commit_received\":false,\"last_index\":0,\"last_executed\":0,"
            "\"global_last_executed\":0,\"log\":[],\"kv\":{\"size\":0,\"digest\":"
            "\"0000000000000000\",\"entries\":[]},\"prepare\":null,\"accepts\":[],"
            "\"replay_remaining\":0,\"commit_round\":null,\"commit_gle\":0,\"counters\":"
            "{\"events\":0,\"messages_in\":0,\"messages_out\":0,\"client_commands\":0,"
            "\"replies\":0,\"executed\":0,\"elections\":0,\"bad_events\":0,"
            "\"stale_responses\":0,\"accept_timeouts\":0,\"violations\":0}}");
}

// Scalar shows a number, string or null as text, "absent" for a missing field, so that null
// leaders and missing keys compare too.
std::string Scalar(const JsonValue* v) {
  if (v == nullptr) return "absent";
  if (v->kind == JsonKind::kNull) return "null";
  if (v->kind == JsonKind::kString) return "\"" + v->s + "\"";
  if (v->kind == JsonKind::kNumber) return std::to_string(v->n);
  return "not a scalar";
}

void ExpectStatusFieldsAgreeWithInspect(const Node& n) {
  JsonValue whole, status;
  ASSERT_TRUE(ParseJson(n.Inspect(), &whole));
  ASSERT_TRUE(ParseJson(n.StatusFields(), &status)) << n.StatusFields();
  for (const char* key : {"role", "ballot", "leader", "last_index", "last_executed",
                          "global_last_executed", "replay_remaining"}) {
    EXPECT_EQ(Scalar(whole.Find(key)), Scalar(status.Find(key))) << key;
  }
  const JsonValue* counters = whole.Find("counters");
  ASSERT_NE(counters, nullptr);
  EXPECT_EQ(Scalar(counters->Find("elections")), Scalar(status.Find("elections")));
  EXPECT_EQ(status.fields.size(), 8u) << n.StatusFields();
}

TEST(Node, StatusFieldsAgreeWithInspectAsFollowerCandidateAndLeader) {
  Cluster c(3, 1);
  for (const auto& n : c.nodes) ExpectStatusFieldsAgreeWithInspect(*n);  // no leader yet
  c.Step(1, Timer(TimerName::kElection));
  ASSERT_EQ(c.Field(1, "role"), "candidate");  // its prepare not yet delivered
  ExpectStatusFieldsAgreeWithInspect(*c.nodes[1]);
  c.DeliverAll();
  ASSERT_EQ(c.Field(1, "role"), "leader");
  for (int i = 1; i <= 40; i++) c.Step(1, Client(7, i, "put k" + std::to_string(i) + " v" + std::to_string(i)));
  for (const auto& n : c.nodes) ExpectStatusFieldsAgreeWithInspect(*n);  // accepts in flight
  c.DeliverAll();
  c.Step(1, Timer(TimerName::kCommit));
  c.DeliverAll();
  for (const auto& n : c.nodes) ExpectStatusFieldsAgreeWithInspect(*n);
}

TEST(Node, StatusFieldsStayTheSameSizeWhileInspectGrowsWithTheLogAndStore) {
  Cluster c(3, 1);
  c.Step(0, Timer(TimerName::kElection));
  c.DeliverAll();
  ASSERT_EQ(c.Field(0, "role"), "leader");
  const std::string before = c.nodes[0]->StatusFields();
  // 2,000 distinct keys, executed everywhere and still in every log (no commit round trims).
  for (int i = 1; i <= 2000; i++) c.Step(0, Client(7, i, "put key" + std::to_string(i) + " value" + std::to_string(i)));
  c.DeliverAll();
  ASSERT_EQ(c.Field(0, "last_executed"), "2000");
  const std::string status = c.nodes[0]->StatusFields();
  const std::string inspect = c.nodes[0]->Inspect();
  EXPECT_LE(status.size(), before.size() + 8) << status;
  EXPECT_GT(inspect.size(), 100 * status.size())
      << "inspect " << inspect.size() << " chars, status fields " << status.size();
  ExpectStatusFieldsAgreeWithInspect(*c.nodes[0]);
}

TEST(Node, SameEventsSameBytes) {
  Cluster a(3, 11), b(3, 11);
  for (Cluster* c : {&a, &b}) {
    c->Step(2, Timer(TimerName::kElection));
    c->DeliverAll();
    for (int i = 1; i <= 20; i++) c->Step(2, Client(7, i, "put k" + std::to_string(i % 5) + " v"));
    c->DeliverAll();
    c->Step(2, Timer(TimerName::kCommit));
    c->DeliverAll();
  }
  EXPECT_EQ(a.log, b.log);
  for (uint64_t i = 0; i < 3; i++) EXPECT_EQ(a.nodes[i]->Inspect(), b.nodes[i]->Inspect());
}

}  // namespace
}  // namespace replicant
