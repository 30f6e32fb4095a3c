// Fig 12's Go GC figures — the leader's share of time with a cycle running, the collector's CPU
// share while one runs, cycles per second — over a run's warm-up and window, and the sampled
// run they are read from at each memory's answer (32, 8 and 6 GiB, 120 s). Go's cycles repeat at
// one period with the same cost (its pacer runs on from its own state at a steady offered rate;
// search/window-utilization.ts), so a run that has seen every node's cycle in its window is a
// sample of the window: the leader's later cycles are its last one, a whole number of periods on.
// That is how Go's SLO probes are sampled too (search/slo.ts, collectorSample); a plain 120 s run
// costs ≈ 15–18 CPU-s at these rates. go-gc.test.ts holds the sample to the plain run. No files,
// no clock.
import type { RunResult, RunSpec } from '../api.ts';
import { simulate } from '../run/simulate.ts';
import { PAPER_METHOD, goCyclePeriods_s } from '../run/measurement.ts';
import { goCyclesThrough, type GoCycle } from '../search/window-utilization.ts';
import { fidelityRunSpec } from './specs.ts';

/** Fig 12's runs at each memory's answer: a window of 120 s after the warm-up. */
export const GO_GC_RUN_S = 120;

/** Fig 12's run spec: the table's (fidelity/specs.ts), its window GO_GC_RUN_S. */
export function goGcRunSpec(workload: 'A' | 'B', gib: number, vcpus: number, ops_per_s: number): RunSpec {
  const s = fidelityRunSpec('go', workload, gib, vcpus, ops_per_s);
  return { ...s, load: { ...s.load, duration_s: Math.max(s.load.duration_s, GO_GC_RUN_S) } };
}

export interface GoGcFigures {
  /** share of the run's time (warm-up and window) with a cycle running, % */
  runtime_share_pct: number;
  /** the collector's CPU over (vCPUs × the time cycles run), % */
  instantaneous_pct: number;
  cycles_per_s: number;
}

/** The figures from the leader's cycles over the run's planned span (warm-up + window). */
export function goGcFigures(spec: RunSpec, cycles: readonly GoCycle[]): GoGcFigures {
  const span_s = Math.max(spec.load.duration_s + (spec.load.warmup_s ?? 0), 1e-9);
  let active_s = 0;
  let cpu_s = 0;
  for (const c of cycles) {
    active_s += c.duration_ms / 1000;
    cpu_s += c.cpu_ms / 1000;
  }
  return {
    runtime_share_pct: (active_s / span_s) * 100,
    instantaneous_pct: active_s > 0 ? (cpu_s / (active_s * spec.resources.vcpus)) * 100 : 0,
    cycles_per_s: cycles.length / span_s,
  };
}

function leaderOf(r: RunResult): number {
  return r.leader_at_end ?? r.leader_changes.at(-1)?.leader ?? 0;
}

/** The figures of a run made whole (plain). */
export function plainGoGcFigures(r: RunResult): GoGcFigures {
  const lead = r.nodes.find((n) => n.node === leaderOf(r))!;
  return goGcFigures(r.spec, goCyclesThrough(lead.gc_events, Infinity, 0));
}

/**
 * The leader's cycles over a sampled run's planned span: the sample's, then its last one's
 * copies a period apart. A plain run records a cycle as it ends, so one still running when the
 * run stops is not in it: only copies that end by the span's end count.
 */
export function goSpanCycles(r: RunResult, leaderPeriod_s: number): GoCycle[] {
  const span_s = r.spec.load.duration_s + (r.spec.load.warmup_s ?? 0);
  const lead = r.nodes.find((n) => n.node === leaderOf(r))!;
  return goCyclesThrough(lead.gc_events, leaderPeriod_s, span_s).filter((c) => c.t_s + c.duration_ms / 1000 <= span_s);
}

export interface SampledGoGc {
  figures: GoGcFigures;
  /** seconds of the window the sample ran; undefined where it ran whole */
  sampled_s?: number;
  leader_period_s: number;
}

/** A quarter of the SLO late: the backlog has drained (as a probe's sample; search/slo.ts). */
const SAMPLE_LAG_MS = PAPER_METHOD.slo_p99_ms / 4;

/**
 * Fig 12's figures for a Go run spec from a sample: the run ends its window, at least 2 s in,
 * once every node has ended a cycle that began inside it (or by its pacer starts none before the
 * window's end) and nothing is late (RunHooks.end_when_settled); the leader's cycles past it are
 * projected at its period from the window's dry run (run/measurement.ts goCyclePeriods_s). A run
 * that does not settle runs whole and is read as it is.
 */
export function sampledGoGc(spec: RunSpec): SampledGoGc {
  const periods = goCyclePeriods_s(spec);
  if (!periods) throw new Error('sampledGoGc: the spec must be a Go run');
  const r = simulate(spec, null, { end_when_settled: { after_s: 2, lag_ms: SAMPLE_LAG_MS, after_collections: 1 } });
  if (r.settled_at_s === undefined) return { figures: plainGoGcFigures(r), leader_period_s: periods.leader_s };
  return { figures: goGcFigures(r.spec, goSpanCycles(r, periods.leader_s)), sampled_s: r.settled_at_s, leader_period_s: periods.leader_s };
}
