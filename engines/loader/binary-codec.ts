// The binary step's encoding (docs/protocol.md, "Binary step"): the one TypeScript definition.
// The cores mirror it (binary_codec.rs, …). The driver uses the readers here on the hot path
// (a send's type, `to`, wire size and put flag; a reply's fields) and the translations to and
// from canonical JSON where it needs text: the conformance check, and a peer without the
// binary step.

export const EVENT_JSON = 0x00;
export const EVENT_CLIENT = 0x01;
export const EVENT_MESSAGE = 0x02;

export const EFFECT_JSON = 0x00;
export const EFFECT_REPLY = 0x01;
export const EFFECT_SEND = 0x02;

/** Message types with a binary form, by their type byte. */
export const BINARY_MESSAGES = ['', 'accept_request', 'accept_response', 'commit_request', 'commit_response'] as const;
export const MESSAGE_ACCEPT_REQUEST = 1;
export const MESSAGE_ACCEPT_RESPONSE = 2;
export const MESSAGE_COMMIT_REQUEST = 3;
export const MESSAGE_COMMIT_RESPONSE = 4;

export const INSTANCE_STATES = ['in_progress', 'committed', 'executed'] as const;
export const COMMAND_TYPES = ['get', 'put', 'del', 'noop'] as const;
export const COMMAND_PUT = 1;
export const COMMAND_NOOP = 3;
export const RESULTS = ['ok', 'not_found', 'retry', 'leader_is', 'bad_command', 'busy'] as const;

const MAX_UINT_BYTES = 8;
const TWO_POW_53 = 2 ** 53;

/** Thrown on bytes that do not follow the encoding. */
export class BinaryCodecError extends Error {
  constructor(message: string) {
    super(`binary codec: ${message}`);
    this.name = 'BinaryCodecError';
  }
}

const encoder = new TextEncoder();
const utf8 = new TextDecoder();

// --- reading ---

/** A cursor over bytes; one is reused by each reader below, so reading allocates nothing. */
export class ByteReader {
  bytes: Uint8Array = new Uint8Array(0);
  pos = 0;
  end = 0;

  reset(bytes: Uint8Array, start = 0, end = bytes.length): this {
    this.bytes = bytes;
    this.pos = start;
    this.end = end;
    return this;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  byte(): number {
    if (this.pos >= this.end) throw new BinaryCodecError('truncated');
    return this.bytes[this.pos++]!;
  }

  /** Unsigned LEB128, shortest form, below 2^53. */
  uint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < MAX_UINT_BYTES; i++) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) {
        if (b === 0 && i > 0) throw new BinaryCodecError('integer not in shortest form');
        if (value >= TWO_POW_53) throw new BinaryCodecError('integer not below 2^53');
        return value;
      }
      scale *= 128;
    }
    throw new BinaryCodecError('integer longer than 8 bytes');
  }

  bool(): boolean {
    const b = this.byte();
    if (b > 1) throw new BinaryCodecError(`boolean byte ${b}`);
    return b === 1;
  }

  enumeration<T extends readonly string[]>(names: T): number {
    const b = this.byte();
    if (b >= names.length || names[b] === '') throw new BinaryCodecError(`enumeration byte ${b} out of range`);
    return b;
  }

  /** A string's length; skips its bytes and leaves their start in `stringAt`. */
  stringLength(): number {
    const n = this.uint();
    if (n > this.end - this.pos) throw new BinaryCodecError('truncated string');
    this.stringAt = this.pos;
    this.pos += n;
    return n;
  }
  stringAt = 0;

  /** A string's bytes as UTF-8 text (the cores write printable ASCII). */
  string(): string {
    const n = this.stringLength();
    return utf8.decode(this.bytes.subarray(this.stringAt, this.stringAt + n));
  }
}

// --- writing ---

/** A growing byte buffer, reused between encodes. */
export class ByteWriter {
  bytes = new Uint8Array(256);
  length = 0;

  clear(): this {
    this.length = 0;
    return this;
  }

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  byte(b: number): void {
    this.room(1);
    this.bytes[this.length++] = b;
  }

  uint(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0) throw new BinaryCodecError(`not an integer below 2^53: ${n}`);
    this.room(MAX_UINT_BYTES);
    while (n >= 0x80) {
      this.bytes[this.length++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.bytes[this.length++] = n;
  }

  /** A string as UTF-8 bytes behind its length. */
  string(s: string): void {
    this.room(s.length * 3 + MAX_UINT_BYTES);
    // ASCII (the usual case) is one byte per unit: write the length first, and move the
    // bytes only when the text was not ASCII.
    const lengthAt = this.length;
    this.uint(s.length);
    const bodyAt = this.length;
    const { written } = encoder.encodeInto(s, this.bytes.subarray(bodyAt));
    if (written === s.length) {
      this.length = bodyAt + written;
      return;
    }
    const body = this.bytes.slice(bodyAt, bodyAt + written);
    this.length = lengthAt;
    this.uint(written);
    this.room(written);
    this.bytes.set(body, this.length);
    this.length += written;
  }

  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** A client event (tag 0x01) into `w`. */
export function writeClientEvent(w: ByteWriter, client_id: number, request_id: number, line: string): void {
  w.byte(EVENT_CLIENT);
  w.uint(client_id);
  w.uint(request_id);
  w.string(line);
}

/** Any event as canonical JSON behind tag 0x00. */
export function writeJsonEvent(w: ByteWriter, json: string): void {
  w.byte(EVENT_JSON);
  w.raw(encoder.encode(json));
}

// --- canonical JSON of a binary message ---

function escaped(s: string): string {
  return s.replace(/[\\"]/g, (c) => `\\${c}`);
}

/** The canonical JSON of the message at r's position (to r.end). */
export function messageJson(r: ByteReader): string {
  const type = r.enumeration(BINARY_MESSAGES);
  let s = `{"type":"${BINARY_MESSAGES[type]}","from":${r.uint()},"to":${r.uint()},"channel_id":${r.uint()}`;
  switch (type) {
    case MESSAGE_ACCEPT_REQUEST: {
      s += `,"instance":{"ballot":${r.uint()},"index":${r.uint()},"client_id":${r.uint()},"request_id":${r.uint()}`;
      s += `,"state":"${INSTANCE_STATES[r.enumeration(INSTANCE_STATES)]}"`;
      const command = r.enumeration(COMMAND_TYPES);
      s += `,"command":{"type":"${COMMAND_TYPES[command]}"`;
      if (command !== COMMAND_NOOP) s += `,"key":"${escaped(r.string())}"`;
      if (command === COMMAND_PUT) s += `,"value":"${escaped(r.string())}"`;
      s += '}}}';
      break;
    }
    case MESSAGE_ACCEPT_RESPONSE:
      s += `,"ok":${r.bool()},"ballot":${r.uint()}}`;
      break;
    case MESSAGE_COMMIT_REQUEST:
      s += `,"ballot":${r.uint()},"last_executed":${r.uint()},"global_last_executed":${r.uint()}}`;
      break;
    case MESSAGE_COMMIT_RESPONSE:
      s += `,"ok":${r.bool()},"ballot":${r.uint()},"last_executed":${r.uint()}}`;
      break;
  }
  if (!r.done()) throw new BinaryCodecError('bytes after the message');
  return s;
}

function digits(n: number): number {
  let d = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    d++;
  }
  return d;
}

/** A string's length once escaped for JSON (`"` and `\` take two characters). */
function escapedLength(r: ByteReader): number {
  const n = r.stringLength();
  let extra = 0;
  for (let i = r.stringAt, end = r.stringAt + n; i < end; i++) {
    const c = r.bytes[i]!;
    if (c === 0x22 || c === 0x5c) extra++;
  }
  return n + extra;
}

/** What the driver needs of a binary send: its type byte, `to`, the length of its canonical
 * JSON (`messageJson(…).length`, without writing it) and whether it carries a put. */
export interface SendFacts {
  type: number;
  to: number;
  jsonLength: number;
  put: boolean;
}

// The fixed characters of each message's canonical JSON around its fields.
const PREFIX_LENGTH = '{"type":"","from":,"to":,"channel_id":'.length;
const ACCEPT_REQUEST_FIXED = ',"instance":{"ballot":,"index":,"client_id":,"request_id":,"state":"","command":{"type":""}}}'.length;
const KEY_FIXED = ',"key":""'.length;
const VALUE_FIXED = ',"value":""'.length;
const ACCEPT_RESPONSE_FIXED = ',"ok":,"ballot":}'.length;
const COMMIT_REQUEST_FIXED = ',"ballot":,"last_executed":,"global_last_executed":}'.length;
const COMMIT_RESPONSE_FIXED = ',"ok":,"ballot":,"last_executed":}'.length;

/** Reads the message at r's position into `facts` (reused by the caller). */
export function readSendFacts(r: ByteReader, facts: SendFacts): SendFacts {
  const type = r.enumeration(BINARY_MESSAGES);
  let n = PREFIX_LENGTH + BINARY_MESSAGES[type]!.length + digits(r.uint());
  const to = r.uint();
  n += digits(to) + digits(r.uint());
  let put = false;
  switch (type) {
    case MESSAGE_ACCEPT_REQUEST: {
      n += ACCEPT_REQUEST_FIXED + digits(r.uint()) + digits(r.uint()) + digits(r.uint()) + digits(r.uint());
      n += INSTANCE_STATES[r.enumeration(INSTANCE_STATES)]!.length;
      const command = r.enumeration(COMMAND_TYPES);
      n += COMMAND_TYPES[command]!.length;
      if (command !== COMMAND_NOOP) n += KEY_FIXED + escapedLength(r);
      if (command === COMMAND_PUT) {
        n += VALUE_FIXED + escapedLength(r);
        put = true;
      }
      break;
    }
    case MESSAGE_ACCEPT_RESPONSE:
      n += ACCEPT_RESPONSE_FIXED + (r.bool() ? 4 : 5) + digits(r.uint());
      break;
    case MESSAGE_COMMIT_REQUEST:
      n += COMMIT_REQUEST_FIXED + digits(r.uint()) + digits(r.uint()) + digits(r.uint());
      break;
    case MESSAGE_COMMIT_RESPONSE:
      n += COMMIT_RESPONSE_FIXED + (r.bool() ? 4 : 5) + digits(r.uint()) + digits(r.uint());
      break;
  }
  if (!r.done()) throw new BinaryCodecError('bytes after the message');
  facts.type = type;
  facts.to = to;
  facts.jsonLength = n;
  facts.put = put;
  return facts;
}

/** The canonical JSON event for a binary message event (tag 0x02 first), for a peer that
 * steps on JSON only. */
export function messageEventJson(event: Uint8Array): string {
  const r = new ByteReader().reset(event);
  if (r.byte() !== EVENT_MESSAGE) throw new BinaryCodecError('not a message event');
  return `{"type":"message","msg":${messageJson(r)}}`;
}

// --- effects ---

/** One reply record's fields (tag 0x01), read into a reused object. */
export interface ReplyFacts {
  client_id: number;
  request_id: number;
  result: number;
  /** ok: the value's length in bytes (its text is left unread) */
  valueLength: number;
  /** leader_is */
  leader: number;
  /** busy */
  pause_us: number;
}

export function readReplyFacts(r: ByteReader, facts: ReplyFacts): ReplyFacts {
  facts.client_id = r.uint();
  facts.request_id = r.uint();
  facts.result = r.enumeration(RESULTS);
  facts.valueLength = 0;
  facts.leader = 0;
  facts.pause_us = 0;
  switch (RESULTS[facts.result]) {
    case 'ok': facts.valueLength = r.stringLength(); break;
    case 'leader_is': facts.leader = r.uint(); break;
    case 'busy': facts.pause_us = r.uint(); break;
  }
  return facts;
}

/** A binary step's effects as the JSON Lines `step` returns (docs/protocol.md: the same bytes). */
export function effectsJsonLines(effects: Uint8Array): string {
  const r = new ByteReader().reset(effects);
  let out = '';
  while (!r.done()) {
    const tag = r.byte();
    switch (tag) {
      case EFFECT_JSON: {
        const n = r.stringLength();
        out += `${utf8.decode(r.bytes.subarray(r.stringAt, r.stringAt + n))}\n`;
        break;
      }
      case EFFECT_REPLY: {
        const client_id = r.uint();
        const request_id = r.uint();
        const result = RESULTS[r.enumeration(RESULTS)];
        out += `{"type":"reply","client_id":${client_id},"request_id":${request_id},"result":"${result}"`;
        if (result === 'ok') out += `,"value":"${escaped(r.string())}"`;
        else if (result === 'leader_is') out += `,"leader":${r.uint()}`;
        else if (result === 'busy') out += `,"pause_us":${r.uint()}`;
        out += '}\n';
        break;
      }
      case EFFECT_SEND: {
        const n = r.uint();
        if (n > r.end - r.pos) throw new BinaryCodecError('truncated send');
        const end = r.pos + n;
        const body = new ByteReader().reset(r.bytes, r.pos, end);
        out += `{"type":"send","msg":${messageJson(body)}}\n`;
        r.pos = end;
        break;
      }
      default:
        throw new BinaryCodecError(`unknown effect tag ${tag}`);
    }
  }
  return out;
}

// --- events from canonical JSON (the conformance check's input) ---

type Json = Record<string, unknown>;

function writeMessage(w: ByteWriter, m: Json): boolean {
  const type = BINARY_MESSAGES.indexOf(m.type as (typeof BINARY_MESSAGES)[number]);
  if (type <= 0) return false;
  w.byte(type);
  w.uint(m.from as number);
  w.uint(m.to as number);
  w.uint(m.channel_id as number);
  switch (type) {
    case MESSAGE_ACCEPT_REQUEST: {
      const inst = m.instance as Json;
      const cmd = inst.command as Json;
      w.uint(inst.ballot as number);
      w.uint(inst.index as number);
      w.uint(inst.client_id as number);
      w.uint(inst.request_id as number);
      w.byte(INSTANCE_STATES.indexOf(inst.state as (typeof INSTANCE_STATES)[number]));
      const command = COMMAND_TYPES.indexOf(cmd.type as (typeof COMMAND_TYPES)[number]);
      w.byte(command);
      if (command !== COMMAND_NOOP) w.string(cmd.key as string);
      if (command === COMMAND_PUT) w.string(cmd.value as string);
      break;
    }
    case MESSAGE_ACCEPT_RESPONSE:
      w.byte(m.ok ? 1 : 0);
      w.uint(m.ballot as number);
      break;
    case MESSAGE_COMMIT_REQUEST:
      w.uint(m.ballot as number);
      w.uint(m.last_executed as number);
      w.uint(m.global_last_executed as number);
      break;
    case MESSAGE_COMMIT_RESPONSE:
      w.byte(m.ok ? 1 : 0);
      w.uint(m.ballot as number);
      w.uint(m.last_executed as number);
      break;
  }
  return true;
}

/** The canonical JSON a binary event stands for, or null for tag 0x00 (its text is the JSON). */
export function eventJsonOf(event: Uint8Array): string | null {
  const r = new ByteReader().reset(event);
  switch (r.byte()) {
    case EVENT_JSON: return null;
    case EVENT_CLIENT: {
      const client_id = r.uint();
      const request_id = r.uint();
      const n = r.stringLength();
      const line = utf8.decode(r.bytes.subarray(r.stringAt, r.stringAt + n));
      if (!r.done()) throw new BinaryCodecError('bytes after the event');
      return `{"type":"client","client_id":${client_id},"request_id":${request_id},"line":${JSON.stringify(line)}}`;
    }
    case EVENT_MESSAGE: return `{"type":"message","msg":${messageJson(r)}}`;
    default: throw new BinaryCodecError('unknown event tag');
  }
}

/** An event's binary form: the per-operation events binary when `json` is their canonical
 * form (re-encoding gives back the same text), anything else — other events, and text that
 * is not canonical or not valid — behind tag 0x00, so the core reads it exactly as `step` would. */
export function eventBinaryOf(json: string): Uint8Array {
  const w = new ByteWriter();
  const binary = tryBinaryEvent(w, json);
  if (binary) return binary;
  writeJsonEvent(w.clear(), json);
  return w.view().slice();
}

function tryBinaryEvent(w: ByteWriter, json: string): Uint8Array | null {
  let e: Json;
  try {
    e = JSON.parse(json) as Json;
    if (e === null || typeof e !== 'object') return null;
    if (e.type === 'client') writeClientEvent(w, e.client_id as number, e.request_id as number, e.line as string);
    else if (e.type === 'message' && typeof e.msg === 'object' && e.msg !== null) {
      w.byte(EVENT_MESSAGE);
      if (!writeMessage(w, e.msg as Json)) return null;
    } else return null;
    const bytes = w.view().slice();
    return eventJsonOf(bytes) === json ? bytes : null;
  } catch {
    return null; // not representable: the JSON tag carries it
  }
}

// --- the batch step (docs/protocol.md, "Batch step") ---

/** Appends one frame of a batch: the body's length, then the body. */
export function writeBatchFrame(w: ByteWriter, body: Uint8Array): void {
  w.uint(body.length);
  w.raw(body);
}

/** A batch step's output split into its frames (views of `bytes`), one per event; throws on
 * framing that does not hold. */
export function batchFrames(bytes: Uint8Array): Uint8Array[] {
  const r = new ByteReader().reset(bytes);
  const frames: Uint8Array[] = [];
  while (!r.done()) {
    const n = r.stringLength();
    frames.push(bytes.subarray(r.stringAt, r.stringAt + n));
  }
  return frames;
}

/** What a node with the batch step offers (engine.ts's SyncNode). */
interface BatchStepper {
  stepBatch?(batch: Uint8Array): Uint8Array;
}

/** Steps `node` through its batch step on the events `eventJsons` stand for, all in one call,
 * and returns each event's effects as JSON Lines: what stepping them one by one through
 * `node.step` returns, if the batch step keeps its promise (the conformance check compares). */
export function stepBatchAsJson(node: BatchStepper, eventJsons: readonly string[]): string[] {
  if (!node.stepBatch) throw new BinaryCodecError('this engine has no batch step');
  const w = new ByteWriter();
  for (const e of eventJsons) writeBatchFrame(w, eventBinaryOf(e));
  const frames = batchFrames(node.stepBatch(w.view()));
  if (frames.length !== eventJsons.length) throw new BinaryCodecError(`batch of ${eventJsons.length} events gave ${frames.length} frames`);
  return frames.map(effectsJsonLines);
}

// --- a node's binary step, seen as JSON ---

/** Steps `node` through its binary step on the event `eventJson` stands for, and returns the
 * effects as JSON Lines: what `node.step(eventJson)` returns, if the binary step keeps its
 * promise (docs/protocol.md, "Binary step"). The conformance check compares the two. */
export function stepBinaryAsJson(node: { stepBinary?(event: Uint8Array): Uint8Array }, eventJson: string): string {
  if (!node.stepBinary) throw new BinaryCodecError('this engine has no binary step');
  return effectsJsonLines(node.stepBinary(eventBinaryOf(eventJson)));
}
