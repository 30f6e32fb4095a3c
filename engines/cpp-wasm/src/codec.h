// Events, messages and effects <-> canonical JSON (docs/protocol.md, "Canonical encoding").
// Mirrors engines/go-wasm/core/codec.go.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config.h"
#include "messages.h"

namespace replicant {

// DecodeMessage reads one peer message (a line of the native peer protocol).
bool DecodeMessage(std::string_view in, Message* out);
// DecodeEvent reads one event.
bool DecodeEvent(std::string_view in, Event* out);
// DecodeRecord reads one durable record (a write-ahead log frame's payload).
bool DecodeRecord(std::string_view in, Record* out);
// DecodeConfig reads a node configuration; unknown fields and out-of-range values are
// errors. Returns an empty string on success, else the message.
std::string DecodeConfig(std::string_view in, Config* out);

// AppendMessage writes m in canonical form.
void AppendMessage(std::string& b, const Message& m);
// AppendEffect writes e in canonical form (without the line feed).
void AppendEffect(std::string& b, const Effect& e);
// AppendRecord writes a durable record in canonical form.
void AppendRecord(std::string& b, const Record& r);
// EncodeEffects appends effects to b as JSON Lines.
void EncodeEffects(std::string& b, const std::vector<Effect>& effects);

// Helpers shared with Inspect.
void AppendCommand(std::string& b, const Command& c);
void AppendInstance(std::string& b, const Instance& inst);
void AppendKVEntries(std::string& b, const KVEntries& kv);

}  // namespace replicant
