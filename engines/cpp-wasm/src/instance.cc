#include "instance.h"

namespace replicant {

namespace {
constexpr const char* kInstanceStateNames[] = {"in_progress", "committed", "executed"};
}  // namespace

const char* ToString(InstanceState s) { return kInstanceStateNames[static_cast<int>(s)]; }

}  // namespace replicant
