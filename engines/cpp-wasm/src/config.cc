#include "config.h"

#include "ballot.h"
#include "json.h"

namespace replicant {

std::string Validate(const Config& c) {
  if (c.num_peers < 1 || c.num_peers > kMaxNumPeers) {
    return "config: num_peers must be between 1 and 15";
  }
  if (c.id >= c.num_peers) return "config: id must be below num_peers";
  if (c.seed > kMaxSafeInt) return "config: seed must be below 2^53";
  if (c.commit_interval_us < 1000 || c.commit_interval_us > 60000000) {
    return "config: commit_interval_us must be between 1000 and 60000000";
  }
  if (c.accept_timeout_ticks < 1 || c.accept_timeout_ticks > 1000) {
    return "config: accept_timeout_ticks must be between 1 and 1000";
  }
  if (c.max_pending_accepts < 1 || c.max_pending_accepts > 1000000) {
    return "config: max_pending_accepts must be between 1 and 1000000";
  }
  if (c.repair_batch > 4096) return "config: repair_batch must be between 0 and 4096";
  if (c.election_batch > 4096) return "config: election_batch must be between 0 and 4096";
  if (c.log_bound > 1000000) return "config: log_bound must be between 0 and 1000000";
  if (c.log_bound > 0 && (c.repair_batch == 0 || c.election_batch == 0)) {
    return "config: log_bound needs repair_batch and election_batch";
  }
  if (c.snapshot_every > 1000000) return "config: snapshot_every must be between 0 and 1000000";
  // A node restarted from a checkpoint holds no slots at or below it: only the trim-point
  // guard of bounded elections keeps a candidate behind it from filling them with no-ops, and
  // only state transfer brings a follower behind it back (docs/protocol.md, Compaction).
  if (c.snapshot_every > 0 && (c.repair_batch == 0 || c.election_batch == 0)) {
    return "config: snapshot_every needs repair_batch and election_batch";
  }
  if (c.mitmem_deadline_us > 60000000) {
    return "config: mitmem_deadline_us must be between 0 and 60000000";
  }
  return "";
}

}  // namespace replicant
