// Ballot arithmetic (docs/protocol.md, "Ballots"). Mirrors engines/go-wasm/core/ballot.go.
//
// A ballot is a 64-bit number: the low 8 bits name the node that chose it, the rest is the
// round. Every ballot we produce stays below 2^53 so that JavaScript can read it exactly.
#pragma once

#include <cstdint>
#include <string>

namespace replicant {

// kNoLeader in a ballot's low byte means no node leads yet.
constexpr uint64_t kNoLeader = 0xf;
constexpr uint64_t kInitialBallot = kNoLeader;
constexpr uint64_t kRoundIncrement = 0x100;
constexpr uint64_t kIdBits = 0xff;
// kMaxNumPeers is 15: id 15 would read as kNoLeader.
constexpr uint64_t kMaxNumPeers = 15;

// LeaderOf is the id held in a ballot's low byte (kNoLeader for none).
constexpr uint64_t LeaderOf(uint64_t ballot) { return ballot & kIdBits; }

// NextBallot is the first ballot of the next round, owned by id.
constexpr uint64_t NextBallot(uint64_t ballot, uint64_t id) {
  return ((ballot + kRoundIncrement) & ~kIdBits) | id;
}

// FormatBallot renders a ballot for people as "round.leader" (0x201 -> "2.1").
std::string FormatBallot(uint64_t ballot);

}  // namespace replicant
