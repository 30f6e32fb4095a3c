// The persister: a group commit for the write-ahead log (docs/protocol.md, "Write-ahead log"),
// as the Go server's (engines/go-wasm/server/persister.go). A step's persist effect only queues
// its frames (Queue, under the core lock); one thread takes every batch queued since its last
// write, writes them in one write and syncs once (by the fsync policy) with no core lock held,
// then reports the newest persist id done. Meanwhile the core keeps stepping, and what it holds
// for a persist (sends and replies) stays held until that report: N requests that arrive during
// one fsync share the next one instead of queueing N fsyncs behind the core lock.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "durability.h"

namespace replicant {
namespace server {

class Persister {
 public:
  // WriteGroup writes frames in one write and syncs them by policy; checkpoint, when not null,
  // is the frames of the group's last batch, a checkpoint, to compact the log to. Returns "" or
  // the error. Done hears the newest persist id written and how many batches the group carried
  // (the status line's WAL counters); Failed hears a write's error (the persister stops). Both run on the persister's thread with no lock of the persister held.
  using WriteGroup = std::function<std::string(const std::string& frames, const std::string* checkpoint)>;
  using Done = std::function<void(uint64_t persist_id, size_t batches)>;
  using Failed = std::function<void(const std::string& err)>;

  Persister(WriteGroup write, Done done, Failed failed);
  ~Persister();  // Stop
  Persister(const Persister&) = delete;
  Persister& operator=(const Persister&) = delete;

  // Queue encodes one persist effect's records as frames and queues them. Never blocks on a write.
  void Queue(uint64_t persist_id, const std::vector<Record>& records);
  // Stop ends the thread once a write in progress (and its Done) is over; what is still queued
  // was never reported done, so nothing that waits for it has left. Idempotent.
  void Stop();

 private:
  struct Batch {
    uint64_t id = 0;
    std::string frames;
    bool checkpoint = false;  // starts with a checkpoint: supersedes every record before it
  };
  void Run();

  const WriteGroup write_;
  const Done done_;
  const Failed failed_;
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<Batch> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace server
}  // namespace replicant
