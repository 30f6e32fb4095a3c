// The Cost view's settings as the URL carries them (prefix `cost.`), and how its form groups them.
import { ENGINES, type EngineName } from '@replicant/engines/loader/catalogue';
import { choiceField, integerField, numberField, optionalNumberField, type Field, type FieldValues } from '../state/fields.ts';
import { INSTANCE_TYPES } from './catalogue.ts';
import { capacitySourceField } from './capacity-source.ts';
import { settingField } from './priced-setting.ts';

const languageChoices = (gc: boolean) => ENGINES.filter((e) => e.gc === gc).map((e) => ({ value: e.name, label: e.language }));

type Engine = (typeof ENGINES)[number];

/** One field per engine under the keys `${prefix}${engine}` (capcpp, capjava, …), in the catalogue's order. */
function perEngine<P extends string, T>(prefix: P, field: (e: Engine) => Field<T>): Record<`${P}${EngineName}`, Field<T>> {
  return Object.fromEntries(ENGINES.map((e) => [`${prefix}${e.name}`, field(e)])) as Record<`${P}${EngineName}`, Field<T>>;
}

/** The keys perEngine(prefix, …) declares, in the same order. */
function engineKeys<P extends string>(prefix: P): `${P}${EngineName}`[] {
  return ENGINES.map((e) => `${prefix}${e.name}` as const);
}

const capacityField = (label: string) => optionalNumberField(label, { min: 1, max: 1e9, unit: 'ops/s', placeholder: 'the paper’s' });

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
  ...perEngine('cap', (e) => capacityField(`${e.language} capacity per cluster`)),
  // Where each capacity above came from (set by "price this" on a result; see capacity-source.ts).
  ...perEngine('src', (e) => capacitySourceField(`Source of the ${e.language} capacity`)),
  // The setting the capacities above were priced at (see priced-setting.ts).
  at: settingField('Setting the priced capacities were measured at'),
  // Tight vs ample: the same cluster at a second memory ratio, with its own capacities.
  vs: choiceField('Compare with memory : data ratio', '1.25', RATIO_CHOICES),
  ...perEngine('vscap', (e) => capacityField(`${e.language} capacity at the compared ratio`)),
  ...perEngine('vssrc', (e) => capacitySourceField(`Source of the ${e.language} capacity at the compared ratio`)),
  vsat: settingField('Setting the compared ratio’s priced capacities were measured at'),
  savings: numberField('Savings-plan discount', 0, { min: 0, max: 100, step: 1, unit: '%' }),
  hours: numberField('Hours per month', 730, { min: 1, max: 744, step: 1 }),
  team: numberField('Team size', 2, { min: 0, max: 10_000, step: 1, unit: 'engineers' }),
  salary: numberField('Cost per engineer-year', 150_000, { min: 0, max: 1e8, step: 1000, unit: 'USD' }),
  // The paper's §6 / Fig 14(b): manual memory management starts at twice a GC language's effort.
  ...perEngine('eff', (e) => numberField(`Effort multiplier ${e.language}`, e.gc ? 1 : 2, { min: 0.01, max: 100, step: 0.1, unit: '×' })),
  maint: numberField('Maintenance growth', 3, { min: -100, max: 1000, step: 0.5, unit: '% per year' }),
  pert: numberField('Sensitivity perturbation', 20, { min: 0.1, max: 99, step: 1, unit: '%' }),
};

export type CostState = FieldValues<typeof COST_FIELDS>;

/** The form's groups, in order. */
export const COST_FORM: { legend: string; keys: (keyof CostState)[] }[] = [
  { legend: 'Demand', keys: ['ops', 'growth', 'pct', 'linear', 'horizon'] },
  { legend: 'Cluster (per the paper: m5.2xlarge, 3 nodes)', keys: ['wl', 'ratio', 'vcpus', 'instance', 'nodes'] },
  { legend: 'Compare', keys: ['gc', 'nongc'] },
  { legend: 'Capacity at p99 ≤ 20 ms (empty: the paper’s measured value)', keys: engineKeys('cap') },
  { legend: 'Tight vs ample memory: compare with a second ratio (empty capacity: the paper’s)', keys: ['vs', ...engineKeys('vscap')] },
  { legend: 'Pricing', keys: ['savings', 'hours'] },
  { legend: 'Development', keys: ['team', 'salary', ...engineKeys('eff'), 'maint'] },
  { legend: 'Sensitivity', keys: ['pert'] },
];
