// What the cost model prints (estimate and sensitivity, JSON), and the charts' data from it.
import { LANGUAGES } from '@replicant/engines/loader/catalogue';
import type { ChartPoint, ChartSeries } from '../charts/types.ts';

export interface MonthRow {
  month: number;
  demand_ops_per_s: number;
  clusters: number;
  instances: number;
  cloud_usd_per_month: number;
  dev_usd_per_month: number;
  total_usd_per_month: number;
  cumulative_cloud_usd: number;
  cumulative_dev_usd: number;
  cumulative_total_usd: number;
}

export interface LanguageResult {
  feasible: boolean;
  reason?: string;
  capacity_ops_per_s_per_cluster?: number;
  capacity_rows?: string[];
  capacity_from?: string;
  effort_multiplier: number;
  months?: MonthRow[];
  totals?: { cloud_usd: number; dev_usd: number; total_usd: number; peak_clusters: number; peak_instances: number };
}

export interface EstimateOutput {
  command: 'estimate';
  assumptions: string[];
  break_even: { gc: string; non_gc: string; month: number | null; horizon_months: number; rule: string };
  languages: Record<string, LanguageResult>;
  model: { name: string; version: string };
  sources: {
    instance: { name: string; usd_per_hour: number; retrieved_on: string; price_from: string };
    capacity_file: string;
    defaults: Record<string, string>;
  };
}

export interface SensitivityRow {
  input: string;
  base_value: number;
  low_value: number;
  high_value: number;
  break_even_month_low: number | null;
  break_even_month_high: number | null;
  swing_months: number;
}

export interface SensitivityOutput {
  command: 'sensitivity';
  base_break_even_month: number | null;
  most_influential: string;
  perturbation_pct: number;
  ranking_rule: string;
  table: SensitivityRow[];
}


export function usd(v: number): string {
  if (Math.abs(v) >= 1e6) return `$${(v / 1e6).toFixed(2)} M`;
  if (Math.abs(v) >= 1e3) return `$${(v / 1e3).toFixed(1)} k`;
  return `$${v.toFixed(0)}`;
}

/** One series per feasible language of a month-by-month quantity. */
export function monthSeries(out: EstimateOutput, pick: (m: MonthRow) => number, unit: string): ChartSeries[] {
  return LANGUAGES.filter((l) => out.languages[l]?.feasible && out.languages[l]?.months).map((lang) => ({
    name: lang,
    styleKey: lang,
    kind: 'paper' as const,
    points: out.languages[lang]!.months!.map(
      (m): ChartPoint => ({
        x: m.month,
        y: pick(m),
        status: 'stated',
        detail: { heading: `${lang}, month ${m.month}: ${unit === 'USD' ? usd(pick(m)) : `${pick(m)} ${unit}`}`, lines: [`${m.clusters} clusters, ${m.instances} instances, demand ${Math.round(m.demand_ops_per_s)} ops/s`] },
      }),
    ),
  }));
}

/** The sentence under the cumulative-cost chart. */
export function breakEvenSentence(out: EstimateOutput): string {
  const { gc, non_gc, month, horizon_months } = out.break_even;
  const g = out.languages[gc]?.totals;
  const n = out.languages[non_gc]?.totals;
  const totals = g && n ? ` After ${horizon_months} months ${non_gc} has cost ${usd(n.total_usd)} in all and ${gc} ${usd(g.total_usd)}.` : '';
  if (month === null) return `Within ${horizon_months} months ${non_gc} never catches up with ${gc}: its extra development cost outweighs the cloud it saves.${totals}`;
  if (month === 1) return `${non_gc} is cheaper than ${gc} from the first month: the cloud it saves already exceeds its extra development cost.${totals}`;
  return `${non_gc} costs more than ${gc} at first (development), but its smaller cloud bill catches up in month ${month}: from then on its cumulative cost is the lower.${totals}`;
}

export function infeasibleNotes(out: EstimateOutput): string[] {
  return LANGUAGES.filter((l) => out.languages[l] && !out.languages[l]!.feasible).map((l) => `${l}: ${out.languages[l]!.reason ?? 'cannot meet the SLO'}`);
}
