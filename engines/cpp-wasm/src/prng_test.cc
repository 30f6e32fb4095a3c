#include "prng.h"

#include <gtest/gtest.h>

namespace replicant {
namespace {

// Reference values drawn from the Go core (engines/go-wasm/core/prng.go) with `go run`.
TEST(SplitMix64, SeedOneMatchesTheGoCore) {
  SplitMix64 p(1);
  EXPECT_EQ(p.Next(), 10451216379200822465ULL);
  EXPECT_EQ(p.Next(), 13757245211066428519ULL);
  EXPECT_EQ(p.Next(), 17911839290282890590ULL);
}

TEST(SplitMix64, SeedZeroAndLargestSeed) {
  SplitMix64 zero(0);
  EXPECT_EQ(zero.Next(), 16294208416658607535ULL);
  SplitMix64 largest((uint64_t{1} << 53) - 1);
  EXPECT_EQ(largest.Next(), 2646233860231550367ULL);
}

TEST(SplitMix64, SameSeedSameSequence) {
  SplitMix64 a(42), b(42), c(43);
  for (int i = 0; i < 100; i++) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    EXPECT_NE(x, c.Next());
  }
}

}  // namespace
}  // namespace replicant
