// The whole screen as plain data: which view, its knobs, the seed and the step. Everything a
// URL must carry to reproduce a screen is declared here, group by group.
import {
  choiceField,
  flagField,
  integerField,
  multiField,
  numberField,
  numberListField,
  optionalNumberField,
  stringListField,
  type Field,
  type FieldValues,
} from './fields.ts';
import { INSTANCE_TYPES } from '../cost/catalogue.ts';

export const VIEWS = [
  { id: 'cluster', label: 'Cluster', audience: 'step through Paxos' },
  { id: 'lab', label: 'Lab', audience: 'turn the paper’s knobs' },
  { id: 'race', label: 'Race', audience: 'four languages, one squeeze' },
  { id: 'paper', label: 'Paper', audience: 'every stated number' },
  { id: 'cost', label: 'Cost', audience: 'what GC costs you' },
] as const;
export type View = (typeof VIEWS)[number]['id'];

const ENGINE_OPTIONS = [
  { value: 'cpp', label: 'C++' },
  { value: 'rust', label: 'Rust' },
  { value: 'go', label: 'Go' },
  { value: 'java', label: 'Java' },
] as const;

export const TOP_FIELDS = {
  view: choiceField<View>('View', 'paper', VIEWS.map((v) => ({ value: v.id, label: v.label }))),
  seed: integerField('Seed', 1, { min: 0, max: 2 ** 31 - 1, help: 'same seed, same run, in every browser' }),
  presenter: flagField('Presenter mode', false),
};

export const CLUSTER_FIELDS = {
  engine: choiceField('Engine', 'go', [...ENGINE_OPTIONS, { value: 'all', label: 'all four' }] as const),
  nodes: choiceField('Nodes', '3', [
    { value: '3', label: '3 nodes' },
    { value: '5', label: '5 nodes' },
  ] as const),
  /** The step shown; 0 means the last recorded one (booting alone takes a step per node). */
  step: integerField('Step', 0, { min: 0, max: 100_000 }),
  choices: stringListField('Recorded steps', { maxItems: 5_000, maxLength: 300 }),
  speed: choiceField('Speed', '1', [
    { value: '0.5', label: '½×' },
    { value: '1', label: '1×' },
    { value: '2', label: '2×' },
    { value: '4', label: '4×' },
  ] as const),
};

export const LAB_FIELDS = {
  engines: multiField('Engines', ['cpp', 'rust', 'go', 'java'], ENGINE_OPTIONS),
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
  duration: integerField('Measured window', 10, { min: 1, max: 600, unit: 's' }),
  slo: numberField('SLO: p99 at most', 20, { min: 0.1, max: 10_000, step: 0.1, unit: 'ms' }),
  lat: optionalNumberField('Network one-way latency', { min: 0, max: 1_000_000, unit: 'µs', placeholder: 'model card' }),
  fid: choiceField('Fidelity', 'fast', [
    { value: 'fast', label: 'fast (statistical GC model)' },
    { value: 'exact', label: 'exact (every event)' },
  ] as const),
};

export const RACE_FIELDS = {
  step: integerField('Squeeze step', 0, { min: 0, max: 3 }),
  rate: integerField('Offered load', 15_000, { min: 100, max: 1_000_000, unit: 'ops/s' }),
  wl: choiceField('Workload', 'A', [
    { value: 'A', label: 'A (update-heavy)' },
    { value: 'B', label: 'B (read-heavy)' },
  ] as const),
};

export const PAPER_FIELDS = {
  fig: choiceField('Figure', 'all', [
    { value: 'all', label: 'all' },
    { value: 'fig3', label: 'Fig 3' },
    { value: 'fig4', label: 'Fig 4' },
    { value: 'fig5', label: 'Fig 5' },
    { value: 'fig6', label: 'Fig 6' },
    { value: 'fig7', label: 'Fig 7' },
    { value: 'fig8', label: 'Fig 8' },
    { value: 'fig9', label: 'Fig 9' },
    { value: 'fig10', label: 'Fig 10' },
    { value: 'fig11', label: 'Fig 11' },
    { value: 'fig12', label: 'Fig 12' },
    { value: 'fig13', label: 'Fig 13' },
    { value: 'table1', label: 'Table 1' },
  ] as const),
  overlays: flagField('Show simulated and native results', true),
};

const LANGUAGE_OPTION = (v: 'cpp' | 'java' | 'go' | 'rust', label: string) => ({ value: v, label });

export const COST_FIELDS = {
  ops: numberField('Demand now', 200_000, { min: 1, max: 1e9, step: 1000, unit: 'ops/s' }),
  growth: choiceField('Growth', 'exponential', [
    { value: 'exponential', label: '% per month' },
    { value: 'linear', label: 'ops/s per month' },
    { value: 'constant', label: 'none' },
  ] as const),
  pct: numberField('Growth per month', 7, { min: -100, max: 1000, step: 0.5, unit: '%' }),
  linear: numberField('Added per month', 5_000, { min: -1e9, max: 1e9, step: 1000, unit: 'ops/s' }),
  horizon: integerField('Horizon', 60, { min: 1, max: 600, unit: 'months' }),
  wl: choiceField('Workload', 'A', [
    { value: 'A', label: 'A (update-heavy)' },
    { value: 'B', label: 'B (read-heavy)' },
  ] as const),
  ratio: choiceField('Memory : data ratio', '8', [
    { value: '8', label: '8 (32 GiB, ample)' },
    { value: '2', label: '2 (8 GiB)' },
    { value: '1.5', label: '1.5 (6 GiB)' },
    { value: '1.25', label: '1.25 (5 GiB, limited)' },
  ] as const),
  vcpus: choiceField('vCPUs', '8', [
    { value: '8', label: '8' },
    { value: '4', label: '4' },
    { value: '2', label: '2' },
  ] as const),
  instance: choiceField('Instance', 'm5.2xlarge', INSTANCE_TYPES.map((i) => ({ value: i.name, label: `${i.name} ($${i.usd_per_hour}/h)` }))),
  nodes: choiceField('Nodes per cluster', '3', [
    { value: '3', label: '3' },
    { value: '5', label: '5' },
  ] as const),
  gc: choiceField('GC language', 'java', [LANGUAGE_OPTION('java', 'Java'), LANGUAGE_OPTION('go', 'Go')]),
  nongc: choiceField('Non-GC language', 'cpp', [LANGUAGE_OPTION('cpp', 'C++'), LANGUAGE_OPTION('rust', 'Rust')]),
  capcpp: optionalNumberField('C++ capacity per cluster', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  caprust: optionalNumberField('Rust capacity per cluster', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  capjava: optionalNumberField('Java capacity per cluster', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  capgo: optionalNumberField('Go capacity per cluster', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  savings: numberField('Savings-plan discount', 0, { min: 0, max: 100, step: 1, unit: '%' }),
  hours: numberField('Hours per month', 730, { min: 1, max: 744, step: 1 }),
  team: numberField('Team size', 2, { min: 0, max: 10_000, step: 1, unit: 'engineers' }),
  salary: numberField('Cost per engineer-year', 150_000, { min: 0, max: 1e8, step: 1000, unit: 'USD' }),
  effcpp: numberField('Effort multiplier C++', 2, { min: 0.01, max: 100, step: 0.1, unit: '×' }),
  effrust: numberField('Effort multiplier Rust', 2, { min: 0.01, max: 100, step: 0.1, unit: '×' }),
  effjava: numberField('Effort multiplier Java', 1, { min: 0.01, max: 100, step: 0.1, unit: '×' }),
  effgo: numberField('Effort multiplier Go', 1, { min: 0.01, max: 100, step: 0.1, unit: '×' }),
  maint: numberField('Maintenance growth', 3, { min: -100, max: 1000, step: 0.5, unit: '% per year' }),
  pert: numberField('Sensitivity perturbation', 20, { min: 0.1, max: 99, step: 1, unit: '%' }),
};

/** The groups, in URL order, with their key prefixes. */
export const GROUPS = {
  cluster: { prefix: 'c', fields: CLUSTER_FIELDS },
  lab: { prefix: 'lab', fields: LAB_FIELDS },
  race: { prefix: 'race', fields: RACE_FIELDS },
  paper: { prefix: 'paper', fields: PAPER_FIELDS },
  cost: { prefix: 'cost', fields: COST_FIELDS },
} as const;

export type GroupName = keyof typeof GROUPS;
export type ClusterState = FieldValues<typeof CLUSTER_FIELDS>;
export type LabState = FieldValues<typeof LAB_FIELDS>;
export type RaceState = FieldValues<typeof RACE_FIELDS>;
export type PaperState = FieldValues<typeof PAPER_FIELDS>;
export type CostState = FieldValues<typeof COST_FIELDS>;

export interface AppState {
  view: View;
  seed: number;
  presenter: boolean;
  cluster: ClusterState;
  lab: LabState;
  race: RaceState;
  paper: PaperState;
  cost: CostState;
}

export function defaultsOf<F extends Record<string, Field<unknown>>>(fields: F): FieldValues<F> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(fields)) out[k] = structuredClone(f.default);
  return out as FieldValues<F>;
}

export function defaultState(): AppState {
  return {
    view: TOP_FIELDS.view.default,
    seed: TOP_FIELDS.seed.default,
    presenter: TOP_FIELDS.presenter.default,
    cluster: defaultsOf(CLUSTER_FIELDS),
    lab: defaultsOf(LAB_FIELDS),
    race: defaultsOf(RACE_FIELDS),
    paper: defaultsOf(PAPER_FIELDS),
    cost: defaultsOf(COST_FIELDS),
  };
}
