// The URL holds the whole state. encodeState writes only what differs from the defaults, in a
// fixed order (same state, same URL); decodeState reads any text, keeps every setting it
// understands, and explains each one it cannot use (the default stands in for it).
import { FieldError, type Field } from './fields.ts';
import { GROUPS, TOP_FIELDS, defaultState, type AppState, type GroupName } from './app-state.ts';

/** Longer addresses are refused whole: browsers and servers cut them unpredictably. */
export const MAX_QUERY_LENGTH = 16_000;

export interface DecodedState {
  state: AppState;
  /** One sentence per setting that was ignored; empty when the URL was fully understood. */
  problems: string[];
}

// Reserved characters kept readable in values: commas separate lists, dots appear in numbers.
function encodeValue(v: string): string {
  return encodeURIComponent(v).replace(/%2C/gi, ',');
}

type AnyFields = Record<string, Field<unknown>>;

function eachGroup(visit: (name: GroupName, prefix: string, fields: AnyFields) => void): void {
  for (const [name, g] of Object.entries(GROUPS)) visit(name as GroupName, g.prefix, g.fields as unknown as AnyFields);
}

export function encodeState(state: AppState): string {
  const parts: string[] = [];
  const add = (key: string, field: Field<unknown>, value: unknown) => {
    const text = field.format(value);
    if (text !== field.format(field.default)) parts.push(`${key}=${encodeValue(text)}`);
  };
  for (const [key, field] of Object.entries(TOP_FIELDS)) add(key, field as Field<unknown>, state[key as keyof typeof TOP_FIELDS]);
  eachGroup((name, prefix, fields) => {
    const values = state[name] as Record<string, unknown>;
    for (const [key, field] of Object.entries(fields)) add(`${prefix}.${key}`, field, values[key]);
  });
  return parts.join('&');
}

/** Finds the field a URL key names, or null. */
function lookup(key: string): { field: Field<unknown>; set: (s: AppState, v: unknown) => void } | null {
  if (Object.hasOwn(TOP_FIELDS, key)) {
    const k = key as keyof typeof TOP_FIELDS;
    return { field: TOP_FIELDS[k] as Field<unknown>, set: (s, v) => ((s as unknown as Record<string, unknown>)[k] = v) };
  }
  const dot = key.indexOf('.');
  if (dot < 0) return null;
  const prefix = key.slice(0, dot);
  const name = key.slice(dot + 1);
  for (const [group, g] of Object.entries(GROUPS)) {
    if (g.prefix !== prefix || !Object.hasOwn(g.fields, name)) continue;
    const field = (g.fields as unknown as AnyFields)[name]!;
    return { field, set: (s, v) => ((s[group as GroupName] as Record<string, unknown>)[name] = v) };
  }
  return null;
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

export function decodeState(query: string): DecodedState {
  const state = defaultState();
  const problems: string[] = [];
  const text = query.startsWith('?') ? query.slice(1) : query;
  if (text.length > MAX_QUERY_LENGTH) {
    return { state, problems: [`The address is too long to be one of this lab’s (${text.length} characters); showing the defaults.`] };
  }
  const seen = new Set<string>();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    let key: string;
    let raw: string;
    try {
      key = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq));
      raw = eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1));
    } catch {
      problems.push(`“${shorten(pair)}” is not valid URL text and was ignored.`);
      continue;
    }
    const target = lookup(key);
    if (!target) {
      problems.push(`The setting “${shorten(key)}” is unknown and was ignored.`);
      continue;
    }
    if (seen.has(key)) {
      problems.push(`“${key}” is given twice; the first value is used.`);
      continue;
    }
    seen.add(key);
    try {
      target.set(state, target.field.parse(raw));
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      problems.push(`“${key}=${shorten(raw)}” was ignored: ${e.message}. Using ${target.field.format(target.field.default) || 'the default'}.`);
    }
  }
  return { state, problems };
}
