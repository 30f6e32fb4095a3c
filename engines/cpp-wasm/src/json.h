// A strict JSON reader (RFC 8259 plus the rules of docs/protocol.md: non-negative integers
// below 2^53 only, no duplicate keys, nesting at most kMaxJsonDepth) and helpers for the
// canonical writer. Hand-written so that all four engines accept and reject exactly the same
// inputs, and so that the wasm build stays small. Mirrors engines/go-wasm/core/json.go.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace replicant {

constexpr int kMaxJsonDepth = 16;
constexpr uint64_t kMaxSafeInt = (uint64_t{1} << 53) - 1;

enum class JsonKind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

struct JsonField;

struct JsonValue {
  JsonKind kind = JsonKind::kNull;
  bool b = false;
  uint64_t n = 0;
  std::string s;
  std::vector<JsonValue> items;   // kArray
  std::vector<JsonField> fields;  // kObject, in the order read

  // Find returns the field called name, or nullptr.
  const JsonValue* Find(std::string_view name) const;
};

struct JsonField {
  std::string name;
  JsonValue value;
};

// ParseJson reads exactly one JSON value (surrounded by optional whitespace) into *out.
// It returns false for anything the strict rules reject.
bool ParseJson(std::string_view in, JsonValue* out);

// --- the canonical writer ---

void AppendUint(std::string& b, uint64_t n);
// AppendJsonString writes s quoted; only '"' and '\' are escaped (all our strings are
// printable ASCII).
void AppendJsonString(std::string& b, std::string_view s);
// AppendField writes `"name":` preceded by a comma unless it is the first field.
void AppendField(std::string& b, std::string_view name, bool first);
void AppendUintField(std::string& b, std::string_view name, uint64_t n, bool first);
void AppendStringField(std::string& b, std::string_view name, std::string_view s, bool first);
void AppendBoolField(std::string& b, std::string_view name, bool v, bool first);

}  // namespace replicant
