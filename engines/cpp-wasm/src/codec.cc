#include "codec.h"

#include <initializer_list>

#include "json.h"

namespace replicant {

namespace {

// ObjectFields checks that v is an object with exactly the given fields (in any order) and
// stores their values in out, in the order asked for.
bool ObjectFields(const JsonValue& v, std::initializer_list<std::string_view> names,
                  const JsonValue** out) {
  if (v.kind != JsonKind::kObject || v.fields.size() != names.size()) return false;
  size_t i = 0;
  for (std::string_view name : names) {
    out[i] = v.Find(name);
    if (out[i] == nullptr) return false;
    i++;
  }
  return true;
}

// TypeOf returns the string in an object's "type" field.
bool TypeOf(const JsonValue& v, std::string* out) {
  if (v.kind != JsonKind::kObject) return false;
  const JsonValue* t = v.Find("type");
  if (t == nullptr || t->kind != JsonKind::kString) return false;
  *out = t->s;
  return true;
}

bool AsString(const JsonValue* v, const std::string** out) {
  if (v->kind != JsonKind::kString) return false;
  *out = &v->s;
  return true;
}

bool AsUint(const JsonValue* v, uint64_t* out) {
  if (v->kind != JsonKind::kNumber) return false;
  *out = v->n;
  return true;
}

bool AsBool(const JsonValue* v, bool* out) {
  if (v->kind != JsonKind::kBool) return false;
  *out = v->b;
  return true;
}

// DecodeKVEntries reads [[key,value],…]; the content rules are the protocol's to check.
bool DecodeKVEntries(const JsonValue& v, KVEntries* out) {
  if (v.kind != JsonKind::kArray) return false;
  out->clear();
  for (const JsonValue& item : v.items) {
    if (item.kind != JsonKind::kArray || item.items.size() != 2 || item.items[0].kind != JsonKind::kString ||
        item.items[1].kind != JsonKind::kString) {
      return false;
    }
    out->emplace_back(item.items[0].s, item.items[1].s);
  }
  return true;
}

bool DecodeCommand(const JsonValue& v, Command* out) {
  std::string t;
  if (!TypeOf(v, &t)) return false;
  if (t == "noop") {
    const JsonValue* f[1];
    if (!ObjectFields(v, {"type"}, f)) return false;
    out->type = CommandType::kNoop;
    out->key.clear();
    out->value.clear();
    return true;
  }
  if (t == "get" || t == "del") {
    const JsonValue* f[2];
    const std::string* key;
    if (!ObjectFields(v, {"type", "key"}, f) || !AsString(f[1], &key) || !ValidKey(*key)) {
      return false;
    }
    out->type = t == "get" ? CommandType::kGet : CommandType::kDel;
    out->key = *key;
    out->value.clear();
    return true;
  }
  if (t == "put") {
    const JsonValue* f[3];
    const std::string* key;
    const std::string* value;
    if (!ObjectFields(v, {"type", "key", "value"}, f) || !AsString(f[1], &key) ||
        !AsString(f[2], &value) || !ValidKey(*key) || !ValidValue(*value)) {
      return false;
    }
    out->type = CommandType::kPut;
    out->key = *key;
    out->value = *value;
    return true;
  }
  return false;
}

bool DecodeState(const JsonValue* v, InstanceState* out) {
  const std::string* s;
  if (!AsString(v, &s)) return false;
  for (auto st : {InstanceState::kInProgress, InstanceState::kCommitted, InstanceState::kExecuted}) {
    if (*s == ToString(st)) {
      *out = st;
      return true;
    }
  }
  return false;
}

bool DecodeInstance(const JsonValue& v, Instance* out) {
  const JsonValue* f[6];
  return ObjectFields(v, {"ballot", "index", "client_id", "request_id", "state", "command"}, f) &&
         AsUint(f[0], &out->ballot) && AsUint(f[1], &out->index) &&
         AsUint(f[2], &out->client_id) && AsUint(f[3], &out->request_id) &&
         DecodeState(f[4], &out->state) && DecodeCommand(*f[5], &out->command);
}

bool DecodeMessageValue(const JsonValue& v, Message* m) {
  std::string t;
  if (!TypeOf(v, &t)) return false;
  *m = Message{};
  if (t == "prepare_request") {
    // bounded elections add from_index (>= 1); without it, the paper's request
    const JsonValue* f[6];
    m->type = MessageType::kPrepareRequest;
    if (ObjectFields(v, {"type", "from", "to", "channel_id", "ballot", "from_index"}, f)) {
      if (!AsUint(f[5], &m->from_index) || m->from_index == 0) return false;
    } else if (!ObjectFields(v, {"type", "from", "to", "channel_id", "ballot"}, f)) {
      return false;
    }
    return AsUint(f[1], &m->from) && AsUint(f[2], &m->to) && AsUint(f[3], &m->channel_id) &&
           AsUint(f[4], &m->ballot);
  }
  if (t == "prepare_response") {
    // bounded elections add from_index (>= 1, echoed) and next_index (0: the promise is whole)
    const JsonValue* f[9];
    m->type = MessageType::kPrepareResponse;
    if (ObjectFields(v, {"type", "from", "to", "channel_id", "ok", "ballot", "instances", "from_index", "next_index"}, f)) {
      if (!AsUint(f[7], &m->from_index) || !AsUint(f[8], &m->next_index) || m->from_index == 0 ||
          (m->next_index != 0 && m->next_index <= m->from_index)) {
        return false;
      }
    } else if (!ObjectFields(v, {"type", "from", "to", "channel_id", "ok", "ballot", "instances"}, f)) {
      return false;
    }
    if (!AsUint(f[1], &m->from) || !AsUint(f[2], &m->to) || !AsUint(f[3], &m->channel_id) ||
        !AsBool(f[4], &m->ok) || !AsUint(f[5], &m->ballot) || f[6]->kind != JsonKind::kArray) {
      return false;
    }
    m->instances.resize(f[6]->items.size());
    for (size_t i = 0; i < f[6]->items.size(); i++) {
      if (!DecodeInstance(f[6]->items[i], &m->instances[i])) return false;
    }
    return true;
  }
  if (t == "accept_request") {
    const JsonValue* f[5];
    m->type = MessageType::kAcceptRequest;
    return ObjectFields(v, {"type", "from", "to", "channel_id", "instance"}, f) &&
           AsUint(f[1], &m->from) && AsUint(f[2], &m->to) && AsUint(f[3], &m->channel_id) &&
           DecodeInstance(*f[4], &m->instance);
  }
  if (t == "accept_response") {
    const JsonValue* f[6];
    m->type = MessageType::kAcceptResponse;
    return ObjectFields(v, {"type", "from", "to", "channel_id", "ok", "ballot"}, f) &&
           AsUint(f[1], &m->from) && AsUint(f[2], &m->to) && AsUint(f[3], &m->channel_id) &&
           AsBool(f[4], &m->ok) && AsUint(f[5], &m->ballot);
  }
  if (t == "commit_request") {
    const JsonValue* f[7];
    m->type = MessageType::kCommitRequest;
    return ObjectFields(v,
                        {"type", "from", "to", "channel_id", "ballot", "last_executed",
                         "global_last_executed"},
                        f) &&
           AsUint(f[1], &m->from) && AsUint(f[2], &m->to) && AsUint(f[3], &m->channel_id) &&
           AsUint(f[4], &m->ballot) && AsUint(f[5], &m->last_executed) &&
           AsUint(f[6], &m->global_last_executed);
  }
  if (t == "commit_response") {
    const JsonValue* f[7];
    m->type = MessageType::kCommitResponse;
    return ObjectFields(v, {"type", "from", "to", "channel_id", "ok", "ballot", "last_executed"},
                        f) &&
           AsUint(f[1], &m->from) && AsUint(f[2], &m->to) && AsUint(f[3], &m->channel_id) &&
           AsBool(f[4], &m->ok) && AsUint(f[5], &m->ballot) && AsUint(f[6], &m->last_executed);
  }
  if (t == "snapshot") {
    const JsonValue* f[7];
    m->type = MessageType::kSnapshot;
    return ObjectFields(v, {"type", "from", "to", "channel_id", "ballot", "last_executed", "kv"}, f) &&
           AsUint(f[1], &m->from) && AsUint(f[2], &m->to) && AsUint(f[3], &m->channel_id) &&
           AsUint(f[4], &m->ballot) && AsUint(f[5], &m->last_executed) && DecodeKVEntries(*f[6], &m->kv);
  }
  if (t == "gc_request") {
    const JsonValue* f[6];
    m->type = MessageType::kGcRequest;
    return ObjectFields(v, {"type", "from", "to", "channel_id", "ballot", "pause_us"}, f) &&
           AsUint(f[1], &m->from) && AsUint(f[2], &m->to) && AsUint(f[3], &m->channel_id) &&
           AsUint(f[4], &m->ballot) && AsUint(f[5], &m->pause_us);
  }
  if (t == "gc_grant" || t == "gc_release") {
    const JsonValue* f[5];
    m->type = t == "gc_grant" ? MessageType::kGcGrant : MessageType::kGcRelease;
    return ObjectFields(v, {"type", "from", "to", "channel_id", "ballot"}, f) &&
           AsUint(f[1], &m->from) && AsUint(f[2], &m->to) && AsUint(f[3], &m->channel_id) &&
           AsUint(f[4], &m->ballot);
  }
  if (t == "handoff") {
    const JsonValue* f[9];
    m->type = MessageType::kHandoff;
    return ObjectFields(v,
                        {"type", "from", "to", "channel_id", "ballot", "target", "collecting", "collecting_ticks",
                         "last_executed"},
                        f) &&
           AsUint(f[1], &m->from) && AsUint(f[2], &m->to) && AsUint(f[3], &m->channel_id) &&
           AsUint(f[4], &m->ballot) && AsUint(f[5], &m->target) && AsUint(f[6], &m->collecting) &&
           AsUint(f[7], &m->collecting_ticks) && AsUint(f[8], &m->last_executed);
  }
  return false;
}

void AppendTrace(std::string& b, const Trace& t) {
  AppendStringField(b, "kind", ToString(t.kind), false);
  switch (t.kind) {
    case TraceKind::kFollower:
      AppendUintField(b, "ballot", t.ballot, false);
      AppendUintField(b, "leader", t.leader, false);
      break;
    case TraceKind::kLeader:
      AppendUintField(b, "ballot", t.ballot, false);
      AppendUintField(b, "last_index", t.last_index, false);
      break;
    case TraceKind::kElection:
    case TraceKind::kElectionAbandoned:
      AppendUintField(b, "ballot", t.ballot, false);
      break;
    case TraceKind::kReplay:
    case TraceKind::kFill:
      AppendUintField(b, "count", t.count, false);
      AppendUintField(b, "from_index", t.from_index, false);
      AppendUintField(b, "to_index", t.to_index, false);
      break;
    case TraceKind::kInstance:
      AppendUintField(b, "index", t.index, false);
      AppendUintField(b, "ballot", t.ballot, false);
      AppendStringField(b, "state", ToString(t.state), false);
      break;
    case TraceKind::kExecute:
      AppendUintField(b, "index", t.index, false);
      AppendStringField(b, "result", ToString(t.result), false);
      break;
    case TraceKind::kStale:
    case TraceKind::kAcceptTimeout:
      AppendUintField(b, "index", t.index, false);
      AppendUintField(b, "ballot", t.ballot, false);
      break;
    case TraceKind::kTrim:
      AppendUintField(b, "global_last_executed", t.value, false);
      break;
    case TraceKind::kCommitGle:
      AppendUintField(b, "value", t.value, false);
      break;
    case TraceKind::kRepair:
      AppendUintField(b, "peer", t.leader, false);
      AppendUintField(b, "from_index", t.from_index, false);
      AppendUintField(b, "to_index", t.to_index, false);
      break;
    case TraceKind::kStepDown:
      AppendUintField(b, "ballot", t.ballot, false);
      AppendUintField(b, "heard", t.count, false);
      AppendUintField(b, "window_us", t.value, false);
      break;
    case TraceKind::kViolation:
      AppendUintField(b, "index", t.index, false);
      AppendStringField(b, "reason", t.reason != nullptr ? t.reason : "", false);
      break;
    case TraceKind::kSnapshotSent:
      AppendUintField(b, "peer", t.leader, false);
      AppendUintField(b, "last_executed", t.index, false);
      break;
    case TraceKind::kSnapshotInstalled:
      AppendUintField(b, "last_executed", t.index, false);
      break;
    case TraceKind::kRecovered:
      AppendUintField(b, "ballot", t.ballot, false);
      AppendUintField(b, "last_index", t.last_index, false);
      AppendUintField(b, "records", t.count, false);
      break;
    case TraceKind::kGcAsk:
      AppendUintField(b, "leader", t.leader, false);
      break;
    case TraceKind::kGcGrant:
    case TraceKind::kGcRelease:
    case TraceKind::kGcGrantExpired:
      AppendUintField(b, "peer", t.leader, false);
      break;
    case TraceKind::kGcQueued:
      AppendUintField(b, "peer", t.leader, false);
      AppendUintField(b, "waiting", t.count, false);
      break;
    case TraceKind::kHandoff:
      AppendUintField(b, "target", t.leader, false);
      break;
    case TraceKind::kGcTimeout:
    case TraceKind::kGcDone:
      break;
  }
}

void AppendRecordTo(std::string& b, const Record& r) {
  b.push_back('{');
  AppendStringField(b, "kind", ToString(r.kind), true);
  if (r.kind == RecordKind::kPromise) {
    AppendUintField(b, "ballot", r.ballot, false);
  } else if (r.kind == RecordKind::kInstance) {
    AppendField(b, "instance", false);
    AppendInstance(b, r.instance);
  } else {
    if (r.kind == RecordKind::kCheckpoint) AppendUintField(b, "ballot", r.ballot, false);
    AppendUintField(b, "last_executed", r.last_executed, false);
    AppendField(b, "kv", false);
    AppendKVEntries(b, r.kv);
  }
  b.push_back('}');
}

// DecodeRecord reads one durable record (docs/protocol.md, "Durability").
bool DecodeRecord(const JsonValue& v, Record* out) {
  if (v.kind != JsonKind::kObject) return false;
  const JsonValue* kind = v.Find("kind");
  if (kind == nullptr || kind->kind != JsonKind::kString) return false;
  const JsonValue* f[2];
  if (kind->s == "promise") {
    out->kind = RecordKind::kPromise;
    return ObjectFields(v, {"kind", "ballot"}, f) && AsUint(f[1], &out->ballot);
  }
  if (kind->s == "instance") {
    out->kind = RecordKind::kInstance;
    return ObjectFields(v, {"kind", "instance"}, f) && DecodeInstance(*f[1], &out->instance);
  }
  if (kind->s == "snapshot") {
    const JsonValue* g[3];
    out->kind = RecordKind::kSnapshot;
    return ObjectFields(v, {"kind", "last_executed", "kv"}, g) && AsUint(g[1], &out->last_executed) &&
           DecodeKVEntries(*g[2], &out->kv);
  }
  if (kind->s == "checkpoint") {
    const JsonValue* g[4];
    out->kind = RecordKind::kCheckpoint;
    return ObjectFields(v, {"kind", "ballot", "last_executed", "kv"}, g) && AsUint(g[1], &out->ballot) &&
           AsUint(g[2], &out->last_executed) && DecodeKVEntries(*g[3], &out->kv);
  }
  return false;
}

}  // namespace

void AppendKVEntries(std::string& b, const KVEntries& kv) {
  b.push_back('[');
  for (size_t i = 0; i < kv.size(); i++) {
    if (i > 0) b.push_back(',');
    b.push_back('[');
    AppendJsonString(b, kv[i].first);
    b.push_back(',');
    AppendJsonString(b, kv[i].second);
    b.push_back(']');
  }
  b.push_back(']');
}

bool DecodeMessage(std::string_view in, Message* out) {
  JsonValue v;
  return ParseJson(in, &v) && DecodeMessageValue(v, out);
}

void AppendRecord(std::string& b, const Record& r) { AppendRecordTo(b, r); }

bool DecodeRecord(std::string_view in, Record* out) {
  JsonValue v;
  *out = Record{};
  return ParseJson(in, &v) && DecodeRecord(v, out);
}

bool DecodeEvent(std::string_view in, Event* out) {
  JsonValue v;
  std::string t;
  if (!ParseJson(in, &v) || !TypeOf(v, &t)) return false;
  *out = Event{};
  if (t == "start") {
    const JsonValue* f[1];
    out->type = EventType::kStart;
    return ObjectFields(v, {"type"}, f);
  }
  if (t == "timer") {
    const JsonValue* f[2];
    const std::string* s;
    if (!ObjectFields(v, {"type", "timer"}, f) || !AsString(f[1], &s)) return false;
    out->type = EventType::kTimer;
    if (*s == "election") {
      out->timer = TimerName::kElection;
      return true;
    }
    if (*s == "commit") {
      out->timer = TimerName::kCommit;
      return true;
    }
    return false;
  }
  if (t == "client") {
    const JsonValue* f[4];
    const std::string* line;
    if (!ObjectFields(v, {"type", "client_id", "request_id", "line"}, f) ||
        !AsUint(f[1], &out->client_id) || !AsUint(f[2], &out->request_id) ||
        !AsString(f[3], &line)) {
      return false;
    }
    out->type = EventType::kClient;
    out->line = *line;
    return true;
  }
  if (t == "message") {
    const JsonValue* f[2];
    out->type = EventType::kMessage;
    return ObjectFields(v, {"type", "msg"}, f) && DecodeMessageValue(*f[1], &out->message);
  }
  if (t == "gc_pending") {
    const JsonValue* f[2];
    out->type = EventType::kGcPending;
    return ObjectFields(v, {"type", "pause_us"}, f) && AsUint(f[1], &out->pause_us);
  }
  if (t == "gc_done") {
    const JsonValue* f[1];
    out->type = EventType::kGcDone;
    return ObjectFields(v, {"type"}, f);
  }
  if (t == "persisted") {
    const JsonValue* f[2];
    out->type = EventType::kPersisted;
    return ObjectFields(v, {"type", "persist_id"}, f) && AsUint(f[1], &out->persist_id);
  }
  if (t == "restart") {
    const JsonValue* f[2];
    out->type = EventType::kRestart;
    if (!ObjectFields(v, {"type", "records"}, f) || f[1]->kind != JsonKind::kArray) return false;
    out->records.resize(f[1]->items.size());
    for (size_t i = 0; i < f[1]->items.size(); i++) {
      if (!DecodeRecord(f[1]->items[i], &out->records[i])) return false;
    }
    return true;
  }
  return false;
}

// --- writing ---

void AppendCommand(std::string& b, const Command& c) {
  b.push_back('{');
  AppendStringField(b, "type", ToString(c.type), true);
  if (c.type != CommandType::kNoop) AppendStringField(b, "key", c.key, false);
  if (c.type == CommandType::kPut) AppendStringField(b, "value", c.value, false);
  b.push_back('}');
}

void AppendInstance(std::string& b, const Instance& inst) {
  b.push_back('{');
  AppendUintField(b, "ballot", inst.ballot, true);
  AppendUintField(b, "index", inst.index, false);
  AppendUintField(b, "client_id", inst.client_id, false);
  AppendUintField(b, "request_id", inst.request_id, false);
  AppendStringField(b, "state", ToString(inst.state), false);
  AppendField(b, "command", false);
  AppendCommand(b, inst.command);
  b.push_back('}');
}

void AppendMessage(std::string& b, const Message& m) {
  b.push_back('{');
  AppendStringField(b, "type", ToString(m.type), true);
  AppendUintField(b, "from", m.from, false);
  AppendUintField(b, "to", m.to, false);
  AppendUintField(b, "channel_id", m.channel_id, false);
  switch (m.type) {
    case MessageType::kPrepareRequest:
      AppendUintField(b, "ballot", m.ballot, false);
      if (m.from_index > 0) AppendUintField(b, "from_index", m.from_index, false);
      break;
    case MessageType::kPrepareResponse:
      AppendBoolField(b, "ok", m.ok, false);
      AppendUintField(b, "ballot", m.ballot, false);
      AppendField(b, "instances", false);
      b.push_back('[');
      for (size_t i = 0; i < m.instances.size(); i++) {
        if (i > 0) b.push_back(',');
        AppendInstance(b, m.instances[i]);
      }
      b.push_back(']');
      if (m.from_index > 0) {
        AppendUintField(b, "from_index", m.from_index, false);
        AppendUintField(b, "next_index", m.next_index, false);
      }
      break;
    case MessageType::kAcceptRequest:
      AppendField(b, "instance", false);
      AppendInstance(b, m.instance);
      break;
    case MessageType::kAcceptResponse:
      AppendBoolField(b, "ok", m.ok, false);
      AppendUintField(b, "ballot", m.ballot, false);
      break;
    case MessageType::kCommitRequest:
      AppendUintField(b, "ballot", m.ballot, false);
      AppendUintField(b, "last_executed", m.last_executed, false);
      AppendUintField(b, "global_last_executed", m.global_last_executed, false);
      break;
    case MessageType::kCommitResponse:
      AppendBoolField(b, "ok", m.ok, false);
      AppendUintField(b, "ballot", m.ballot, false);
      AppendUintField(b, "last_executed", m.last_executed, false);
      break;
    case MessageType::kSnapshot:
      AppendUintField(b, "ballot", m.ballot, false);
      AppendUintField(b, "last_executed", m.last_executed, false);
      AppendField(b, "kv", false);
      AppendKVEntries(b, m.kv);
      break;
    case MessageType::kGcRequest:
      AppendUintField(b, "ballot", m.ballot, false);
      AppendUintField(b, "pause_us", m.pause_us, false);
      break;
    case MessageType::kGcGrant:
    case MessageType::kGcRelease:
      AppendUintField(b, "ballot", m.ballot, false);
      break;
    case MessageType::kHandoff:
      AppendUintField(b, "ballot", m.ballot, false);
      AppendUintField(b, "target", m.target, false);
      AppendUintField(b, "collecting", m.collecting, false);
      AppendUintField(b, "collecting_ticks", m.collecting_ticks, false);
      AppendUintField(b, "last_executed", m.last_executed, false);
      break;
  }
  b.push_back('}');
}

void AppendEffect(std::string& b, const Effect& e) {
  b.push_back('{');
  switch (e.type) {
    case EffectType::kSend:
      AppendStringField(b, "type", "send", true);
      AppendField(b, "msg", false);
      AppendMessage(b, e.message);
      break;
    case EffectType::kReply:
      AppendStringField(b, "type", "reply", true);
      AppendUintField(b, "client_id", e.client_id, false);
      AppendUintField(b, "request_id", e.request_id, false);
      AppendStringField(b, "result", ToString(e.result.type), false);
      if (e.result.type == ResultType::kOk) {
        AppendStringField(b, "value", e.result.value, false);
      } else if (e.result.type == ResultType::kLeaderIs) {
        AppendUintField(b, "leader", e.result.leader, false);
      } else if (e.result.type == ResultType::kBusy) {
        AppendUintField(b, "pause_us", e.result.pause_us, false);
      }
      break;
    case EffectType::kSetTimer:
      AppendStringField(b, "type", "set_timer", true);
      AppendStringField(b, "timer", ToString(e.timer), false);
      AppendUintField(b, "delay_us", e.delay_us, false);
      break;
    case EffectType::kCancelTimer:
      AppendStringField(b, "type", "cancel_timer", true);
      AppendStringField(b, "timer", ToString(e.timer), false);
      break;
    case EffectType::kTrace:
      AppendStringField(b, "type", "trace", true);
      AppendTrace(b, e.trace);
      break;
    case EffectType::kCollect:
      AppendStringField(b, "type", "collect", true);
      AppendUintField(b, "pause_us", e.pause_us, false);
      break;
    case EffectType::kError:
      AppendStringField(b, "type", "error", true);
      AppendStringField(b, "error", "bad_event", false);
      break;
    case EffectType::kPersist:
      AppendStringField(b, "type", "persist", true);
      AppendUintField(b, "persist_id", e.persist_id, false);
      AppendField(b, "records", false);
      b.push_back('[');
      for (size_t i = 0; i < e.records.size(); i++) {
        if (i > 0) b.push_back(',');
        AppendRecordTo(b, e.records[i]);
      }
      b.push_back(']');
      break;
  }
  b.push_back('}');
}

void EncodeEffects(std::string& b, const std::vector<Effect>& effects) {
  for (const Effect& e : effects) {
    AppendEffect(b, e);
    b.push_back('\n');
  }
}

namespace {

// Quote renders a field name for an error message.
std::string Quote(std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c < 0x20 || c > 0x7e) {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace

std::string DecodeConfig(std::string_view in, Config* out) {
  JsonValue v;
  if (!ParseJson(in, &v)) return "config: not valid JSON";
  if (v.kind != JsonKind::kObject) return "config: not a JSON object";
  Config cfg = DefaultConfig();
  bool seen_id = false, seen_num_peers = false, seen_seed = false;
  for (const JsonField& f : v.fields) {
    if (f.name == "durability") {
      if (f.value.kind == JsonKind::kString && f.value.s == "none") {
        cfg.durability = Durability::kNone;
      } else if (f.value.kind == JsonKind::kString && f.value.s == "log") {
        cfg.durability = Durability::kLog;
      } else {
        return "config: durability must be \"none\" or \"log\"";
      }
      continue;
    }
    if (f.name == "mitigation") {
      if (f.value.kind != JsonKind::kString || !ParseMitigation(f.value.s, &cfg.mitigation)) {
        return "config: mitigation must be \"none\", \"blade\", \"mitmem\" or \"both\"";
      }
      continue;
    }
    if (f.name == "trace") {
      if (!AsBool(&f.value, &cfg.trace)) return "config: trace must be true or false";
      continue;
    }
    if (f.name == "check_quorum") {
      if (!AsBool(&f.value, &cfg.check_quorum)) return "config: check_quorum must be true or false";
      continue;
    }
    uint64_t n;
    if (!AsUint(&f.value, &n)) {
      return "config: " + f.name + " must be a non-negative integer below 2^53";
    }
    if (f.name == "id") {
      cfg.id = n;
      seen_id = true;
    } else if (f.name == "num_peers") {
      cfg.num_peers = n;
      seen_num_peers = true;
    } else if (f.name == "seed") {
      cfg.seed = n;
      seen_seed = true;
    } else if (f.name == "commit_interval_us") {
      cfg.commit_interval_us = n;
    } else if (f.name == "accept_timeout_ticks") {
      cfg.accept_timeout_ticks = n;
    } else if (f.name == "max_pending_accepts") {
      cfg.max_pending_accepts = n;
    } else if (f.name == "repair_batch") {
      cfg.repair_batch = n;
    } else if (f.name == "election_batch") {
      cfg.election_batch = n;
    } else if (f.name == "log_bound") {
      cfg.log_bound = n;
    } else if (f.name == "mitmem_deadline_us") {
      cfg.mitmem_deadline_us = n;
    } else if (f.name == "snapshot_every") {
      cfg.snapshot_every = n;
    } else {
      return "config: unknown field " + Quote(f.name);
    }
  }
  if (!seen_id || !seen_num_peers || !seen_seed) {
    return "config: id, num_peers and seed are required";
  }
  std::string err = Validate(cfg);
  if (!err.empty()) return err;
  *out = cfg;
  return "";
}

}  // namespace replicant
