// A search probe stopped once its verdict is decided (--early-stop, opt-in): when so many of the
// measured window's intended latencies are already over the SLO that the operations still to
// come cannot bring its p99 back under it, the rest of the window cannot change "missed". Pure:
// it reads interval logs (hdr.ts) and the probe's plan; measure.ts watches the logs while YCSB
// runs and stops it.
import type { IntervalLog } from './hdr.ts';

/** What a probe was asked to do, as far as the verdict depends on it. */
export interface ProbePlan {
  target_ops_per_s: number;
  warmup_s: number;
  duration_s: number;
  slo_ms: number;
  /** YCSB's client threads: each may have one operation scheduled beyond the rate's share. */
  threads: number;
}

/** Why a probe was stopped: the counts that made its window's p99 over the SLO for certain. */
export interface EarlyStopEvidence {
  /** When the logs read showed it, seconds after the logs' start (the window starts at warmup_s). */
  decided_at_s: number;
  /** Operations in the window so far whose intended latency is over the SLO for certain. */
  over_slo: number;
  /** Operations in the window so far. */
  in_window: number;
  /** The most operations the whole window can hold: a p99 over the SLO needs more than 1 % of
   * them over it, and over_slo already is. */
  window_bound: number;
  slo_ms: number;
}

/** YCSB's clock and the termination of its threads can run a little past the planned seconds:
 * the bound on the operations it schedules allows this much more time. */
export const SCHEDULE_SLACK = 0.02;

/** The share of operations above the p99. */
const TAIL_SHARE = 0.01;

type Counts = { countsArrayIndex(v: number): number; getCountAtIndex(i: number): number; nextNonEquivalentValue(v: number): number; maxValue: number; totalCount: number };

/** Operations of a histogram whose latency is over `slo_us` for certain: in buckets whose
 * lowest value is above it (the bucket holding slo_us itself is not counted, so the count
 * never exceeds what the full window's p99 would see). */
export function overSloCount(h: IntervalLog['intervals'][number]['histogram'], slo_us: number): number {
  const c = h as unknown as Counts;
  if (!c.totalCount || c.maxValue <= slo_us) return 0;
  const first = c.countsArrayIndex(c.nextNonEquivalentValue(slo_us));
  const last = c.countsArrayIndex(c.maxValue);
  let n = 0;
  for (let i = first; i <= last; i++) n += c.getCountAtIndex(i);
  return n;
}

/** The most operations a window can hold after `before_window` completed in the warm-up: an open
 * loop schedules at most the target rate over the whole run, plus one per thread. */
export function windowBound(plan: ProbePlan, before_window: number): number {
  const scheduled = Math.ceil(plan.target_ops_per_s * (plan.warmup_s + plan.duration_s) * (1 + SCHEDULE_SLACK)) + plan.threads;
  return Math.max(0, scheduled - before_window);
}

/**
 * The first point, reading the intervals in the order they end, at which the window's p99 is over
 * the SLO for certain, with its evidence; null if the logs given never reach it. Any prefix of
 * the logs gives a sound answer: operations over the SLO only accumulate, and a warm-up interval
 * not yet read only makes the bound larger.
 */
export function missedForCertain(plan: ProbePlan, logs: IntervalLog[]): EarlyStopEvidence | null {
  const slo_us = plan.slo_ms * 1000;
  const intervals = logs.flatMap((l) => l.intervals).sort((a, b) => a.end_s - b.end_s);
  let before = 0;
  let inWindow = 0;
  let over = 0;
  for (const i of intervals) {
    // the same window as the probe's own figures (hdr.ts mergeWindow)
    if (i.start_s < plan.warmup_s - 1e-6) {
      before += i.histogram.totalCount;
      continue;
    }
    inWindow += i.histogram.totalCount;
    over += overSloCount(i.histogram, slo_us);
    const bound = Math.max(inWindow, windowBound(plan, before));
    if (over > TAIL_SHARE * bound) return { decided_at_s: Number(i.end_s.toFixed(3)), over_slo: over, in_window: inWindow, window_bound: bound, slo_ms: plan.slo_ms };
  }
  return null;
}

/**
 * When a probe recorded only as its whole window's histogram would have been stopped, if its
 * operations over the SLO had come evenly over the window: seconds after the logs' start, or
 * null if the rule would not have stopped it. An estimate for replays (plan-replay --early-stop);
 * a probe whose latency grows through its window decides later than this.
 */
export function estimatedDecisionS(plan: ProbePlan, window: { over_slo: number; window_s: number; before_window: number }): number | null {
  const needed = TAIL_SHARE * windowBound(plan, window.before_window);
  if (!(window.over_slo > needed)) return null;
  return plan.warmup_s + window.window_s * (needed / window.over_slo);
}
