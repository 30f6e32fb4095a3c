// The whole screen as plain data: which view, its knobs, the seed and the step. Each view
// declares its own fields beside it; this module only composes them, group by group, into
// what a URL must carry to reproduce a screen.
import { choiceField, flagField, integerField, type Field, type FieldValues } from './fields.ts';
import { HOME_VIEW, VIEWS, type View } from './views.ts';
import { CLUSTER_FIELDS, type ClusterState } from '../cluster/cluster-fields.ts';
import { LAB_FIELDS, type LabState } from '../lab/lab-fields.ts';
import { RACE_FIELDS, type RaceState } from '../race/race-fields.ts';
import { PAPER_FIELDS, type PaperState } from '../paper/paper-fields.ts';
import { COST_FIELDS, type CostState } from '../cost/cost-fields.ts';
import { LEARN_FIELDS, type LearnState } from '../learn/learn-fields.ts';

export const TOP_FIELDS = {
  view: choiceField<View>('View', 'home', [HOME_VIEW, ...VIEWS].map((v) => ({ value: v.id, label: v.label }))),
  seed: integerField('Seed', 1, { min: 0, max: 2 ** 31 - 1, help: 'same seed, same run, in every browser' }),
  presenter: flagField('Presenter mode', false),
};

/** The groups, in URL order, with their key prefixes. */
export const GROUPS = {
  cluster: { prefix: 'c', fields: CLUSTER_FIELDS },
  lab: { prefix: 'lab', fields: LAB_FIELDS },
  race: { prefix: 'race', fields: RACE_FIELDS },
  paper: { prefix: 'paper', fields: PAPER_FIELDS },
  cost: { prefix: 'cost', fields: COST_FIELDS },
  learn: { prefix: 'learn', fields: LEARN_FIELDS },
} as const;

export type GroupName = keyof typeof GROUPS;

export interface AppState {
  view: View;
  seed: number;
  presenter: boolean;
  cluster: ClusterState;
  lab: LabState;
  race: RaceState;
  paper: PaperState;
  cost: CostState;
  learn: LearnState;
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
    learn: defaultsOf(LEARN_FIELDS),
  };
}
