// One definition of a measurement: the knobs a user (the Lab, the Race, the CLI, `npm run
// fidelity`) turns, and the run / SLO-search / sweep specifications they stand for. Its defaults
// are the paper's method (§5.1): 3 nodes, 64 YCSB client threads, an open loop, p99 ≤ 20 ms, and
// a measured window long enough to hold the rarest collector event that can decide the p99 at
// that setting — derived from the model itself (modelWindow), not a fixed number of seconds.
import type { Distribution, EngineName, Fidelity, ModelCard, RunSpec, SloSearchSpec, SweepSpec } from '../api.ts';
import { CpuPool } from '../models/cpu.ts';
import { allocCosts, opBytes } from '../models/alloc.ts';
import { makeRuntime } from '../models/node-model.ts';
import { DEFAULT_CARD, validateCard } from '../models/card.ts';
import { resolveSpec } from './spec.ts';

/** The paper's method, as numbers. The paper ran 10 minutes per probe: no window is longer. */
export const PAPER_METHOD = {
  slo_p99_ms: 20,
  seed: 1,
  records: 7_500_000,
  client_threads: 64,
  min_window_s: 10,
  max_window_s: 600,
  warmup_s: 2,
  tolerance: 0.04,
  min_ops_per_s: 100,
  max_ops_per_s: 200_000,
} as const;

export type MemoryKnob = { gib: number } | { ratio: number };

/** What a user chooses. Everything else follows from the paper's method. */
export interface MeasurementKnobs {
  workload: 'A' | 'B' | 'custom';
  read_proportion?: number; // custom only
  memory: MemoryKnob;
  vcpus: number;
  slo_p99_ms?: number;
  seed?: number;
  records?: number;
  value_bytes?: number;
  distribution?: Distribution;
  client_threads?: number;
  mode?: 'open' | 'closed';
  one_way_latency_us?: number | null;
  /** The shortest measured window; the model may lengthen it (modelWindow). */
  min_window_s?: number;
  fidelity?: Fidelity;
  model_card?: ModelCard;
}

export const READ_SHARE = { A: 0.5, B: 0.95 } as const;

function memoryOf(m: MemoryKnob): { memory_gib: number } | { memory_to_data_ratio: number } {
  return 'gib' in m ? { memory_gib: m.gib } : { memory_to_data_ratio: m.ratio };
}

/** A 3-node cluster of one engine at an offered rate; the window is the knobs' minimum (a
 * search lengthens each probe's window as the model requires; see measurementRunSpec). */
export function baseRunSpec(k: MeasurementKnobs, engine: EngineName, target_ops_per_s: number): RunSpec {
  const spec: RunSpec = {
    cluster: { engines: [engine, engine, engine], seed: k.seed ?? PAPER_METHOD.seed },
    resources: { vcpus: k.vcpus, ...memoryOf(k.memory) },
    workload: {
      name: k.workload,
      read_proportion: k.workload === 'custom' ? (k.read_proportion ?? 0.5) : READ_SHARE[k.workload],
      record_count: k.records ?? PAPER_METHOD.records,
      value_bytes: k.value_bytes ?? 500,
      distribution: k.distribution ?? 'zipfian',
    },
    load: {
      mode: k.mode ?? 'open',
      target_ops_per_s,
      client_threads: k.client_threads ?? PAPER_METHOD.client_threads,
      duration_s: k.min_window_s ?? PAPER_METHOD.min_window_s,
      warmup_s: PAPER_METHOD.warmup_s,
    },
    fidelity: k.fidelity ?? 'fast',
  };
  if (k.one_way_latency_us !== undefined && k.one_way_latency_us !== null) spec.network = { one_way_latency_us: k.one_way_latency_us };
  if (k.model_card) spec.model_card = k.model_card;
  return spec;
}

/** One run at an offered rate with the window the model asks for at that rate. */
export function measurementRunSpec(k: MeasurementKnobs, engine: EngineName, target_ops_per_s: number): RunSpec {
  return withModelWindow(baseRunSpec(k, engine, target_ops_per_s), PAPER_METHOD.max_window_s).spec;
}

/** The paper's SLO search for one engine at the knobs' memory and vCPUs. */
export function measurementSearchSpec(k: MeasurementKnobs, engine: EngineName): SloSearchSpec {
  return {
    base: baseRunSpec(k, engine, 1),
    slo_p99_ms: k.slo_p99_ms ?? PAPER_METHOD.slo_p99_ms,
    min_ops_per_s: PAPER_METHOD.min_ops_per_s,
    max_ops_per_s: PAPER_METHOD.max_ops_per_s,
    tolerance: PAPER_METHOD.tolerance,
    window: 'model',
    max_duration_s: PAPER_METHOD.max_window_s,
  };
}

/** The paper's sweep: a search per engine along memory sizes or vCPU counts. */
export function measurementSweepSpec(k: MeasurementKnobs, engines: EngineName[], axis: { memory: MemoryKnob[] } | { vcpus: number[] }): SweepSpec {
  const one = measurementSearchSpec(k, engines[0] ?? 'cpp');
  const spec: SweepSpec = {
    base: one.base,
    slo_p99_ms: one.slo_p99_ms,
    min_ops_per_s: one.min_ops_per_s,
    max_ops_per_s: one.max_ops_per_s,
    tolerance: one.tolerance,
    window: one.window,
    max_duration_s: one.max_duration_s,
    engines,
  };
  if ('vcpus' in axis) spec.vcpus = axis.vcpus;
  else if (axis.memory.every((m) => 'gib' in m)) spec.memory_gib = axis.memory.map((m) => (m as { gib: number }).gib);
  else spec.memory_to_data_ratio = axis.memory.map((m) => ('ratio' in m ? m.ratio : NaN));
  return spec;
}

// --- the window the model asks for ---

export interface ModelWindow {
  window_s: number;
  /** The collector event that sets the window, if one does: its kind, the period between two of
   * them at this rate, and its pause. */
  event: { kind: string; period_s: number; pause_ms: number } | null;
}

/** An event decides the p99 only if its pause can push operations past the SLO and, over its
 * period, it could hold up a noticeable share of the operations (a fifth of the 1 % a p99
 * allows). Rarer or shorter events leave the p99 to the steady state. */
const SHARE_THAT_MATTERS = 0.002;
/** The dry run feeds the collector one millisecond of allocation at a time. */
const DRY_STEP_US = 1000;

/**
 * The measured window a run needs at its offered rate: the leader's collector model is run
 * alone (no cluster, no network) on the allocation stream of that rate for up to `max_s`, and
 * the window is made long enough to contain one period of the rarest event that matters:
 * G1's full collections (or its mixed cycles) at a tight heap, Go's GC cycle at its heap goal.
 * The run starts just after a collection (the model's fresh state), so one period after the
 * warm-up holds one such event. Never shorter than the spec's own duration_s.
 */
export function modelWindow(specIn: RunSpec, max_s: number = PAPER_METHOD.max_window_s, slo_ms: number = PAPER_METHOD.slo_p99_ms): ModelWindow {
  const card = validateCard(specIn.model_card ?? DEFAULT_CARD);
  const s = resolveSpec(specIn, card);
  const min_s = s.duration_s;
  const engine = s.engines[0]!;
  if (engine !== 'java' && engine !== 'go') return { window_s: min_s, event: null };
  const horizon_us = (s.warmup_s + Math.max(max_s, min_s)) * 1e6;
  const pool = new CpuPool(s.vcpus, 1e6);
  const logInstances = Math.ceil(s.target_ops_per_s * 2 * (s.commit_interval_us / 1e6)) + 64;
  const rt = makeRuntime(card, { engine, memory_bytes: s.memory_bytes, vcpus: s.vcpus, records: s.record_count, log_instances: logInstances }, pool);
  const a = allocCosts(card, engine);
  const bytesPerOp = s.read_proportion * opBytes(a, 'leader', 'read') + (1 - s.read_proportion) * opBytes(a, 'leader', 'update');
  const opsPerStep = (s.target_ops_per_s * DRY_STEP_US) / 1e6;
  const updatesPerStep = opsPerStep * (1 - s.read_proportion);
  const g1 = rt as unknown as { onUpdate?: () => void };
  let updatesDue = 0;
  for (let t = 0; t < horizon_us; t += DRY_STEP_US) {
    if (g1.onUpdate) {
      updatesDue += updatesPerStep;
      for (; updatesDue >= 1; updatesDue--) g1.onUpdate();
    }
    rt.charge(t, bytesPerOp * opsPerStep, 0);
    if (rt.oom_at_us !== null) break;
  }
  // Per kind: when each occurrence began, its longest pause.
  const byKind = new Map<string, { times: number[]; pause_ms: number; cpu_ms: number }>();
  for (const e of rt.events) {
    const k = byKind.get(e.kind) ?? { times: [], pause_ms: 0, cpu_ms: 0 };
    k.times.push(e.t_s);
    k.pause_ms = Math.max(k.pause_ms, e.pause_ms);
    k.cpu_ms = Math.max(k.cpu_ms, e.cpu_ms);
    byKind.set(e.kind, k);
  }
  let best: ModelWindow['event'] = null;
  for (const [kind, k] of byKind) {
    // The first occurrence comes one period after the fresh (just collected) start; later ones
    // one period apart.
    const period_s = k.times.length >= 2 ? k.times[k.times.length - 1]! - k.times[k.times.length - 2]! : k.times[0]!;
    // Go's cycles are concurrent: what they cost is CPU (assists, dedicated workers), so every
    // cycle matters; a stop-the-world pause matters when it can decide the p99.
    const matters = kind === 'go_cycle' || (k.pause_ms >= slo_ms / 2 && k.pause_ms / 1000 / Math.max(period_s, 1e-9) >= SHARE_THAT_MATTERS);
    if (!matters) continue;
    if (!best || period_s > best.period_s) best = { kind, period_s: round3(period_s), pause_ms: round3(k.pause_ms) };
  }
  if (!best) return { window_s: min_s, event: null };
  // Room for the event's own pause and the backlog after it.
  const need = best.period_s * 1.1 + best.pause_ms / 1000 + 1;
  return { window_s: round3(Math.min(Math.max(min_s, need), Math.max(max_s, min_s))), event: best };
}

/** The spec with its window lengthened to what the model asks for at its rate. */
export function withModelWindow(spec: RunSpec, max_s: number, slo_ms?: number): { spec: RunSpec; window: ModelWindow } {
  const window = modelWindow(spec, max_s, slo_ms);
  return { spec: { ...spec, load: { ...spec.load, duration_s: window.window_s } }, window };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
