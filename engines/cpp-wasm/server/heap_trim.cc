#include "heap_trim.h"

#include <malloc.h>
#include <time.h>

#include <cstdint>
#include <thread>

namespace replicant {
namespace server {

namespace {

uint64_t ThreadCpuMicros() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<uint64_t>(t.tv_sec) * 1000000u + static_cast<uint64_t>(t.tv_nsec) / 1000u;
}

}  // namespace

void RunHeapTrim(std::chrono::milliseconds interval, DriverCounters* counters) {
#ifndef __GLIBC__
  (void)interval;
  (void)counters;
#else
  for (;;) {
    std::this_thread::sleep_for(interval);
    const uint64_t before = ThreadCpuMicros();
    // 0: keep no padding at the top. Besides the top of the heap, glibc gives back every whole
    // free page inside it, which is what a node holding a bounded log leaves behind a burst.
    malloc_trim(0);
    counters->malloc_trim_cpu_us.fetch_add(ThreadCpuMicros() - before, std::memory_order_relaxed);
    counters->malloc_trims.fetch_add(1, std::memory_order_relaxed);
  }
#endif
}

}  // namespace server
}  // namespace replicant
