#include "persister.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "codec.h"
#include "node.h"
#include "status.h"
#include "wal.h"

namespace replicant {
namespace server {
namespace {

// A one-node cluster in durability log driven as the server drives it (persist effects to the
// persister, `persisted` back from its thread), with a write that can be held at a gate.
class GatedDriver {
 public:
  GatedDriver() : node_(MakeConfig()) {
    persister_ = std::make_unique<Persister>(
        [this](const std::string& frames, const std::string*) { return Write(frames); },
        [this](uint64_t id, size_t batches) {
          counters_.NoteWalGroup(batches);
          Event done;
          done.type = EventType::kPersisted;
          done.persist_id = id;
          Step(done);
        },
        [](const std::string& err) { ADD_FAILURE() << err; });
  }
  ~GatedDriver() {
    Open();
    persister_->Stop();
  }

  void Step(const Event& ev) {
    std::lock_guard<std::mutex> lk(mu_);
    for (const Effect& e : node_.Step(ev)) {
      if (e.type == EffectType::kPersist) persister_->Queue(e.persist_id, e.records);
      if (e.type == EffectType::kReply) replies_.push_back(e.request_id);
    }
    changed_.notify_all();
  }
  void Put(uint64_t request_id) {
    Event ev;
    ev.type = EventType::kClient;
    ev.client_id = 1;
    ev.request_id = request_id;
    ev.line = "put k" + std::to_string(request_id) + " v";
    Step(ev);
  }
  void Shut() {
    std::lock_guard<std::mutex> lk(mu_);
    shut_ = true;
  }
  void Open() {
    std::lock_guard<std::mutex> lk(mu_);
    shut_ = false;
    changed_.notify_all();
  }
  // Wait waits (on state, up to 10 s) until pred holds, with mu_ held while it is checked.
  template <typename Pred>
  bool Wait(Pred pred) {
    std::unique_lock<std::mutex> lk(mu_);
    return changed_.wait_for(lk, std::chrono::seconds(10), [&] { return pred(); });
  }
  DriverCounters counters_;  // the status line's WAL counters, as the server keeps them
  std::vector<uint64_t> replies_;
  std::vector<size_t> group_records_;  // records per write, in order
  int held_ = 0;                       // writes now waiting at the shut gate

 private:
  static Config MakeConfig() {
    Config cfg;
    EXPECT_EQ(DecodeConfig(R"({"id":0,"num_peers":1,"seed":1,"durability":"log"})", &cfg), "");
    return cfg;
  }
  std::string Write(const std::string& frames) {
    WalReadResult parsed;
    EXPECT_EQ(ReadFrames("group", frames, &parsed), "");
    std::unique_lock<std::mutex> lk(mu_);
    group_records_.push_back(parsed.records.size());
    ++held_;
    changed_.notify_all();
    changed_.wait(lk, [this] { return !shut_; });
    --held_;
    return "";
  }

  std::mutex mu_;
  std::condition_variable changed_;
  bool shut_ = false;
  Node node_;
  std::unique_ptr<Persister> persister_;
};

// While a write is held: the core keeps stepping, no reply leaves, and the persists that
// queued meanwhile go out in one write afterwards (a group commit).
TEST(Persister, NothingLeavesBeforeItsWriteAndWaitingBatchesShareOne) {
  GatedDriver d;
  Event ev;
  d.Step(ev);  // start
  ev.type = EventType::kTimer;
  ev.timer = TimerName::kElection;
  d.Step(ev);
  d.Put(1);
  ASSERT_TRUE(d.Wait([&] { return d.replies_.size() == 1; }));

  d.Shut();
  d.Put(2);
  ASSERT_TRUE(d.Wait([&] { return d.held_ == 1; }));
  const size_t before = d.group_records_.size();
  for (uint64_t r = 3; r <= 6; ++r) d.Put(r);  // the core takes them while the write is held
  ASSERT_TRUE(d.Wait([&] { return d.held_ == 1; }));
  EXPECT_EQ(d.replies_.size(), 1u) << "a reply left while its write was held";
  d.Open();
  ASSERT_TRUE(d.Wait([&] { return d.replies_.size() == 6; }));
  ASSERT_TRUE(d.Wait([&] { return d.group_records_.size() > before; }));
  // puts 3..6 queued one persist each behind the held write: they share the next one
  EXPECT_GE(d.group_records_[before], 4u);
  // The status line's WAL counters: one per group written, and the batches they carried, more
  // than the groups (puts 3..6 shared a write).
  ASSERT_TRUE(d.Wait([&] { return d.counters_.wal_groups.load() == d.group_records_.size(); }));
  const uint64_t groups = d.counters_.wal_groups.load();
  const uint64_t batches = d.counters_.wal_batches.load();
  EXPECT_GE(batches, groups + 3);
  const std::string line = StatusLine(CoreView{}, d.counters_, GroupMean(groups, batches));
  // (the heap trim's counters follow the WAL's: status.cc)
  const std::string wal = ",\"wal_groups\":" + std::to_string(groups) + ",\"wal_batches\":" +
                          std::to_string(batches) + ",\"wal_group_mean\":" + GroupMean(groups, batches) + ",";
  EXPECT_NE(line.find(wal), std::string::npos) << line;
}

}  // namespace
}  // namespace server
}  // namespace replicant
