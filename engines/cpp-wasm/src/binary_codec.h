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

// The batch step's framing (docs/protocol.md, "Batch step"). NextBatchFrame reads the frame
// at *pos into *frame and moves *pos past it; false when its length is not a valid integer or
// runs past the end. ValidBatchFraming: the whole input is frames. AppendBatchFrame writes one
// output frame (body's length, then body).
bool NextBatchFrame(std::string_view in, size_t* pos, std::string_view* frame);
bool ValidBatchFraming(std::string_view in);
void AppendBatchFrame(std::string& b, std::string_view body);

}  // namespace replicant
