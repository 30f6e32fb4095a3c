// The setting (workload, memory:data ratio, vCPUs) that "price this" capacities were measured
// at, as the URL carries it (cost.at for the form's capacities, cost.vsat for the compared
// ratio's): "A/8/8". A priced capacity belongs to that setting only; once the form's setting
// moves away from it, it is flagged and left out of the model (never silently reused). Pure.
import { ENGINE_NAMES, type EngineName } from '@replicant/engines/loader/catalogue';
import { FieldError, type Field } from '../state/fields.ts';

export interface CostSetting {
  workload: string;
  ratio: string;
  vcpus: string;
}

const WORKLOADS = ['A', 'B'];
const RATIOS = ['8', '2', '1.5', '1.25'];
const VCPUS = ['8', '4', '2'];

export function formatSetting(s: CostSetting | null): string {
  return s === null ? '' : `${s.workload}/${s.ratio}/${s.vcpus}`;
}

export function parseSetting(raw: string, label: string): CostSetting | null {
  if (raw === '') return null;
  const [workload, ratio, vcpus, ...rest] = raw.split('/');
  if (rest.length || !WORKLOADS.includes(workload!) || !RATIOS.includes(ratio!) || !VCPUS.includes(vcpus!)) {
    throw new FieldError(`${label} must be empty or <workload ${WORKLOADS.join('|')}>/<ratio ${RATIOS.join('|')}>/<vCPUs ${VCPUS.join('|')}>, e.g. A/8/8`);
  }
  return { workload: workload!, ratio: ratio!, vcpus: vcpus! };
}

/** Not a form control: set by "price this" beside the capacities it sets. */
export function settingField(label: string): Field<CostSetting | null> {
  return { label, default: null, control: { kind: 'hidden' }, parse: (raw) => parseSetting(raw, label), format: formatSetting };
}

export function settingWords(s: CostSetting): string {
  return `workload ${s.workload}, ratio ${s.ratio}, ${s.vcpus} vCPUs`;
}

export function sameSetting(a: CostSetting, b: CostSetting): boolean {
  return a.workload === b.workload && a.ratio === b.ratio && a.vcpus === b.vcpus;
}

/** What the Cost state needs for this (a subset, so tests can build it by hand). */
export type PricedFields = {
  wl: string;
  ratio: string;
  vs: string;
  vcpus: string;
  at: CostSetting | null;
  vsat: CostSetting | null;
} & Record<`cap${EngineName}` | `vscap${EngineName}`, number | null>
  & Record<`src${EngineName}` | `vssrc${EngineName}`, unknown>;

export type Side = 'form' | 'vs';

/** The form's side is at its ratio; the compared side at the "compare with" ratio. */
export function settingOf(c: PricedFields, side: Side): CostSetting {
  return { workload: c.wl, ratio: side === 'form' ? c.ratio : c.vs, vcpus: c.vcpus };
}

export interface StalePriced {
  side: Side;
  /** Where the capacities were priced. */
  at: CostSetting;
  /** The setting the form asks for now. */
  now: CostSetting;
  engines: EngineName[];
}

function capOf(c: PricedFields, side: Side, e: EngineName): number | null {
  return side === 'form' ? c[`cap${e}`] : c[`vscap${e}`];
}

function srcOf(c: PricedFields, side: Side, e: EngineName): unknown {
  return side === 'form' ? c[`src${e}`] : c[`vssrc${e}`];
}

/** The priced capacities of one side that belong to another setting than the one asked for now. */
export function stalePriced(c: PricedFields, side: Side): StalePriced | null {
  const at = side === 'form' ? c.at : c.vsat;
  if (at === null) return null;
  const now = settingOf(c, side);
  if (sameSetting(at, now)) return null;
  const engines = ENGINE_NAMES.filter((e) => capOf(c, side, e) !== null && srcOf(c, side, e) !== null);
  return engines.length ? { side, at, now, engines } : null;
}

/** The capacity the model may use for an engine on one side: null when empty or stale. */
export function usableCapacity(c: PricedFields, side: Side, e: EngineName): number | null {
  const stale = stalePriced(c, side);
  return stale?.engines.includes(e) ? null : capOf(c, side, e);
}

/** The sentence that flags a side's stale capacities. */
export function staleSentence(s: StalePriced, language: (e: EngineName) => string): string {
  const changed = (['workload', 'ratio', 'vcpus'] as const).filter((k) => s.at[k] !== s.now[k]).map((k) => (k === 'vcpus' ? 'vCPUs' : k));
  const names = s.engines.map(language).join(', ');
  const what = s.side === 'form' ? 'the form' : 'the compared side';
  return `The capacities from “price this” (${names}) were measured at ${settingWords(s.at)}; ${what} now asks for ${settingWords(s.now)} (${changed.join(', ')} changed). They belong to the old setting, so the model does not use them: it uses the paper’s values instead.`;
}
