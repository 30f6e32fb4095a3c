// The Cost view's settings as the URL carries them (prefix `cost.`), and how its form groups them.
import { ENGINES } from '@replicant/engines/loader/catalogue';
import { choiceField, integerField, numberField, optionalNumberField, type FieldValues } from '../state/fields.ts';
import { INSTANCE_TYPES } from './catalogue.ts';
import { capacitySourceField } from './capacity-source.ts';

const languageChoices = (gc: boolean) => ENGINES.filter((e) => e.gc === gc).map((e) => ({ value: e.name, label: e.language }));

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
  gc: choiceField('GC language', 'java', languageChoices(true)),
  nongc: choiceField('Non-GC language', 'cpp', languageChoices(false)),
  capcpp: optionalNumberField('C++ capacity per cluster', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  caprust: optionalNumberField('Rust capacity per cluster', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  capjava: optionalNumberField('Java capacity per cluster', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  capgo: optionalNumberField('Go capacity per cluster', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  // Where each capacity above came from (set by "price this" on a result; see capacity-source.ts).
  srccpp: capacitySourceField('Source of the C++ capacity'),
  srcrust: capacitySourceField('Source of the Rust capacity'),
  srcjava: capacitySourceField('Source of the Java capacity'),
  srcgo: capacitySourceField('Source of the Go capacity'),
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

export type CostState = FieldValues<typeof COST_FIELDS>;

/** The form's groups, in order. */
export const COST_FORM: { legend: string; keys: (keyof CostState)[] }[] = [
  { legend: 'Demand', keys: ['ops', 'growth', 'pct', 'linear', 'horizon'] },
  { legend: 'Cluster (per the paper: m5.2xlarge, 3 nodes)', keys: ['wl', 'ratio', 'vcpus', 'instance', 'nodes'] },
  { legend: 'Compare', keys: ['gc', 'nongc'] },
  { legend: 'Capacity at p99 ≤ 20 ms (empty: the paper’s measured value)', keys: ['capcpp', 'caprust', 'capjava', 'capgo'] },
  { legend: 'Pricing', keys: ['savings', 'hours'] },
  { legend: 'Development', keys: ['team', 'salary', 'effcpp', 'effrust', 'effjava', 'effgo', 'maint'] },
  { legend: 'Sensitivity', keys: ['pert'] },
];
