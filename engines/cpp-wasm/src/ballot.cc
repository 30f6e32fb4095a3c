#include "ballot.h"

namespace replicant {

std::string FormatBallot(uint64_t ballot) {
  return std::to_string(ballot >> 8) + "." + std::to_string(LeaderOf(ballot));
}

}  // namespace replicant
