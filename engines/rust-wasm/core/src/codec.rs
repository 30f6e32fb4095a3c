//! Events, messages and effects <-> canonical JSON (docs/protocol.md, "Canonical encoding").

use crate::command::{ascii_string, valid_key, valid_value, Command, CommandType, ResultType};
use crate::config::Config;
use crate::types::{Durability, Mitigation, Record};
use crate::instance::{Instance, InstanceState};
use crate::json::{
    append_bool_field, append_field, append_json_string, append_string_field, append_uint_field,
    parse_json, JsonValue,
};
use crate::messages::{Effect, Event, Message, MessageType, TimerName, Trace, TraceKind};
use std::borrow::Cow;

/// Why an event or message could not be read. Both become `bad_event`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodecError {
    /// Not one valid JSON value.
    Json,
    /// Valid JSON, but not an event or message of our schema.
    Schema,
}

impl std::fmt::Display for CodecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CodecError::Json => "invalid json",
            CodecError::Schema => "bad_event",
        })
    }
}

type Fields<'v, 'a> = &'v [(Cow<'a, [u8]>, JsonValue<'a>)];

/// Checks that `v` is an object with exactly the given fields (in any order) and returns their
/// values in the order asked for.
fn object_fields<'v, 'a, const N: usize>(v: &'v JsonValue<'a>, names: [&str; N]) -> Option<[&'v JsonValue<'a>; N]> {
    let JsonValue::Object(fields) = v else { return None };
    if fields.len() != N {
        return None;
    }
    let fields: Fields<'v, 'a> = fields;
    let mut out: [Option<&'v JsonValue<'a>>; N] = [None; N];
    for (i, name) in names.iter().enumerate() {
        out[i] = Some(&fields.iter().find(|(n, _)| n.as_ref() == name.as_bytes())?.1);
    }
    Some(out.map(|v| v.unwrap()))
}

/// The string in an object's "type" field.
fn type_of<'v>(v: &'v JsonValue<'_>) -> Option<&'v [u8]> {
    let JsonValue::Object(fields) = v else { return None };
    let (_, t) = fields.iter().find(|(n, _)| n.as_ref() == b"type")?;
    as_bytes(t)
}

fn as_bytes<'v>(v: &'v JsonValue<'_>) -> Option<&'v [u8]> {
    match v {
        JsonValue::String(s) => Some(s.as_ref()),
        _ => None,
    }
}

fn as_uint(v: &JsonValue<'_>) -> Option<u64> {
    match v {
        JsonValue::Number(n) => Some(*n),
        _ => None,
    }
}

fn as_bool(v: &JsonValue<'_>) -> Option<bool> {
    match v {
        JsonValue::Bool(b) => Some(*b),
        _ => None,
    }
}

/// Reads several integer fields at once.
fn uints<const N: usize>(vs: [&JsonValue<'_>; N]) -> Option<[u64; N]> {
    let mut out = [0u64; N];
    for (i, v) in vs.iter().enumerate() {
        out[i] = as_uint(v)?;
    }
    Some(out)
}

fn decode_command(v: &JsonValue<'_>) -> Option<Command> {
    match type_of(v)? {
        b"noop" => {
            let [_] = object_fields(v, ["type"])?;
            Some(Command { typ: CommandType::Noop, key: String::new(), value: String::new() })
        }
        t @ (b"get" | b"del") => {
            let [_, key] = object_fields(v, ["type", "key"])?;
            let key = as_bytes(key)?;
            if !valid_key(key) {
                return None;
            }
            let typ = if t == b"get" { CommandType::Get } else { CommandType::Del };
            Some(Command { typ, key: ascii_string(key), value: String::new() })
        }
        b"put" => {
            let [_, key, value] = object_fields(v, ["type", "key", "value"])?;
            let (key, value) = (as_bytes(key)?, as_bytes(value)?);
            if !valid_key(key) || !valid_value(value) {
                return None;
            }
            Some(Command { typ: CommandType::Put, key: ascii_string(key), value: ascii_string(value) })
        }
        _ => None,
    }
}

fn decode_state(v: &JsonValue<'_>) -> Option<InstanceState> {
    let s = as_bytes(v)?;
    InstanceState::ALL.into_iter().find(|state| state.name().as_bytes() == s)
}

fn decode_instance(v: &JsonValue<'_>) -> Option<Instance> {
    let [ballot, index, client_id, request_id, state, command] =
        object_fields(v, ["ballot", "index", "client_id", "request_id", "state", "command"])?;
    let [ballot, index, client_id, request_id] = uints([ballot, index, client_id, request_id])?;
    let state = decode_state(state)?;
    let command = decode_command(command)?;
    Some(Instance { ballot, index, client_id, request_id, state, command })
}

fn decode_message_value(v: &JsonValue<'_>) -> Option<Message> {
    let m = match type_of(v)? {
        b"prepare_request" => {
            // bounded elections add from_index (≥ 1); without it, the paper's request
            let (fields, from_index) = match object_fields(v, ["type", "from", "to", "channel_id", "ballot", "from_index"]) {
                Some([_, from, to, ch, ballot, fi]) => {
                    let fi = as_uint(fi)?;
                    if fi == 0 {
                        return None;
                    }
                    ([from, to, ch, ballot], fi)
                }
                None => {
                    let [_, from, to, ch, ballot] = object_fields(v, ["type", "from", "to", "channel_id", "ballot"])?;
                    ([from, to, ch, ballot], 0)
                }
            };
            let [from, to, channel_id, ballot] = uints(fields)?;
            Message { typ: MessageType::PrepareRequest, from, to, channel_id, ballot, from_index, ..Message::default() }
        }
        b"prepare_response" => {
            // bounded elections add from_index (≥ 1, echoed) and next_index (0: the promise is whole)
            let names = ["type", "from", "to", "channel_id", "ok", "ballot", "instances", "from_index", "next_index"];
            let (from, to, ch, ok, ballot, instances, chunk) = match object_fields(v, names) {
                Some([_, from, to, ch, ok, ballot, instances, fi, ni]) => {
                    let [fi, ni] = uints([fi, ni])?;
                    if fi == 0 || (ni != 0 && ni <= fi) {
                        return None;
                    }
                    (from, to, ch, ok, ballot, instances, (fi, ni))
                }
                None => {
                    let [_, from, to, ch, ok, ballot, instances] =
                        object_fields(v, ["type", "from", "to", "channel_id", "ok", "ballot", "instances"])?;
                    (from, to, ch, ok, ballot, instances, (0, 0))
                }
            };
            let [from, to, channel_id, ballot] = uints([from, to, ch, ballot])?;
            let ok = as_bool(ok)?;
            let JsonValue::Array(items) = instances else { return None };
            let instances = items.iter().map(decode_instance).collect::<Option<Vec<_>>>()?;
            let (from_index, next_index) = chunk;
            Message {
                typ: MessageType::PrepareResponse,
                from,
                to,
                channel_id,
                ok,
                ballot,
                instances,
                from_index,
                next_index,
                ..Message::default()
            }
        }
        b"accept_request" => {
            let [_, from, to, ch, instance] = object_fields(v, ["type", "from", "to", "channel_id", "instance"])?;
            let [from, to, channel_id] = uints([from, to, ch])?;
            let instance = decode_instance(instance)?;
            Message { typ: MessageType::AcceptRequest, from, to, channel_id, instance, ..Message::default() }
        }
        b"accept_response" => {
            let [_, from, to, ch, ok, ballot] = object_fields(v, ["type", "from", "to", "channel_id", "ok", "ballot"])?;
            let [from, to, channel_id, ballot] = uints([from, to, ch, ballot])?;
            let ok = as_bool(ok)?;
            Message { typ: MessageType::AcceptResponse, from, to, channel_id, ok, ballot, ..Message::default() }
        }
        b"commit_request" => {
            let [_, from, to, ch, ballot, le, gle] = object_fields(
                v,
                ["type", "from", "to", "channel_id", "ballot", "last_executed", "global_last_executed"],
            )?;
            let [from, to, channel_id, ballot, last_executed, global_last_executed] =
                uints([from, to, ch, ballot, le, gle])?;
            Message {
                typ: MessageType::CommitRequest,
                from,
                to,
                channel_id,
                ballot,
                last_executed,
                global_last_executed,
                ..Message::default()
            }
        }
        b"commit_response" => {
            let [_, from, to, ch, ok, ballot, le] =
                object_fields(v, ["type", "from", "to", "channel_id", "ok", "ballot", "last_executed"])?;
            let [from, to, channel_id, ballot, last_executed] = uints([from, to, ch, ballot, le])?;
            let ok = as_bool(ok)?;
            Message { typ: MessageType::CommitResponse, from, to, channel_id, ok, ballot, last_executed, ..Message::default() }
        }
        b"snapshot" => {
            let [_, from, to, ch, ballot, le, kv] =
                object_fields(v, ["type", "from", "to", "channel_id", "ballot", "last_executed", "kv"])?;
            let [from, to, channel_id, ballot, last_executed] = uints([from, to, ch, ballot, le])?;
            let kv = decode_kv_entries(kv)?;
            Message { typ: MessageType::Snapshot, from, to, channel_id, ballot, last_executed, kv, ..Message::default() }
        }
        b"gc_request" => {
            let [_, from, to, ch, ballot, pause] = object_fields(v, ["type", "from", "to", "channel_id", "ballot", "pause_us"])?;
            let [from, to, channel_id, ballot, pause_us] = uints([from, to, ch, ballot, pause])?;
            Message { typ: MessageType::GcRequest, from, to, channel_id, ballot, pause_us, ..Message::default() }
        }
        t @ (b"gc_grant" | b"gc_release") => {
            let [_, from, to, ch, ballot] = object_fields(v, ["type", "from", "to", "channel_id", "ballot"])?;
            let [from, to, channel_id, ballot] = uints([from, to, ch, ballot])?;
            let typ = if t == b"gc_grant" { MessageType::GcGrant } else { MessageType::GcRelease };
            Message { typ, from, to, channel_id, ballot, ..Message::default() }
        }
        b"handoff" => {
            let [_, from, to, ch, ballot, target, collecting, collecting_ticks, last_executed] = object_fields(
                v,
                ["type", "from", "to", "channel_id", "ballot", "target", "collecting", "collecting_ticks", "last_executed"],
            )?;
            let [from, to, channel_id, ballot, target, collecting, collecting_ticks, last_executed] =
                uints([from, to, ch, ballot, target, collecting, collecting_ticks, last_executed])?;
            Message {
                typ: MessageType::Handoff,
                from,
                to,
                channel_id,
                ballot,
                target,
                collecting,
                collecting_ticks,
                last_executed,
                ..Message::default()
            }
        }
        _ => return None,
    };
    Some(m)
}

/// Reads [[key,value],…]; the content rules are the protocol's to check.
fn decode_kv_entries(v: &JsonValue<'_>) -> Option<Vec<(String, String)>> {
    let JsonValue::Array(items) = v else { return None };
    items
        .iter()
        .map(|item| {
            let JsonValue::Array(pair) = item else { return None };
            let [k, val] = pair.as_slice() else { return None };
            let k = String::from_utf8(as_bytes(k)?.to_vec()).ok()?;
            let val = String::from_utf8(as_bytes(val)?.to_vec()).ok()?;
            Some((k, val))
        })
        .collect()
}

/// Appends `[[key,value],…]`; the store's own pairs (borrowed) and a record's (owned) alike.
pub fn append_kv_entries<K: AsRef<str>, V: AsRef<str>>(b: &mut Vec<u8>, kv: &[(K, V)]) {
    b.push(b'[');
    for (i, (k, v)) in kv.iter().enumerate() {
        if i > 0 {
            b.push(b',');
        }
        b.push(b'[');
        append_json_string(b, k.as_ref());
        b.push(b',');
        append_json_string(b, v.as_ref());
        b.push(b']');
    }
    b.push(b']');
}

/// Reads one peer message (a line of the native peer protocol).
pub fn decode_message(input: &[u8]) -> Result<Message, CodecError> {
    let v = parse_json(input).map_err(|_| CodecError::Json)?;
    decode_message_value(&v).ok_or(CodecError::Schema)
}

fn decode_event_value(v: &JsonValue<'_>) -> Option<Event> {
    match type_of(v)? {
        b"start" => {
            object_fields(v, ["type"])?;
            Some(Event::Start)
        }
        b"timer" => {
            let [_, timer] = object_fields(v, ["type", "timer"])?;
            match as_bytes(timer)? {
                b"election" => Some(Event::Timer(TimerName::Election)),
                b"commit" => Some(Event::Timer(TimerName::Commit)),
                _ => None,
            }
        }
        b"client" => {
            let [_, client_id, request_id, line] = object_fields(v, ["type", "client_id", "request_id", "line"])?;
            let [client_id, request_id] = uints([client_id, request_id])?;
            let line = as_bytes(line)?.to_vec();
            Some(Event::Client { client_id, request_id, line })
        }
        b"message" => {
            let [_, msg] = object_fields(v, ["type", "msg"])?;
            Some(Event::Message(decode_message_value(msg)?))
        }
        b"gc_pending" => {
            let [_, pause] = object_fields(v, ["type", "pause_us"])?;
            Some(Event::GcPending(as_uint(pause)?))
        }
        b"gc_done" => {
            object_fields(v, ["type"])?;
            Some(Event::GcDone)
        }
        b"persisted" => {
            let [_, id] = object_fields(v, ["type", "persist_id"])?;
            Some(Event::Persisted(as_uint(id)?))
        }
        b"restart" => {
            let [_, records] = object_fields(v, ["type", "records"])?;
            let JsonValue::Array(items) = records else { return None };
            Some(Event::Restart(items.iter().map(decode_record).collect::<Option<Vec<_>>>()?))
        }
        _ => None,
    }
}

/// Reads one durable record from its JSON (a frame of a native server's write-ahead log).
pub fn decode_record_json(input: &[u8]) -> Result<Record, CodecError> {
    let v = parse_json(input).map_err(|_| CodecError::Json)?;
    decode_record(&v).ok_or(CodecError::Schema)
}

/// Reads one durable record (docs/protocol.md, "Durability").
fn decode_record(v: &JsonValue<'_>) -> Option<Record> {
    let JsonValue::Object(fields) = v else { return None };
    let (_, kind) = fields.iter().find(|(n, _)| n.as_ref() == b"kind")?;
    match as_bytes(kind)? {
        b"promise" => {
            let [_, ballot] = object_fields(v, ["kind", "ballot"])?;
            Some(Record::Promise(as_uint(ballot)?))
        }
        b"instance" => {
            let [_, inst] = object_fields(v, ["kind", "instance"])?;
            Some(Record::Instance(decode_instance(inst)?))
        }
        b"snapshot" => {
            let [_, le, kv] = object_fields(v, ["kind", "last_executed", "kv"])?;
            Some(Record::Snapshot { last_executed: as_uint(le)?, kv: decode_kv_entries(kv)? })
        }
        b"checkpoint" => {
            let [_, ballot, le, kv] = object_fields(v, ["kind", "ballot", "last_executed", "kv"])?;
            Some(Record::Checkpoint { ballot: as_uint(ballot)?, last_executed: as_uint(le)?, kv: decode_kv_entries(kv)? })
        }
        _ => None,
    }
}

/// Writes `r` in canonical form (a frame of a native server's write-ahead log).
pub fn append_record(b: &mut Vec<u8>, r: &Record) {
    b.push(b'{');
    match r {
        Record::Promise(ballot) => {
            append_string_field(b, "kind", "promise", true);
            append_uint_field(b, "ballot", *ballot, false);
        }
        Record::Instance(inst) => {
            append_string_field(b, "kind", "instance", true);
            append_field(b, "instance", false);
            append_instance(b, inst);
        }
        Record::Snapshot { last_executed, kv } => {
            append_string_field(b, "kind", "snapshot", true);
            append_uint_field(b, "last_executed", *last_executed, false);
            append_field(b, "kv", false);
            append_kv_entries(b, kv);
        }
        Record::Checkpoint { ballot, last_executed, kv } => {
            append_string_field(b, "kind", "checkpoint", true);
            append_uint_field(b, "ballot", *ballot, false);
            append_uint_field(b, "last_executed", *last_executed, false);
            append_field(b, "kv", false);
            append_kv_entries(b, kv);
        }
    }
    b.push(b'}');
}

/// Reads one event.
pub fn decode_event(input: &[u8]) -> Result<Event, CodecError> {
    let v = parse_json(input).map_err(|_| CodecError::Json)?;
    decode_event_value(&v).ok_or(CodecError::Schema)
}

// --- writing ---

fn append_command(b: &mut Vec<u8>, c: &Command) {
    b.push(b'{');
    append_string_field(b, "type", c.typ.name(), true);
    if c.typ != CommandType::Noop {
        append_string_field(b, "key", &c.key, false);
    }
    if c.typ == CommandType::Put {
        append_string_field(b, "value", &c.value, false);
    }
    b.push(b'}');
}

pub fn append_instance(b: &mut Vec<u8>, inst: &Instance) {
    b.push(b'{');
    append_uint_field(b, "ballot", inst.ballot, true);
    append_uint_field(b, "index", inst.index, false);
    append_uint_field(b, "client_id", inst.client_id, false);
    append_uint_field(b, "request_id", inst.request_id, false);
    append_string_field(b, "state", inst.state.name(), false);
    append_field(b, "command", false);
    append_command(b, &inst.command);
    b.push(b'}');
}

/// Writes `m` in canonical form.
pub fn append_message(b: &mut Vec<u8>, m: &Message) {
    b.push(b'{');
    append_string_field(b, "type", m.typ.name(), true);
    append_uint_field(b, "from", m.from, false);
    append_uint_field(b, "to", m.to, false);
    append_uint_field(b, "channel_id", m.channel_id, false);
    match m.typ {
        MessageType::PrepareRequest => {
            append_uint_field(b, "ballot", m.ballot, false);
            if m.from_index > 0 {
                append_uint_field(b, "from_index", m.from_index, false);
            }
        }
        MessageType::PrepareResponse => {
            append_bool_field(b, "ok", m.ok, false);
            append_uint_field(b, "ballot", m.ballot, false);
            append_field(b, "instances", false);
            b.push(b'[');
            for (i, inst) in m.instances.iter().enumerate() {
                if i > 0 {
                    b.push(b',');
                }
                append_instance(b, inst);
            }
            b.push(b']');
            if m.from_index > 0 {
                append_uint_field(b, "from_index", m.from_index, false);
                append_uint_field(b, "next_index", m.next_index, false);
            }
        }
        MessageType::AcceptRequest => {
            append_field(b, "instance", false);
            append_instance(b, &m.instance);
        }
        MessageType::AcceptResponse => {
            append_bool_field(b, "ok", m.ok, false);
            append_uint_field(b, "ballot", m.ballot, false);
        }
        MessageType::CommitRequest => {
            append_uint_field(b, "ballot", m.ballot, false);
            append_uint_field(b, "last_executed", m.last_executed, false);
            append_uint_field(b, "global_last_executed", m.global_last_executed, false);
        }
        MessageType::CommitResponse => {
            append_bool_field(b, "ok", m.ok, false);
            append_uint_field(b, "ballot", m.ballot, false);
            append_uint_field(b, "last_executed", m.last_executed, false);
        }
        MessageType::Snapshot => {
            append_uint_field(b, "ballot", m.ballot, false);
            append_uint_field(b, "last_executed", m.last_executed, false);
            append_field(b, "kv", false);
            append_kv_entries(b, &m.kv);
        }
        MessageType::GcRequest => {
            append_uint_field(b, "ballot", m.ballot, false);
            append_uint_field(b, "pause_us", m.pause_us, false);
        }
        MessageType::GcGrant | MessageType::GcRelease => append_uint_field(b, "ballot", m.ballot, false),
        MessageType::Handoff => {
            append_uint_field(b, "ballot", m.ballot, false);
            append_uint_field(b, "target", m.target, false);
            append_uint_field(b, "collecting", m.collecting, false);
            append_uint_field(b, "collecting_ticks", m.collecting_ticks, false);
            append_uint_field(b, "last_executed", m.last_executed, false);
        }
    }
    b.push(b'}');
}

fn append_trace(b: &mut Vec<u8>, t: &Trace) {
    append_string_field(b, "kind", t.kind.name(), false);
    match t.kind {
        TraceKind::Follower => {
            append_uint_field(b, "ballot", t.ballot, false);
            append_uint_field(b, "leader", t.leader, false);
        }
        TraceKind::Leader => {
            append_uint_field(b, "ballot", t.ballot, false);
            append_uint_field(b, "last_index", t.last_index, false);
        }
        TraceKind::Election | TraceKind::ElectionAbandoned => append_uint_field(b, "ballot", t.ballot, false),
        TraceKind::Replay | TraceKind::Fill => {
            append_uint_field(b, "count", t.count, false);
            append_uint_field(b, "from_index", t.from_index, false);
            append_uint_field(b, "to_index", t.to_index, false);
        }
        TraceKind::Instance => {
            append_uint_field(b, "index", t.index, false);
            append_uint_field(b, "ballot", t.ballot, false);
            append_string_field(b, "state", t.state.name(), false);
        }
        TraceKind::Execute => {
            append_uint_field(b, "index", t.index, false);
            append_string_field(b, "result", t.result.name(), false);
        }
        TraceKind::Stale | TraceKind::AcceptTimeout => {
            append_uint_field(b, "index", t.index, false);
            append_uint_field(b, "ballot", t.ballot, false);
        }
        TraceKind::Trim => append_uint_field(b, "global_last_executed", t.value, false),
        TraceKind::CommitGle => append_uint_field(b, "value", t.value, false),
        TraceKind::Repair => {
            append_uint_field(b, "peer", t.leader, false);
            append_uint_field(b, "from_index", t.from_index, false);
            append_uint_field(b, "to_index", t.to_index, false);
        }
        TraceKind::StepDown => {
            append_uint_field(b, "ballot", t.ballot, false);
            append_uint_field(b, "heard", t.count, false);
            append_uint_field(b, "window_us", t.value, false);
        }
        TraceKind::Violation => {
            append_uint_field(b, "index", t.index, false);
            append_string_field(b, "reason", t.reason, false);
        }
        TraceKind::SnapshotSent => {
            append_uint_field(b, "peer", t.leader, false);
            append_uint_field(b, "last_executed", t.index, false);
        }
        TraceKind::SnapshotInstalled => append_uint_field(b, "last_executed", t.index, false),
        TraceKind::Recovered => {
            append_uint_field(b, "ballot", t.ballot, false);
            append_uint_field(b, "last_index", t.last_index, false);
            append_uint_field(b, "records", t.count, false);
        }
        TraceKind::GcAsk => append_uint_field(b, "leader", t.leader, false),
        TraceKind::GcGrant | TraceKind::GcRelease | TraceKind::GcGrantExpired => append_uint_field(b, "peer", t.leader, false),
        TraceKind::GcQueued => {
            append_uint_field(b, "peer", t.leader, false);
            append_uint_field(b, "waiting", t.count, false);
        }
        TraceKind::Handoff => append_uint_field(b, "target", t.leader, false),
        TraceKind::GcTimeout | TraceKind::GcDone => {}
    }
}

/// Writes `e` in canonical form (without the line feed).
pub fn append_effect(b: &mut Vec<u8>, e: &Effect) {
    b.push(b'{');
    match e {
        Effect::Send(m) => {
            append_string_field(b, "type", "send", true);
            append_field(b, "msg", false);
            append_message(b, m);
        }
        Effect::Reply { client_id, request_id, result } => {
            append_string_field(b, "type", "reply", true);
            append_uint_field(b, "client_id", *client_id, false);
            append_uint_field(b, "request_id", *request_id, false);
            append_string_field(b, "result", result.typ.name(), false);
            match result.typ {
                ResultType::Ok => append_string_field(b, "value", &result.value, false),
                ResultType::LeaderIs => append_uint_field(b, "leader", result.leader, false),
                ResultType::Busy => append_uint_field(b, "pause_us", result.pause_us, false),
                _ => {}
            }
        }
        Effect::SetTimer { timer, delay_us } => {
            append_string_field(b, "type", "set_timer", true);
            append_string_field(b, "timer", timer.name(), false);
            append_uint_field(b, "delay_us", *delay_us, false);
        }
        Effect::CancelTimer(timer) => {
            append_string_field(b, "type", "cancel_timer", true);
            append_string_field(b, "timer", timer.name(), false);
        }
        Effect::Trace(t) => {
            append_string_field(b, "type", "trace", true);
            append_trace(b, t);
        }
        Effect::Collect { pause_us } => {
            append_string_field(b, "type", "collect", true);
            append_uint_field(b, "pause_us", *pause_us, false);
        }
        Effect::Error => {
            append_string_field(b, "type", "error", true);
            append_string_field(b, "error", "bad_event", false);
        }
        Effect::Persist { persist_id, records } => {
            append_string_field(b, "type", "persist", true);
            append_uint_field(b, "persist_id", *persist_id, false);
            append_field(b, "records", false);
            b.push(b'[');
            for (i, r) in records.iter().enumerate() {
                if i > 0 {
                    b.push(b',');
                }
                append_record(b, r);
            }
            b.push(b']');
        }
    }
    b.push(b'}');
}

/// Appends effects as JSON Lines to `out`.
pub fn encode_effects(effects: &[Effect], out: &mut Vec<u8>) {
    for e in effects {
        append_effect(out, e);
        out.push(b'\n');
    }
}

/// Reads a node configuration; unknown fields and out-of-range values are errors.
pub fn decode_config(input: &[u8]) -> Result<Config, String> {
    let v = parse_json(input).map_err(|_| "config: not valid JSON".to_string())?;
    let JsonValue::Object(fields) = v else {
        return Err("config: not a JSON object".to_string());
    };
    let mut cfg = Config::default();
    let (mut seen_id, mut seen_num_peers, mut seen_seed) = (false, false, false);
    for (name, value) in &fields {
        if name.as_ref() == b"durability" {
            cfg.durability = match as_bytes(value) {
                Some(b"none") => Durability::None,
                Some(b"log") => Durability::Log,
                _ => return Err(r#"config: durability must be "none" or "log""#.to_string()),
            };
            continue;
        }
        if name.as_ref() == b"mitigation" {
            cfg.mitigation = as_bytes(value).and_then(Mitigation::parse).ok_or_else(|| {
                r#"config: mitigation must be "none", "blade", "mitmem" or "both""#.to_string()
            })?;
            continue;
        }
        if name.as_ref() == b"trace" {
            cfg.trace = as_bool(value).ok_or_else(|| "config: trace must be true or false".to_string())?;
            continue;
        }
        if name.as_ref() == b"check_quorum" {
            cfg.check_quorum =
                as_bool(value).ok_or_else(|| "config: check_quorum must be true or false".to_string())?;
            continue;
        }
        let shown = String::from_utf8_lossy(name);
        let n = as_uint(value)
            .ok_or_else(|| format!("config: {shown} must be a non-negative integer below 2^53"))?;
        match name.as_ref() {
            b"id" => (cfg.id, seen_id) = (n, true),
            b"num_peers" => (cfg.num_peers, seen_num_peers) = (n, true),
            b"seed" => (cfg.seed, seen_seed) = (n, true),
            b"commit_interval_us" => cfg.commit_interval_us = n,
            b"accept_timeout_ticks" => cfg.accept_timeout_ticks = n,
            b"max_pending_accepts" => cfg.max_pending_accepts = n,
            b"repair_batch" => cfg.repair_batch = n,
            b"election_batch" => cfg.election_batch = n,
            b"log_bound" => cfg.log_bound = n,
            b"mitmem_deadline_us" => cfg.mitmem_deadline_us = n,
            b"snapshot_every" => cfg.snapshot_every = n,
            _ => {
                let mut quoted = Vec::new();
                append_json_string(&mut quoted, &shown);
                return Err(format!("config: unknown field {}", String::from_utf8_lossy(&quoted)));
            }
        }
    }
    if !seen_id || !seen_num_peers || !seen_seed {
        return Err("config: id, num_peers and seed are required".to_string());
    }
    cfg.validate()?;
    Ok(cfg)
}

/// Appends a u64 as 16 lowercase hex digits.
pub fn append_hex16(b: &mut Vec<u8>, v: u64) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for i in (0..16).rev() {
        b.push(DIGITS[((v >> (4 * i)) & 0xf) as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Result as CmdResult;

    const MESSAGES: &[&str] = &[
        r#"{"type":"prepare_request","from":1,"to":0,"channel_id":3,"ballot":257}"#,
        r#"{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":true,"ballot":257,"instances":[]}"#,
        r#"{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":false,"ballot":513,"instances":[{"ballot":257,"index":1,"client_id":7,"request_id":1,"state":"committed","command":{"type":"put","key":"k","value":"a \"q\" \\"}},{"ballot":257,"index":2,"client_id":7,"request_id":2,"state":"executed","command":{"type":"del","key":"k"}}]}"#,
        r#"{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{"ballot":257,"index":1,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"get","key":"k"}}}"#,
        r#"{"type":"accept_response","from":0,"to":1,"channel_id":4,"ok":true,"ballot":257}"#,
        r#"{"type":"commit_request","from":1,"to":0,"channel_id":5,"ballot":257,"last_executed":4,"global_last_executed":2}"#,
        r#"{"type":"commit_response","from":0,"to":1,"channel_id":5,"ok":true,"ballot":257,"last_executed":4}"#,
    ];

    fn roundtrip(s: &str) -> String {
        let m = decode_message(s.as_bytes()).unwrap_or_else(|e| panic!("{s}: {e}"));
        let mut b = Vec::new();
        append_message(&mut b, &m);
        String::from_utf8(b).unwrap()
    }

    #[test]
    fn messages_roundtrip_canonically() {
        for s in MESSAGES {
            assert_eq!(roundtrip(s), *s);
        }
        // field order and whitespace do not matter on input; output is canonical
        let shuffled = r#" { "ballot" : 257 , "channel_id":3, "to":0,"from":1,"type":"prepare_request" } "#;
        assert_eq!(roundtrip(shuffled), MESSAGES[0]);
        let escaped = r#"{"type":"prepare_request","from":1,"to":0,"channel_id":3,"b\u0061llot":257}"#;
        assert_eq!(roundtrip(escaped), MESSAGES[0]);
    }

    #[test]
    fn bad_messages() {
        for s in [
            r#"{"type":"prepare_request","from":1,"to":0,"channel_id":3}"#, // missing
            r#"{"type":"prepare_request","from":1,"to":0,"channel_id":3,"ballot":257,"x":1}"#, // unknown
            r#"{"type":"prepare_request","from":1,"to":0,"channel_id":3,"ballot":257,"ballot":257}"#, // duplicate
            r#"{"type":"prepare_request","from":1,"to":0,"channel_id":3,"ballot":"257"}"#,
            r#"{"type":"prepare_request","from":1,"to":0,"channel_id":3,"ballot":-1}"#,
            r#"{"type":"prepare_request","from":1,"to":0,"channel_id":3,"ballot":2.5}"#,
            r#"{"type":"prepare_request","from":1,"to":0,"channel_id":3,"ballot":9007199254740992}"#,
            r#"{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":1,"ballot":257,"instances":[]}"#,
            r#"{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":true,"ballot":257,"instances":{}}"#,
            r#"{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":true,"ballot":257,"instances":[1]}"#,
            r#"{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{"ballot":257,"index":1,"client_id":7,"request_id":1,"state":"done","command":{"type":"get","key":"k"}}}"#,
            r#"{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{"ballot":257,"index":1,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"get","key":""}}}"#,
            r#"{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{"ballot":257,"index":1,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"get","key":"a b"}}}"#,
            r#"{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{"ballot":257,"index":1,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"get","key":"k","value":"v"}}}"#,
            r#"{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{"ballot":257,"index":1,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"put","key":"k"}}}"#,
            r#"{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{"ballot":257,"index":1,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"put","key":"k","value":"\u00e9"}}}"#,
            r#"{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{"ballot":257,"index":1,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"put","key":"k","value":"\t"}}}"#,
            r#"{"type":"shout","from":1,"to":0,"channel_id":4}"#,
            r#"{"from":1,"to":0,"channel_id":4}"#,
            r#"{"type":1}"#,
            r#"[]"#,
        ] {
            assert!(decode_message(s.as_bytes()).is_err(), "{s}");
        }
    }

    #[test]
    fn events() {
        assert_eq!(decode_event(br#"{"type":"start"}"#), Ok(Event::Start));
        assert_eq!(decode_event(br#"{"type":"gc_pending","pause_us":30000}"#), Ok(Event::GcPending(30000)));
        assert_eq!(decode_event(br#"{"type":"gc_done"}"#), Ok(Event::GcDone));
        assert_eq!(decode_event(br#"{"type":"timer","timer":"commit"}"#), Ok(Event::Timer(TimerName::Commit)));
        assert_eq!(
            decode_event(br#"{"type":"client","client_id":7,"request_id":1,"line":"put k \u00e9"}"#),
            Ok(Event::Client { client_id: 7, request_id: 1, line: b"put k \xc3\xa9".to_vec() })
        );
        for s in [
            r#"{"type":"start","x":1}"#,
            r#"{"type":"timer","timer":"other"}"#,
            r#"{"type":"timer"}"#,
            r#"{"type":"client","client_id":7,"request_id":1}"#,
            r#"{"type":"client","client_id":7,"request_id":1,"line":5}"#,
            r#"{"type":"message","msg":{}}"#,
            r#"{"type":"stop"}"#,
            r#"{"type":"start"} "start""#,
            r#"{"type":"gc_pending"}"#,
            r#"{"type":"gc_pending","pause_us":-1}"#,
            r#"{"type":"gc_done","pause_us":1}"#,
        ] {
            assert!(decode_event(s.as_bytes()).is_err(), "{s}");
        }
    }

    #[test]
    fn effects_are_json_lines() {
        let effects = vec![
            Effect::SetTimer { timer: TimerName::Election, delay_us: 262144 },
            Effect::CancelTimer(TimerName::Commit),
            Effect::Reply { client_id: 7, request_id: 1, result: CmdResult { typ: ResultType::Ok, value: "v".into(), leader: 0, pause_us: 0 } },
            Effect::Reply { client_id: 7, request_id: 1, result: CmdResult { typ: ResultType::LeaderIs, value: String::new(), leader: 2, pause_us: 0 } },
            Effect::Reply { client_id: 7, request_id: 1, result: CmdResult::of(ResultType::NotFound) },
            Effect::Trace(Trace { kind: TraceKind::Violation, index: 3, reason: "command_mismatch", ..Trace::default() }),
            Effect::Error,
        ];
        let mut out = Vec::new();
        encode_effects(&effects, &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            concat!(
                r#"{"type":"set_timer","timer":"election","delay_us":262144}"#, "\n",
                r#"{"type":"cancel_timer","timer":"commit"}"#, "\n",
                r#"{"type":"reply","client_id":7,"request_id":1,"result":"ok","value":"v"}"#, "\n",
                r#"{"type":"reply","client_id":7,"request_id":1,"result":"leader_is","leader":2}"#, "\n",
                r#"{"type":"reply","client_id":7,"request_id":1,"result":"not_found"}"#, "\n",
                r#"{"type":"trace","kind":"violation","index":3,"reason":"command_mismatch"}"#, "\n",
                r#"{"type":"error","error":"bad_event"}"#, "\n",
            )
        );
    }

    #[test]
    fn configs() {
        let cfg = decode_config(br#"{"id":2,"num_peers":3,"seed":9}"#).unwrap();
        assert_eq!((cfg.id, cfg.num_peers, cfg.seed, cfg.commit_interval_us, cfg.trace), (2, 3, 9, 150_000, true));
        let cfg = decode_config(
            br#"{"trace":false,"seed":0,"num_peers":1,"id":0,"commit_interval_us":1000,"accept_timeout_ticks":1000,"max_pending_accepts":1}"#,
        )
        .unwrap();
        assert_eq!((cfg.trace, cfg.commit_interval_us, cfg.accept_timeout_ticks, cfg.max_pending_accepts), (false, 1000, 1000, 1));
        let cfg = decode_config(br#"{"id":0,"num_peers":3,"seed":0,"mitigation":"both","mitmem_deadline_us":5000}"#).unwrap();
        assert_eq!((cfg.mitigation, cfg.mitmem_deadline_us), (crate::types::Mitigation::Both, 5000));
        let cfg = decode_config(br#"{"id":0,"num_peers":3,"seed":0}"#).unwrap();
        assert_eq!((cfg.mitigation, cfg.mitmem_deadline_us), (crate::types::Mitigation::None, 20_000));
        for (s, why) in [
            ("", "not valid JSON"),
            ("[]", "not a JSON object"),
            (r#"{"id":0,"num_peers":3}"#, "required"),
            (r#"{"id":3,"num_peers":3,"seed":0}"#, "id must be below"),
            (r#"{"id":0,"num_peers":16,"seed":0}"#, "num_peers"),
            (r#"{"id":0,"num_peers":0,"seed":0}"#, "num_peers"),
            (r#"{"id":0,"num_peers":3,"seed":0,"commit_interval_us":999}"#, "commit_interval_us"),
            (r#"{"id":0,"num_peers":3,"seed":0,"accept_timeout_ticks":0}"#, "accept_timeout_ticks"),
            (r#"{"id":0,"num_peers":3,"seed":0,"max_pending_accepts":1000001}"#, "max_pending_accepts"),
            (r#"{"id":0,"num_peers":3,"seed":0,"trace":1}"#, "trace"),
            (r#"{"id":0,"num_peers":3,"seed":-1}"#, "not valid JSON"),
            (r#"{"id":0,"num_peers":3,"seed":0,"colour":1}"#, "unknown field \"colour\""),
            (r#"{"id":0,"num_peers":3,"seed":0,"mitigation":"BLADE"}"#, "mitigation must be"),
            (r#"{"id":0,"num_peers":3,"seed":0,"mitigation":1}"#, "mitigation must be"),
            (r#"{"id":0,"num_peers":3,"seed":0,"mitmem_deadline_us":60000001}"#, "mitmem_deadline_us"),
        ] {
            let err = decode_config(s.as_bytes()).unwrap_err();
            assert!(err.contains(why), "{s}: {err}");
        }
    }
}
