// The WebAssembly build of the C++ core: plain C exports over linear memory, wrapped by
// engines/loader/cpp-wasm.ts. The loader makes one module instance per node (its own linear
// memory, like a process), but the exports take a handle so that an instance could also hold
// several nodes.
//
// Strings cross the boundary as bytes: the caller asks rc_input(n) for an n-byte buffer,
// writes the input there and calls the function; results are left in one output buffer whose
// address rc_output() returns and whose length the function returns (-1: unknown handle).
// rc_create returns the new handle (> 0), or minus the length of the error message it left in
// the output buffer.
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "alloc_stats.h"
#include "codec.h"
#include "node.h"

namespace {

std::map<int, std::unique_ptr<replicant::Node>>& Nodes() {
  static auto* nodes = new std::map<int, std::unique_ptr<replicant::Node>>();
  return *nodes;
}

int g_next_handle = 1;
// Input comes through a malloc'ed scratch buffer: it is the driver's, not the core's, so it
// stays out of the operator new counts that stats() reports.
char* g_input = nullptr;
size_t g_input_cap = 0;

std::string& Output() {
  static auto* out = new std::string();
  return *out;
}

replicant::Node* Find(int handle) {
  auto it = Nodes().find(handle);
  return it == Nodes().end() ? nullptr : it->second.get();
}

int SetOutput(std::string s) {
  Output() = std::move(s);
  return static_cast<int>(Output().size());
}

// Steps the node on the input buffer's first `length` bytes; the effects go to the output.
int StepInput(int handle, int length, void (replicant::Node::*step)(std::string_view, std::string*)) {
  replicant::Node* node = Find(handle);
  if (node == nullptr) return -1;
  std::string& out = Output();
  out.clear();
  (node->*step)(std::string_view(g_input, static_cast<size_t>(length)), &out);
  return static_cast<int>(out.size());
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE char* rc_input(int length) {
  size_t need = length > 0 ? static_cast<size_t>(length) : 1;
  if (need > g_input_cap) {
    size_t cap = g_input_cap == 0 ? 4096 : g_input_cap;
    while (cap < need) cap *= 2;
    char* grown = static_cast<char*>(std::realloc(g_input, cap));
    if (grown == nullptr) return nullptr;
    g_input = grown;
    g_input_cap = cap;
  }
  return g_input;
}

EMSCRIPTEN_KEEPALIVE const char* rc_output() { return Output().data(); }

EMSCRIPTEN_KEEPALIVE int rc_create(int length) {
  replicant::Config cfg;
  std::string err = replicant::DecodeConfig(std::string_view(g_input, static_cast<size_t>(length)), &cfg);
  if (!err.empty()) {
    return -SetOutput(std::move(err));
  }
  const int handle = g_next_handle++;
  Nodes()[handle] = std::make_unique<replicant::Node>(cfg);
  Output().clear();
  return handle;
}

EMSCRIPTEN_KEEPALIVE int rc_step(int handle, int length) { return StepInput(handle, length, &replicant::Node::StepJson); }

// rc_step in the binary encoding (docs/protocol.md, "Binary step").
EMSCRIPTEN_KEEPALIVE int rc_step_binary(int handle, int length) {
  return StepInput(handle, length, &replicant::Node::StepBinary);
}

// Several binary events for one node in one call (docs/protocol.md, "Batch step"); -2, with
// nothing stepped, on bad framing.
EMSCRIPTEN_KEEPALIVE int rc_step_batch(int handle, int length) {
  replicant::Node* node = Find(handle);
  if (node == nullptr) return -1;
  std::string& out = Output();
  out.clear();
  if (!node->StepBatch(std::string_view(g_input, static_cast<size_t>(length)), &out)) return -2;
  return static_cast<int>(out.size());
}

EMSCRIPTEN_KEEPALIVE int rc_inspect(int handle) {
  replicant::Node* node = Find(handle);
  if (node == nullptr) return -1;
  return SetOutput(node->Inspect());
}

EMSCRIPTEN_KEEPALIVE int rc_stats(int handle) {
  if (Find(handle) == nullptr) return -1;
  return SetOutput(replicant::runtime::StatsJson());
}

EMSCRIPTEN_KEEPALIVE void rc_destroy(int handle) { Nodes().erase(handle); }

}  // extern "C"
