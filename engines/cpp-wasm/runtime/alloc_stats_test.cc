#include "alloc_stats.h"

#include <gtest/gtest.h>

#include <memory>
#include <new>
#include <string>

#include "json.h"

namespace replicant {
namespace runtime {
namespace {

struct alignas(64) OverAligned {
  char bytes[64];
};

TEST(AllocStats, StatsJsonIsAnObjectNamingTheRuntime) {
  JsonValue v;
  ASSERT_TRUE(ParseJson(StatsJson(), &v)) << StatsJson();
  ASSERT_NE(v.Find("runtime"), nullptr);
  EXPECT_EQ(v.Find("runtime")->s, "cpp");
  EXPECT_NE(v.Find("alloc_bytes_total"), nullptr);
  EXPECT_NE(v.Find("allocs_total"), nullptr);
}

#if !defined(REPLICANT_NO_ALLOC_COUNTING)
TEST(AllocStats, CountsEveryFormOfNewAndDelete) {
  const AllocCounts before = ReadAllocCounts();
  ASSERT_TRUE(before.counting);
  {
    auto one = std::make_unique<std::string>(1000, 'x');  // the object and its buffer
    auto many = std::make_unique<char[]>(333);
    auto aligned = std::make_unique<OverAligned>();
    void* nothrow = ::operator new(77, std::nothrow);
    ::operator delete(nothrow);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned.get()) % 64, 0u);
  }
  const AllocCounts after = ReadAllocCounts();
  EXPECT_GE(after.allocs_total - before.allocs_total, 5u);
  EXPECT_GE(after.alloc_bytes_total - before.alloc_bytes_total, 1000u + 333u + 64u + 77u);
  // Everything made in the block was freed, in bytes as in counts.
  EXPECT_EQ(after.allocs_total - before.allocs_total, after.frees_total - before.frees_total);
  EXPECT_EQ(after.alloc_bytes_total - before.alloc_bytes_total,
            after.freed_bytes_total - before.freed_bytes_total);
}

TEST(AllocStats, LiveBytesFollowOwnership) {
  const AllocCounts before = ReadAllocCounts();
  auto held = std::make_unique<char[]>(4096);
  const AllocCounts during = ReadAllocCounts();
  EXPECT_EQ((during.alloc_bytes_total - during.freed_bytes_total) -
                (before.alloc_bytes_total - before.freed_bytes_total),
            4096u);
  held.reset();
  const AllocCounts after = ReadAllocCounts();
  EXPECT_EQ(after.alloc_bytes_total - after.freed_bytes_total,
            before.alloc_bytes_total - before.freed_bytes_total);
}
#else
TEST(AllocStats, SanitizerBuildSaysCountsAreNotObservable) {
  EXPECT_FALSE(ReadAllocCounts().counting);
  EXPECT_NE(StatsJson().find("\"alloc_bytes_total\":null"), std::string::npos);
}
#endif

}  // namespace
}  // namespace runtime
}  // namespace replicant
