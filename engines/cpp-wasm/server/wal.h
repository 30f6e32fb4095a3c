// The write-ahead log of a node in durability log (docs/protocol.md, "Write-ahead log"), frame
// for frame the Go server's (engines/go-wasm/server/wal.go), so a data dir written by one
// server reads in every other: each record of a persist effect is a frame of its length (4
// bytes, little endian), its CRC-32C (4 bytes, little endian) and its canonical JSON.
//
// Compaction (docs/protocol.md, "Compaction"), as the Go server: a persist whose first record is
// a checkpoint is appended, then written as DIR/snapshot (temp file, fsync, rename, fsync of
// the directory) and the log truncated; a restart reads the snapshot, then the log, from the
// last checkpoint in the two, so a crash between any two steps loses nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "durability.h"

namespace replicant {
namespace server {

// FsyncPolicy says when appended frames are forced to the device.
enum class FsyncPolicy : uint8_t {
  kAlways,    // before the core hears the persist is done: one fsync per group of batches (persister.h)
  kInterval,  // by a background flush every kWalSyncIntervalMs; a machine crash can lose it
  kNever,     // left to the kernel
};

constexpr int kWalSyncIntervalMs = 10;
constexpr size_t kWalFrameHeader = 8;
// Bounds one record (a snapshot of the whole store is the largest).
constexpr uint64_t kWalMaxRecord = uint64_t{1} << 30;

// ParseFsyncPolicy reads --fsync. Returns "" or what is wrong.
std::string ParseFsyncPolicy(std::string_view text, FsyncPolicy* out);

// Crc32c is CRC-32C (Castagnoli, reflected polynomial 0x82f63b78).
uint32_t Crc32c(std::string_view data);

// AppendFrame writes one record's frame to *out.
void AppendFrame(std::string* out, std::string_view payload);

// WalReadResult is what a log held when it was opened.
struct WalReadResult {
  std::vector<std::string> records;  // each record's canonical JSON, in the order written
  uint64_t end = 0;      // where the good frames end (a torn tail after it is cut away)
  std::string warning;   // set when a torn tail follows the good frames
};

// ReadFrames parses a log's bytes (path only names it in messages). A frame cut short at the
// end, or a last frame whose checksum fails, is a torn tail: a warning, not an error. A frame
// whose checksum fails with more bytes after it is an error naming the file and offset.
// Returns "" or the error. Pure: the WAL fuzz target and the tests call it directly.
std::string ReadFrames(const std::string& path, std::string_view data, WalReadResult* out);

// ReadSnapshot parses a snapshot file's bytes (path only names it in messages). It was renamed
// into place whole, so any damage (a frame cut short or failing its checksum, a first record
// that is not a checkpoint) is an error naming the file: "corrupt snapshot: …". Pure.
std::string ReadSnapshot(const std::string& path, std::string_view data, std::vector<std::string>* out);

// FromLastCheckpoint drops every record before the last checkpoint: it supersedes them.
void FromLastCheckpoint(std::vector<std::string>* records);

constexpr const char* kWalFile = "wal.log";
constexpr const char* kWalSnapshotFile = "snapshot";

// Wal is one node's log file, DIR/wal.log, open for appending.
class Wal {
 public:
  // Open opens (creating it if need be) DIR/wal.log and reads what it and DIR/snapshot hold
  // (from the last checkpoint), truncating a torn tail. A missing or unusable directory, a
  // corrupt frame in the middle or a corrupt snapshot is an error. Returns "" or the error.
  static std::string Open(const std::string& dir, FsyncPolicy policy, std::unique_ptr<Wal>* out,
                          WalReadResult* held);
  ~Wal();
  Wal(const Wal&) = delete;
  Wal& operator=(const Wal&) = delete;

  // Append writes one persist effect's records as frames, in one write, synced if the policy
  // says so. Returns "" or the error.
  // A batch that starts with a checkpoint then compacts the log.
  std::string Append(const std::vector<Record>& records);
  // AppendGroup writes frames (one or more persist effects' frames, in the order issued) in one
  // write, synced once if the policy says so: a group commit (persister.h). checkpoint, when not
  // null, is the frames of the group's last batch, a checkpoint: the log is then compacted to it.
  std::string AppendGroup(const std::string& frames, const std::string* checkpoint);
  const std::string& path() const { return path_; }
  // Size is the log file's length in bytes (the snapshot not counted).
  uint64_t Size() const;

 private:
  Wal(std::string dir, std::string path, int fd, FsyncPolicy policy);
  void FlushLoop();
  std::string Write(const std::string& frames);
  std::string Compact(const std::string& frames);

  const std::string dir_;
  const std::string path_;
  const int fd_;
  const FsyncPolicy policy_;
  std::string buf_;
  std::atomic<bool> dirty_{false};
  std::atomic<bool> stop_{false};
  std::thread flusher_;
};

}  // namespace server
}  // namespace replicant
