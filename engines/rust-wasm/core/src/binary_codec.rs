//! Events and effects <-> the binary step's encoding (docs/protocol.md, "Binary step"); the
//! mirror of engines/loader/binary-codec.ts. Only the per-operation events and effects have a
//! binary form; everything else is canonical JSON behind tag 0 (codec.rs reads and writes it).

use crate::codec::{append_effect, decode_event, CodecError};
use crate::command::{ascii_string, valid_key, valid_value, Command, CommandType, Result, ResultType};
use crate::instance::{Instance, InstanceState};
use crate::messages::{Effect, Event, Message, MessageType};

const EVENT_JSON: u8 = 0x00;
const EVENT_CLIENT: u8 = 0x01;
const EVENT_MESSAGE: u8 = 0x02;

const EFFECT_JSON: u8 = 0x00;
const EFFECT_REPLY: u8 = 0x01;
const EFFECT_SEND: u8 = 0x02;

const MESSAGE_ACCEPT_REQUEST: u8 = 1;
const MESSAGE_ACCEPT_RESPONSE: u8 = 2;
const MESSAGE_COMMIT_REQUEST: u8 = 3;
const MESSAGE_COMMIT_RESPONSE: u8 = 4;

const MAX_UINT_BYTES: usize = 8;
const UINT_LIMIT: u64 = 1 << 53;

/// A cursor over the input; every read fails on bytes the encoding does not allow.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

type Read<T> = std::result::Result<T, CodecError>;

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Read<u8> {
        let b = *self.bytes.get(self.pos).ok_or(CodecError::Schema)?;
        self.pos += 1;
        Ok(b)
    }

    /// Unsigned LEB128, shortest form, below 2^53.
    fn uint(&mut self) -> Read<u64> {
        let mut value = 0u64;
        for i in 0..MAX_UINT_BYTES {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                if (b == 0 && i > 0) || value >= UINT_LIMIT {
                    return Err(CodecError::Schema);
                }
                return Ok(value);
            }
        }
        Err(CodecError::Schema)
    }

    fn boolean(&mut self) -> Read<bool> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(CodecError::Schema),
        }
    }

    fn bytes(&mut self) -> Read<&'a [u8]> {
        let n = usize::try_from(self.uint()?).map_err(|_| CodecError::Schema)?;
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(CodecError::Schema)?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn finished(&self) -> Read<()> {
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(CodecError::Schema)
        }
    }
}

/// The next frame of a batch (docs/protocol.md, "Batch step") at `*pos`: its body, `*pos`
/// moved past it; an error when its length is not a valid integer or runs past the end.
pub fn batch_frame<'a>(input: &'a [u8], pos: &mut usize) -> Read<&'a [u8]> {
    let mut r = Reader { bytes: input, pos: *pos };
    let frame = r.bytes()?;
    *pos = r.pos;
    Ok(frame)
}

/// Whether `input` is a sequence of whole frames (checked before a batch steps anything).
pub fn valid_batch_framing(input: &[u8]) -> bool {
    let mut pos = 0;
    while pos < input.len() {
        if batch_frame(input, &mut pos).is_err() {
            return false;
        }
    }
    true
}

/// Appends one output frame: `body`'s length, then `body`.
pub fn push_batch_frame(out: &mut Vec<u8>, body: &[u8]) {
    push_bytes(out, body);
}

/// Reads one event in the binary encoding (tag 0: its canonical JSON).
pub fn decode_binary_event(input: &[u8]) -> Read<Event> {
    let mut r = Reader { bytes: input, pos: 0 };
    let event = match r.byte()? {
        EVENT_JSON => return decode_event(&input[1..]),
        EVENT_CLIENT => {
            let client_id = r.uint()?;
            let request_id = r.uint()?;
            let line = r.bytes()?.to_vec();
            Event::Client { client_id, request_id, line }
        }
        EVENT_MESSAGE => Event::Message(read_message(&mut r)?),
        _ => return Err(CodecError::Schema),
    };
    r.finished()?;
    Ok(event)
}

fn read_command(r: &mut Reader<'_>) -> Read<Command> {
    let typ = match r.byte()? {
        0 => CommandType::Get,
        1 => CommandType::Put,
        2 => CommandType::Del,
        3 => return Ok(Command { typ: CommandType::Noop, key: String::new(), value: String::new() }),
        _ => return Err(CodecError::Schema),
    };
    let key = r.bytes()?;
    if !valid_key(key) {
        return Err(CodecError::Schema);
    }
    let mut value = String::new();
    if typ == CommandType::Put {
        let v = r.bytes()?;
        if !valid_value(v) {
            return Err(CodecError::Schema);
        }
        value = ascii_string(v);
    }
    Ok(Command { typ, key: ascii_string(key), value })
}

fn read_message(r: &mut Reader<'_>) -> Read<Message> {
    let kind = r.byte()?;
    let (from, to, channel_id) = (r.uint()?, r.uint()?, r.uint()?);
    let base = Message { from, to, channel_id, ..Message::default() };
    Ok(match kind {
        MESSAGE_ACCEPT_REQUEST => {
            let (ballot, index, client_id, request_id) = (r.uint()?, r.uint()?, r.uint()?, r.uint()?);
            let state = *InstanceState::ALL.get(usize::from(r.byte()?)).ok_or(CodecError::Schema)?;
            let command = read_command(r)?;
            let instance = Instance { ballot, index, client_id, request_id, state, command };
            Message { typ: MessageType::AcceptRequest, instance, ..base }
        }
        MESSAGE_ACCEPT_RESPONSE => {
            let ok = r.boolean()?;
            Message { typ: MessageType::AcceptResponse, ok, ballot: r.uint()?, ..base }
        }
        MESSAGE_COMMIT_REQUEST => {
            let (ballot, last_executed, global_last_executed) = (r.uint()?, r.uint()?, r.uint()?);
            Message { typ: MessageType::CommitRequest, ballot, last_executed, global_last_executed, ..base }
        }
        MESSAGE_COMMIT_RESPONSE => {
            let ok = r.boolean()?;
            let (ballot, last_executed) = (r.uint()?, r.uint()?);
            Message { typ: MessageType::CommitResponse, ok, ballot, last_executed, ..base }
        }
        _ => return Err(CodecError::Schema),
    })
}

fn push_uint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn push_bytes(out: &mut Vec<u8>, s: &[u8]) {
    push_uint(out, s.len() as u64);
    out.extend_from_slice(s);
}

/// The message's type byte, when it has a binary form.
fn binary_type(m: &Message) -> Option<u8> {
    match m.typ {
        MessageType::AcceptRequest => Some(MESSAGE_ACCEPT_REQUEST),
        MessageType::AcceptResponse => Some(MESSAGE_ACCEPT_RESPONSE),
        MessageType::CommitRequest => Some(MESSAGE_COMMIT_REQUEST),
        MessageType::CommitResponse => Some(MESSAGE_COMMIT_RESPONSE),
        _ => None,
    }
}

fn push_message(out: &mut Vec<u8>, kind: u8, m: &Message) {
    out.push(kind);
    push_uint(out, m.from);
    push_uint(out, m.to);
    push_uint(out, m.channel_id);
    match kind {
        MESSAGE_ACCEPT_REQUEST => {
            let inst = &m.instance;
            for v in [inst.ballot, inst.index, inst.client_id, inst.request_id] {
                push_uint(out, v);
            }
            out.push(InstanceState::ALL.iter().position(|&s| s == inst.state).unwrap_or(0) as u8);
            let c = &inst.command;
            out.push(match c.typ {
                CommandType::Get => 0,
                CommandType::Put => 1,
                CommandType::Del => 2,
                CommandType::Noop => 3,
            });
            if c.typ != CommandType::Noop {
                push_bytes(out, c.key.as_bytes());
            }
            if c.typ == CommandType::Put {
                push_bytes(out, c.value.as_bytes());
            }
        }
        MESSAGE_ACCEPT_RESPONSE => {
            out.push(u8::from(m.ok));
            push_uint(out, m.ballot);
        }
        MESSAGE_COMMIT_REQUEST => {
            for v in [m.ballot, m.last_executed, m.global_last_executed] {
                push_uint(out, v);
            }
        }
        _ => {
            out.push(u8::from(m.ok));
            push_uint(out, m.ballot);
            push_uint(out, m.last_executed);
        }
    }
}

fn result_byte(t: ResultType) -> u8 {
    match t {
        ResultType::Ok => 0,
        ResultType::NotFound => 1,
        ResultType::Retry => 2,
        ResultType::LeaderIs => 3,
        ResultType::BadCommand => 4,
        ResultType::Busy => 5,
    }
}

fn push_reply(out: &mut Vec<u8>, client_id: u64, request_id: u64, result: &Result) {
    out.push(EFFECT_REPLY);
    push_uint(out, client_id);
    push_uint(out, request_id);
    out.push(result_byte(result.typ));
    match result.typ {
        ResultType::Ok => push_bytes(out, result.value.as_bytes()),
        ResultType::LeaderIs => push_uint(out, result.leader),
        ResultType::Busy => push_uint(out, result.pause_us),
        _ => {}
    }
}

/// Writes what `write` appends behind its LEB128 length: the body is written in place, then
/// rotated behind the length, so nothing is written twice into a scratch buffer.
fn push_length_prefixed(out: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>)) {
    let start = out.len();
    write(out);
    let body = out.len() - start;
    push_uint(out, body as u64);
    let prefix = out.len() - start - body;
    out[start..].rotate_right(prefix);
}

/// Appends `effects` in the binary encoding to `out`.
pub fn encode_binary_effects(effects: &[Effect], out: &mut Vec<u8>) {
    for e in effects {
        match e {
            Effect::Reply { client_id, request_id, result } => push_reply(out, *client_id, *request_id, result),
            Effect::Send(m) if binary_type(m).is_some() => {
                out.push(EFFECT_SEND);
                let kind = binary_type(m).unwrap_or(0);
                push_length_prefixed(out, |o| push_message(o, kind, m));
            }
            _ => {
                out.push(EFFECT_JSON);
                push_length_prefixed(out, |o| append_effect(o, e));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{decode_event, encode_effects};

    fn accept(value: &str) -> Event {
        decode_event(format!(r#"{{"type":"message","msg":{{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":{{"ballot":257,"index":300,"client_id":7,"request_id":1,"state":"in_progress","command":{{"type":"put","key":"k","value":"{value}"}}}}}}}}"#).as_bytes()).unwrap()
    }

    #[test]
    fn a_binary_accept_reads_as_its_json() {
        let Event::Message(m) = accept("v\\\"") else { panic!() };
        let mut bin = vec![EVENT_MESSAGE];
        push_message(&mut bin, MESSAGE_ACCEPT_REQUEST, &m);
        assert_eq!(decode_binary_event(&bin).unwrap(), Event::Message(m));
    }

    #[test]
    fn bad_bytes_are_errors() {
        for bad in [
            &[][..],
            &[9],
            &[EVENT_CLIENT, 1],
            &[EVENT_CLIENT, 0x80, 0, 1, 0],       // not shortest form
            &[EVENT_CLIENT, 1, 1, 5, b'g'],        // truncated string
            &[EVENT_CLIENT, 1, 1, 0, 0],           // a byte left over
            &[EVENT_CLIENT, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 0], // ≥ 2^53
            &[EVENT_MESSAGE, 9, 1, 0, 1],          // unknown message type
            &[EVENT_MESSAGE, MESSAGE_ACCEPT_RESPONSE, 1, 0, 1, 2, 1], // boolean 2
            &[EVENT_JSON, b'{'],
        ] {
            assert!(decode_binary_event(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn batch_framing_is_whole_frames_or_an_error() {
        assert!(valid_batch_framing(&[]));
        assert!(valid_batch_framing(&[0, 2, EVENT_JSON, b'{', 1, 9]));
        for bad in [
            &[1][..],           // a frame past the end
            &[3, 1, 2],         // the same
            &[0x80],            // a length cut short
            &[0x80, 0],         // not shortest form
            &[0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], // ≥ 2^53
        ] {
            assert!(!valid_batch_framing(bad), "{bad:?}");
        }
        let mut pos = 0;
        let input = [2, 7, 8, 0, 1, 9];
        assert_eq!(batch_frame(&input, &mut pos).unwrap(), &[7, 8]);
        assert_eq!(batch_frame(&input, &mut pos).unwrap(), &[] as &[u8]);
        assert_eq!(batch_frame(&input, &mut pos).unwrap(), &[9]);
        assert_eq!(pos, input.len());
    }

    #[test]
    fn effects_keep_their_order_and_lengths() {
        let Event::Message(m) = accept(&"x".repeat(200)) else { panic!() };
        let effects = vec![
            Effect::Send(m),
            Effect::Reply { client_id: 7, request_id: 1, result: Result::of(ResultType::Retry) },
            Effect::Error,
        ];
        let mut bin = Vec::new();
        encode_binary_effects(&effects, &mut bin);
        assert_eq!(bin[0], EFFECT_SEND);
        let mut r = Reader { bytes: &bin, pos: 1 };
        let body = r.bytes().unwrap();
        assert_eq!(body[0], MESSAGE_ACCEPT_REQUEST);
        assert_eq!(&bin[r.pos..r.pos + 5], &[EFFECT_REPLY, 7, 1, 2, EFFECT_JSON]);
        let mut json = Vec::new();
        encode_effects(&effects[2..], &mut json);
        r.pos += 5;
        assert_eq!(r.bytes().unwrap(), &json[..json.len() - 1]);
    }
}
