// The paper's method (§5.1): the highest target throughput whose p99 (from each request's
// intended start) meets the SLO, found here by bisection on the target rate. Each probe is a
// full run with its own warm-up.
import type { RunResult, RunSpec, SloSearchResult, SloSearchSpec, SweepPoint, SweepResult, SweepSpec } from '../api.ts';
import { DEFAULT_CARD } from '../models/card.ts';
import { simulate, type EngineProvider, type RunHooks } from '../run/simulate.ts';
import { SpecError } from '../run/spec.ts';

const MAX_PROBES = 40;

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

export function searchSlo(spec: SloSearchSpec, provide: EngineProvider | null, hooks: RunHooks = {}): SloSearchResult {
  const slo = spec.slo_p99_ms;
  if (typeof slo !== 'number' || !(slo > 0)) throw new SpecError(`slo_p99_ms must be a positive number, got ${JSON.stringify(slo)}`);
  let lo = spec.min_ops_per_s ?? 100;
  let hi = spec.max_ops_per_s ?? 200_000;
  const tol = spec.tolerance ?? 0.02;
  if (!(lo > 0) || !(hi > lo)) throw new SpecError('need 0 < min_ops_per_s < max_ops_per_s');
  if (!(tol > 0 && tol < 1)) throw new SpecError('tolerance must be in (0, 1)');
  const probes: SloSearchResult['probes'] = [];
  let best: RunResult | null = null;
  let expected = Math.ceil(Math.log2(Math.log(hi / lo) / Math.log(1 + tol))) + 2;
  const probe = (target: number): boolean => {
    if (probes.length >= MAX_PROBES) throw new Error('SLO search did not converge');
    const inner: RunHooks = {
      cancelled: hooks.cancelled,
      stop_when_p99_exceeds_us: slo * 1000,
      progress: hooks.progress ? (f) => hooks.progress!(Math.min(1, (probes.length + f) / expected)) : undefined,
    };
    const probeSpec = withTarget(spec.base, round3(target));
    if (spec.probe_operations !== undefined) {
      const d = Math.min(spec.max_duration_s ?? 600, Math.max(spec.base.load.duration_s, spec.probe_operations / target));
      probeSpec.load = { ...probeSpec.load, duration_s: round3(d) };
    }
    const r = simulate(probeSpec, provide, inner);
    const met = !r.stopped_early && p99ms(r) <= slo && r.latency.all.count > 0;
    probes.push({
      target_ops_per_s: round3(target),
      p99_ms: r.stopped_early ? slo : round3(p99ms(r)),
      achieved_ops_per_s: r.achieved_ops_per_s,
      met,
      stopped_early: r.stopped_early,
    });
    if (met && (!best || target > best.spec.load.target_ops_per_s)) best = r;
    return met;
  };
  if (!probe(lo)) return finish(null);
  if (probe(hi)) return finish(best);
  // Geometric bisection: the bracket [lo, hi] always has lo met, hi not met.
  while (hi / lo > 1 + tol) {
    expected = Math.max(expected, probes.length + 1);
    const mid = Math.sqrt(lo * hi);
    if (probe(mid)) lo = mid;
    else hi = mid;
  }
  return finish(best);

  function finish(b: RunResult | null): SloSearchResult {
    const r: SloSearchResult = {
      simulated: true,
      model_card_version: (spec.base.model_card ?? DEFAULT_CARD).version,
      max_ops_per_s_at_slo: b ? b.spec.load.target_ops_per_s : null,
      p99_ms_at_max: b ? round3(p99ms(b)) : null,
      leader_cpu_utilization_at_max: b ? leaderUtilization(b) : null,
      probes,
    };
    if (b) r.best_run = b;
    return r;
  }
}

export function sweep(spec: SweepSpec, provide: EngineProvider | null, hooks: RunHooks = {}): SweepResult {
  const mems: { gib?: number; ratio?: number }[] = spec.memory_gib?.map((g) => ({ gib: g })) ?? spec.memory_to_data_ratio?.map((r) => ({ ratio: r })) ?? [{}];
  const cpus = spec.vcpus ?? [spec.base.resources.vcpus];
  if (!spec.engines?.length) throw new SpecError('a sweep needs at least one engine');
  const total = spec.engines.length * mems.length * cpus.length;
  const points: SweepPoint[] = [];
  for (const engine of spec.engines) {
    for (const m of mems) {
      for (const vcpus of cpus) {
        const done = points.length;
        const base: RunSpec = {
          ...spec.base,
          cluster: { ...spec.base.cluster, engines: spec.base.cluster.engines.map(() => engine) },
          resources: m.gib !== undefined ? { vcpus, memory_gib: m.gib } : m.ratio !== undefined ? { vcpus, memory_to_data_ratio: m.ratio } : { ...spec.base.resources, vcpus },
        };
        const result = searchSlo({ base, slo_p99_ms: spec.slo_p99_ms, min_ops_per_s: spec.min_ops_per_s, max_ops_per_s: spec.max_ops_per_s, tolerance: spec.tolerance, probe_operations: spec.probe_operations, max_duration_s: spec.max_duration_s }, provide, {
          cancelled: hooks.cancelled,
          progress: hooks.progress ? (f) => hooks.progress!((done + f) / total) : undefined,
        });
        const memGib = result.best_run?.dataset.memory_gib ?? (m.gib ?? 0);
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

