// The readable form of a transcript's output lines, and its exact inverse.
//
// The harness records what the cores emit as canonical lines (`n1: {"type":"send",…} m3`, the
// cores' own effect bytes). Transcripts show them in a form people read, in the manner of
// etcd-io/raft's testdata: one line per message or effect, ballots as round.leader:
//
//   m3 n0->n1 prepare_response ch=1 ok b=1.1 instances=[]
//   n1 timer election 295.524ms
//   n1 trace leader b=1.1 last_index=0
//
// `renderLine` and `parseLine` are inverses: parseLine(renderLine(l)) === l for every line, so
// the expected canonical bytes are rebuilt from the text and compared byte for byte. The
// renderer checks this for each line it writes and leaves in canonical form any line it cannot
// render losslessly (a shape it does not know, a field order it did not expect). Lines the
// harness itself writes (`m3: 0->1 prepare_response`, `n0: follower ballot=1.1 …`) pass through.
//
// A `dump` (the node's inspect JSON, one long canonical line) reads as a few short lines, the
// later ones indented: they are one logical line, and `groupLogicalLines` puts them back
// together before they are parsed.
import { formatBallot, NO_LEADER } from '../../loader/ballot.ts';

const ABBREVIATIONS: ReadonlyArray<readonly [string, string]> = [
  ['ballot', 'b'],
  ['index', 'i'],
  ['channel_id', 'ch'],
  ['client_id', 'client'],
  ['request_id', 'req'],
  ['global_last_executed', 'gle'],
  ['command', 'cmd'],
];
const SHORT = new Map(ABBREVIATIONS);
const LONG = new Map(ABBREVIATIONS.map(([long, short]) => [short, long]));

/** Fields holding a ballot, shown as round.leader. */
const BALLOT_FIELDS = new Set(['ballot']);
/** Nested objects tagged by `kind` (disk records) rather than by `type` (commands). */
const KIND_TAGGED_FIELDS = new Set(['records']);
/** Commands whose operands are written by position: `put k v`, `get k`, `del k`, `noop`. */
const COMMAND_OPERANDS: Record<string, readonly string[]> = { put: ['key', 'value'], get: ['key'], del: ['key'], noop: [] };

const BARE_WORD = /^[A-Za-z_][A-Za-z0-9_.:/+-]*$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

class Unrenderable extends Error {}

function isObject(v: Json): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function formatBallotExact(ballot: number): string {
  if (!Number.isSafeInteger(ballot) || ballot < 0) throw new Unrenderable();
  return formatBallot(ballot);
}

function renderString(s: string): string {
  return BARE_WORD.test(s) && s !== 'true' && s !== 'false' && s !== 'null' ? s : JSON.stringify(s);
}

function renderValue(v: Json, field: string): string {
  if (v === null || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return BALLOT_FIELDS.has(field) ? formatBallotExact(v) : JSON.stringify(v);
  if (typeof v === 'string') return renderString(v);
  if (Array.isArray(v)) return `[${v.map((x) => renderValue(x, field)).join(' ')}]`;
  return `(${renderObject(v, KIND_TAGGED_FIELDS.has(field) ? 'kind' : 'type')})`;
}

/** `TAG f=v flag !flag …`: booleans as a bare name (true) or `!name` (false). */
function renderObject(o: JsonObject, tagKey: string): string {
  const keys = Object.keys(o);
  const parts: string[] = [];
  let start = 0;
  if (keys[0] === tagKey && typeof o[tagKey] === 'string') {
    const tag = o[tagKey] as string;
    if (!BARE_WORD.test(tag)) throw new Unrenderable();
    parts.push(tag);
    start = 1;
    const operands = tagKey === 'type' ? COMMAND_OPERANDS[tag] : undefined;
    if (operands && keys.length === operands.length + 1 && operands.every((k, j) => keys[j + 1] === k && typeof o[k] === 'string')) {
      for (const k of operands) parts.push(renderString(o[k] as string));
      return parts.join(' ');
    }
  }
  parts.push(...renderFields(o, keys.slice(start)));
  return parts.join(' ');
}

function renderFields(o: JsonObject, keys: string[]): string[] {
  return keys.map((k) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(k)) throw new Unrenderable();
    const v = o[k]!;
    // A field whose own name is a short name (an accept's `client` flag) is quoted, so that
    // it does not read as the long field the short name stands for.
    const name = SHORT.get(k) ?? (LONG.has(k) ? JSON.stringify(k) : k);
    if (typeof v === 'boolean') return v ? name : `!${name}`;
    return `${name}=${renderValue(v, k)}`;
  });
}

function renderTimer(us: Json): string {
  if (typeof us !== 'number' || !Number.isSafeInteger(us) || us < 0) throw new Unrenderable();
  return `${Math.floor(us / 1000)}.${String(us % 1000).padStart(3, '0')}ms`;
}

function renderEffect(node: string, e: JsonObject, suffix: string | undefined): string {
  const keys = Object.keys(e);
  if (keys[0] !== 'type' || typeof e.type !== 'string') throw new Unrenderable();
  const rest = keys.slice(1);
  switch (e.type) {
    case 'send': {
      const msg = e.msg!;
      if (rest.length !== 1 || rest[0] !== 'msg' || !isObject(msg)) throw new Unrenderable();
      const mk = Object.keys(msg);
      if (mk[0] !== 'type' || mk[1] !== 'from' || mk[2] !== 'to' || typeof msg.type !== 'string' || !BARE_WORD.test(msg.type)) throw new Unrenderable();
      if (`n${msg.from}` !== node || typeof msg.to !== 'number') throw new Unrenderable();
      const body = [`n${msg.from}->n${msg.to}`, msg.type, ...renderFields(msg, mk.slice(3))].join(' ');
      const id = suffix && /^ (m\d+)$/.exec(suffix);
      if (id) return `${id[1]} ${body}`;
      if (suffix === undefined) return body;
      const lost = /^ lost (\(.*\))$/.exec(suffix);
      if (lost) return `${body} lost ${lost[1]}`;
      throw new Unrenderable();
    }
    case 'set_timer':
      if (suffix !== undefined || rest.join() !== 'timer,delay_us' || typeof e.timer !== 'string' || !BARE_WORD.test(e.timer)) throw new Unrenderable();
      return `${node} timer ${e.timer} ${renderTimer(e.delay_us!)}`;
    case 'cancel_timer':
      if (suffix !== undefined || rest.join() !== 'timer' || typeof e.timer !== 'string' || !BARE_WORD.test(e.timer)) throw new Unrenderable();
      return `${node} cancel ${e.timer}`;
    case 'trace':
      if (suffix !== undefined || rest[0] !== 'kind' || typeof e.kind !== 'string' || !BARE_WORD.test(e.kind)) throw new Unrenderable();
      return [node, 'trace', e.kind, ...renderFields(e, rest.slice(1))].join(' ');
    default:
      if (suffix !== undefined || !BARE_WORD.test(e.type) || RESERVED_WORDS.has(e.type)) throw new Unrenderable();
      return [node, e.type, ...renderFields(e, rest)].join(' ');
  }
}

// ---- the inspect view (`dump`) --------------------------------------------------------------

/** Fields of the inspect view that start a new line, so each line holds one concern. */
const DUMP_LINE_STARTS = new Set(['last_index', 'log', 'kv', 'prepare', 'commit_round', 'counters']);
/** List fields of the inspect view shown one item per line (when not empty). */
const DUMP_LIST_FIELDS = new Set(['log', 'accepts']);
/** Indentation of a dump's continuation lines, and of a listed field's items. */
const DUMP_FIELD_INDENT = '  ';
const DUMP_ITEM_INDENT = '    ';

/**
 * `nI dump id=0 … role=follower b=1.1 leader=1 commit_received`, then indented lines: more
 * fields, and `log:` followed by one entry per line. Field order is the core's.
 */
function renderDump(node: string, view: JsonObject): string {
  const lines: string[] = [];
  let fields: string[] = [];
  const flush = () => {
    if (fields.length) lines.push((lines.length ? DUMP_FIELD_INDENT : `${node} dump `) + fields.join(' '));
    fields = [];
  };
  if (Object.keys(view).length === 0) throw new Unrenderable();
  for (const key of Object.keys(view)) {
    const v = view[key]!;
    if (DUMP_LINE_STARTS.has(key) && lines.length + fields.length > 0) flush();
    if (DUMP_LIST_FIELDS.has(key) && Array.isArray(v) && v.length > 0) {
      if (lines.length === 0) throw new Unrenderable(); // the first line holds plain fields
      flush();
      if (!/^[a-z_][a-z0-9_]*$/.test(key)) throw new Unrenderable();
      lines.push(`${DUMP_FIELD_INDENT}${SHORT.get(key) ?? key}:`);
      for (const item of v) lines.push(DUMP_ITEM_INDENT + renderValue(item, key));
      continue;
    }
    fields.push(...renderFields(view, [key]));
  }
  flush();
  return lines.join('\n');
}

/** Words after `nI ` that start a rendered effect; anything else after `nI ` is the harness's. */
const RESERVED_WORDS = new Set(['timer', 'cancel', 'trace', 'disk', 'dump']);
const CANONICAL_EFFECT = /^(n\d+): (\{.*\})( m\d+| lost \(.*\))?$/;

function renderUnchecked(line: string): string {
  const m = CANONICAL_EFFECT.exec(line);
  if (!m) return line;
  let e: Json;
  try {
    e = JSON.parse(m[2]!) as Json;
  } catch {
    return line;
  }
  if (!isObject(e)) return line;
  // Every effect carries a `type`; the harness's `dump` line is the inspect view, which has none.
  if (!('type' in e) && m[3] === undefined) return renderDump(m[1]!, e);
  return renderEffect(m[1]!, e, m[3]);
}

/** The readable form of one canonical output line (the line itself when it has none). */
export function renderLine(line: string): string {
  let readable: string;
  try {
    readable = renderUnchecked(line);
  } catch (err) {
    if (err instanceof Unrenderable) return line;
    throw err;
  }
  if (readable === line) {
    if (parseLine(line) !== line) throw new Error(`a harness line reads as a rendered effect: ${line}`);
    if (line.startsWith(DUMP_FIELD_INDENT)) throw new Error(`a harness line reads as a dump's continuation: ${line}`);
    return line;
  }
  return parseLine(readable) === line ? readable : line;
}

// ---- the inverse --------------------------------------------------------------------------

class Reader {
  pos = 0;
  constructor(readonly text: string) {}
  fail(): never {
    throw new Unreadable();
  }
  atEnd(): boolean {
    return this.pos >= this.text.length;
  }
  peek(): string {
    return this.text[this.pos] ?? '';
  }
  expect(s: string): void {
    if (!this.text.startsWith(s, this.pos)) this.fail();
    this.pos += s.length;
  }
  /** A run of characters up to a space or a closing bracket. */
  word(): string {
    const start = this.pos;
    while (!this.atEnd() && !' )]'.includes(this.peek())) this.pos++;
    if (this.pos === start) this.fail();
    return this.text.slice(start, this.pos);
  }
  quoted(): string {
    const start = this.pos;
    this.expect('"');
    while (this.peek() !== '"') {
      if (this.atEnd()) this.fail();
      if (this.peek() === '\\') this.pos++;
      this.pos++;
    }
    this.pos++;
    return JSON.parse(this.text.slice(start, this.pos)) as string;
  }
  /** A string operand: quoted or a bare word. */
  string(): string {
    if (this.peek() === '"') return this.quoted();
    const w = this.word();
    if (!BARE_WORD.test(w) || w === 'true' || w === 'false' || w === 'null') this.fail();
    return w;
  }
  value(field: string): Json {
    const c = this.peek();
    if (c === '"') return this.quoted();
    if (c === '[') {
      this.pos++;
      const items: Json[] = [];
      while (this.peek() !== ']') {
        if (items.length) this.expect(' ');
        items.push(this.value(field));
      }
      this.pos++;
      return items;
    }
    if (c === '(') {
      this.pos++;
      const o = this.object(KIND_TAGGED_FIELDS.has(field) ? 'kind' : 'type');
      this.expect(')');
      return o;
    }
    const w = this.word();
    if (w === 'true') return true;
    if (w === 'false') return false;
    if (w === 'null') return null;
    if (BALLOT_FIELDS.has(field)) {
      const b = /^(\d+)\.(\d+|-)$/.exec(w);
      if (!b) this.fail();
      return Number(b[1]) * 256 + (b[2] === '-' ? NO_LEADER : Number(b[2]));
    }
    if (NUMBER.test(w)) return Number(w);
    if (!BARE_WORD.test(w)) this.fail();
    return w;
  }
  /** Fields up to the end or a closing bracket, each preceded by a space unless first. */
  fields(into: JsonObject, first: boolean): JsonObject {
    while (!this.atEnd() && this.peek() !== ')') {
      if (!first) this.expect(' ');
      first = false;
      const negated = this.peek() === '!';
      if (negated) this.pos++;
      let key: string;
      if (this.peek() === '"') {
        key = this.quoted();
        if (!LONG.has(key)) this.fail(); // only a short name is ever quoted
      } else {
        const start = this.pos;
        while (/[a-z0-9_]/.test(this.peek())) this.pos++;
        const name = this.text.slice(start, this.pos);
        if (!name) this.fail();
        key = LONG.get(name) ?? name;
      }
      if (key in into) this.fail();
      if (negated || this.atEnd() || this.peek() === ' ' || this.peek() === ')') into[key] = !negated;
      else {
        this.expect('=');
        into[key] = this.value(key);
      }
    }
    return into;
  }
  object(tagKey: string): JsonObject {
    const start = this.pos;
    const w = /^[A-Za-z_][A-Za-z0-9_.:/+-]*/.exec(this.text.slice(this.pos));
    // A leading word with no `=` is the tag (a bare flag never comes first in a tagged object).
    if (w && !'=('.includes(this.text[this.pos + w[0].length] ?? '')) {
      this.pos += w[0].length;
      const o: JsonObject = { [tagKey]: w[0] };
      const operands = tagKey === 'type' ? COMMAND_OPERANDS[w[0]] : undefined;
      if (operands) {
        for (const k of operands) {
          this.expect(' ');
          o[k] = this.string();
        }
        return o;
      }
      return this.fields(o, false);
    }
    this.pos = start;
    return this.fields({}, true);
  }
}

class Unreadable extends Error {}

const RENDERED_SEND = /^(?:m(\d+) )?n(\d+)->n(\d+) ([A-Za-z_][A-Za-z0-9_.:/+-]*)(.*)$/;
const RENDERED_EFFECT = /^(n\d+) ([A-Za-z_][A-Za-z0-9_.:/+-]*)(.*)$/;

function parseSend(m: RegExpExecArray): string {
  let rest = m[5]!;
  let suffix = m[1] !== undefined ? ` m${m[1]}` : '';
  if (m[1] === undefined) {
    const lost = / lost (\(.*\))$/.exec(rest);
    if (lost) {
      rest = rest.slice(0, lost.index);
      suffix = ` lost ${lost[1]}`;
    }
  }
  const msg: JsonObject = { type: m[4]!, from: Number(m[2]), to: Number(m[3]) };
  const r = new Reader(rest);
  r.fields(msg, false);
  if (!r.atEnd()) r.fail();
  return `n${m[2]}: ${JSON.stringify({ type: 'send', msg })}${suffix}`;
}

function parseEffect(node: string, word: string, rest: string): string {
  const r = new Reader(rest);
  let e: JsonObject;
  if (word === 'timer') {
    const t = /^ ([A-Za-z_][A-Za-z0-9_.:/+-]*) (\d+)\.(\d{3})ms$/.exec(rest);
    if (!t) throw new Unreadable();
    e = { type: 'set_timer', timer: t[1]!, delay_us: Number(t[2]) * 1000 + Number(t[3]) };
    r.pos = rest.length;
  } else if (word === 'cancel') {
    const t = /^ ([A-Za-z_][A-Za-z0-9_.:/+-]*)$/.exec(rest);
    if (!t) throw new Unreadable();
    e = { type: 'cancel_timer', timer: t[1]! };
    r.pos = rest.length;
  } else if (word === 'trace') {
    r.expect(' ');
    e = { type: 'trace', kind: r.word() };
    r.fields(e, false);
  } else {
    e = r.fields({ type: word }, false);
  }
  if (!r.atEnd()) r.fail();
  return `${node}: ${JSON.stringify(e)}`;
}

/** The inverse of renderDump: the lines back into one, `log:` and its items into `log=[…]`. */
function parseDump(node: string, text: string): string {
  const [first, ...more] = text.split('\n');
  if (!first!.startsWith(' ')) throw new Unreadable();
  const parts = [first!.slice(1)];
  for (let k = 0; k < more.length; k++) {
    const line = more[k]!;
    const list = /^ {2}([a-z_][a-z0-9_]*):$/.exec(line);
    if (list) {
      const items: string[] = [];
      while (more[k + 1]?.startsWith(DUMP_ITEM_INDENT)) items.push(more[++k]!.slice(DUMP_ITEM_INDENT.length));
      if (items.length === 0 || !DUMP_LIST_FIELDS.has(LONG.get(list[1]!) ?? list[1]!)) throw new Unreadable();
      parts.push(`${list[1]}=[${items.join(' ')}]`);
    } else if (line.startsWith(DUMP_FIELD_INDENT) && !line.startsWith(DUMP_FIELD_INDENT + ' ')) {
      parts.push(line.slice(DUMP_FIELD_INDENT.length));
    } else throw new Unreadable();
  }
  const r = new Reader(parts.join(' '));
  const view = r.fields({}, true);
  if (!r.atEnd() || 'type' in view) r.fail();
  return `${node}: ${JSON.stringify(view)}`;
}

/**
 * The canonical line a readable line stands for (lines with no readable form stand for
 * themselves). A dump's logical line spans several text lines joined by newlines.
 */
export function parseLine(line: string): string {
  try {
    const dump = /^(n\d+) dump(( .*)?(\n.*)*)$/.exec(line);
    if (dump) return parseDump(dump[1]!, dump[2]!);
    if (line.includes('\n')) return line;
    const send = RENDERED_SEND.exec(line);
    if (send) return parseSend(send);
    const effect = RENDERED_EFFECT.exec(line);
    if (effect && effect[2] !== 'disk') return parseEffect(effect[1]!, effect[2]!, effect[3]!);
  } catch (err) {
    if (err instanceof Unreadable || err instanceof SyntaxError) return line;
    throw err;
  }
  return line;
}

/**
 * A block's text lines as logical lines: a dump's indented continuation lines join the line
 * that starts it (with newlines), every other line stands alone.
 */
export function groupLogicalLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const last = out.length - 1;
    if (last >= 0 && line.startsWith(DUMP_FIELD_INDENT) && /^n\d+ dump /.test(out[last]!)) out[last] += `\n${line}`;
    else out.push(line);
  }
  return out;
}
