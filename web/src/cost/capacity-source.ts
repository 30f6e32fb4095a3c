// Where a capacity typed into the Cost view came from, as the URL carries it (cost.src<engine>):
// "sim:<model card version>" or "native:<YYYY-MM-DD>:<machine>"; empty: no source given (the
// paper's value when the capacity is empty, a value typed by hand otherwise).
import { FieldError, type Field } from '../state/fields.ts';

export type CapacitySource = { kind: 'simulated'; model: string } | { kind: 'native'; date: string; machine: string };

const MODEL_TEXT = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,39}$/;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;
// Printable text only: it is shown to people; control characters never are.
const MACHINE_MAX = 200;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function formatCapacitySource(s: CapacitySource | null): string {
  if (s === null) return '';
  return s.kind === 'simulated' ? `sim:${s.model}` : `native:${s.date}:${s.machine}`;
}

export function parseCapacitySource(raw: string, label: string): CapacitySource | null {
  const rule = `${label} must be empty, sim:<model card version> or native:<YYYY-MM-DD>:<machine> (at most ${MACHINE_MAX} characters)`;
  if (raw === '') return null;
  if (raw.startsWith('sim:')) {
    const model = raw.slice(4);
    if (!MODEL_TEXT.test(model)) throw new FieldError(rule);
    return { kind: 'simulated', model };
  }
  if (raw.startsWith('native:')) {
    const date = raw.slice(7, 17);
    const machine = raw.slice(18);
    const valid = DATE_TEXT.test(date) && !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && raw[17] === ':';
    if (!valid || machine.trim() === '' || machine.length > MACHINE_MAX || CONTROL.test(machine)) throw new FieldError(rule);
    return { kind: 'native', date, machine };
  }
  throw new FieldError(rule);
}

/** Not a form control: set by "price this", cleared when the capacity is typed by hand. */
export function capacitySourceField(label: string): Field<CapacitySource | null> {
  return {
    label,
    default: null,
    control: { kind: 'hidden' },
    parse: (raw) => parseCapacitySource(raw, label),
    format: formatCapacitySource,
  };
}

/** "simulated (model card 0.9.1)" / "native, 2026-11-22, <machine>" / the paper's. */
export function capacitySourceWords(capacity: number | null, s: CapacitySource | null): string {
  if (capacity === null) return s === null ? 'the paper’s measured value' : 'the paper’s measured value (the source given has no capacity with it)';
  if (s === null) return 'typed in by hand';
  return s.kind === 'simulated' ? `simulated with model card ${s.model}: an estimate, not a measurement` : `native run of ${s.date} on ${s.machine}`;
}
