// replicant-host drives C++ cores over stdin/stdout for the conformance harness, speaking the
// host protocol of engines/conformance/README.md: each request is a line
// "<op> <handle> <length>" followed by <length> bytes; each response is "ok <length>" or
// "err <length>" followed by that many bytes. Mirrors engines/go-wasm/cmd/replicant-host.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "alloc_stats.h"
#include "codec.h"
#include "node.h"

namespace {

constexpr long long kMaxPayloadBytes = 256LL << 20;

[[noreturn]] void Fail(const std::string& why) {
  std::fprintf(stderr, "replicant-host: %s\n", why.c_str());
  std::exit(2);
}

void Respond(const char* status, const std::string& payload) {
  std::fprintf(stdout, "%s %zu\n", status, payload.size());
  if (!payload.empty()) std::fwrite(payload.data(), 1, payload.size(), stdout);
  if (std::fflush(stdout) != 0) Fail(std::string("writing response: ") + std::strerror(errno));
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

// Fields splits on ASCII whitespace, like Go's strings.Fields.
std::vector<std::string> Fields(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && IsSpace(s[i])) i++;
    size_t start = i;
    while (i < s.size() && !IsSpace(s[i])) i++;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

// ParseInt reads a decimal integer with an optional sign; false on anything else.
bool ParseInt(const std::string& s, long long* out) {
  if (s.empty() || s.size() > 18) return false;
  size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
  if (i == s.size()) return false;
  long long v = 0;
  for (; i < s.size(); i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = s[0] == '-' ? -v : v;
  return true;
}

}  // namespace

int main() {
  // The host serves only the test harnesses, so every step checks the core's invariants.
  replicant::g_check_invariants = true;
  std::setvbuf(stdin, nullptr, _IOFBF, 1 << 20);
  std::setvbuf(stdout, nullptr, _IOFBF, 1 << 20);
  std::map<long long, std::unique_ptr<replicant::Node>> nodes;
  long long next_handle = 1;
  std::string header;
  std::string payload;
  std::string out;
  for (;;) {
    header.clear();
    int c;
    while ((c = std::getc(stdin)) != EOF) {
      header.push_back(static_cast<char>(c));
      if (c == '\n') break;
    }
    if (c == EOF) {
      if (header.empty() && !std::ferror(stdin)) return 0;
      Fail("reading request: unexpected end of input");
    }
    std::vector<std::string> parts = Fields(header);
    long long handle = 0, length = 0;
    if (parts.size() != 3 || !ParseInt(parts[1], &handle) || !ParseInt(parts[2], &length) ||
        length < 0 || length > kMaxPayloadBytes) {
      Fail("malformed request header \"" + header + "\"");
    }
    payload.resize(static_cast<size_t>(length));
    if (length > 0 && std::fread(&payload[0], 1, payload.size(), stdin) != payload.size()) {
      Fail("reading payload: unexpected end of input");
    }
    const std::string& op = parts[0];
    auto it = nodes.find(handle);
    replicant::Node* node = it == nodes.end() ? nullptr : it->second.get();
    if (op != "create" && node == nullptr) {
      Respond("err", "no node with handle " + parts[1]);
      continue;
    }
    if (op == "create") {
      replicant::Config cfg;
      std::string err = replicant::DecodeConfig(payload, &cfg);
      if (!err.empty()) {
        Respond("err", err);
        continue;
      }
      nodes[next_handle] = std::make_unique<replicant::Node>(cfg);
      Respond("ok", std::to_string(next_handle));
      next_handle++;
    } else if (op == "step") {
      out.clear();
      node->StepJson(payload, &out);
      Respond("ok", out);
    } else if (op == "inspect") {
      Respond("ok", node->Inspect());
    } else if (op == "stats") {
      Respond("ok", replicant::runtime::StatsJson());
    } else if (op == "destroy") {
      nodes.erase(handle);
      Respond("ok", "");
    } else {
      Respond("err", "unknown op " + op);
    }
  }
}
