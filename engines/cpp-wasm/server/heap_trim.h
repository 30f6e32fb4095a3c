// Hands the heap's free pages back to the kernel on a timer (glibc's malloc_trim), so the
// memory a burst took and freed leaves the node's RSS (docs/reliability.md, issue 20).
#pragma once

#include <chrono>

#include "status.h"

namespace replicant {
namespace server {

// RunHeapTrim calls malloc_trim(0) every `interval`, forever, counting each call and the CPU
// time it took in `counters` (the status line's malloc_trims and malloc_trim_cpu_us). Run it
// on a thread of its own. Without glibc (no malloc_trim) it returns at once.
void RunHeapTrim(std::chrono::milliseconds interval, DriverCounters* counters);

}  // namespace server
}  // namespace replicant
