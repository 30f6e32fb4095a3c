// The Lab's mitigation knob as data: which runs a mode needs (the mitigated run, and the same
// run with the collector on and off), their p99 / p99.9 / p99.99 in BLADE's Table 7 layout, and
// the sentence that explains the mode. Pure; LabView draws it.
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { LatencySummary, MitigationMode, MitigationStats, RunResult, RunSpec, SweepResult } from '@replicant/sim/api';
import type { ChartSeries } from '../charts/types.ts';
import { formatValue } from '../paper/panel-model.ts';

export const MITIGATION_PERCENTILES = [99, 99.9, 99.99] as const;

/** Engines with a collector to mitigate. C++ and Rust free memory themselves. */
export function hasCollector(engine: EngineName): boolean {
  return engine === 'go' || engine === 'java';
}

export function modeWords(mode: MitigationMode): string {
  return { none: 'no mitigation', blade: 'BLADE', mitmem: 'MITMEM', both: 'BLADE + MITMEM' }[mode];
}

/** The runs a mode needs for one engine: the run itself, then GC on and GC off (Table 7's
 * other two columns). Without a mitigation, or without a collector, just the run. */
export function mitigationRunSpecs(base: RunSpec, mode: MitigationMode, engine: EngineName): { role: 'mitigated' | 'gc-on' | 'gc-off'; spec: RunSpec }[] {
  if (mode === 'none' || !hasCollector(engine)) return [{ role: 'gc-on', spec: base }];
  return [
    { role: 'mitigated', spec: { ...base, mitigation: { mode } } },
    { role: 'gc-on', spec: base },
    { role: 'gc-off', spec: { ...base, mitigation: { mode: 'none', collector: 'off' } } },
  ];
}

/** A percentile from a run's spectrum (the first step at or past it), in ms. */
export function percentile_ms(s: LatencySummary, p: number): number {
  const hit = s.spectrum.find(([q]) => (q > 1 ? q : q * 100) >= p);
  return (hit ? hit[1] : s.max_us) / 1000;
}

export interface MitigationRow {
  percentile: number;
  mitigated_ms: number;
  gc_off_ms: number;
  gc_on_ms: number;
}

/** Table 7's layout: one row per percentile, columns mitigated · GC off · GC on. */
export function mitigationTable(runs: { mitigated: RunResult; gcOn: RunResult; gcOff: RunResult }): MitigationRow[] {
  return MITIGATION_PERCENTILES.map((p) => ({
    percentile: p,
    mitigated_ms: percentile_ms(runs.mitigated.latency.all, p),
    gc_off_ms: percentile_ms(runs.gcOff.latency.all, p),
    gc_on_ms: percentile_ms(runs.gcOn.latency.all, p),
  }));
}

/** The same table as chart series (x: the percentile as Table 7 labels it). */
export function mitigationSeries(engineLabel: string, mode: MitigationMode, rows: MitigationRow[], card: string): ChartSeries[] {
  const cols: { name: string; key: 'mitigated_ms' | 'gc_off_ms' | 'gc_on_ms'; style: string }[] = [
    { name: modeWords(mode), key: 'mitigated_ms', style: mode === 'both' ? 'mitigation:both' : mode === 'blade' ? 'mitigation:BLADE' : 'mitigation:MITMEM' },
    { name: 'GC off', key: 'gc_off_ms', style: 'mitigation:GC-Off' },
    { name: 'GC on', key: 'gc_on_ms', style: 'mitigation:GC-On' },
  ];
  return cols.map((c) => ({
    name: `${engineLabel} · ${c.name} · simulated`,
    styleKey: c.style,
    kind: 'simulated' as const,
    points: rows.map((r) => ({
      x: `${r.percentile}th`,
      y: Math.max(r[c.key], 0.001),
      status: 'simulated' as const,
      detail: { heading: `${engineLabel}, ${c.name}: p${r.percentile} = ${formatValue(r[c.key])} ms`, lines: [`simulated, model card ${card}`] },
    })),
  }));
}

/** What the mode does, in a sentence under the chart; with a single leader, MITMEM says when it
 * helped (from the run's own counts). */
export function modeSentence(mode: MitigationMode, stats: MitigationStats | undefined): string {
  const blade =
    'BLADE: a node about to collect asks the leader for permission, so at most a minority collects at once; the leader first hands its leadership to the peer that collected last and tells its clients, then collects as a follower.';
  const mitmem =
    'MITMEM: a node in a stop-the-world pause answers “busy” to a request it would hold past its deadline (its predicted pause is off by ±4 ms in about 8 % of predictions, as MITMEM reports), and the client retries at another replica at once.';
  const single =
    'With a single leader that only helps where another replica can answer: a follower sends the client back to the leader, so MITMEM alone cannot help when the leader pauses (and Go’s pauses are too short to reject anything).';
  const when = stats
    ? ` In this run: ${stats.busy_replies} busy repl${stats.busy_replies === 1 ? 'y' : 'ies'}, ${stats.busy_retries_served_elsewhere} answered by another replica, ${stats.busy_retries_redirected_back} sent back to the paused node${stats.handoffs ? `; ${stats.handoffs} leadership handoff${stats.handoffs === 1 ? '' : 's'}, at most ${stats.max_collecting_at_once} node${stats.max_collecting_at_once === 1 ? '' : 's'} collecting at once, ${stats.forced_collections} collection${stats.forced_collections === 1 ? '' : 's'} that could not wait` : ''}.`
    : '';
  switch (mode) {
    case 'none':
      return 'No mitigation: each node collects whenever its runtime decides.';
    case 'blade':
      return `${blade}${when}`;
    case 'mitmem':
      return `${mitmem} ${single}${when}`;
    case 'both':
      return `${blade} ${mitmem} Together, a request that reaches the old leader during its pause is answered by the new one.${when}`;
  }
}

export const NOTHING_TO_MITIGATE = 'C++ and Rust have no collector: there is nothing to mitigate, so they run once, as without a mitigation.';

/** A sweep's series drawn as the mitigated sweep's: the mode in the name, the mode's style. */
export function asMitigatedSeries(series: ChartSeries[], mode: MitigationMode): ChartSeries[] {
  const style = mode === 'both' ? 'mitigation:both' : mode === 'blade' ? 'mitigation:BLADE' : 'mitigation:MITMEM';
  return series.map((x) => ({ ...x, name: x.name.replace(' · simulated', ` + ${modeWords(mode)} · simulated`), styleKey: style }));
}

export interface CliffShift {
  engine: EngineName;
  x: number;
  /** max ops/s at the SLO without and with the mitigation; null: not met even at the lowest rate */
  without: number | null;
  with: number | null;
}

/** How far the mitigation moves the memory cliff: per GC engine and axis point, the highest rate
 * meeting the SLO without and with it (the two sweeps' points, in axis order). */
export function cliffShift(plain: SweepResult, mitigated: SweepResult, axis: number[]): CliffShift[] {
  const out: CliffShift[] = [];
  for (const engine of [...new Set(mitigated.points.map((p) => p.engine))]) {
    const a = plain.points.filter((p) => p.engine === engine);
    const b = mitigated.points.filter((p) => p.engine === engine);
    axis.forEach((x, i) => {
      if (a[i] && b[i]) out.push({ engine, x, without: a[i]!.result.max_ops_per_s_at_slo, with: b[i]!.result.max_ops_per_s_at_slo });
    });
  }
  return out;
}

const kops = (v: number | null) => (v === null ? 'none' : `${formatValue(v / 1000)} Kops/s`);

/** The cliff's move in words: per engine, the tightest point, and where the SLO is met at all. */
export function cliffSentence(rows: CliffShift[], mode: MitigationMode, unit: string, engineLabel: (e: EngineName) => string, withoutCollector: boolean): string {
  const engines = [...new Set(rows.map((r) => r.engine))];
  const parts = engines.map((e) => {
    const own = rows.filter((r) => r.engine === e);
    const tight = own.reduce((a, r) => (r.x < a.x ? r : a)); // the least memory (or vCPUs) swept
    const metWithout = own.filter((r) => r.without !== null).length;
    const metWith = own.filter((r) => r.with !== null).length;
    return `${engineLabel(e)} at ${tight.x} ${unit}: ${kops(tight.without)} without, ${kops(tight.with)} with ${modeWords(mode)}; the SLO is met at ${metWithout} of ${own.length} points without and ${metWith} with`;
  });
  const single = mode === 'mitmem' ? ' With one leader MITMEM alone gains nothing where the leader pauses: the followers send the client back.' : '';
  return `Simulated: ${parts.join('; ')}.${single}${withoutCollector ? ' C++ and Rust have no collector: nothing to mitigate, so they are swept once.' : ''}`;
}
