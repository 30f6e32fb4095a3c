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


const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** A count (instances, ops/s) as people read it: 166,668 up to a billion, then powers of ten. */
export function countText(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'not a number' : 'beyond 10³⁰⁸';
  if (Math.abs(v) < 1e9) return Math.round(v).toLocaleString('en-US');
  const [mantissa, exponent] = Math.abs(v).toExponential(1).split('e');
  const power = String(Number(exponent)).split('').map((d) => SUPERSCRIPT[Number(d)]).join('');
  return `${v < 0 ? '−' : ''}${mantissa} × 10${power}`;
}

/**
 * Dollars as people read them, however absurd the inputs: $950, $12.3 k, $4.56 M, $7.89 B,
 * $1.23 T, then powers of ten ("$1.2 × 10¹⁸²"), never "$1.2e182 M" nor a 40-digit string.
 */
export function usd(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'not a number' : v > 0 ? 'beyond $10³⁰⁸' : 'below −$10³⁰⁸';
  const sign = v < 0 ? '−' : '';
  const a = Math.abs(v);
  if (a >= 1e15) {
    const [mantissa, exponent] = a.toExponential(1).split('e');
    const power = String(Number(exponent)).split('').map((d) => SUPERSCRIPT[Number(d)]).join('');
    return `${sign}$${mantissa} × 10${power}`;
  }
  if (a >= 1e12) return `${sign}$${(a / 1e12).toFixed(2)} T`;
  if (a >= 1e9) return `${sign}$${(a / 1e9).toFixed(2)} B`;
  if (a >= 1e6) return `${sign}$${(a / 1e6).toFixed(2)} M`;
  if (a >= 1e3) return `${sign}$${(a / 1e3).toFixed(1)} k`;
  return `${sign}$${a.toFixed(0)}`;
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
        detail: { heading: `${lang}, month ${m.month}: ${unit === 'USD' ? usd(pick(m)) : `${countText(pick(m))} ${unit}`}`, lines: [`${countText(m.clusters)} clusters, ${countText(m.instances)} instances, demand ${countText(m.demand_ops_per_s)} ops/s`] },
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
