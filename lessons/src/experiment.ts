// Experiments: a small seeded run of the simulator that a gc-cost lesson's student sets up
// (engine, memory ratio, vCPUs, offered load, from the values the step offers) and starts. Its
// result is the live state those lessons check: a `sim` checkpoint or a `{{sim:METRIC}}`
// placeholder reads the last run, never a number written into the lesson. Every figure read
// here is simulated and says so, with the model card's version. Pure: the run itself happens
// in the web lab's simulation worker or, in tests, in Node (experiment-spec.ts builds it).
import { languageOf, type EngineName } from '@replicant/engines/loader/catalogue';
import type { MitigationMode } from '@replicant/sim/api';

export const EXPERIMENT_ENGINES = ['cpp', 'rust', 'go', 'java'] as const satisfies readonly EngineName[];
/** The simulator's GC mitigations (sim/src/models/mitigation.ts), named as the Lab's `lab.mit` names them. */
export const EXPERIMENT_MITIGATIONS = ['none', 'blade', 'mitmem', 'both'] as const satisfies readonly MitigationMode[];
export type ExperimentMitigation = (typeof EXPERIMENT_MITIGATIONS)[number];

/** What the student may set. */
export interface ExperimentSettings {
  engine: EngineName;
  ratio: number;
  vcpus: number;
  target_ops_per_s: number;
  /**
   * A GC mitigation ("none" unless the experiment sets one). A run with one is paired with the
   * same run with the collector off (BLADE's GC-Off set-up), which its reading compares with.
   */
  mitigation: ExperimentMitigation;
}

export type ExperimentKnob = keyof ExperimentSettings;
export const EXPERIMENT_KNOBS: readonly ExperimentKnob[] = ['engine', 'ratio', 'vcpus', 'target_ops_per_s', 'mitigation'];

export interface Experiment extends Omit<ExperimentSettings, 'mitigation'> {
  mitigation?: ExperimentMitigation;
  seed: number;
  /** Simulated seconds measured (after a one-second warm-up). */
  duration_s: number;
  /** The knobs the student may turn, with the values offered (the step's own value among them). */
  vary: { engine?: EngineName[]; ratio?: number[]; vcpus?: number[]; target_ops_per_s?: number[]; mitigation?: ExperimentMitigation[] };
}

/** What a run shows, read off the simulator's result. */
export interface SimReading {
  settings: ExperimentSettings;
  model_card_version: string;
  p99_ms: number;
  p999_ms: number;
  /** p99 as a closed-loop client would have seen it (service time: coordinated omission). */
  service_p99_ms: number;
  mean_ms: number;
  achieved_ops_per_s: number;
  /** The leader's share of its vCPUs busy, and spent on GC (0..1). */
  leader_cpu_utilization: number;
  leader_gc_cpu_share: number;
  gc_events: number;
  /** With a mitigation: the paired run with the collector off (null without one). */
  gc_off_p999_ms: number | null;
  /** p99.9 over the GC-off run's p99.9 (null without a mitigation): 1 is as good as no GC. */
  p999_vs_gc_off: number | null;
  /** What the mitigation did (0 without one): BLADE's leadership handoffs, MITMEM's busy replies
   * and where their retries were answered. */
  handoffs: number;
  busy_replies: number;
  busy_retries_served_elsewhere: number;
  busy_retries_redirected_back: number;
}

export const SIM_METRICS = [
  'p99_ms',
  'p999_ms',
  'service_p99_ms',
  'mean_ms',
  'achieved_ops_per_s',
  'leader_cpu_utilization',
  'leader_gc_cpu_share',
  'gc_events',
  'gc_off_p999_ms',
  'p999_vs_gc_off',
  'handoffs',
  'busy_replies',
  'busy_retries_served_elsewhere',
  'busy_retries_redirected_back',
] as const;
export type SimMetric = (typeof SIM_METRICS)[number];

export function isSimMetric(s: string): s is SimMetric {
  return (SIM_METRICS as readonly string[]).includes(s);
}

export const MITIGATION_LABEL: Record<ExperimentMitigation, string> = { none: 'no mitigation', blade: 'BLADE', mitmem: 'MITMEM', both: 'BLADE and MITMEM' };

export function describeSettings(s: ExperimentSettings): string {
  const mitigation = s.mitigation === 'none' ? '' : `, ${MITIGATION_LABEL[s.mitigation]}`;
  return `${languageOf(s.engine)}, memory:data ${s.ratio}, ${s.vcpus} vCPUs, ${s.target_ops_per_s} ops/s offered${mitigation}`;
}

/** A metric as the lesson shows it: rounded, with its unit (a metric a run does not have: "none"). */
export function formatSimMetric(metric: SimMetric, value: number | null): string {
  if (value === null) return 'none (no mitigation in this run)';
  if (metric === 'p999_vs_gc_off') return `${value.toFixed(2)}× the GC-off run`;
  if (metric.endsWith('_ms')) return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
  if (metric === 'achieved_ops_per_s') return `${Math.round(value)} ops/s`;
  if (metric === 'gc_events' || metric === 'handoffs' || metric.startsWith('busy_')) return String(value);
  return `${(100 * value).toFixed(1)} %`;
}

/** The value a numeric question or a checkpoint compares: percentages for shares, as shown. */
export function simValue(r: SimReading, metric: SimMetric): number {
  const v = r[metric];
  // A comparison the run does not have never satisfies a check.
  if (v === null) return Number.NaN;
  if (metric === 'p999_vs_gc_off') return Math.round(100 * v) / 100;
  if (metric === 'leader_cpu_utilization' || metric === 'leader_gc_cpu_share') return Math.round(1000 * v) / 10;
  if (metric.endsWith('_ms')) return v < 10 ? Math.round(100 * v) / 100 : Math.round(10 * v) / 10;
  return Math.round(v);
}

/** The step's starting settings with a student's (or "show me"'s) changes; each must be on offer. */
export function chooseSettings(e: Experiment, change: Partial<ExperimentSettings>): ExperimentSettings {
  const own = experimentDefaults(e);
  const out: ExperimentSettings = { ...own };
  for (const k of EXPERIMENT_KNOBS) {
    const v = change[k];
    if (v === undefined) continue;
    const offered = e.vary[k] as readonly unknown[] | undefined;
    if (!offered?.includes(v) && v !== own[k]) throw new Error(`${k} ${String(v)} is not one of the values this experiment offers (${offered?.join(', ') ?? own[k]})`);
    (out as unknown as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** The experiment's own settings (no mitigation unless it names one). */
export function experimentDefaults(e: Experiment): ExperimentSettings {
  return { engine: e.engine, ratio: e.ratio, vcpus: e.vcpus, target_ops_per_s: e.target_ops_per_s, mitigation: e.mitigation ?? 'none' };
}

/** The simulator's run result (sim/src/api.ts RunResult), only the fields read here. */
export interface RunResultLike {
  model_card_version: string;
  achieved_ops_per_s: number;
  latency: { all: { mean_us: number; p99_us: number; p999_us: number } };
  latency_uncorrected?: { all: { p99_us: number } };
  leader_at_end: number | null;
  nodes: { node: number; mean_cpu_utilization: number; mean_gc_cpu_share: number; gc_events: unknown[] }[];
  mitigation?: { handoffs: number; busy_replies: number; busy_retries_served_elsewhere: number; busy_retries_redirected_back: number };
}

/** `gcOff`: the paired run with the collector off (experimentSpecs' second spec), when there is one. */
export function readRun(settings: ExperimentSettings, r: RunResultLike, gcOff: RunResultLike | null = null): SimReading {
  const leader = r.nodes.find((n) => n.node === (r.leader_at_end ?? 0)) ?? r.nodes[0];
  const p999_ms = r.latency.all.p999_us / 1000;
  const gc_off_p999_ms = gcOff ? gcOff.latency.all.p999_us / 1000 : null;
  return {
    settings,
    model_card_version: r.model_card_version,
    p99_ms: r.latency.all.p99_us / 1000,
    service_p99_ms: (r.latency_uncorrected?.all.p99_us ?? r.latency.all.p99_us) / 1000,
    mean_ms: r.latency.all.mean_us / 1000,
    achieved_ops_per_s: r.achieved_ops_per_s,
    leader_cpu_utilization: leader?.mean_cpu_utilization ?? 0,
    leader_gc_cpu_share: leader?.mean_gc_cpu_share ?? 0,
    gc_events: leader?.gc_events.length ?? 0,
    p999_ms,
    gc_off_p999_ms,
    p999_vs_gc_off: gc_off_p999_ms !== null && gc_off_p999_ms > 0 ? p999_ms / gc_off_p999_ms : null,
    handoffs: r.mitigation?.handoffs ?? 0,
    busy_replies: r.mitigation?.busy_replies ?? 0,
    busy_retries_served_elsewhere: r.mitigation?.busy_retries_served_elsewhere ?? 0,
    busy_retries_redirected_back: r.mitigation?.busy_retries_redirected_back ?? 0,
  };
}
