// SplitMix64, the only source of randomness in the core: every engine draws the same numbers
// from the same seed. Mirrors engines/go-wasm/core/prng.go.
#pragma once

#include <cstdint>

namespace replicant {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next();

 private:
  uint64_t state_;
};

}  // namespace replicant
