// libFuzzer target: the write-ahead log reader (server/wal.cc's ReadFrames) and the record
// decoder and restart behind it: whatever a wal.log holds, the server gets records or a clear
// error, never a crash. The first input byte picks the shape, as in the other engines' WAL
// targets: even, the rest is the file as it is (torn tails, corrupt middles); odd, the rest is
// records separated by newlines, each framed with a good checksum, so the mutations reach the
// record decoder and the core's restart instead of dying at the checksum.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "codec.h"
#include "json.h"
#include "node.h"
#include "wal.h"

namespace {

[[noreturn]] void Fail() { std::abort(); }

std::string WalFile(std::string_view in) {
  if (in.empty()) return {};
  if (static_cast<uint8_t>(in[0]) % 2 == 0) return std::string(in.substr(1));
  std::string out;
  std::string_view rest = in.substr(1);
  while (true) {
    const size_t nl = rest.find('\n');
    replicant::server::AppendFrame(&out, rest.substr(0, nl));
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  return out;
}

uint64_t BadEvents(const replicant::Node& node) {
  replicant::JsonValue v;
  if (!replicant::ParseJson(node.Inspect(), &v)) Fail();
  return v.Find("counters")->Find("bad_events")->n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string file = WalFile(std::string_view(reinterpret_cast<const char*>(data), size));
  replicant::server::WalReadResult read;
  if (!replicant::server::ReadFrames("wal.log", file, &read).empty()) return 0;  // a named error
  if (read.end > file.size()) Fail();
  std::vector<replicant::Record> records;
  // The codec leaves content rules to the protocol: a snapshot key with a control character
  // decodes, and the canonical writer (printable ASCII only) cannot say it. A restart with such
  // a record must be refused (fuzz/corpus/wal_records/snapshot_control_char_key).
  bool unsayable = false;
  for (const std::string& raw : read.records) {
    replicant::Record r;
    if (!replicant::DecodeRecord(raw, &r)) return 0;  // the server refuses to start, naming it
    std::string once;
    replicant::AppendRecord(once, r);
    replicant::Record again;
    if (!replicant::DecodeRecord(once, &again)) {
      unsayable = true;
    } else {
      std::string twice;
      replicant::AppendRecord(twice, again);
      if (once != twice) Fail();  // a record does not re-encode to itself
    }
    records.push_back(std::move(r));
  }
  replicant::Config c;
  c.id = 0;
  c.num_peers = 3;
  c.durability = replicant::Durability::kLog;
  replicant::Node node(c);
  const uint64_t before = BadEvents(node);
  replicant::Event ev;
  ev.type = replicant::EventType::kRestart;
  ev.records = std::move(records);
  node.Step(ev);
  if (unsayable && BadEvents(node) <= before) Fail();
  node.Inspect();
  return 0;
}
