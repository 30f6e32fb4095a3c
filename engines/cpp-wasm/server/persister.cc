#include "persister.h"

#include <utility>

#include "codec.h"
#include "wal.h"

namespace replicant {
namespace server {

Persister::Persister(WriteGroup write, Done done, Failed failed)
    : write_(std::move(write)), done_(std::move(done)), failed_(std::move(failed)) {
  thread_ = std::thread(&Persister::Run, this);
}

Persister::~Persister() { Stop(); }

void Persister::Stop() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stopping_ = true;
  }
  ready_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void Persister::Queue(uint64_t persist_id, const std::vector<Record>& records) {
  Batch b;
  b.id = persist_id;
  b.checkpoint = !records.empty() && records[0].kind == RecordKind::kCheckpoint;
  std::string payload;
  for (const Record& r : records) {
    payload.clear();
    AppendRecord(payload, r);
    AppendFrame(&b.frames, payload);
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    queue_.push_back(std::move(b));
  }
  ready_.notify_one();
}

void Persister::Run() {
  std::string frames;
  for (;;) {
    std::vector<Batch> group;
    {
      std::unique_lock<std::mutex> lk(mu_);
      ready_.wait(lk, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      // Every batch queued, or those up to and including the first checkpoint: the log is
      // compacted right after a checkpoint is written, so a batch after it goes into the emptied log.
      while (!queue_.empty()) {
        group.push_back(std::move(queue_.front()));
        queue_.pop_front();
        if (group.back().checkpoint) break;
      }
    }
    frames.clear();
    for (const Batch& b : group) frames += b.frames;
    const Batch& last = group.back();
    const std::string err = write_(frames, last.checkpoint ? &last.frames : nullptr);
    if (!err.empty()) {
      failed_(err);
      return;
    }
    done_(last.id, group.size());
  }
}

}  // namespace server
}  // namespace replicant
