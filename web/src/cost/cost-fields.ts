// The Cost view's settings as the URL carries them (prefix `cost.`), and how its form groups them.
import { ENGINES } from '@replicant/engines/loader/catalogue';
import { choiceField, integerField, numberField, optionalNumberField, type FieldValues } from '../state/fields.ts';
import { INSTANCE_TYPES } from './catalogue.ts';
import { capacitySourceField } from './capacity-source.ts';
import { settingField } from './priced-setting.ts';

const languageChoices = (gc: boolean) => ENGINES.filter((e) => e.gc === gc).map((e) => ({ value: e.name, label: e.language }));

const RATIO_CHOICES = [
  { value: '8', label: '8 (32 GiB, ample)' },
  { value: '2', label: '2 (8 GiB)' },
  { value: '1.5', label: '1.5 (6 GiB)' },
  { value: '1.25', label: '1.25 (5 GiB, limited)' },
] as const;

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
  ratio: choiceField('Memory : data ratio', '8', RATIO_CHOICES),
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
  // The setting the capacities above were priced at (see priced-setting.ts).
  at: settingField('Setting the priced capacities were measured at'),
  // Tight vs ample: the same cluster at a second memory ratio, with its own capacities.
  vs: choiceField('Compare with memory : data ratio', '1.25', RATIO_CHOICES),
  vscapcpp: optionalNumberField('C++ capacity at the compared ratio', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  vscaprust: optionalNumberField('Rust capacity at the compared ratio', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  vscapjava: optionalNumberField('Java capacity at the compared ratio', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  vscapgo: optionalNumberField('Go capacity at the compared ratio', { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' }),
  vssrccpp: capacitySourceField('Source of the C++ capacity at the compared ratio'),
  vssrcrust: capacitySourceField('Source of the Rust capacity at the compared ratio'),
  vssrcjava: capacitySourceField('Source of the Java capacity at the compared ratio'),
  vssrcgo: capacitySourceField('Source of the Go capacity at the compared ratio'),
  vsat: settingField('Setting the compared ratio’s priced capacities were measured at'),
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
  { legend: 'Tight vs ample memory: compare with a second ratio (empty capacity: the paper’s)', keys: ['vs', 'vscapcpp', 'vscaprust', 'vscapjava', 'vscapgo'] },
  { legend: 'Pricing', keys: ['savings', 'hours'] },
  { legend: 'Development', keys: ['team', 'salary', 'effcpp', 'effrust', 'effjava', 'effgo', 'maint'] },
  { legend: 'Sensitivity', keys: ['pert'] },
];
