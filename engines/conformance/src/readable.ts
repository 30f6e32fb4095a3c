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

const NO_LEADER = 0xf;
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
  const leader = ballot % 256;
  return `${Math.floor(ballot / 256)}.${leader === NO_LEADER ? '-' : leader}`;
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
    const name = SHORT.get(k) ?? k;
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

/** Words after `nI ` that start a rendered effect; anything else after `nI ` is the harness's. */
const RESERVED_WORDS = new Set(['timer', 'cancel', 'trace', 'disk']);
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
      const start = this.pos;
      while (/[a-z0-9_]/.test(this.peek())) this.pos++;
      const name = this.text.slice(start, this.pos);
      if (!name) this.fail();
      const key = LONG.get(name) ?? name;
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

/** The canonical line a readable line stands for (lines with no readable form stand for themselves). */
export function parseLine(line: string): string {
  try {
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
