#include "wal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "codec.h"

namespace replicant {
namespace server {

namespace {

uint32_t ReadLe32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint32_t>(u[0]) | static_cast<uint32_t>(u[1]) << 8 |
         static_cast<uint32_t>(u[2]) << 16 | static_cast<uint32_t>(u[3]) << 24;
}

void AppendLe32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; i++) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::string Errno() { return std::strerror(errno); }

constexpr std::string_view kCheckpointPrefix = "{\"kind\":\"checkpoint\",";

bool IsCheckpoint(const std::string& record) { return record.compare(0, kCheckpointPrefix.size(), kCheckpointPrefix) == 0; }

// ReadAll reads the whole of fd into *data. Returns "" or the error.
std::string ReadAll(int fd, const std::string& path, std::string* data) {
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return path + ": " + Errno();
    if (n == 0) return "";
    data->append(chunk, static_cast<size_t>(n));
  }
}

// WriteAll writes data to fd. Returns "" or the error.
std::string WriteAll(int fd, const std::string& path, const std::string& data) {
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = write(fd, data.data() + off, data.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return path + ": " + Errno();
    off += static_cast<size_t>(n);
  }
  return "";
}

}  // namespace

std::string ParseFsyncPolicy(std::string_view text, FsyncPolicy* out) {
  if (text == "always") {
    *out = FsyncPolicy::kAlways;
  } else if (text == "interval") {
    *out = FsyncPolicy::kInterval;
  } else if (text == "never") {
    *out = FsyncPolicy::kNever;
  } else {
    return "--fsync must be always, interval or never, not \"" + std::string(text) + "\"";
  }
  return "";
}

uint32_t Crc32c(std::string_view data) {
  static const auto* table = [] {
    auto* t = new uint32_t[256];
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t c = i;
      for (int k = 0; k < 8; k++) c = (c & 1) != 0 ? 0x82f63b78u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t c = ~0u;
  for (unsigned char b : data) c = table[(c ^ b) & 0xff] ^ (c >> 8);
  return ~c;
}

void AppendFrame(std::string* out, std::string_view payload) {
  AppendLe32(out, static_cast<uint32_t>(payload.size()));
  AppendLe32(out, Crc32c(payload));
  out->append(payload.data(), payload.size());
}

std::string ReadFrames(const std::string& path, std::string_view data, WalReadResult* out) {
  out->records.clear();
  out->warning.clear();
  const uint64_t size = data.size();
  uint64_t off = 0;
  auto torn = [&](const std::string& what) {
    out->end = off;
    out->warning = path + ": torn tail at offset " + std::to_string(off) + " (" + what + ") truncated";
    return std::string();
  };
  while (off < size) {
    if (size - off < kWalFrameHeader) {
      return torn(std::to_string(size - off) + " bytes of a frame header");
    }
    const uint64_t n = ReadLe32(data.data() + off);
    const uint32_t sum = ReadLe32(data.data() + off + 4);
    if (n > kWalMaxRecord) {
      if (off + kWalFrameHeader + n >= size) return torn("a frame length of " + std::to_string(n));
      out->records.clear();
      return path + ": corrupt record at offset " + std::to_string(off) + ": length " + std::to_string(n);
    }
    if (off + kWalFrameHeader + n > size) {
      return torn("a frame of " + std::to_string(n) + " bytes, " +
                  std::to_string(size - off - kWalFrameHeader) + " written");
    }
    const std::string_view payload = data.substr(off + kWalFrameHeader, n);
    if (Crc32c(payload) != sum) {
      if (off + kWalFrameHeader + n == size) return torn("the last frame's checksum fails");
      out->records.clear();
      return path + ": corrupt record at offset " + std::to_string(off) + ": checksum mismatch with " +
             std::to_string(size - off - kWalFrameHeader - n) + " bytes after it; refusing to start";
    }
    out->records.emplace_back(payload);
    off += kWalFrameHeader + n;
  }
  out->end = off;
  return "";
}

std::string ReadSnapshot(const std::string& path, std::string_view data, std::vector<std::string>* out) {
  WalReadResult r;
  std::string err = ReadFrames(path, data, &r);
  if (!err.empty()) return "corrupt snapshot: " + err;
  if (!r.warning.empty()) {
    return "corrupt snapshot: " + path + ": a frame cut short or failing its checksum at offset " +
           std::to_string(r.end) + "; refusing to start";
  }
  if (r.records.empty() || !IsCheckpoint(r.records[0])) {
    return "corrupt snapshot: " + path + ": does not start with a checkpoint record; refusing to start";
  }
  *out = std::move(r.records);
  return "";
}

void FromLastCheckpoint(std::vector<std::string>* records) {
  for (size_t i = records->size(); i-- > 0;) {
    if (IsCheckpoint((*records)[i])) {
      records->erase(records->begin(), records->begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
}

std::string Wal::Open(const std::string& dir, FsyncPolicy policy, std::unique_ptr<Wal>* out,
                      WalReadResult* held) {
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) return "data dir " + dir + ": " + Errno();
  if (!S_ISDIR(st.st_mode)) return "data dir " + dir + " is not a directory";
  // The snapshot first: a temp file is a compaction a crash interrupted before its rename.
  const std::string snapshot_path = dir + "/" + kWalSnapshotFile;
  unlink((snapshot_path + ".tmp").c_str());
  std::vector<std::string> snapshot;
  const int sfd = open(snapshot_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (sfd < 0 && errno != ENOENT) return snapshot_path + ": " + Errno();
  if (sfd >= 0) {
    std::string data;
    std::string err = ReadAll(sfd, snapshot_path, &data);
    close(sfd);
    if (err.empty()) err = ReadSnapshot(snapshot_path, data, &snapshot);
    if (!err.empty()) return err;
  }
  const std::string path = dir + "/" + kWalFile;
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return "data dir " + dir + ": cannot open the write-ahead log: " + Errno();
  std::string data;
  std::string err = ReadAll(fd, path, &data);
  if (err.empty()) err = ReadFrames(path, data, held);
  if (!err.empty()) {
    close(fd);
    return err;
  }
  if (held->end < data.size()) {
    if (ftruncate(fd, static_cast<off_t>(held->end)) != 0) {
      err = path + ": cannot truncate the torn tail at offset " + std::to_string(held->end) + ": " + Errno();
      close(fd);
      return err;
    }
    if (fsync(fd) != 0) {
      err = path + ": " + Errno();
      close(fd);
      return err;
    }
  }
  if (lseek(fd, static_cast<off_t>(held->end), SEEK_SET) < 0) {
    err = path + ": " + Errno();
    close(fd);
    return err;
  }
  held->records.insert(held->records.begin(), std::make_move_iterator(snapshot.begin()),
                       std::make_move_iterator(snapshot.end()));
  FromLastCheckpoint(&held->records);
  out->reset(new Wal(dir, path, fd, policy));
  return "";
}

Wal::Wal(std::string dir, std::string path, int fd, FsyncPolicy policy)
    : dir_(std::move(dir)), path_(std::move(path)), fd_(fd), policy_(policy) {
  if (policy_ == FsyncPolicy::kInterval) flusher_ = std::thread(&Wal::FlushLoop, this);
}

Wal::~Wal() {
  stop_.store(true);
  if (flusher_.joinable()) flusher_.join();
  fsync(fd_);
  close(fd_);
}

void Wal::FlushLoop() {
  while (!stop_.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(kWalSyncIntervalMs));
    if (dirty_.exchange(false)) fdatasync(fd_);
  }
}

std::string Wal::Append(const std::vector<Record>& records) {
  buf_.clear();
  std::string payload;
  for (const Record& r : records) {
    payload.clear();
    AppendRecord(payload, r);
    AppendFrame(&buf_, payload);
  }
  const bool checkpoint = !records.empty() && records[0].kind == RecordKind::kCheckpoint;
  return AppendGroup(buf_, checkpoint ? &buf_ : nullptr);
}

std::string Wal::AppendGroup(const std::string& frames, const std::string* checkpoint) {
  std::string err = Write(frames);
  if (err.empty() && checkpoint != nullptr) err = Compact(*checkpoint);
  return err;
}

uint64_t Wal::Size() const {
  const off_t off = lseek(fd_, 0, SEEK_CUR);
  return off < 0 ? 0 : static_cast<uint64_t>(off);
}

// Compact writes a checkpoint batch (already in the log) as the snapshot file, atomically, then
// empties the log: every record in it is superseded.
std::string Wal::Compact(const std::string& frames) {
  const std::string path = dir_ + "/" + kWalSnapshotFile;
  const std::string tmp = path + ".tmp";
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return tmp + ": " + Errno();
  std::string err = WriteAll(fd, tmp, frames);
  if (err.empty() && fsync(fd) != 0) err = tmp + ": fsync: " + Errno();
  close(fd);
  if (!err.empty()) return err;
  if (rename(tmp.c_str(), path.c_str()) != 0) return path + ": " + Errno();
  const int dfd = open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return "data dir " + dir_ + ": " + Errno();
  const bool synced = fsync(dfd) == 0;
  close(dfd);
  if (!synced) return "data dir " + dir_ + ": fsync: " + Errno();
  if (ftruncate(fd_, 0) != 0) return path_ + ": truncate after a snapshot: " + Errno();
  if (lseek(fd_, 0, SEEK_SET) < 0) return path_ + ": " + Errno();
  if (policy_ != FsyncPolicy::kNever && fdatasync(fd_) != 0) return path_ + ": fsync: " + Errno();
  return "";
}

std::string Wal::Write(const std::string& frames) {
  std::string err = WriteAll(fd_, path_, frames);
  if (!err.empty()) return err;
  if (policy_ == FsyncPolicy::kAlways) {
    if (fdatasync(fd_) != 0) return path_ + ": fsync: " + Errno();
  } else if (policy_ == FsyncPolicy::kInterval) {
    dirty_.store(true);
  }
  return "";
}

}  // namespace server
}  // namespace replicant
