// One definition of a measurement: the knobs a user (the Lab, the Race, the CLI, `npm run
// fidelity`) turns, and the run / SLO-search / sweep specifications they stand for. Its defaults
// are the paper's method (§5.1): 3 nodes, 64 YCSB client threads, an open loop, p99 ≤ 20 ms, and
// a measured window long enough to hold the rarest collector event that can decide the p99 at
// that setting — derived from the model itself (modelWindow), not a fixed number of seconds.
import type { Distribution, EngineName, Fidelity, ModelCard, RunSpec, SloSearchSpec, SweepSpec } from '../api.ts';
import { CpuPool } from '../models/cpu.ts';
import { allocCosts, opBytes } from '../models/alloc.ts';
import { makeRuntime } from '../models/node-model.ts';
import { g1PhasesIndependent, runtimeStartPhases } from '../models/start-phases.ts';
import type { G1Runtime, G1State } from '../models/g1.ts';
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
  /** G1 only: the collectors' phases ([leader, follower], or one per node when each has its own
   * phase, card 1.8.1 on) shortly before the deciding event and halfway to it, for the
   * steady-state shortcut (slo.ts): the episode around the event and a sample of the steady
   * state are simulated instead of the whole window. */
  g1_phases?: { episodes: Episode[]; steady: G1State[]; steady_window_s?: number };
  /** G1 with a pause-time goal, when its young pauses decide the window: the leader's and a
   * follower's collector just after a young pause of the settled cycle, where the run starts. */
  g1_start?: G1State[];
  /** The collector event that sets the window, if one does: its kind, the period between two of
   * them at this rate, and its pause. */
  event: { kind: string; period_s: number; pause_ms: number } | null;
}

/** One run of the shortcut around a group of pauses: the collectors' phases it starts from
 * (as RunHooks.g1_states: the leader's first), its measured length at most, and from how far into it the run may end
 * once its backlog has drained (RunHooks.end_when_settled): past the group's last pause, with
 * room for the pause coming up to a snapshot (1 s) later than the dry run put it. */
export interface Episode {
  states: G1State[];
  window_s: number;
  settle_after_s: number;
}

/** An event decides the p99 only if its pause can push operations past the SLO and, over its
 * period, it could hold up a noticeable share of the operations (a fifth of the 1 % a p99
 * allows). Rarer or shorter events leave the p99 to the steady state. */
const SHARE_THAT_MATTERS = 0.002;
/** The shortcut's episode starts this long before the deciding event and ends this long after
 * its pause. */
export const EPISODE_LEAD_S = 5;
export const EPISODE_TAIL_S = 5;
/** Pauses closer than EPISODE_LEAD_S + pause + EPISODE_TAIL_S share an episode, but its measured
 * part starts only this long before the first of them: the warm-up before it already settles the
 * queues, and the steady operations the old 5 s lead measured are weighed from the steady sample
 * instead. */
export const EPISODE_MEASURED_LEAD_S = 1;
/** An episode may end settled this long after its last pause's end as the dry run places it
 * (the run's own pause comes up to one 1 s snapshot later). */
const EPISODE_SETTLE_MARGIN_S = 2;
/** Go's dry run ends after this many cycles: its window needs only the cycle's period and
 * pause. Cycles with room between them come at one period (the same to the microsecond after
 * the first), so 64 of them give the period the whole horizon would; back to back (Go at 5 GiB,
 * thousands of cycles in the 600 s horizon, 0.4 CPU-s a probe) their gaps are uneven and the
 * period is their mean. */
const GO_DRY_CYCLES = 64;
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
  // Each G1 process at its own young-collection phase (card 1.8.1 on): one dry run per node, as
  // the run will place them; otherwise one follower's stands for both (they run in step).
  const startPhases = engine === 'java' && g1PhasesIndependent(card) ? runtimeStartPhases(card, s.seed, s.engines.length) : null;
  const leader = dryRun(card, s, engine, 'leader', horizon_us, startPhases?.[0], engine === 'go' ? GO_DRY_CYCLES : Infinity);
  const followerRuns = () => (startPhases ? startPhases.slice(1).map((phase) => dryRun(card, s, engine, 'follower', horizon_us, phase)) : [dryRun(card, s, engine, 'follower', horizon_us)]);
  const rt = leader.rt;
  const snapshots = leader.snapshots;
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
    // A dense mixed phase (card 1.8.0 on) is a burst of eight pauses a few seconds apart: its
    // period is from one burst's start to the next (the first comes one period after the start).
    const starts = kind === 'g1_mixed_dense' ? burstStarts(k.times) : k.times;
    const period_s = kind === 'go_cycle' ? goCyclePeriod_s(starts) : starts.length >= 2 ? starts[starts.length - 1]! - starts[starts.length - 2]! : starts[0]!;
    // Go's cycles are concurrent: what they cost is CPU (assists, dedicated workers), so every
    // cycle matters; a stop-the-world pause matters when it can decide the p99.
    // (A burst's share is that of all its pauses.)
    const stopped_ms = kind === 'g1_mixed_dense' ? (k.pause_ms * k.times.length) / starts.length : k.pause_ms;
    const matters = kind === 'go_cycle' || (k.pause_ms >= slo_ms / 2 && stopped_ms / 1000 / Math.max(period_s, 1e-9) >= SHARE_THAT_MATTERS);
    if (!matters) continue;
    if (!best || period_s > best.period_s) best = { kind, period_s: round3(period_s), pause_ms: round3(k.pause_ms) };
  }
  if (!best) return { window_s: min_s, event: null };
  // Room for the event's own pause and the backlog after it.
  const need = best.period_s * 1.1 + best.pause_ms / 1000 + 1;
  const out: ModelWindow = { window_s: round3(Math.min(Math.max(min_s, need), Math.max(max_s, min_s))), event: best };
  // (Card 1.4.0's table was computed from the fresh start; cards with ageing survivors, 1.5.0 on,
  // start settled.)
  if (best.kind !== 'g1_full' && best.kind !== 'g1_mixed_dense' && best.kind.startsWith('g1_') && Number.isFinite(card.parameters['g1.pause_goal_ms']?.value ?? Infinity) && (card.parameters['g1.max_tenuring_threshold']?.value ?? 1) > 1) {
    // With a pause-time goal G1 starts at its minimum young size and takes several pauses to
    // settle on the eden its goal allows (and its survivor space to fill); a fresh run's window
    // would hold that transient, not the pauses that recur. The paper measured after loading
    // 7.5 M records and a 20 s warm-up (§4.3, §5.1), so the run starts from the settled
    // collector: each node's phase just after its second-to-last young pause of the dry run.
    const followers = followerRuns();
    // The settled start is taken near the dry run's end, and the run lasts warm-up + window
    // after it: when a node's full collection (beyond the horizon, so not the window's event)
    // would fall inside the run, that start is moved back until it no longer does. Otherwise a
    // rate whose full collection comes just after the horizon would get it in its short window,
    // which the rates below (full collection later) and above (in the horizon: its own window
    // and shortcut) do not: the verdict would fall and rise again with the rate (issue 10).
    const run_s = s.warmup_s + out.window_s;
    const until_us = horizon_us + run_s * 1e6;
    const fulls = [leader, ...followers].map((d) => d.fullCollectionsBefore(until_us));
    // Each node at its own phase (card 1.8.1 on): every node as it stands at the leader's settled
    // instant (the dry runs share one clock), which keeps their phases apart; each node just
    // after its own pause would put them back in step.
    const together = startPhases !== null;
    const l = settledState(rt.events, snapshots, together ? fulls.flat() : fulls[0], run_s);
    const fs = together ? (l ? followers.map((f) => stateAt(f.snapshots, l.t_s) ?? null) : []) : followers.map((f, i) => settledState(f.rt.events, f.snapshots, fulls[i + 1], run_s)?.state ?? null);
    if (l && fs.length === followers.length && fs.every((f) => f !== null)) {
      out.g1_start = [l.state, ...(fs as G1State[])];
      // (The shortcut's anchored runs end within the horizon: a full collection in them is one
      // of their episodes.)
      const phases = youngPhases(s.warmup_s, min_s, out.window_s, best.pause_ms / 1000, horizon_us / 1e6, [leader, ...followers], together);
      if (phases) out.g1_phases = phases;
    }
  }
  if (best.kind === 'g1_full' || best.kind === 'g1_mixed_dense') {
    // The first occurrence (a full collection, or a dense phase's whole burst).
    const firstOf = (ts: number[]) => (best!.kind === 'g1_full' ? ts.slice(0, 1) : firstBurst(ts));
    const first = firstOf(byKind.get(best.kind)!.times);
    // The followers' collectors see the same updates (their old garbage grows alike) but fill
    // their eden with their own allocation: their full collections fall at their own time.
    const followers = followerRuns();
    const fFirst = followers.flatMap((follower) => {
      const fTimes = follower.rt.events.filter((e) => e.kind === best!.kind).map((e) => e.t_s);
      return fTimes.length > 0 ? firstOf(fTimes) : [];
    });
    // Only what falls inside the measured window: the plain run ends there, and a follower's
    // burst (or the end of the leader's) may come after it (Java A at 8 GiB, 10,680 ops/s, card
    // 1.8.0: the leader's burst from 408 s, three of its pauses and the followers' from 470 s
    // after the window's end at 452 s; with them the shortcut missed the SLO the plain run met).
    const end_s = s.warmup_s + out.window_s;
    const inside = [...first, ...fFirst].filter((t) => t < end_s);
    // A dense phase's episode holds its whole burst (~40 s): the short lead saves little there,
    // and card 1.8.0's Java A 8 GiB point at 10,680 ops/s moved away from its plain run with it
    // (0.92 % over the SLO against 0.87 % with the full lead and 0.76 % plain, past the test's
    // 0.15 pp): the full lead.
    const lead_s = best.kind === 'g1_mixed_dense' ? EPISODE_LEAD_S : EPISODE_MEASURED_LEAD_S;
    const nodeSnapshots = [leader.snapshots, ...followers.map((f) => f.snapshots)];
    out.g1_phases = g1Phases(s.warmup_s, best.pause_ms / 1000, inside, nodeSnapshots, end_s, lead_s) ?? undefined;
    if (out.g1_phases && best.kind === 'g1_mixed_dense') {
      const followerEvents = followers.flatMap((f) => f.rt.events).sort((a, b) => a.t_s - b.t_s);
      const steady = wholePeriodsSample(s.warmup_s, min_s, first[0]!, rt.events, followerEvents, nodeSnapshots);
      if (steady) out.g1_phases = { ...out.g1_phases, ...steady };
      else delete out.g1_phases;
    }
    if (!out.g1_phases) delete out.g1_phases;
  }
  return out;
}

/** Pauses of one dense mixed phase come at most this far apart (an eden's fill at the rates
 * where the phase comes within the paper's 10 minutes is seconds). */
const BURST_GAP_S = 30;

/** The first time of each burst: an occurrence more than BURST_GAP_S after the one before. */
function burstStarts(times: number[]): number[] {
  return times.filter((t, i) => i === 0 || t - times[i - 1]! > BURST_GAP_S);
}

/** The times of the first burst. */
function firstBurst(times: number[]): number[] {
  const out: number[] = [];
  for (const t of times) {
    if (out.length > 0 && t - out[out.length - 1]! > BURST_GAP_S) break;
    out.push(t);
  }
  return out;
}

/** The shortcut's runs: one episode per group of full collections close together (leader and
 * followers), each from the phases a little before it, and a steady sample halfway to the first.
 * `nodes`: each dry run's snapshots, the leader's first. */
function g1Phases(warmup_s: number, pause_s: number, times: number[], nodes: Snapshot[][], end_s: number, lead_s: number): ModelWindow['g1_phases'] | null {
  const sorted = [...times].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const episodes = episodesAround(warmup_s, pause_s, sorted, nodes, end_s, lead_s);
  if (!episodes) return null;
  const steady = statesAt(nodes, sorted[0]! / 2);
  return steady ? { episodes, steady } : null;
}

/**
 * The steady sample of a dense phase's window (card 1.8.0 on): between its bursts each node
 * pauses for young collections of 40 to 55 ms (the leader every ~10 s, the followers, in step,
 * every ~20 s), and the sample's slow operations are scaled to the rest of the window by time,
 * so the sample must hold as many pauses of each role per second as the window does. A fixed
 * 10 s sample held one leader pause of a ~12 s period and, by its phase, one or no follower
 * pause of a ~20 s one. The sample starts just after a leader pause halfway to the first burst
 * and lasts a whole number of the leader's periods (its measured part [after pause i, + t_j − t_i)
 * holds exactly pauses i+1..j), at least the spec's window and at most SAMPLE_MAX_S, choosing the
 * span whose count of follower pauses is nearest the followers' mean rate (ties: the shortest).
 * Null (no shortcut) when the dry run has no such span.
 */
function wholePeriodsSample(warmup_s: number, min_window_s: number, firstBurst_s: number, leaderEvents: { t_s: number; pause_ms: number }[], followerEvents: { t_s: number; pause_ms: number }[], nodes: Snapshot[][]): { steady: G1State[]; steady_window_s: number } | null {
  const pausesOf = (es: { t_s: number; pause_ms: number }[]) => es.filter((e) => e.pause_ms > 0 && e.t_s < firstBurst_s).map((e) => e.t_s);
  const pauses = pausesOf(leaderEvents);
  const half = firstBurst_s / 2;
  const fp = pausesOf(followerEvents).filter((t) => t >= half);
  const fPeriod = fp.length >= 2 ? (fp[fp.length - 1]! - fp[0]!) / (fp.length - 1) : Infinity;
  const i = pauses.findIndex((t, k) => t >= half && Math.floor(t) + 1 < (pauses[k + 1] ?? Infinity));
  if (i < 0) return null;
  const ti = pauses[i]!;
  // The measured part starts at the first snapshot after pause i; the run starts a warm-up before.
  const measuredFrom = Math.floor(ti) + 1;
  let best: { span: number; miss: number } | null = null;
  for (let j = i + 1; j < pauses.length; j++) {
    const span = pauses[j]! - ti;
    if (span < min_window_s) continue;
    if (span > SAMPLE_MAX_S || measuredFrom + span + 1 >= firstBurst_s) break;
    const held = fp.filter((t) => t >= measuredFrom && t < measuredFrom + span).length;
    const miss = Number.isFinite(fPeriod) ? Math.abs(held - span / fPeriod) : 0;
    if (!best || miss < best.miss - 1e-9) best = { span, miss };
  }
  const steady = statesAt(nodes, measuredFrom - warmup_s);
  if (!best || !steady) return null;
  return { steady, steady_window_s: round3(best.span) };
}

/** The longest steady sample of a dense phase's window (a few minutes of the window's ~7 saved). */
const SAMPLE_MAX_S = 90;

const stateAt = (xs: Snapshot[], t_s: number) => [...xs].reverse().find((x) => x.t_s <= t_s)?.state;

/** Every node's phase at `t_s` (null if one has none yet). */
function statesAt(nodes: Snapshot[][], t_s: number): G1State[] | null {
  const states = nodes.map((xs) => stateAt(xs, t_s));
  return states.every((x) => x !== undefined) ? (states as G1State[]) : null;
}

/** The shortcut for young (or mixed) pauses that decide the window (G1 with a pause-time goal,
 * e.g. Java at 32 GiB: a 200 ms pause every 20–45 s). The plain run starts each node just after
 * one of its settled pauses and its window holds the pauses of about one period; here each
 * node's dry run is re-timed from such a pause (its anchor), the pauses of both roles inside a
 * run's length become episodes, and the steady sample starts at the anchors (a stretch with no
 * pause). Null, and the plain run, when a pause falls inside the steady sample, when the dry
 * run does not cover a whole run after an anchor, or when the runs would not save at least
 * SHORTCUT_MIN_SAVING of the plain run's simulated time. */
function youngPhases(warmup_s: number, min_window_s: number, window_s: number, pause_s: number, horizon_s: number, dry: DryRun[], together = false): ModelWindow['g1_phases'] | null {
  const run_s = warmup_s + window_s;
  // (together: the followers re-timed from the leader's anchor, keeping each node's own phase)
  const lead = anchored(dry[0]!, run_s, horizon_s);
  const runs = [lead, ...dry.slice(1).map((d) => (together ? (lead ? anchored(d, run_s, horizon_s, lead.at_s) : null) : anchored(d, run_s, horizon_s)))];
  if (runs.some((r) => r === null)) return null;
  const anchoredRuns = runs as { at_s: number; snapshots: Snapshot[]; pauses: number[] }[];
  const times = anchoredRuns.flatMap((r) => r.pauses).sort((a, b) => a - b);
  if (times.length === 0 || times[0]! <= warmup_s + min_window_s + 1) return null;
  const episodes = episodesAround(warmup_s, pause_s, times, anchoredRuns.map((r) => r.snapshots));
  if (!episodes) return null;
  // Judged on the lengths the runs take when they end settled: a quiet steady sample its
  // QUIET_SAMPLE_MIN_S, an episode its settle_after_s (on their planned lengths, windows of
  // 20-27 s at Java A 32 GiB ran plain: 1.7 CPU-s for a probe far above the answer that the
  // shortcut decides in 0.5).
  const cost_s = warmup_s + Math.min(QUIET_SAMPLE_MIN_S, min_window_s, window_s) + episodes.reduce((a, e) => a + warmup_s + e.settle_after_s, 0);
  if (cost_s > (1 - SHORTCUT_MIN_SAVING) * run_s) return null;
  return { episodes, steady: anchoredRuns.map((r) => r.snapshots[0]!.state) };
}

/** A steady sample of a stretch with no pause in it may end once it has run this long with no
 * operation near the SLO and no backlog (search/slo.ts). */
export const QUIET_SAMPLE_MIN_S = 3;

/** The shortcut is taken only when it simulates at most (1 − this) of the plain run's time. */
const SHORTCUT_MIN_SAVING = 0.3;

type DryRun = { rt: { events: { t_s: number; kind: string; pause_ms: number }[] }; snapshots: Snapshot[] };

/** A node's dry run re-timed from its latest settled young pause (not the first two) whose
 * following run's length the dry run still covers, or from `at_s` when given: its snapshots
 * from there, and every pause (young, mixed, remark, full) within a run's length of it. */
function anchored(d: DryRun, run_s: number, horizon_s: number, at_s?: number): { at_s: number; snapshots: Snapshot[]; pauses: number[] } | null {
  const retimed = (a: number) => ({
    at_s: a,
    snapshots: d.snapshots.filter((x) => x.t_s >= a).map((x) => ({ t_s: x.t_s - a, state: x.state })),
    pauses: d.rt.events.filter((e) => e.pause_ms > 0 && e.t_s > a && e.t_s <= a + run_s).map((e) => e.t_s - a),
  });
  if (at_s !== undefined) return at_s + run_s > horizon_s ? null : retimed(at_s);
  const pauses = d.rt.events.filter((e) => e.kind === 'g1_young' || e.kind === 'g1_mixed' || e.kind === 'g1_mixed_dense').map((e) => e.t_s);
  for (let i = pauses.length - 1; i >= 1; i--) {
    const start = d.snapshots.find((x) => x.t_s > pauses[i]!);
    if (!start || start.t_s + run_s > horizon_s) continue;
    return retimed(start.t_s);
  }
  return null;
}

/** One episode per group of pauses close together, each run from the phases a little before it
 * (`nodes`: each dry run's snapshots, the leader's first). */
function episodesAround(warmup_s: number, pause_s: number, sorted: number[], nodes: Snapshot[][], end_s: number = Infinity, lead: number = EPISODE_MEASURED_LEAD_S): Episode[] | null {
  const groups: { from: number; to: number }[] = [];
  for (const t of sorted) {
    const g = groups.at(-1);
    if (g && t - g.to < EPISODE_LEAD_S + pause_s + EPISODE_TAIL_S) g.to = t;
    else groups.push({ from: t, to: t });
  }
  const episodes: Episode[] = [];
  for (const g of groups) {
    const start = g.from - warmup_s - lead;
    const states = start > 0 ? statesAt(nodes, start) : null;
    if (!states) return null;
    // (An episode measures from g.from − lead; it ends no later than the window.)
    const len_s = Math.min(g.to - g.from + lead + pause_s + EPISODE_TAIL_S, end_s - (g.from - lead));
    episodes.push({ states, window_s: round3(len_s), settle_after_s: round3(g.to - g.from + lead + pause_s + EPISODE_SETTLE_MARGIN_S) });
  }
  return episodes;
}

type Snapshot = { t_s: number; state: G1State };

/** The collector's snapshot (time and phase) at the first one after its second-to-last young (or mixed) pause
 * — or an earlier one, the latest whose run (`run_s` from that snapshot) holds none of the node's
 * full collections `fulls_s`; null when it paused fewer than three times (nothing settled to
 * start from) or no such pause is left. */
function settledState(events: { t_s: number; kind: string }[], snapshots: Snapshot[], fulls_s: number[] = [], run_s = 0): Snapshot | null {
  const pauses = events.filter((e) => e.kind === 'g1_young' || e.kind === 'g1_mixed' || e.kind === 'g1_mixed_dense').map((e) => e.t_s);
  if (pauses.length < 3) return null;
  for (let i = pauses.length - 2; i >= 0; i--) {
    const start = snapshots.find((x) => x.t_s > pauses[i]!);
    if (!start) return null;
    if (!fulls_s.some((t) => t > start.t_s && t <= start.t_s + run_s)) return start;
  }
  return null;
}

/** The collector of one node alone on the allocation stream of the spec's rate, 1 ms at a
 * time, with its phase every simulated second (G1); `g1_start_phase`: the node's own, as the run
 * gives it (card 1.8.1 on). */
function dryRun(card: ModelCard, s: ReturnType<typeof resolveSpec>, engine: EngineName, role: 'leader' | 'follower', horizon_us: number, g1_start_phase?: number, max_events = Infinity, from?: { g1_state: G1State; bucket_us: number }) {
  const pool = new CpuPool(s.vcpus, from?.bucket_us ?? 1e6);
  const logInstances = Math.ceil(s.target_ops_per_s * 2 * (s.commit_interval_us / 1e6)) + 64;
  const rt = makeRuntime(card, { engine, memory_bytes: s.memory_bytes, vcpus: s.vcpus, records: s.record_count, log_instances: logInstances, ...(g1_start_phase !== undefined ? { g1_start_phase } : {}), ...(from ? { g1_state: from.g1_state } : {}) }, pool);
  const a = allocCosts(card, engine);
  const bytesPerOp = s.read_proportion * opBytes(a, role, 'read') + (1 - s.read_proportion) * opBytes(a, role, 'update');
  const opsPerStep = (s.target_ops_per_s * DRY_STEP_US) / 1e6;
  const updatesPerStep = opsPerStep * (1 - s.read_proportion);
  const g1 = rt as unknown as Partial<G1Runtime>;
  let updatesDue = 0;
  const snapshots: { t_s: number; state: G1State }[] = [];
  let t = 0;
  const advance = (until_us: number, snap: boolean) => {
    for (; t < until_us; t += DRY_STEP_US) {
      if (snap && g1.state && t % 1_000_000 === 0) snapshots.push({ t_s: t / 1e6, state: g1.state.call(rt) });
      if (rt.onUpdate) {
        updatesDue += updatesPerStep;
        // The whole updates due, at once: taking 1 away n times is exact below 2^53, so this
        // leaves the same remainder.
        if (updatesDue >= 1) {
          const due = Math.floor(updatesDue);
          updatesDue -= due;
          rt.onUpdate(due);
        }
      }
      rt.charge(t, bytesPerOp * opsPerStep, 0);
      if (rt.oom_at_us !== null || rt.events.length >= max_events) return;
    }
  };
  advance(horizon_us, true);
  const kept = rt.events.length;
  /** The times (s) of the full collections before `until_us`, the dry run carried on past its
   * horizon to look (what it finds there is not kept in its events). Call once. */
  const fullCollectionsBefore = (until_us: number): number[] => {
    if (rt.oom_at_us === null) advance(until_us, false);
    const late = rt.events.splice(kept);
    return [...rt.events, ...late].filter((e) => e.kind === 'g1_full' && e.t_s * 1e6 < until_us).map((e) => e.t_s);
  };
  return { rt, pool, snapshots, fullCollectionsBefore };
}

/** The period of Go's cycles from their start times (s) in a dry run. Cycles with room between
 * them come at one period; back-to-back ones, at GOMEMLIMIT, at uneven gaps: their mean after the
 * first (which comes from the fresh start). */
function goCyclePeriod_s(starts: number[]): number {
  if (starts.length >= 3) return (starts[starts.length - 1]! - starts[1]!) / (starts.length - 2);
  return starts.length >= 2 ? starts[starts.length - 1]! - starts[starts.length - 2]! : starts[0]!;
}

/**
 * Go's cycle period (s) on the leader and on a follower at the spec's offered rate, each role's
 * collector run alone on its own allocation stream (the window's dry run; a follower allocates
 * less per operation, so cycles less often). Infinity for a role that does not cycle within the
 * horizon; null for an engine other than Go.
 */
export function goCyclePeriods_s(specIn: RunSpec, max_s: number = PAPER_METHOD.max_window_s): { leader_s: number; follower_s: number } | null {
  const card = validateCard(specIn.model_card ?? DEFAULT_CARD);
  const s = resolveSpec(specIn, card);
  if (s.engines[0] !== 'go') return null;
  const horizon_us = (s.warmup_s + Math.max(max_s, s.duration_s)) * 1e6;
  const period = (role: 'leader' | 'follower') => {
    const starts = dryRun(card, s, 'go', role, horizon_us, undefined, GO_DRY_CYCLES).rt.events.filter((e) => e.kind === 'go_cycle').map((e) => e.t_s);
    return starts.length >= 2 ? goCyclePeriod_s(starts) : Infinity;
  };
  return { leader_s: period('leader'), follower_s: period('follower') };
}

/**
 * Each node's collector CPU over the measured window, as a share of its cores: its G1 collector
 * run alone from the state the run starts it in (`states`, RunHooks.g1_states: the leader's
 * first) on its role's allocation stream, its pauses and concurrent marking counted as the run's
 * CPU pool counts them. Where a sample of the window saw the collector in another phase than the
 * window holds (a 3 s sample inside one concurrent marking), its collector share is not the
 * window's; this is (slo.ts, g1WindowFromSample). Node 0 leads (fast mode).
 */
export function g1WindowGcShares(specIn: RunSpec, states: readonly G1State[], nodes: number): number[] {
  const card = validateCard(specIn.model_card ?? DEFAULT_CARD);
  const s = resolveSpec(specIn, card);
  const from_us = s.warmup_s * 1e6;
  const to_us = from_us + s.duration_s * 1e6;
  return Array.from({ length: nodes }, (_, i) => {
    const d = dryRun(card, s, 'java', i === 0 ? 'leader' : 'follower', to_us, undefined, Infinity, { g1_state: states[Math.min(i, states.length - 1)]!, bucket_us: s.timeline_bucket_us });
    return d.pool.usage.utilization(from_us, to_us).gc;
  });
}

/** The spec with its window lengthened to what the model asks for at its rate. */
export function withModelWindow(spec: RunSpec, max_s: number, slo_ms?: number): { spec: RunSpec; window: ModelWindow } {
  const window = modelWindow(spec, max_s, slo_ms);
  return { spec: { ...spec, load: { ...spec.load, duration_s: window.window_s } }, window };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
