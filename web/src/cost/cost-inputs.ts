// The cost form's state as the cost model's inputs (cost-model/README.md, "Use"). Every input
// is written out, defaults included, so an exported inputs file documents itself.
import { ENGINES, LANGUAGES, languageOf } from '@replicant/engines/loader/catalogue';
import type { CostState } from './cost-fields.ts';
import { usableCapacity, type Side } from './priced-setting.ts';

export interface CostInputs {
  horizon_months: number;
  demand: { ops_per_s_now: number; growth: { kind: 'exponential'; pct_per_month: number } | { kind: 'linear'; ops_per_s_per_month: number } | { kind: 'constant' } };
  cluster: { workload: 'A' | 'B'; memory_to_data_ratio: number; vcpus: number; instance_type: string; nodes_per_cluster: number };
  languages: string[];
  compare: { gc: string; non_gc: string };
  capacity: { ops_per_s_per_cluster: Record<string, number> };
  pricing: { hours_per_month: number; savings_plan_discount_pct: number };
  development: { team_size: number; usd_per_engineer_year: number; effort_multiplier: Record<string, number>; maintenance_growth_pct_per_year: number };
  sensitivity: { perturbation_pct: number };
}

/** One side's capacities by language; a priced capacity of another setting is left out. */
function capacitiesOf(s: CostState, side: Side): Record<string, number> {
  const capacity: Record<string, number> = {};
  for (const e of ENGINES) {
    const v = usableCapacity(s, side, e.name);
    if (v !== null) capacity[e.language] = v;
  }
  return capacity;
}

/** The memory command's inputs: the form's cluster and a second memory ratio with its capacities. */
export function toMemoryInputs(s: CostState): CostInputs & { other_memory: { memory_to_data_ratio: number; ops_per_s_per_cluster: Record<string, number> } } {
  return { ...toCostInputs(s), other_memory: { memory_to_data_ratio: Number(s.vs), ops_per_s_per_cluster: capacitiesOf(s, 'vs') } };
}

export function toCostInputs(s: CostState): CostInputs {
  const growth =
    s.growth === 'exponential'
      ? { kind: 'exponential' as const, pct_per_month: s.pct }
      : s.growth === 'linear'
        ? { kind: 'linear' as const, ops_per_s_per_month: s.linear }
        : { kind: 'constant' as const };
  const capacity = capacitiesOf(s, 'form');
  return {
    horizon_months: s.horizon,
    demand: { ops_per_s_now: s.ops, growth },
    cluster: { workload: s.wl, memory_to_data_ratio: Number(s.ratio), vcpus: Number(s.vcpus), instance_type: s.instance, nodes_per_cluster: Number(s.nodes) },
    languages: [...LANGUAGES],
    compare: { gc: languageOf(s.gc), non_gc: languageOf(s.nongc) },
    capacity: { ops_per_s_per_cluster: capacity },
    pricing: { hours_per_month: s.hours, savings_plan_discount_pct: s.savings },
    development: {
      team_size: s.team,
      usd_per_engineer_year: s.salary,
      effort_multiplier: Object.fromEntries(ENGINES.map((e) => [e.language, s[`eff${e.name}` as const]])),
      maintenance_growth_pct_per_year: s.maint,
    },
    sensitivity: { perturbation_pct: s.pert },
  };
}
