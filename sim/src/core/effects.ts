// Reading the cores' effects (docs/protocol.md, "Effects"). Sends are the hot path, so their
// routing fields are read from the canonical prefix without a full JSON parse.

export type TimerName = 'election' | 'commit';

export type Effect =
  | { kind: 'send'; to: number; type: string; json: string }
  | { kind: 'reply'; client_id: number; request_id: number; result: string; value?: string; leader?: number; line: string }
  | { kind: 'set_timer'; timer: TimerName; delay_us: number }
  | { kind: 'cancel_timer'; timer: TimerName }
  | { kind: 'persist'; persist_id: number; bytes: number }
  /** GC mitigation: the driver may run the collection it announced (docs/protocol.md) */
  | { kind: 'collect'; pause_us: number }
  | { kind: 'trace'; line: string }
  | { kind: 'error'; line: string };

const SEND_PREFIX = '{"type":"send","msg":';
const TYPE_PREFIX = '{"type":"';

export function splitLines(effects: string): string[] {
  return effects === '' ? [] : effects.slice(0, -1).split('\n');
}

export function parseEffect(line: string): Effect {
  if (line.startsWith(SEND_PREFIX)) {
    const json = line.slice(SEND_PREFIX.length, -1);
    return { kind: 'send', ...routeOf(json), json };
  }
  if (line.startsWith('{"type":"trace"')) return { kind: 'trace', line };
  if (line.startsWith(PERSIST_PREFIX)) {
    // The records are the driver's to write, not to read: the line's length stands for the bytes.
    const end = line.indexOf(',', PERSIST_PREFIX.length);
    const id = integer(line.slice(PERSIST_PREFIX.length, end));
    if (id !== null && id > 0) return { kind: 'persist', persist_id: id, bytes: line.length + 1 };
    return { kind: 'error', line };
  }
  if (line.startsWith(REPLY_PREFIX)) {
    const r = canonicalReply(line);
    if (r) return r;
  }
  const o = JSON.parse(line) as Record<string, unknown>;
  switch (o.type) {
    case 'reply': {
      const r: Effect = {
        kind: 'reply',
        client_id: o.client_id as number,
        request_id: o.request_id as number,
        result: o.result as string,
        line,
      };
      if (typeof o.value === 'string') r.value = o.value;
      if (typeof o.leader === 'number') r.leader = o.leader;
      return r;
    }
    case 'set_timer':
      return { kind: 'set_timer', timer: o.timer as TimerName, delay_us: o.delay_us as number };
    case 'cancel_timer':
      return { kind: 'cancel_timer', timer: o.timer as TimerName };
    case 'collect':
      return { kind: 'collect', pause_us: o.pause_us as number };
    default:
      return { kind: 'error', line };
  }
}

const REPLY_PREFIX = '{"type":"reply","client_id":';
const PERSIST_PREFIX = '{"type":"persist","persist_id":';
const REQUEST_FIELD = ',"request_id":';
const RESULT_FIELD = ',"result":"';
const VALUE_FIELD = ',"value":"';
const LEADER_FIELD = ',"leader":';

/** A reply in the cores' canonical form (docs/protocol.md, "Effects": the fields in this order,
 * a value without escapes), read without a JSON parse — one per client operation, carrying the
 * value. Anything else gives null and is left to JSON.parse. */
function canonicalReply(line: string): Effect | null {
  const idEnd = line.indexOf(',', REPLY_PREFIX.length);
  if (idEnd < 0 || !line.startsWith(REQUEST_FIELD, idEnd)) return null;
  const reqAt = idEnd + REQUEST_FIELD.length;
  const reqEnd = line.indexOf(',', reqAt);
  if (reqEnd < 0 || !line.startsWith(RESULT_FIELD, reqEnd)) return null;
  const resAt = reqEnd + RESULT_FIELD.length;
  const resEnd = line.indexOf('"', resAt);
  if (resEnd < 0) return null;
  const client_id = integer(line.slice(REPLY_PREFIX.length, idEnd));
  const request_id = integer(line.slice(reqAt, reqEnd));
  if (client_id === null || request_id === null) return null;
  const r: Effect = { kind: 'reply', client_id, request_id, result: line.slice(resAt, resEnd), line };
  const rest = resEnd + 1;
  if (rest === line.length - 1) return line.endsWith('}') ? r : null;
  if (line.startsWith(VALUE_FIELD, rest)) {
    const vAt = rest + VALUE_FIELD.length;
    const vEnd = line.length - 2; // the closing quote, then }
    if (!line.endsWith('"}') || vEnd < vAt) return null;
    const value = line.slice(vAt, vEnd);
    if (value.includes('\\') || value.includes('"')) return null; // escapes: left to JSON.parse
    r.value = value;
    return r;
  }
  if (line.startsWith(LEADER_FIELD, rest) && line.endsWith('}')) {
    const leader = integer(line.slice(rest + LEADER_FIELD.length, -1));
    if (leader === null) return null;
    r.leader = leader;
    return r;
  }
  return null;
}

/** A JSON integer as the cores write it (digits, an optional minus), else null. */
function integer(text: string): number | null {
  if (text.length === 0 || text.length > 16) return null;
  for (let i = text.charCodeAt(0) === 45 ? 1 : 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  const n = Number(text);
  return Number.isSafeInteger(n) && text !== '-' ? n : null;
}

/** type and to of a canonical peer message: {"type":"X","from":F,"to":T,… */
export function routeOf(msgJson: string): { type: string; to: number; from: number } {
  if (!msgJson.startsWith(TYPE_PREFIX)) throw new Error(`not a canonical message: ${msgJson.slice(0, 60)}`);
  const typeEnd = msgJson.indexOf('"', TYPE_PREFIX.length);
  const type = msgJson.slice(TYPE_PREFIX.length, typeEnd);
  const fromAt = typeEnd + 9; // ',"from":'
  const fromEnd = msgJson.indexOf(',', fromAt);
  const from = Number(msgJson.slice(fromAt, fromEnd));
  const toAt = fromEnd + 6; // ',"to":'
  const toEnd = msgJson.indexOf(',', toAt);
  const to = Number(msgJson.slice(toAt, toEnd));
  if (!Number.isInteger(from) || !Number.isInteger(to)) throw new Error(`cannot route message: ${msgJson.slice(0, 60)}`);
  return { type, to, from };
}

export function clientEvent(client_id: number, request_id: number, line: string): string {
  return `{"type":"client","client_id":${client_id},"request_id":${request_id},"line":${JSON.stringify(line)}}`;
}

export function timerEvent(timer: TimerName): string {
  return `{"type":"timer","timer":"${timer}"}`;
}

export function messageEvent(msgJson: string): string {
  return `{"type":"message","msg":${msgJson}}`;
}

export const START_EVENT = '{"type":"start"}';
