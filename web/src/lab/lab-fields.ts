// The Lab's settings as the URL carries them (prefix `lab.`), and how its form groups them.
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import {
  ENGINE_OPTIONS,
  choiceField,
  integerField,
  multiField,
  numberField,
  numberListField,
  optionalNumberField,
  type FieldValues,
} from '../state/fields.ts';

/** The GC mitigations (docs/mitigation.md), for the Lab's knob and the Race's lanes. */
export const MITIGATION_OPTIONS = [
  { value: 'none', label: 'none' },
  { value: 'blade', label: 'BLADE (handoff + permission)' },
  { value: 'mitmem', label: 'MITMEM (busy + retry)' },
  { value: 'both', label: 'both' },
] as const;

export const LAB_FIELDS = {
  engines: multiField('Engines', ENGINE_NAMES, ENGINE_OPTIONS),
  memunit: choiceField('Memory as', 'ratio', [
    { value: 'ratio', label: 'memory : data ratio' },
    { value: 'gib', label: 'heap / limit in GiB' },
  ] as const),
  ratio: numberField('Memory : data ratio', 8, { min: 1, max: 16, step: 0.05, help: 'the paper: 8, 2, 1.5, 1.25 of a 4 GiB dataset' }),
  gib: numberField('Memory', 32, { min: 1, max: 384, step: 0.5, unit: 'GiB' }),
  sweep: choiceField('Sweep', 'memory', [
    { value: 'memory', label: 'memory (Fig 6/9 layout)' },
    { value: 'vcpus', label: 'vCPUs (Fig 7/10 layout)' },
  ] as const),
  ratios: numberListField('Ratios to sweep', [8, 2, 1.5, 1.25], { min: 1, max: 16, maxItems: 8 }),
  gibs: numberListField('Memory sizes to sweep', [32, 8, 6, 5], { min: 1, max: 384, maxItems: 8, unit: 'GiB' }),
  vcpus: integerField('vCPUs', 8, { min: 1, max: 96 }),
  vcpulist: numberListField('vCPUs to sweep', [8, 4, 2], { min: 1, max: 96, maxItems: 8 }),
  wl: choiceField('Workload', 'A', [
    { value: 'A', label: 'A: 50 % reads, 50 % updates' },
    { value: 'B', label: 'B: 95 % reads, 5 % updates' },
    { value: 'custom', label: 'custom' },
  ] as const),
  read: numberField('Read share', 0.5, { min: 0, max: 1, step: 0.05 }),
  value: integerField('Value size', 500, { min: 1, max: 65_536, unit: 'bytes' }),
  records: integerField('Records', 7_500_000, { min: 1, max: 100_000_000 }),
  dist: choiceField('Key distribution', 'zipfian', [
    { value: 'zipfian', label: 'zipfian (0.99)' },
    { value: 'uniform', label: 'uniform' },
    { value: 'latest', label: 'latest' },
  ] as const),
  rate: integerField('Target rate', 20_000, { min: 100, max: 1_000_000, unit: 'ops/s' }),
  threads: integerField('Client threads', 64, { min: 1, max: 4_096 }),
  loop: choiceField('Load', 'open', [
    { value: 'open', label: 'open loop (intended start)' },
    { value: 'closed', label: 'closed loop' },
  ] as const),
  duration: integerField('Shortest measured window', 10, { min: 1, max: 600, unit: 's', help: 'the model lengthens it to hold the rarest GC event that can decide the p99 (up to the paper’s 600 s)' }),
  slo: numberField('SLO: p99 at most', 20, { min: 0.1, max: 10_000, step: 0.1, unit: 'ms' }),
  lat: optionalNumberField('Network one-way latency', { min: 0, max: 1_000_000, unit: 'µs', placeholder: 'model card' }),
  mit: choiceField('GC mitigation', 'none', MITIGATION_OPTIONS, 'a sweep runs Go and Java again with it (how far it moves the memory cliff); a single run adds GC on and GC off (Table 7)'),
  dur: choiceField('Durability', 'none', [
    { value: 'none', label: 'none (the paper’s design)' },
    { value: 'ordered', label: 'ordered log (Raft, etcd, these engines)' },
    { value: 'scattered', label: 'scattered entries (FLEET; fast only)' },
  ] as const, 'where each node persists its log: not at all, in order inside the serialized log section, or entry by entry in parallel'),
  disk: choiceField('fsync device', 'cloud_block', [
    { value: 'cloud_block', label: 'cloud block volume (EBS gp3 class)' },
    { value: 'local_nvme', label: 'local NVMe (FLEET’s testbed drive)' },
  ] as const),
  fid: choiceField('Fidelity', 'fast', [
    { value: 'fast', label: 'fast (statistical GC model)' },
    { value: 'exact', label: 'exact (every event)' },
  ] as const),
};

export type LabState = FieldValues<typeof LAB_FIELDS>;

/** The form's groups, in order. */
export const LAB_FORM: { legend: string; keys: (keyof LabState)[] }[] = [
  { legend: 'Engines and model', keys: ['engines', 'fid', 'mit'] },
  { legend: 'Durability (single runs)', keys: ['dur', 'disk'] },
  { legend: 'Memory and vCPUs (per node)', keys: ['sweep', 'memunit', 'ratios', 'gibs', 'vcpulist', 'ratio', 'gib', 'vcpus'] },
  { legend: 'Workload (YCSB)', keys: ['wl', 'read', 'value', 'records', 'dist'] },
  { legend: 'Load and SLO', keys: ['rate', 'threads', 'loop', 'duration', 'slo', 'lat'] },
];

/** Whether a knob has no meaning for the current settings (and so is not shown). */
export function labKnobHidden(s: LabState, k: keyof LabState): boolean {
  if (k === 'ratio' || k === 'ratios') return s.memunit !== 'ratio' || (k === 'ratios' && s.sweep !== 'memory');
  if (k === 'gib' || k === 'gibs') return s.memunit !== 'gib' || (k === 'gibs' && s.sweep !== 'memory');
  if (k === 'vcpulist') return s.sweep !== 'vcpus';
  if (k === 'read') return s.wl !== 'custom';
  if (k === 'disk') return s.dur === 'none';
  return false;
}
