// The simulator's results as chart series, next to the paper's published points. Pure: every
// number drawn is the simulator's or the paper's, and each says which.
import { languageOf, type EngineName } from '@replicant/engines/loader/catalogue';
import type { RunResult, SweepResult } from '@replicant/sim/api';
import type { ChartPoint, ChartSeries } from '../charts/types.ts';
import { formatValue, rowDetail } from '../paper/panel-model.ts';
import type { ResultRow } from '../paper/results.ts';
import type { LabState } from './lab-fields.ts';
import { TOLERANCE_PERCENT, UTILIZATION_TOLERANCE_PP, limitFor } from '@replicant/sim/fidelity/misses';
import { memoryAxisGib } from './lab-spec.ts';

export const lang = languageOf;

/** The sweep's x values in the order the sweep visits them. */
export function sweepAxis(s: LabState): number[] {
  return s.sweep === 'vcpus' ? s.vcpulist : memoryAxisGib(s);
}

function simulatedLine(model: string, seed: number | undefined): string {
  return `Simulated by model card ${model}${seed === undefined ? '' : `, seed ${seed}`}: not a measurement.`;
}

/**
 * Max throughput at the SLO per engine along the sweep's axis. Points are matched to the axis
 * by position (engine-major order, as the simulator visits them), so a ratio sweep lines up
 * with the paper's GiB even if the model sizes the dataset a little differently.
 */
export function sweepSeries(sweep: SweepResult, s: LabState, seed: number, rows: ResultRow[] = []): ChartSeries[] {
  const axis = sweepAxis(s);
  const fid = sweepFidelity(sweep, s, rows);
  return s.engines
    .map((engine): ChartSeries => {
      const own = sweep.points.filter((p) => p.engine === engine);
      const points = own.slice(0, axis.length).map((p, i): ChartPoint => {
        const x = axis[i]!;
        const max = p.result.max_ops_per_s_at_slo;
        const minRate = p.result.probes[0]?.target_ops_per_s ?? 100;
        const y = max === null ? minRate / 1000 : max / 1000;
        return {
          x,
          y,
          status: 'simulated',
          label: max === null ? `<${formatValue(y)}` : formatValue(y),
          detail: {
            heading: `${lang(engine)} · ${s.sweep === 'vcpus' ? `${x} vCPUs` : `${x} GiB`}: ${max === null ? `cannot meet the SLO even at ${formatValue(y)}` : formatValue(y)} Kops/s (simulated)`,
            lines: [
              simulatedLine(sweep.model_card_version, seed),
              `${p.result.probes.length} probe runs; p99 at the best rate ${p.result.p99_ms_at_max ?? '—'} ms; leader CPU ${p.result.leader_cpu_utilization_at_max === null ? '—' : `${Math.round(p.result.leader_cpu_utilization_at_max * 100)} %`}.`,
              ...fid.filter((f) => f.engine === engine && f.x === x).flatMap((f) => [fidelityLine(f), ...new Set([f.reason, f.utilization?.reason].filter((r): r is string => !!r))]),
            ],
          },
        };
      });
      return { name: `${lang(engine)} · simulated, model card ${sweep.model_card_version}`, styleKey: lang(engine), kind: 'simulated', points };
    })
    .filter((x) => x.points.length > 0);
}

/** The paper's stated max throughput at the SLO (or another metric, such as the leader's vCPU
 * utilisation) for an engine at one point of the sweep's axis. */
export function paperRowAt(rows: ResultRow[], engine: EngineName, s: LabState, x: number, metric = 'max_throughput_slo'): ResultRow | null {
  if (s.wl === 'custom') return null;
  const memory = s.sweep === 'vcpus' ? (s.memunit === 'gib' ? s.gib : s.ratio * 4) : x;
  const vcpus = s.sweep === 'vcpus' ? x : s.vcpus;
  return (
    rows.find(
      (r) =>
        r.metric === metric &&
        r.language === lang(engine) &&
        r.workload === s.wl &&
        r.memory_gib === memory &&
        r.vcpus === vcpus &&
        r.instance_type === 'm5.2xlarge' &&
        typeof r.value === 'number',
    ) ?? null
  );
}

/** The paper's stated max throughput at the SLO for the same configurations (any figure). */
export function publishedSeries(rows: ResultRow[], s: LabState): ChartSeries[] {
  const axis = sweepAxis(s);
  if (s.wl === 'custom') return [];
  return s.engines
    .map((engine): ChartSeries => {
      const points: ChartPoint[] = [];
      for (const x of axis) {
        const row = paperRowAt(rows, engine, s, x);
        if (!row) {
          // Drawn as missing, so no line is drawn across a configuration the paper does not state.
          points.push({ x, y: null, status: 'missing', detail: { heading: `${lang(engine)} · ${s.sweep === 'vcpus' ? `${x} vCPUs` : `${x} GiB`}: the paper does not state this configuration`, lines: [] } });
          continue;
        }
        const status = row.qualifier === 'exact' ? 'stated' : row.qualifier;
        const sym = row.qualifier === 'upper_bound' ? '<' : row.qualifier === 'approx' ? '≈' : '';
        points.push({
          x,
          y: row.value as number,
          status,
          label: `${sym}${row.value}`,
          detail: rowDetail(row, `${lang(engine)} · published: ${sym}${row.value} Kops/s (${row.figure_or_table}${row.panel ?? ''})`, status),
        });
      }
      return { name: `${lang(engine)} · the paper (AWS)`, styleKey: lang(engine), kind: 'paper', points };
    })
    .filter((x) => x.points.some((p) => p.y !== null));
}

/** A simulated point beside the paper's value for the same configuration. */
export interface PointFidelity {
  engine: EngineName;
  x: number;
  /** Kops/s; null: not even the lowest rate tried meets the SLO. */
  simulated_kops: number | null;
  min_kops: number;
  /** The paper's max throughput here; null when it states only the utilisation. */
  paper: { id: string; value: number; qualifier: string; source: string } | null;
  /** Simulated minus paper, % of the paper's value; null for a bound (see within_bound). */
  error_pct: number | null;
  within_bound: boolean | null;
  /** Outside ±TOLERANCE_PERCENT, or a bound not respected. */
  outside: boolean;
  /** The known limit of the model that explains it (docs/fidelity.md), if one does. */
  reason: string | null;
  /** The leader's vCPU utilisation at the max beside the paper's, where the paper states it. */
  utilization: UtilizationFidelity | null;
}

export interface UtilizationFidelity {
  paper: { id: string; value: number; qualifier: string; source: string };
  /** %; null: no rate met the SLO, so there is no utilisation at the max. */
  simulated_pct: number | null;
  /** Simulated minus paper, percentage points. */
  error_pp: number | null;
  /** Further than ±UTILIZATION_TOLERANCE_PP from the paper's value. */
  outside: boolean;
  reason: string | null;
}

function reasonFor(id: string): string {
  const limit = limitFor(id);
  return limit ? `${limit.title}: ${limit.text}` : 'no known limit of the model explains it (see docs/fidelity.md)';
}

function utilizationAt(rows: ResultRow[], engine: EngineName, s: LabState, x: number, leader_cpu: number | null): UtilizationFidelity | null {
  const row = paperRowAt(rows, engine, s, x, 'vcpu_utilization_leader');
  if (!row) return null;
  const value = row.value as number;
  const simulated_pct = leader_cpu === null ? null : leader_cpu * 100;
  const error_pp = simulated_pct === null ? null : simulated_pct - value;
  const outside = error_pp === null || Math.abs(error_pp) > UTILIZATION_TOLERANCE_PP;
  return {
    paper: { id: row.id, value, qualifier: row.qualifier, source: `${row.figure_or_table ?? row.section ?? ''}${row.panel ?? ''}` },
    simulated_pct,
    error_pp,
    outside,
    reason: outside ? reasonFor(row.id) : null,
  };
}

/** Every simulated point of a sweep for which the paper states a value, with the error. */
export function sweepFidelity(sweep: SweepResult, s: LabState, rows: ResultRow[]): PointFidelity[] {
  const axis = sweepAxis(s);
  const out: PointFidelity[] = [];
  for (const engine of s.engines) {
    sweep.points
      .filter((p) => p.engine === engine)
      .slice(0, axis.length)
      .forEach((p, i) => {
        const x = axis[i]!;
        const row = paperRowAt(rows, engine, s, x);
        const utilization = utilizationAt(rows, engine, s, x, p.result.leader_cpu_utilization_at_max);
        if (!row && !utilization) return;
        const max = p.result.max_ops_per_s_at_slo;
        const sim = max === null ? null : max / 1000;
        const min_kops = (p.result.probes[0]?.target_ops_per_s ?? 100) / 1000;
        if (!row) {
          out.push({ engine, x, simulated_kops: sim, min_kops, paper: null, error_pct: null, within_bound: null, outside: false, reason: null, utilization });
          return;
        }
        const value = row.value as number;
        const bound = row.qualifier === 'upper_bound' || row.qualifier === 'lower_bound';
        const simOrZero = sim ?? 0;
        const within_bound = !bound ? null : row.qualifier === 'upper_bound' ? (sim === null ? true : sim <= value) : simOrZero >= value;
        const error_pct = bound ? null : ((simOrZero - value) / value) * 100;
        const outside = bound ? !within_bound : Math.abs(error_pct!) > TOLERANCE_PERCENT;
        out.push({
          engine,
          x,
          simulated_kops: sim,
          min_kops,
          paper: { id: row.id, value, qualifier: row.qualifier, source: `${row.figure_or_table ?? row.section ?? ''}${row.panel ?? ''}` },
          error_pct,
          within_bound,
          outside,
          reason: outside ? reasonFor(row.id) : null,
          utilization,
        });
      });
  }
  return out;
}

/** "paper 3 Kops/s (Fig 6(a)): simulated −13.5 %" or "… outside ±15 %". */
export function fidelityLine(f: PointFidelity): string {
  const u = f.utilization;
  const util = u
    ? `; leader CPU ${u.simulated_pct === null ? '—' : `${formatValue(u.simulated_pct)} %`} (simulated), paper ${u.paper.value} % (${u.paper.source})${u.error_pp === null ? '' : `: ${u.error_pp >= 0 ? '+' : '−'}${formatValue(Math.abs(u.error_pp))} pp`}${u.outside ? ` — outside ±${UTILIZATION_TOLERANCE_PP} pp` : ''}`
    : '';
  return throughputLine(f) + util;
}

function throughputLine(f: PointFidelity): string {
  if (!f.paper) return 'the paper states no throughput here';
  const sym = f.paper.qualifier === 'upper_bound' ? '< ' : f.paper.qualifier === 'lower_bound' ? '> ' : f.paper.qualifier === 'approx' ? '≈ ' : '';
  const paper = `paper ${sym}${f.paper.value} Kops/s (${f.paper.source})`;
  if (f.error_pct === null) return `${paper}: ${f.within_bound ? 'simulated value within the bound' : 'simulated value outside the bound'}`;
  const e = `${f.error_pct >= 0 ? '+' : '−'}${formatValue(Math.abs(f.error_pct))} %`;
  return `${paper}: simulated ${e}${f.outside ? ` — outside ±${TOLERANCE_PERCENT} %` : ''}`;
}

/** Throughput against p99 from the SLO search's probe runs at one point of the sweep. */
export function probeSeries(sweep: SweepResult, s: LabState, axisIndex: number): ChartSeries[] {
  const axis = sweepAxis(s);
  return s.engines
    .map((engine): ChartSeries => {
      const p = sweep.points.filter((q) => q.engine === engine)[axisIndex];
      // A probe stopped early (its p99 could no longer meet the SLO) measured no full window:
      // it is left out. The rest follow the offered rate, as a throughput–latency curve does.
      const probes = (p?.result.probes ?? [])
        .filter((q) => !(q as { stopped_early?: boolean }).stopped_early)
        .sort((a, b) => a.target_ops_per_s - b.target_ops_per_s);
      return {
        name: `${lang(engine)} · simulated`,
        styleKey: lang(engine),
        kind: 'simulated',
        points: probes.map((q) => ({
          x: q.achieved_ops_per_s / 1000,
          y: Math.max(q.p99_ms, 0.001),
          status: 'simulated',
          detail: {
            heading: `${lang(engine)}: ${formatValue(q.achieved_ops_per_s / 1000)} Kops/s achieved, p99 ${formatValue(q.p99_ms)} ms`,
            lines: [`offered ${formatValue(q.target_ops_per_s / 1000)} Kops/s; ${q.met ? 'meets' : 'misses'} the SLO`, `at ${s.sweep === 'vcpus' ? `${axis[axisIndex]} vCPUs` : `${axis[axisIndex]} GiB`}`, simulatedLine(sweep.model_card_version, undefined)],
          },
        })),
      };
    })
    .filter((x) => x.points.length > 0);
}

/** −log10(1 − p): 0 at the median's left, 1 at p90, 2 at p99, 3 at p99.9 … */
export function nines(percentile: number): number {
  const p = percentile > 1 ? percentile / 100 : percentile;
  return -Math.log10(1 - p);
}

export const NINES_TICKS = [0, 1, 2, 3, 4, 5];
export function ninesLabel(v: number): string {
  return v === 0 ? '0%' : `${(100 * (1 - 10 ** -v)).toFixed(Math.max(0, Math.round(v) - 2))}%`;
}

/** Latency percentile spectrum (HdrHistogram's plot) of each run. */
export function spectrumSeries(runs: { engine: EngineName; result: RunResult }[]): ChartSeries[] {
  return runs.map(({ engine, result }) => ({
    name: `${lang(engine)} · simulated`,
    styleKey: lang(engine),
    kind: 'simulated' as const,
    points: result.latency.all.spectrum
      .filter(([p]) => (p > 1 ? p / 100 : p) < 1)
      .map(([p, us]) => ({
        x: nines(p),
        y: Math.max(us / 1000, 0.001),
        status: 'simulated' as const,
        detail: { heading: `${lang(engine)}: p${formatValue(p > 1 ? p : p * 100)} = ${formatValue(us / 1000)} ms`, lines: [simulatedLine(result.model_card_version, result.spec.cluster.seed)] },
      })),
  }));
}

/** One line per node of a run's timeline (CPU or GC share, in %); the leader is marked. */
export function nodeTimelineSeries(result: RunResult, which: 'cpu_utilization' | 'gc_cpu_share'): ChartSeries[] {
  const what = which === 'cpu_utilization' ? 'CPU busy' : 'GC';
  return result.nodes.map((n) => ({
    name: `n${n.node}${n.node === result.leader_changes.at(-1)?.leader ? ' (leader at the end)' : ''}`,
    styleKey: `node-${n.node}`,
    kind: 'simulated' as const,
    points: n[which].map((t) => ({
      x: t.t_s,
      y: t.value * 100,
      status: 'simulated' as const,
      detail: { heading: `n${n.node} at ${formatValue(t.t_s)} s: ${what} ${formatValue(t.value * 100)} % of its vCPUs`, lines: [] },
    })),
  }));
}

