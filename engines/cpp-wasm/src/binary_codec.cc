#include "binary_codec.h"

#include <algorithm>
#include <cstdint>

#include "codec.h"
#include "command.h"

namespace replicant {
namespace {

constexpr uint8_t kEventJson = 0x00;
constexpr uint8_t kEventClient = 0x01;
constexpr uint8_t kEventMessage = 0x02;

constexpr uint8_t kEffectJson = 0x00;
constexpr uint8_t kEffectReply = 0x01;
constexpr uint8_t kEffectSend = 0x02;

constexpr uint8_t kMessageAcceptRequest = 1;
constexpr uint8_t kMessageAcceptResponse = 2;
constexpr uint8_t kMessageCommitRequest = 3;
constexpr uint8_t kMessageCommitResponse = 4;

constexpr int kMaxUintBytes = 8;
constexpr uint64_t kUintLimit = uint64_t{1} << 53;

// A cursor over the input; every read fails on bytes the encoding does not allow.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  bool Byte(uint8_t* b) {
    if (pos_ >= in_.size()) return false;
    *b = static_cast<uint8_t>(in_[pos_++]);
    return true;
  }

  // Unsigned LEB128, shortest form, below 2^53.
  bool Uint(uint64_t* v) {
    uint64_t value = 0;
    for (int i = 0; i < kMaxUintBytes; i++) {
      uint8_t b;
      if (!Byte(&b)) return false;
      value |= uint64_t{b & 0x7fu} << (7 * i);
      if ((b & 0x80) == 0) {
        if ((b == 0 && i > 0) || value >= kUintLimit) return false;
        *v = value;
        return true;
      }
    }
    return false;
  }

  bool Bool(bool* v) {
    uint8_t b;
    if (!Byte(&b) || b > 1) return false;
    *v = b == 1;
    return true;
  }

  bool Bytes(std::string_view* s) {
    uint64_t n;
    if (!Uint(&n) || n > in_.size() - pos_) return false;
    *s = in_.substr(pos_, n);
    pos_ += n;
    return true;
  }

  bool Finished() const { return pos_ == in_.size(); }
  size_t Remaining() const { return in_.size() - pos_; }

 private:
  std::string_view in_;
  size_t pos_ = 0;
};

bool ReadCommand(Reader& r, Command* c) {
  uint8_t type;
  if (!r.Byte(&type) || type > 3) return false;
  c->type = static_cast<CommandType>(type);
  if (c->type == CommandType::kNoop) return true;
  std::string_view key;
  if (!r.Bytes(&key) || !ValidKey(key)) return false;
  c->key.assign(key);
  if (c->type != CommandType::kPut) return true;
  std::string_view value;
  if (!r.Bytes(&value) || !ValidValue(value)) return false;
  c->value.assign(value);
  return true;
}

bool ReadMessage(Reader& r, Message* m) {
  uint8_t kind;
  if (!r.Byte(&kind) || !r.Uint(&m->from) || !r.Uint(&m->to) || !r.Uint(&m->channel_id)) return false;
  switch (kind) {
    case kMessageAcceptRequest: {
      m->type = MessageType::kAcceptRequest;
      Instance& inst = m->instance;
      uint8_t state;
      if (!r.Uint(&inst.ballot) || !r.Uint(&inst.index) || !r.Uint(&inst.client_id) || !r.Uint(&inst.request_id)) return false;
      if (!r.Byte(&state) || state > 2) return false;
      inst.state = static_cast<InstanceState>(state);
      return ReadCommand(r, &inst.command);
    }
    case kMessageAcceptResponse:
      m->type = MessageType::kAcceptResponse;
      return r.Bool(&m->ok) && r.Uint(&m->ballot);
    case kMessageCommitRequest:
      m->type = MessageType::kCommitRequest;
      return r.Uint(&m->ballot) && r.Uint(&m->last_executed) && r.Uint(&m->global_last_executed);
    case kMessageCommitResponse:
      m->type = MessageType::kCommitResponse;
      return r.Bool(&m->ok) && r.Uint(&m->ballot) && r.Uint(&m->last_executed);
    default:
      return false;
  }
}

void PushUint(std::string& b, uint64_t v) {
  while (v >= 0x80) {
    b.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  b.push_back(static_cast<char>(v));
}

void PushBytes(std::string& b, std::string_view s) {
  PushUint(b, s.size());
  b.append(s);
}

// The message's type byte, or 0 when it has no binary form.
uint8_t BinaryType(const Message& m) {
  switch (m.type) {
    case MessageType::kAcceptRequest: return kMessageAcceptRequest;
    case MessageType::kAcceptResponse: return kMessageAcceptResponse;
    case MessageType::kCommitRequest: return kMessageCommitRequest;
    case MessageType::kCommitResponse: return kMessageCommitResponse;
    default: return 0;
  }
}

void PushMessage(std::string& b, uint8_t kind, const Message& m) {
  b.push_back(static_cast<char>(kind));
  PushUint(b, m.from);
  PushUint(b, m.to);
  PushUint(b, m.channel_id);
  switch (kind) {
    case kMessageAcceptRequest: {
      const Instance& inst = m.instance;
      for (uint64_t v : {inst.ballot, inst.index, inst.client_id, inst.request_id}) PushUint(b, v);
      b.push_back(static_cast<char>(inst.state));
      const Command& c = inst.command;
      b.push_back(static_cast<char>(c.type));
      if (c.type != CommandType::kNoop) PushBytes(b, c.key);
      if (c.type == CommandType::kPut) PushBytes(b, c.value);
      break;
    }
    case kMessageAcceptResponse:
      b.push_back(m.ok ? 1 : 0);
      PushUint(b, m.ballot);
      break;
    case kMessageCommitRequest:
      for (uint64_t v : {m.ballot, m.last_executed, m.global_last_executed}) PushUint(b, v);
      break;
    default:
      b.push_back(m.ok ? 1 : 0);
      PushUint(b, m.ballot);
      PushUint(b, m.last_executed);
      break;
  }
}

void PushReply(std::string& b, const Effect& e) {
  b.push_back(static_cast<char>(kEffectReply));
  PushUint(b, e.client_id);
  PushUint(b, e.request_id);
  b.push_back(static_cast<char>(e.result.type));
  switch (e.result.type) {
    case ResultType::kOk: PushBytes(b, e.result.value); break;
    case ResultType::kLeaderIs: PushUint(b, e.result.leader); break;
    case ResultType::kBusy: PushUint(b, e.result.pause_us); break;
    default: break;
  }
}

// Writes what `write` appends behind its LEB128 length: the body is written in place, then
// rotated behind the length, so nothing goes through a scratch buffer.
template <typename Write>
void PushLengthPrefixed(std::string& b, Write write) {
  const size_t start = b.size();
  write(b);
  const size_t body = b.size() - start;
  PushUint(b, body);
  std::rotate(b.begin() + static_cast<std::ptrdiff_t>(start), b.begin() + static_cast<std::ptrdiff_t>(start + body), b.end());
}

}  // namespace

bool DecodeBinaryEvent(std::string_view in, Event* out) {
  Reader r(in);
  uint8_t tag;
  if (!r.Byte(&tag)) return false;
  switch (tag) {
    case kEventJson:
      return DecodeEvent(in.substr(1), out);
    case kEventClient: {
      out->type = EventType::kClient;
      std::string_view line;
      if (!r.Uint(&out->client_id) || !r.Uint(&out->request_id) || !r.Bytes(&line)) return false;
      out->line.assign(line);
      break;
    }
    case kEventMessage:
      out->type = EventType::kMessage;
      if (!ReadMessage(r, &out->message)) return false;
      break;
    default:
      return false;
  }
  return r.Finished();
}

bool NextBatchFrame(std::string_view in, size_t* pos, std::string_view* frame) {
  Reader r(in.substr(*pos));
  if (!r.Bytes(frame)) return false;
  *pos = in.size() - r.Remaining();
  return true;
}

bool ValidBatchFraming(std::string_view in) {
  size_t pos = 0;
  std::string_view frame;
  while (pos < in.size()) {
    if (!NextBatchFrame(in, &pos, &frame)) return false;
  }
  return true;
}

void AppendBatchFrame(std::string& b, std::string_view body) { PushBytes(b, body); }

void EncodeBinaryEffects(std::string& b, const std::vector<Effect>& effects) {
  for (const Effect& e : effects) {
    const uint8_t kind = e.type == EffectType::kSend ? BinaryType(e.message) : 0;
    if (e.type == EffectType::kReply) {
      PushReply(b, e);
    } else if (kind != 0) {
      b.push_back(static_cast<char>(kEffectSend));
      PushLengthPrefixed(b, [&](std::string& o) { PushMessage(o, kind, e.message); });
    } else {
      b.push_back(static_cast<char>(kEffectJson));
      PushLengthPrefixed(b, [&](std::string& o) { AppendEffect(o, e); });
    }
  }
}

}  // namespace replicant
