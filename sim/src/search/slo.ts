// The paper's method (§5.1): the highest target throughput whose p99 (from each request's
// intended start) meets the SLO, found here by bisection on the target rate. Each probe is a
// full run with its own warm-up.
import type { EngineName, RunResult, RunSpec, SloProbe, SloSearchResult, SloSearchSpec, SweepPoint, SweepResult, SweepSpec } from '../api.ts';
import { DEFAULT_CARD, validateCard } from '../models/card.ts';
import { simulate, type EngineProvider, type RunHooks } from '../run/simulate.ts';
import { SpecError, resolveSpec } from '../run/spec.ts';
import { GIB } from '../models/node-model.ts';
import { g1WindowGcShares, goCyclePeriods_s, modelWindow, QUIET_SAMPLE_MIN_S, type ModelWindow } from '../run/measurement.ts';
import { memoryFreeKey, probeKey, ProbeCache, RunMemo } from './probe-cache.ts';
import { windowQuantile_us } from './window-quantile.ts';
import { g1WholeWindowUtilization, wholeWindowUtilization } from './window-utilization.ts';
import type { LatencyHistogram } from '../metrics/histogram.ts';

const MAX_PROBES = 40;
/** The runs a memory size does not change, shared by every search of this process or worker. */
const PROBES = new ProbeCache();
/** Whole probes, memory included, by everything that decides them. */
const MEMO = new RunMemo<{ probe: SloProbe; run: RunResult }>();
/** The first guess after an overloaded probe: this share of the rate it served. */
const SERVED_GUESS_SHARE = 0.95;

export function withTarget(base: RunSpec, target: number): RunSpec {
  return { ...base, load: { ...base.load, mode: 'open', target_ops_per_s: target } };
}

function p99ms(r: RunResult): number {
  return r.latency.all.p99_us / 1000;
}

/** The leader's mean CPU utilisation over the window (the node that led at the end). */
export function leaderUtilization(r: RunResult): number | null {
  const id = r.leader_at_end ?? r.leader_changes.at(-1)?.leader;
  if (id === undefined || id === null) return null;
  return r.nodes[id]?.mean_cpu_utilization ?? null;
}

/**
 * The steady-state shortcut for a probe whose window is set by G1's full collections: the window
 * holds one full collection and, around it, a steady state that repeats. Two runs stand for it:
 * the episode (the leader's collector started just before the full collection, in the phase the
 * model's dry run gives, until the backlog after it has drained) and a steady sample (the
 * minimum window, the collector halfway to the event). The window's operations slower than the
 * SLO are the episode's plus the sample's scaled to the rest of the window; the SLO holds when
 * they are at most 1 % (the p99). The p99 reported is the latency 1 % of the window exceed, with
 * the episodes' and the sample's histograms weighed by the operations each stands for. Its runs
 * end early once settled unless `settled` is false (SloSearchSpec.settled_runs).
 */
export function steadyStateProbe(probeSpec: RunSpec, w: ModelWindow, min_window_s: number, slo_ms: number, provide: EngineProvider | null, hooks: RunHooks, settled = true, servedRate = false): { steady: RunResult; met: boolean; p99_ms: number; over_share: number; estimated_from: { episode_s: number; steady_s: number } } {
  const rate = probeSpec.load.target_ops_per_s;
  const limit_us = slo_ms * 1000;
  // (A dense phase's window asks for a sample of whole pause periods; see wholePeriodsSample.)
  const steadyWindow = w.g1_phases!.steady_window_s ?? Math.min(min_window_s, w.window_s);
  const total = rate * w.window_s;
  let nE = 0;
  let slowE = 0;
  let episodeSeconds = 0;
  let worst: RunResult | null = null;
  const parts: LatencyHistogram[] = [];
  const keep = (h: LatencyHistogram) => void parts.push(h);
  const episodes = () => {
    for (const ep of w.g1_phases!.episodes) {
      // The probe misses once its slow operations pass 1 % of the window's: when the search asks
      // for early stops, an episode stops as soon as its own take the ones already counted past
      // that (the verdict cannot change; the share it reports is then a lower bound).
      const budget = 0.01 * total - slowE;
      const stop = hooks.stop_when_p99_exceeds_us !== undefined;
      if (stop && budget < 0) break;
      // Past its last pause, the episode ends as soon as the pause's backlog has drained: what
      // follows is the steady state, weighed from the steady sample by operation counts.
      const settle = settled ? { end_when_settled: { after_s: ep.settle_after_s, lag_ms: slo_ms * SETTLED_LAG_SHARE } } : {};
      const episode = simulate({ ...probeSpec, load: { ...probeSpec.load, duration_s: ep.window_s } }, provide, { cancelled: hooks.cancelled, count_over_us: limit_us, g1_states: ep.states, window_latencies: keep, ...settle, ...(stop ? { stop_when_p99_exceeds_us: limit_us, stop_when_over_count_exceeds: budget } : {}) });
      nE += episode.latency.all.count;
      slowE += episode.ops_over?.count ?? 0;
      episodeSeconds += episode.settled_at_s ?? ep.window_s;
      if (!worst || episode.latency.all.p99_us > worst.latency.all.p99_us) worst = episode;
    }
  };
  // The episodes come first when the window is one of the young pauses' periods, and, under the
  // search's early stop, when it is the full collections' cycle: once their own slow operations
  // are more than 1 % of the window's the probe has missed — the steady sample could only add to
  // them. (Without the early stop a full-collection probe runs both, so its share over the SLO is
  // the window's, not a lower bound. A probe whose served rate the search steps from runs its
  // steady sample first: an overloaded one stops early and reports what the cluster carries.)
  const young = w.g1_start !== undefined;
  const episodesFirst = young || (hooks.stop_when_p99_exceeds_us !== undefined && !servedRate);
  if (episodesFirst) {
    episodes();
    const ep = worst as RunResult | null;
    if (ep && slowE > 0.01 * total) {
      const pAt = 100 * Math.max(0, 1 - (0.01 * total) / Math.max(nE, 1));
      // A full collection's episode serves less than the cluster can carry while it pauses: its
      // served rate is no guess of the answer, so the probe reports none.
      return { steady: young ? ep : withoutServedRate(ep), met: false, p99_ms: Math.max(spectrumAt(ep.latency.all.spectrum, pAt) / 1000, slo_ms), over_share: slowE / Math.max(total, 1), estimated_from: { episode_s: round3(episodeSeconds), steady_s: 0 } };
    }
  }
  // A sample of a stretch with no pause in it (young pauses decide the window) ends once it has
  // run QUIET_SAMPLE_MIN_S with no operation near the SLO and no backlog: such a steady state
  // adds no slow operation however long it runs. Otherwise (slow operations in it, or pauses
  // inside the sample) it runs its whole length.
  const quiet = settled && young ? { end_when_settled: { after_s: QUIET_SAMPLE_MIN_S, lag_ms: slo_ms * SETTLED_LAG_SHARE, calm_ms: slo_ms * QUIET_CALM_SHARE } } : {};
  let steadyLatencies: LatencyHistogram | null = null;
  const steady = simulate({ ...probeSpec, load: { ...probeSpec.load, duration_s: steadyWindow } }, provide, { ...hooks, count_over_us: limit_us, g1_states: w.g1_phases!.steady, window_latencies: (h) => void (steadyLatencies = h), ...quiet });
  const steadySeconds = steady.settled_at_s ?? steadyWindow;
  if (steady.stopped_early || steady.latency.all.count === 0) return { steady, met: false, p99_ms: slo_ms, over_share: 1, estimated_from: { episode_s: episodesFirst ? round3(episodeSeconds) : 0, steady_s: steadySeconds } };
  if (!episodesFirst) episodes();
  const nS = steady.latency.all.count;
  const slow = slowE + ((steady.ops_over?.count ?? 0) * Math.max(0, total - nE)) / nS;
  const share = slow / Math.max(total, 1);
  // The p99 over the window: the latency the slowest 1 % of it reach, with each episode standing
  // for itself and the steady sample for the rest of the window. (An estimate from the runs'
  // histograms; it is kept on the side of the verdict, which the share decides.)
  const weighed = [...parts.map((latencies) => ({ latencies, weight: 1 })), { latencies: steadyLatencies!, weight: Math.max(0, total - nE) / nS }];
  const read = windowQuantile_us(weighed, 0.01) / 1000;
  const met = share <= 0.01;
  const p99_ms = met ? Math.min(read, slo_ms) : Math.max(read, slo_ms);
  return { steady, met, p99_ms, over_share: share, estimated_from: { episode_s: round3(episodeSeconds), steady_s: steadySeconds } };
}

function withoutServedRate(r: RunResult): RunResult {
  const { served_ops_per_s, ...rest } = r;
  void served_ops_per_s;
  return rest;
}

/** A run has settled when no window operation is more than this share of the SLO late. */
const SETTLED_LAG_SHARE = 0.25;
/** A quiet sample may end once it has run QUIET_SAMPLE_MIN_S with no operation slower than
 * this share of the SLO. */
const QUIET_CALM_SHARE = 0.5;

function spectrumAt(spectrum: [number, number][], percentile: number): number {
  for (const [p, v] of spectrum) if ((p > 1 ? p : p * 100) >= percentile) return v;
  return spectrum.at(-1)?.[1] ?? 0;
}

/** One probe of a search at a target rate: its window (model-derived unless the spec says
 * otherwise), its run (or the steady-state shortcut's two), and whether the SLO held. */
/** A probe's result; `remembered` when it was not run now: the same probe made before in this
 * process or worker ('probe'), or the run of another memory size that the memory does not enter
 * ('other memory', probe-cache.ts). */
export interface ProbeOutcome {
  probe: SloProbe;
  run: RunResult;
  remembered?: 'probe' | 'other memory';
}

export function runProbe(spec: SloSearchSpec, target: number, provide: EngineProvider | null, inner: RunHooks, servedRate = false): ProbeOutcome {
  // The same probe again (a Race stepping back, a sweep repeated, the fidelity runner's sections)
  // is the same result: fast mode depends on nothing but the spec and the seed. (Whether the
  // search reads its served rate changes what a G1 shortcut runs first, so it is part of the key
  // where G1 runs.)
  const served = servedRate && spec.base.cluster.engines.includes('java');
  const key = spec.base.fidelity === 'fast' ? probeKey(spec, round3(target), inner.stop_when_p99_exceeds_us) + (served ? ' served' : '') : null;
  const seen = key === null ? undefined : MEMO.get(key);
  if (seen) return { ...seen, remembered: 'probe' };
  const out = runProbeUncached(spec, target, provide, inner, served);
  if (key !== null) MEMO.set(key, { probe: out.probe, run: out.run });
  return out;
}

function runProbeUncached(spec: SloSearchSpec, target: number, provide: EngineProvider | null, inner: RunHooks, servedRate: boolean): ProbeOutcome {
  const slo = spec.slo_p99_ms;
  const window = spec.window ?? (spec.probe_operations !== undefined ? 'fixed' : 'model');
  const probeSpec = withTarget(spec.base, round3(target));
  let event: SloProbe['window_event'] = null;
  let w: ModelWindow | null = null;
  if (window === 'model') {
    w = modelWindow(probeSpec, (spec.max_duration_s ?? 600), slo);
    probeSpec.load = { ...probeSpec.load, duration_s: w.window_s };
    event = w.event;
  } else if (spec.probe_operations !== undefined) {
    const d = Math.min((spec.max_duration_s ?? 600), Math.max(spec.base.load.duration_s, spec.probe_operations / target));
    probeSpec.load = { ...probeSpec.load, duration_s: round3(d) };
  }
  let r: RunResult;
  let met: boolean;
  let p99 = 0;
  let estimated: SloProbe['estimated_from'];
  let overShare: number | undefined;
  let shared = false;
  if (window === 'model' && w?.g1_phases && probeSpec.fidelity === 'fast' && spec.steady_state_shortcut !== false) {
    const est = steadyStateProbe(probeSpec, w, spec.base.load.duration_s, slo, provide, inner, spec.settled_runs !== false, servedRate);
    r = est.steady;
    met = est.met;
    p99 = est.p99_ms;
    estimated = est.estimated_from;
    overShare = est.over_share;
  } else {
    // A run the memory does not enter is made once for all memory sizes (probe-cache.ts); a run
    // started from carried G1 state is not memory-free.
    const free = w?.g1_start ? null : memoryFreeKey(probeSpec, inner.stop_when_p99_exceeds_us, slo * 1000);
    const sampled = collectorSample(spec, probeSpec, w, slo, free !== null);
    // (A sample and the plain run of one spec are two runs.)
    const key = free === null ? null : sampled ? `${free} sampled` : free;
    const cached = key === null ? null : PROBES.get(key, probeSpec);
    r = cached ?? simulate(probeSpec, provide, { ...inner, count_over_us: slo * 1000, ...(w?.g1_start ? { g1_states: w.g1_start } : {}), ...(sampled ? { end_when_settled: sampled } : {}) });
    if (key !== null && !cached) PROBES.set(key, r);
    shared = cached !== null;
    met = !r.stopped_early && p99ms(r) <= slo && r.latency.all.count > 0;
    p99 = r.stopped_early ? slo : p99ms(r);
    if (r.ops_over && r.latency.all.count > 0 && !r.stopped_early) overShare = r.ops_over.count / r.latency.all.count;
  }
  const p: SloProbe = {
    target_ops_per_s: round3(target),
    p99_ms: round3(p99),
    achieved_ops_per_s: r.achieved_ops_per_s,
    met,
    stopped_early: r.stopped_early,
    window_s: probeSpec.load.duration_s,
    window_event: event,
    ...(estimated ? { estimated_from: estimated } : {}),
    ...(r.settled_at_s !== undefined && !estimated ? { sampled_s: r.settled_at_s } : {}),
    ...(overShare !== undefined ? { over_slo_share: Math.round(overShare * 1e6) / 1e6 } : {}),
  };
  return { probe: p, run: r, ...(shared ? { remembered: 'other memory' as const } : {}) };
}

/**
 * Sampled probes. Go's (fast mode, a window set by Go's GC cycle): the run's window ends once
 * every node's collector cycles that the window holds are behind it — each node has ended a cycle
 * that began inside the window, or its pacer (bytes left to its trigger, at its allocation rate)
 * puts its next cycle past the window's end — and the backlog has drained (no window operation
 * more than a quarter of the SLO late), at least GO_SAMPLE_MIN_S in. Each node's pacer runs on
 * from its own state, so its cycles repeat with the same cost at the same period: a stretch that
 * holds each of them stands for the window, its share of operations over the SLO and its p99 for
 * the window's (a cycle weighs at least as much in the sample as in the window). A run that never
 * settles (an overloaded probe, a cycle's backlog still growing) runs its whole window: the plain
 * run.
 *
 * Java's plain runs whose window G1's young or mixed pauses set (Java A at 8 GiB: ~12 ms mixed
 * pauses every 0.85 s on the leader, 1.7 s on the followers, in a 10 s window) are sampled
 * alike — each node seen through G1_SAMPLE_PAUSES pauses, or by its G1 state (its next pause by
 * the eden left at its allocation rate) due after the window — but only while no window
 * operation has taken longer than the SLO: a sample of G1's pauses need not hold every kind the
 * window does (a remark, a young pause between mixed ones), so it is trusted only where none of
 * them came near the verdict. It runs at least QUIET_SAMPLE_MIN_S. (A window
 * set by full collections or a dense mixed burst is the steady-state shortcut's; a 32 GiB window
 * is one period of its 200 ms young pause, which the sample must wait for and which is over the
 * SLO: it runs whole.)
 * `steady_state_shortcut: false` turns it off.
 */
function collectorSample(spec: SloSearchSpec, probeSpec: RunSpec, w: ModelWindow | null, slo_ms: number, collectorFree: boolean): RunHooks['end_when_settled'] | null {
  if (probeSpec.fidelity !== 'fast' || spec.steady_state_shortcut === false) return null;
  const kind = w?.event?.kind;
  if (kind === 'go_cycle') return { after_s: GO_SAMPLE_MIN_S, lag_ms: slo_ms * SETTLED_LAG_SHARE, after_collections: 1 };
  if (kind === 'g1_young' || kind === 'g1_mixed') return { after_s: QUIET_SAMPLE_MIN_S, lag_ms: slo_ms * SETTLED_LAG_SHARE, calm_ms: slo_ms, after_collections: G1_SAMPLE_PAUSES };
  // No collector and nothing that sets the window but its minimum (C++ and Rust whose memory fits):
  // the quiet sample of a young-pause stretch — 3 s with no operation over half the SLO and
  // nothing late — stands for a steady state that adds no slow operation however long it runs.
  if (!kind && collectorFree) return { after_s: QUIET_SAMPLE_MIN_S, lag_ms: slo_ms * SETTLED_LAG_SHARE, calm_ms: slo_ms * QUIET_CALM_SHARE };
  return null;
}

/** A G1 sample holds at least this many pauses of each node (one let the p99 of Java A at 6 GiB,
 * 7,343 ops/s, read 2.6 against the window's 4.7 ms: the followers' remark fell after it). */
const G1_SAMPLE_PAUSES = 2;

/** The shortest sample of a Go probe's window. */
const GO_SAMPLE_MIN_S = 2;

/**
 * The run a search's CPU figures at its answer are read from: the best probe's own run, unless
 * that probe was sampled (collectorSample), whose run measured only the first seconds of the
 * window. A sample stands for the window in its verdict, its share over the SLO and its p99
 * (g1-sample.test.ts, go-sample.test.ts), but not in its CPU: what a few seconds hold of a
 * collector's phases is not the window's mix (Java A at 8 GiB, 23,220 ops/s: the 3 s sample lies
 * inside the leader's concurrent marking and reads 77.4 % where the whole window reads 70.4 %).
 * A sampled Go probe's window is computed from its sample and the cycles its nodes' periods put
 * in the rest of the window, a sampled Java probe's from its sample's mutator rate and the
 * window's collector share from the model (window-utilization.ts; go-sample.test.ts and
 * g1-sample.test.ts hold them to the plain run); otherwise (a node whose cost per cycle the
 * sample does not show, a leader other than node 0) the sampled best probe is run once more
 * over its whole window, plain: one run a search.
 */
export function wholeWindowRun(spec: SloSearchSpec, best: SloProbe | null, bestRun: RunResult, provide: EngineProvider | null, hooks: RunHooks = {}): RunResult {
  if (best?.sampled_s === undefined) return bestRun;
  const kind = best.window_event?.kind;
  const fromSample = kind === 'go_cycle' ? goWindowFromSample(bestRun, best) : kind === 'g1_young' || kind === 'g1_mixed' ? g1WindowFromSample(spec, bestRun, best) : !kind ? quietWindowFromSample(bestRun, best) : null;
  if (fromSample) return fromSample;
  return runProbe({ ...spec, steady_state_shortcut: false }, bestRun.spec.load.target_ops_per_s, provide, { cancelled: hooks.cancelled }).run;
}

/** The sampled Go run with each node's mean utilisation made the whole window's (null: it cannot
 * be, see wholeWindowUtilization). Only the utilisation is the window's. */
function goWindowFromSample(run: RunResult, best: SloProbe): RunResult | null {
  const periods = goCyclePeriods_s(run.spec);
  if (!periods) return null;
  const leader = run.leader_at_end ?? run.leader_changes.at(-1)?.leader ?? 0;
  return periodicWindowFromSample(run, best, run.nodes.map((n) => (n.node === leader ? periods.leader_s : periods.follower_s)));
}

/** The sampled run with each node's mean utilisation the whole window's, its CPU repeating at its
 * collector's period (`periods_s`, by node; Infinity: no cycles) (wholeWindowUtilization). */
function periodicWindowFromSample(run: RunResult, best: SloProbe, periods_s: number[]): RunResult | null {
  const resolved = resolveSpec(run.spec, validateCard(run.spec.model_card ?? DEFAULT_CARD));
  const u = wholeWindowUtilization(
    run,
    { from_s: resolved.warmup_s, window_s: best.window_s!, sampled_s: best.sampled_s!, bucket_s: resolved.timeline_bucket_us / 1e6 },
    periods_s,
  );
  return u ? { ...run, nodes: run.nodes.map((n, i) => ({ ...n, mean_cpu_utilization: round4(u[i]!) })) } : null;
}

/** A collector-free sampled run (collectorSample's quiet sample) with each node's mean utilisation
 * made the whole window's: its steady state runs at one rate, so the window's is the mean of the
 * sample's whole timeline buckets (wholeWindowUtilization with no cycles); the run's own mean
 * counts the cut-short last bucket and read Rust A 32 GiB at 69,168 ops/s 1.8 pp low. */
function quietWindowFromSample(run: RunResult, best: SloProbe): RunResult | null {
  return periodicWindowFromSample(run, best, run.nodes.map(() => Infinity));
}

/** The sampled Java run with each node's mean utilisation made the whole window's: the sample's
 * mutator rate and the window's collector share, from the collector run alone from the states the
 * run started in (window-utilization.ts, g1WholeWindowUtilization). Null when the window the
 * model gives now is not the probe's (then the plain rerun). */
function g1WindowFromSample(spec: SloSearchSpec, run: RunResult, best: SloProbe): RunResult | null {
  // (The states are by node, node 0 the leader's: fast mode's leader unless an election moved it.)
  if ((run.leader_at_end ?? 0) !== 0 || run.leader_changes.some((c) => c.leader !== 0)) return null;
  const w = modelWindow(run.spec, spec.max_duration_s ?? 600, spec.slo_p99_ms);
  if (!w.g1_start || w.window_s !== best.window_s) return null;
  const resolved = resolveSpec(run.spec, validateCard(run.spec.model_card ?? DEFAULT_CARD));
  const u = g1WholeWindowUtilization(
    run,
    { from_s: resolved.warmup_s, window_s: best.window_s!, sampled_s: best.sampled_s!, bucket_s: resolved.timeline_bucket_us / 1e6 },
    g1WindowGcShares(run.spec, w.g1_start, run.nodes.length),
  );
  return u ? { ...run, nodes: run.nodes.map((n, i) => ({ ...n, mean_cpu_utilization: round4(u[i]!) })) } : null;
}

/** The followers' mean CPU utilisation over the window. */
export function followerUtilization(r: RunResult): number | null {
  const id = r.leader_at_end ?? r.leader_changes.at(-1)?.leader ?? 0;
  const f = r.nodes.filter((n) => n.node !== id);
  return f.length ? Math.round((f.reduce((s, n) => s + n.mean_cpu_utilization, 0) / f.length) * 10000) / 10000 : null;
}

/** A search's hooks: a run's, and `probe_done`, handed each probe as it is decided (the Race's
 * profile, bench/race-profile.ts, times the probes by it). */
export interface SearchHooks extends RunHooks {
  probe_done?: (p: SloProbe, remembered: ProbeOutcome['remembered']) => void;
}

/** Forgets every probe this process or worker has made (probe-cache.ts): the next search computes
 * everything afresh, as a first visit does (the bench's cold figures). */
export function forgetProbes(): void {
  PROBES.clear();
  MEMO.clear();
}

export function searchSlo(spec: SloSearchSpec, provide: EngineProvider | null, hooks: SearchHooks = {}): SloSearchResult {
  const slo = spec.slo_p99_ms;
  if (typeof slo !== 'number' || !(slo > 0)) throw new SpecError(`slo_p99_ms must be a positive number, got ${JSON.stringify(slo)}`);
  let lo = spec.min_ops_per_s ?? 100;
  let hi = spec.max_ops_per_s ?? 200_000;
  const tol = spec.tolerance ?? 0.02;
  if (!(lo > 0) || !(hi > lo)) throw new SpecError('need 0 < min_ops_per_s < max_ops_per_s');
  if (!(tol > 0 && tol < 1)) throw new SpecError('tolerance must be in (0, 1)');
  const window = spec.window ?? (spec.probe_operations !== undefined ? 'fixed' : 'model');
  if (window !== 'model' && window !== 'fixed') throw new SpecError(`window must be "model" or "fixed", got ${JSON.stringify(window)}`);
  const maxWindow = spec.max_duration_s ?? 600;
  if (!(maxWindow > 0)) throw new SpecError('max_duration_s must be positive');
  const probes: SloProbe[] = [];
  let best: RunResult | null = null;
  let bestProbe: SloProbe | null = null;
  let firstMissedAbove: SloProbe | null = null;
  let lastRun: RunResult | null = null;
  let expected = Math.ceil(Math.log2(Math.log(hi / lo) / Math.log(1 + tol))) + 2;
  // `servedRate`: the search steps from what this probe served if it stopped early overloaded.
  const probe = (target: number, servedRate = false): boolean => {
    if (probes.length >= MAX_PROBES) throw new Error('SLO search did not converge');
    const inner: RunHooks = {
      cancelled: hooks.cancelled,
      stop_when_p99_exceeds_us: slo * 1000,
      progress: hooks.progress ? (f) => hooks.progress!(Math.min(1, (probes.length + f) / expected)) : undefined,
    };
    const { probe: p, run: r, remembered } = runProbe(spec, target, provide, inner, servedRate);
    lastRun = r;
    const met = p.met;
    probes.push(p);
    hooks.probe_done?.(p, remembered);
    if (met && (!best || target > best.spec.load.target_ops_per_s)) {
      best = r;
      bestProbe = p;
    }
    if (!met && (!firstMissedAbove || target < firstMissedAbove.target_ops_per_s)) firstMissedAbove = p;
    return met;
  };
  // The last probe, if it stopped early overloaded: just under the rate it served.
  const servedGuess = (): number | undefined => {
    const served = (lastRun as RunResult | null)?.served_ops_per_s;
    return served !== undefined && served > 0 ? round3(served * SERVED_GUESS_SHARE) : undefined;
  };
  // Starts the bracket from a guess `m` (with a rate `missed` known to miss, if any): probe it
  // and, when it holds, bracket from there; when it does not, walk down from it in widening
  // steps, down to `lo`. The bracket is always re-established by probes made here (`lo` and
  // `hi` are probed again unless this search already has: `edgesProbed`).
  const startFrom = (m: number, missed: number | undefined, edgesProbed: boolean): 'done' | 'bracketed' | 'nothing_meets' => {
    if (probe(m, true)) {
      lo = m;
      // Up from the guess one tolerance step at a time, widening the step only while the SLO
      // keeps holding (1+tol, then its square, its fourth power …): a neighbour's answer is
      // usually within a step or two, and a probe that meets the SLO costs its full window.
      let step = 1 + tol;
      let above = Math.max(m * step, missed ?? 0);
      for (;;) {
        if (above >= hi) return !edgesProbed && probe(hi) ? 'done' : 'bracketed';
        if (!probe(above)) {
          hi = above;
          return 'bracketed';
        }
        lo = above;
        step *= step;
        above = lo * step;
      }
    }
    hi = m;
    // The guess missed: before walking down, the floor. If it misses too, nothing meets and the
    // walk's probes (each an overloaded run: six of them for Go at 5 GiB, warm from 6 GiB) would
    // only have confirmed it; if it meets, the walk is the one it was, the floor already known.
    // (The verdict falls once with the rate, warm-start.test.ts, so the answer is the walk's.)
    const g = servedGuess();
    if (!edgesProbed && !probe(lo)) return 'nothing_meets';
    // Down in widening steps; a guess from what the failed probe served, when it stopped early
    // overloaded, joins them in its place.
    const steps = [0.8, 0.5, 0.2].map((f) => m * f);
    if (g !== undefined && g < m && !steps.includes(g)) steps.push(g);
    steps.sort((a, b) => b - a);
    for (const r of steps) {
      if (r <= lo) break;
      if (probe(r)) {
        lo = r;
        return 'bracketed';
      }
      hi = r;
    }
    return 'bracketed';
  };
  // A hint from a neighbouring setting (the sweep's previous point).
  const h = spec.hint;
  let bracketed = false;
  if (h?.met_ops_per_s !== undefined && h.met_ops_per_s > lo && h.met_ops_per_s < hi) {
    const start = startFrom(h.met_ops_per_s, h.missed_ops_per_s, false);
    if (start === 'done') return finish(best);
    if (start === 'nothing_meets') return finish(null);
    bracketed = true;
  }
  if (!bracketed) {
    if (!probe(lo)) return finish(null);
    if (probe(hi, true)) return finish(best);
    // The top of the range overloaded the cluster, and an overloaded run serves what the cluster
    // can carry: the answer is at most about that. Start just under it rather than at the
    // bracket's geometric middle (most of whose probes would meet the SLO at full cost).
    const guess = servedGuess();
    if (guess !== undefined && guess > lo * (1 + tol) && guess < hi / (1 + tol)) {
      const start = startFrom(guess, undefined, true);
      if (start === 'done') return finish(best);
      if (start === 'nothing_meets') return finish(null);
    }
  }
  // Geometric bisection: the bracket [lo, hi] always has lo met, hi not met.
  // (A bracket of exactly one step, m and m·(1+tol), is closed whatever the rounding.)
  while (hi / lo > (1 + tol) * (1 + 1e-12)) {
    expected = Math.max(expected, probes.length + 1);
    const mid = Math.sqrt(lo * hi);
    if (probe(mid)) lo = mid;
    else hi = mid;
  }
  return finish(best);

  function finish(b: RunResult | null): SloSearchResult {
    const whole = b ? wholeWindowRun(spec, bestProbe as SloProbe | null, b, provide, hooks) : null;
    const r: SloSearchResult = {
      simulated: true,
      model_card_version: (spec.base.model_card ?? DEFAULT_CARD).version,
      max_ops_per_s_at_slo: b ? b.spec.load.target_ops_per_s : null,
      p99_ms_at_max: b ? round3(p99ms(b)) : null,
      leader_cpu_utilization_at_max: whole ? leaderUtilization(whole) : null,
      follower_cpu_utilization_at_max: whole ? followerUtilization(whole) : null,
      probes,
      deciding_event: (firstMissedAbove as SloProbe | null)?.window_event ?? (bestProbe as SloProbe | null)?.window_event ?? null,
    };
    if (b) r.best_run = b;
    return r;
  }
}

/** The search a sweep makes at one of its points: the sweep's base with this point's engine,
 * memory and vCPUs. One definition, so a point of a sweep and a single search agree. */
export function sweepPointSearchSpec(spec: SweepSpec, engine: EngineName, m: { gib?: number; ratio?: number }, vcpus: number): SloSearchSpec {
  const base: RunSpec = {
    ...spec.base,
    cluster: { ...spec.base.cluster, engines: spec.base.cluster.engines.map(() => engine) },
    resources: m.gib !== undefined ? { vcpus, memory_gib: m.gib } : m.ratio !== undefined ? { vcpus, memory_to_data_ratio: m.ratio } : { ...spec.base.resources, vcpus },
  };
  const out: SloSearchSpec = { base, slo_p99_ms: spec.slo_p99_ms };
  if (spec.min_ops_per_s !== undefined) out.min_ops_per_s = spec.min_ops_per_s;
  if (spec.max_ops_per_s !== undefined) out.max_ops_per_s = spec.max_ops_per_s;
  if (spec.tolerance !== undefined) out.tolerance = spec.tolerance;
  if (spec.window !== undefined) out.window = spec.window;
  if (spec.steady_state_shortcut !== undefined) out.steady_state_shortcut = spec.steady_state_shortcut;
  if (spec.probe_operations !== undefined) out.probe_operations = spec.probe_operations;
  if (spec.max_duration_s !== undefined) out.max_duration_s = spec.max_duration_s;
  return out;
}

export function sweep(spec: SweepSpec, provide: EngineProvider | null, hooks: RunHooks = {}): SweepResult {
  const mems: { gib?: number; ratio?: number }[] = spec.memory_gib?.map((g) => ({ gib: g })) ?? spec.memory_to_data_ratio?.map((r) => ({ ratio: r })) ?? [{}];
  const cpus = spec.vcpus ?? [spec.base.resources.vcpus];
  if (!spec.engines?.length) throw new SpecError('a sweep needs at least one engine');
  const total = spec.engines.length * mems.length * cpus.length;
  const points: SweepPoint[] = [];
  for (const engine of spec.engines) {
    // Memory falls (or vCPUs fall) along the axis: the previous point's answer is a hint for the
    // next one (warm start). Each point still confirms its own bracket with its own probes.
    let hint: SloSearchSpec['hint'] = spec.hints?.[engine];
    for (const m of mems) {
      for (const vcpus of cpus) {
        const done = points.length;
        const search = sweepPointSearchSpec(spec, engine, m, vcpus);
        if (hint) search.hint = hint;
        const result = searchSlo(search, provide, {
          cancelled: hooks.cancelled,
          progress: hooks.progress ? (f) => hooks.progress!((done + f) / total) : undefined,
        });
        const max = result.max_ops_per_s_at_slo;
        const missed = result.probes.filter((p) => !p.met && max !== null && p.target_ops_per_s > max).reduce<number | undefined>((a, p) => (a === undefined || p.target_ops_per_s < a ? p.target_ops_per_s : a), undefined);
        hint = max === null ? undefined : { met_ops_per_s: max, ...(missed !== undefined ? { missed_ops_per_s: missed } : {}) };
        const memGib = m.gib ?? resolveSpec(search.base, validateCard(search.base.model_card ?? DEFAULT_CARD)).memory_bytes / GIB;
        points.push({ engine, memory_gib: m.gib ?? round3(memGib), vcpus, result: stripRun(result) });
      }
    }
  }
  return { simulated: true, model_card_version: (spec.base.model_card ?? DEFAULT_CARD).version, points };
}

function stripRun(r: SloSearchResult): SloSearchResult {
  const { best_run, ...rest } = r;
  void best_run;
  return rest;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

