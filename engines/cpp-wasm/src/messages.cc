#include "messages.h"

namespace replicant {

namespace {
constexpr const char* kMessageTypeNames[] = {
    "prepare_request", "prepare_response", "accept_request",
    "accept_response", "commit_request",   "commit_response", "snapshot",
    "gc_request",      "gc_grant",         "gc_release",     "handoff",
};
constexpr const char* kTimerNames[] = {"election", "commit"};
constexpr const char* kTraceKindNames[] = {
    "follower", "leader", "election", "election_abandoned", "replay",     "instance",
    "execute",  "stale",  "accept_timeout", "trim",         "commit_gle", "violation", "step_down", "repair", "recovered",
    "fill", "snapshot_sent", "snapshot_installed",
    "gc_ask", "gc_grant", "gc_queued", "gc_release", "gc_grant_expired", "handoff", "gc_timeout", "gc_done",
};
}  // namespace

const char* ToString(MessageType t) { return kMessageTypeNames[static_cast<int>(t)]; }
const char* ToString(TimerName t) { return kTimerNames[static_cast<int>(t)]; }
const char* ToString(TraceKind k) { return kTraceKindNames[static_cast<int>(k)]; }

}  // namespace replicant
