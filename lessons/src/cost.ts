// The cost model's answer as a lesson reads it: the setting the Cost view asked about, each
// language's capacity per cluster and the break-even month (Fig 14's question). Every number
// here is the cost model's own output (cost-model/, its `estimate` command, run by the Cost
// view's Pyodide worker in the browser and by the same package in Node); nothing is priced here.

export const COST_METRICS = ['break_even_month', 'capacity_ops_per_s_per_cluster', 'horizon_months'] as const;
export type CostMetric = (typeof COST_METRICS)[number];

export function isCostMetric(m: string): m is CostMetric {
  return (COST_METRICS as readonly string[]).includes(m);
}

export interface CostReading {
  model: string;
  workload: string;
  ratio: number;
  vcpus: number;
  /** The two languages compared (the model's `compare`). */
  gc: string;
  non_gc: string;
  /** null: no break-even within the horizon. */
  break_even_month: number | null;
  horizon_months: number;
  /** null: the language cannot meet the SLO at this setting. */
  capacity_ops_per_s_per_cluster: Record<string, number | null>;
}

/** The inputs the model was given (only the fields read here). */
export interface CostInputsLike {
  cluster?: { workload?: string; memory_to_data_ratio?: number; vcpus?: number };
}

/** The model's `estimate` output (cost-model/README.md), only the fields read here. */
export interface EstimateLike {
  break_even: { gc: string; non_gc: string; month: number | null; horizon_months: number };
  languages: Record<string, { feasible: boolean; capacity_ops_per_s_per_cluster?: number }>;
  model: { name: string; version: string };
}

export function readEstimate(inputs: CostInputsLike, e: EstimateLike): CostReading {
  const c = inputs.cluster ?? {};
  return {
    model: `${e.model.name} ${e.model.version}`,
    workload: c.workload ?? 'A',
    ratio: c.memory_to_data_ratio ?? 8,
    vcpus: c.vcpus ?? 8,
    gc: e.break_even.gc,
    non_gc: e.break_even.non_gc,
    break_even_month: e.break_even.month,
    horizon_months: e.break_even.horizon_months,
    capacity_ops_per_s_per_cluster: Object.fromEntries(Object.entries(e.languages).map(([l, r]) => [l, r.feasible ? (r.capacity_ops_per_s_per_cluster ?? null) : null])),
  };
}

/**
 * A metric's value as compared: no break-even counts as never (infinitely late), a language
 * that cannot meet the SLO as no capacity (0). NaN when the language is not in the answer.
 */
export function costValue(r: CostReading, metric: CostMetric, language?: string): number {
  if (metric === 'break_even_month') return r.break_even_month ?? Number.POSITIVE_INFINITY;
  if (metric === 'horizon_months') return r.horizon_months;
  if (language === undefined || !(language in r.capacity_ops_per_s_per_cluster)) return Number.NaN;
  return r.capacity_ops_per_s_per_cluster[language] ?? 0;
}

export function formatCost(r: CostReading, metric: CostMetric, language?: string): string {
  if (metric === 'break_even_month') return r.break_even_month === null ? `never within ${r.horizon_months} months` : `month ${r.break_even_month}`;
  if (metric === 'horizon_months') return `${r.horizon_months} months`;
  if (language === undefined || !(language in r.capacity_ops_per_s_per_cluster)) return `no ${language ?? 'language'} in the answer`;
  const v = r.capacity_ops_per_s_per_cluster[language];
  return v === null || v === undefined ? `${language} cannot meet the SLO` : `${Math.round(v).toLocaleString('en-US')} ops/s per cluster`;
}

/** "cost:break_even_month" or "cost:capacity_ops_per_s_per_cluster:Java" as metric and language. */
export function parseCostExpression(expr: string): { metric: string; language?: string } {
  const [metric, ...rest] = expr.split(':');
  return rest.length > 0 ? { metric: metric!, language: rest.join(':') } : { metric: metric! };
}

export function describeCost(r: CostReading): string {
  return `cost model ${r.model}; workload ${r.workload}, memory:data ${r.ratio}, ${r.vcpus} vCPUs, ${r.non_gc} vs ${r.gc}`;
}
