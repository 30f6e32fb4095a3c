// GC mitigation modes (docs/protocol.md, "GC mitigation"). The node's part is in
// mitigation.cc. Mirrors engines/go-wasm/core/mitigation.go.
#pragma once

#include <cstdint>
#include <string_view>

namespace replicant {

enum class Mitigation : uint8_t {
  kNone,  // collect at once, the paper's behaviour
  kBlade,
  kMitmem,
  kBoth,
};

const char* ToString(Mitigation m);
bool ParseMitigation(std::string_view s, Mitigation* out);
inline bool Blade(Mitigation m) { return m == Mitigation::kBlade || m == Mitigation::kBoth; }
inline bool Mitmem(Mitigation m) { return m == Mitigation::kMitmem || m == Mitigation::kBoth; }

}  // namespace replicant
