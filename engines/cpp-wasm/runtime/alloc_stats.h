// Allocation figures of the C++ runtime, reported by stats(). Not part of the byte-identical
// contract. alloc_counting.cc replaces the global operator new/delete with counting versions;
// a build that leaves it out (the sanitizer build) links alloc_counting_off.cc instead and
// reports the figures as not observable.
#pragma once

#include <cstdint>
#include <string>

namespace replicant {
namespace runtime {

struct AllocCounts {
  bool counting = false;         // false: figures are not observable in this build
  uint64_t alloc_bytes_total = 0;  // bytes requested from operator new, ever
  uint64_t allocs_total = 0;       // calls of operator new (all forms)
  uint64_t frees_total = 0;        // calls of operator delete on non-null pointers
  uint64_t freed_bytes_total = 0;  // bytes returned through operator delete
};

AllocCounts ReadAllocCounts();

// StatsJson returns the runtime figures as one JSON object: runtime, compiler, allocation
// counts (total and live) and, where available, the allocator's own heap figures.
std::string StatsJson();

}  // namespace runtime
}  // namespace replicant
