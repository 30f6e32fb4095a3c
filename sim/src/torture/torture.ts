// One seed end to end (draw, run, check, judge) and the shrinker. The checker is injected
// (Porcupine's wasm build in Node and in workers), so this module stays host-neutral.
import type { EngineName, SyncEngine } from '@replicant/engines/loader/engine';
import type { HistoryOp, Verdict } from '@replicant/checker/lincheck';
import { drawScenario, shrunk, type DrawOptions, type Scenario } from './scenario.ts';
import { runScenario, type TortureRun } from './run.ts';
import { judge, type Judgement } from './judge.ts';

export type CheckHistory = (history: readonly HistoryOp[]) => Verdict;
export type Provide = (name: EngineName) => SyncEngine;

export interface SeedResult {
  scenario: Scenario;
  run: TortureRun;
  verdict: Verdict;
  judgement: Judgement;
}

/** Seconds spent running the engines and in the checker, summed over seeds (the CLI's cost figures). */
export interface SeedTiming {
  run_s: number;
  check_s: number;
}

export function tortureScenario(scenario: Scenario, provide: Provide, check: CheckHistory, trace = false, timing?: SeedTiming): SeedResult {
  const t0 = performance.now();
  const run = runScenario(scenario, provide, { trace });
  const t1 = performance.now();
  const verdict = check(run.history);
  if (timing) {
    timing.run_s += (t1 - t0) / 1000;
    timing.check_s += (performance.now() - t1) / 1000;
  }
  return { scenario, run, verdict, judgement: judge(scenario, run, verdict) };
}

export function tortureSeed(seed: number, options: DrawOptions, provide: Provide, check: CheckHistory): SeedResult {
  return tortureScenario(drawScenario(seed, options), provide, check);
}

export interface Shrunk {
  /** indices of the seed's faults that are kept */
  keep_faults: number[];
  ops_per_client: number;
  result: SeedResult;
  /** runs tried while shrinking */
  attempts: number;
}

/**
 * Shrinks a failing seed: first drop faults one at a time while the run still fails (repeated
 * until no single fault can go), then the fewest operations per client that still fail
 * (bisection, then a linear walk down). Every candidate is a (seed, kept faults, ops) triple,
 * so the result replays exactly with `--replay SEED --keep-faults … --ops …`.
 */
export function shrink(failing: SeedResult, options: DrawOptions, provide: Provide, check: CheckHistory, maxAttempts = 200): Shrunk {
  const full = drawScenario(failing.scenario.seed, options);
  let keep = full.faults.map((_, i) => i);
  let ops = full.ops_per_client;
  let best = failing;
  let attempts = 0;
  const fails = (k: number[], o: number): SeedResult | null => {
    attempts++;
    const r = tortureScenario(shrunk(full, k, o), provide, check);
    return r.judgement.ok ? null : r;
  };
  let changed = true;
  while (changed && attempts < maxAttempts) {
    changed = false;
    for (let i = 0; i < keep.length && attempts < maxAttempts; i++) {
      const candidate = keep.filter((_, j) => j !== i);
      const r = fails(candidate, ops);
      if (r) {
        keep = candidate;
        best = r;
        changed = true;
        i--;
      }
    }
  }
  let lo = 1;
  let hi = ops; // fails at hi
  while (lo < hi && attempts < maxAttempts) {
    const mid = Math.floor((lo + hi) / 2);
    const r = fails(keep, mid);
    if (r) {
      hi = mid;
      best = r;
    } else lo = mid + 1;
  }
  ops = hi;
  return { keep_faults: keep, ops_per_client: ops, result: best, attempts };
}
