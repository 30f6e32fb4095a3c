#include "status.h"

#include <cstdio>
#include <cstdlib>

namespace replicant {
namespace server {

namespace {

// FieldText returns the raw text of the first `"key":value` in json (value up to , or }).
std::string_view FieldText(std::string_view json, std::string_view key) {
  const std::string needle = "\"" + std::string(key) + "\":";
  const size_t at = json.find(needle);
  if (at == std::string_view::npos) return {};
  size_t start = at + needle.size();
  size_t end = start;
  while (end < json.size() && json[end] != ',' && json[end] != '}') end++;
  return json.substr(start, end - start);
}

uint64_t FieldUint(std::string_view json, std::string_view key) {
  const std::string text(FieldText(json, key));
  return text.empty() ? 0 : std::strtoull(text.c_str(), nullptr, 10);
}

}  // namespace

CoreView ReadCoreView(std::string_view json) {
  CoreView v;
  std::string_view role = FieldText(json, "role");
  if (role.size() >= 2 && role.front() == '"' && role.back() == '"') {
    v.role = std::string(role.substr(1, role.size() - 2));
  }
  std::string_view leader = FieldText(json, "leader");
  if (!leader.empty()) v.leader = std::string(leader);
  v.ballot = FieldUint(json, "ballot");
  v.elections = FieldUint(json, "elections");
  v.last_index = FieldUint(json, "last_index");
  v.last_executed = FieldUint(json, "last_executed");
  v.global_last_executed = FieldUint(json, "global_last_executed");
  v.replay_remaining = FieldUint(json, "replay_remaining");
  return v;
}

std::string GroupMean(uint64_t groups, uint64_t batches) {
  if (groups == 0) return "0.00";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", static_cast<double>(batches) / static_cast<double>(groups));
  return text;
}

std::string StatusLine(const CoreView& core, const DriverCounters& c, const std::string& wal_mean) {
  auto n = [](const std::atomic<uint64_t>& a) { return std::to_string(a.load(std::memory_order_relaxed)); };
  return "status {\"role\":\"" + core.role + "\",\"leader\":" + core.leader +
         ",\"ballot\":" + std::to_string(core.ballot) +
         ",\"elections\":" + std::to_string(core.elections) +
         ",\"last_index\":" + std::to_string(core.last_index) +
         ",\"last_executed\":" + std::to_string(core.last_executed) +
         ",\"global_last_executed\":" + std::to_string(core.global_last_executed) +
         ",\"replay_remaining\":" + std::to_string(core.replay_remaining) + ",\"clients\":" + n(c.clients) +
         ",\"clients_refused\":" + n(c.clients_refused) + ",\"in_flight\":" + n(c.in_flight) +
         ",\"shed_retries\":" + n(c.shed_retries) + ",\"reads_paused\":" + n(c.reads_paused) +
         ",\"peer_queue_bytes\":" + n(c.peer_queue_bytes) +
         ",\"dropped_sends\":" + n(c.dropped_sends) +
         ",\"garbage_frames\":" + n(c.garbage_frames) +
         ",\"timer_late_max_ms\":" + std::to_string(c.timer_late_max_us.load(std::memory_order_relaxed) / 1000) +
         ",\"wal_groups\":" + n(c.wal_groups) + ",\"wal_batches\":" + n(c.wal_batches) +
         ",\"wal_group_mean\":" + wal_mean + ",\"malloc_trims\":" + n(c.malloc_trims) +
         ",\"malloc_trim_cpu_us\":" + n(c.malloc_trim_cpu_us) + "}";
}

}  // namespace server
}  // namespace replicant
