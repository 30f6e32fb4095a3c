// Declared settings. Every knob of the lab is one Field: its URL key, default, how its text
// is read and written, and how a form shows it. The URL codec and the forms both read these
// declarations, so a knob is declared once and never wired by hand. Each view declares its own
// fields beside it (e.g. lab/lab-fields.ts); state/app-state.ts composes them.
import { ENGINES, type EngineName } from '@replicant/engines/loader/catalogue';

export class FieldError extends Error {}

export type Control =
  | { kind: 'number'; min: number; max: number; step: number; unit?: string }
  | { kind: 'optional-number'; min: number; max: number; step: number; unit?: string; placeholder: string }
  | { kind: 'select'; options: readonly { value: string; label: string }[] }
  | { kind: 'multi'; options: readonly { value: string; label: string }[] }
  | { kind: 'number-list'; min: number; max: number; maxItems: number; unit?: string }
  | { kind: 'flag' }
  | { kind: 'hidden' };

export interface Field<T> {
  readonly label: string;
  readonly default: T;
  readonly control: Control;
  readonly help?: string;
  /** Reads the URL text; throws FieldError with a sentence saying what is allowed. */
  parse(raw: string): T;
  format(value: T): string;
}

export type FieldValues<F extends Record<string, Field<unknown>>> = { [K in keyof F]: F[K] extends Field<infer T> ? T : never };

const NUMBER_TEXT = /^-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

/** Shortest decimal text for a number (no exponent for the ranges used here). */
export function formatNumber(v: number): string {
  return String(Number.isInteger(v) ? v : Number(v.toPrecision(12)));
}

function readNumber(raw: string, what: string, min: number, max: number, integer: boolean): number {
  const unit = integer ? 'a whole number' : 'a number';
  if (!NUMBER_TEXT.test(raw.trim())) throw new FieldError(`${what} must be ${unit} from ${formatNumber(min)} to ${formatNumber(max)}`);
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw new FieldError(`${what} must be ${unit} from ${formatNumber(min)} to ${formatNumber(max)}`);
  }
  return v;
}

export function numberField(
  label: string,
  def: number,
  o: { min: number; max: number; step?: number; unit?: string; integer?: boolean; help?: string },
): Field<number> {
  const integer = o.integer ?? false;
  return {
    label,
    default: def,
    help: o.help,
    control: { kind: 'number', min: o.min, max: o.max, step: o.step ?? (integer ? 1 : 0.01), unit: o.unit },
    parse: (raw) => readNumber(raw, label, o.min, o.max, integer),
    format: formatNumber,
  };
}

export function integerField(label: string, def: number, o: { min: number; max: number; unit?: string; help?: string }): Field<number> {
  return numberField(label, def, { ...o, integer: true, step: 1 });
}

/** A number that may be left empty (the model's own default is then used). */
export function optionalNumberField(
  label: string,
  o: { min: number; max: number; step?: number; unit?: string; placeholder: string; help?: string },
): Field<number | null> {
  return {
    label,
    default: null,
    help: o.help,
    control: { kind: 'optional-number', min: o.min, max: o.max, step: o.step ?? 1, unit: o.unit, placeholder: o.placeholder },
    parse: (raw) => (raw === '' ? null : readNumber(raw, label, o.min, o.max, false)),
    format: (v) => (v === null ? '' : formatNumber(v)),
  };
}

export function choiceField<const V extends string>(
  label: string,
  def: V,
  options: readonly { value: V; label: string }[],
  help?: string,
): Field<V> {
  const values = options.map((o) => o.value);
  return {
    label,
    default: def,
    help,
    control: { kind: 'select', options },
    parse: (raw) => {
      if (!(values as string[]).includes(raw)) throw new FieldError(`${label} must be one of ${values.join(', ')}`);
      return raw as V;
    },
    format: (v) => v,
  };
}

/** Several of a fixed set, written comma-separated, kept in the options' order. */
export function multiField<const V extends string>(label: string, def: readonly V[], options: readonly { value: V; label: string }[]): Field<V[]> {
  const values = options.map((o) => o.value);
  return {
    label,
    default: [...def],
    control: { kind: 'multi', options },
    parse: (raw) => {
      const parts = raw.split(',');
      if (raw === '' || parts.some((p) => !(values as string[]).includes(p)) || new Set(parts).size !== parts.length) {
        throw new FieldError(`${label} must list one or more of ${values.join(', ')}, comma-separated, without repeats`);
      }
      return values.filter((v) => parts.includes(v));
    },
    format: (v) => v.join(','),
  };
}

export function numberListField(label: string, def: readonly number[], o: { min: number; max: number; maxItems: number; unit?: string }): Field<number[]> {
  return {
    label,
    default: [...def],
    control: { kind: 'number-list', min: o.min, max: o.max, maxItems: o.maxItems, unit: o.unit },
    parse: (raw) => {
      const parts = raw.split(',');
      const rule = `${label} must be 1 to ${o.maxItems} different numbers from ${formatNumber(o.min)} to ${formatNumber(o.max)}, comma-separated`;
      if (raw === '' || parts.length > o.maxItems) throw new FieldError(rule);
      const nums = parts.map((p) => {
        if (!NUMBER_TEXT.test(p.trim())) throw new FieldError(rule);
        const v = Number(p);
        if (v < o.min || v > o.max) throw new FieldError(rule);
        return v;
      });
      if (new Set(nums).size !== nums.length) throw new FieldError(rule);
      return nums;
    },
    format: (v) => v.map(formatNumber).join(','),
  };
}

export function flagField(label: string, def: boolean): Field<boolean> {
  return {
    label,
    default: def,
    control: { kind: 'flag' },
    parse: (raw) => {
      if (raw !== '0' && raw !== '1') throw new FieldError(`${label} must be 0 or 1`);
      return raw === '1';
    },
    format: (v) => (v ? '1' : '0'),
  };
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** A list of short strings (e.g. recorded step choices), packed as base64url JSON. */
export function stringListField(label: string, o: { maxItems: number; maxLength: number }): Field<string[]> {
  return {
    label,
    default: [],
    control: { kind: 'hidden' },
    parse: (raw) => {
      const rule = `${label} is not a list this lab wrote (at most ${o.maxItems} entries)`;
      if (!BASE64URL.test(raw)) throw new FieldError(rule);
      let list: unknown;
      try {
        list = JSON.parse(fromBase64Url(raw));
      } catch {
        throw new FieldError(rule);
      }
      if (!Array.isArray(list) || list.length > o.maxItems || list.some((s) => typeof s !== 'string' || s.length > o.maxLength)) {
        throw new FieldError(rule);
      }
      return list as string[];
    },
    format: (v) => (v.length === 0 ? '' : toBase64Url(JSON.stringify(v))),
  };
}

/** The engines as choices, in the catalogue's order, labelled by language. */
export const ENGINE_OPTIONS: readonly { value: EngineName; label: string }[] = ENGINES.map((e) => ({ value: e.name, label: e.language }));
