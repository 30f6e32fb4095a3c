// Events and effects <-> the binary step's encoding (docs/protocol.md, "Binary step"); the
// mirror of engines/loader/binary-codec.ts and the Rust core's binary_codec.rs. Only the
// per-operation events and effects have a binary form; everything else is canonical JSON
// behind tag 0 (codec.h reads and writes it).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "messages.h"

namespace replicant {

// DecodeBinaryEvent reads one event in the binary encoding; false on bytes it does not allow.
bool DecodeBinaryEvent(std::string_view in, Event* out);

// EncodeBinaryEffects appends effects to b in the binary encoding.
void EncodeBinaryEffects(std::string& b, const std::vector<Effect>& effects);

}  // namespace replicant
