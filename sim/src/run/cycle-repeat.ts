// The approximate fast mode (fidelity 'fast-approx'): a run simulates its window only until
// every node's collector has shown a stretch that repeats — a whole cycle between two
// collections whose last two periods agree, or, for a node with no collection due before the
// window's end, the quiet stretch since its last one — and then fills the rest of the window by
// repeating those stretches instead of simulating them: each operation of the leader's stretch
// counted again one period later (its latency recorded again, so the histograms are merged),
// each node's CPU, GC share and heap timelines and collector events extended by its own period.
// The plain fast run is what it approximates; run/approx-agreement.test.ts and `npm --workspace
// @replicant/sim run -s approx-agreement` hold it to that run. Pure: from what the sample
// recorded.
import { LatencyHistogram } from '../metrics/histogram.ts';
import { UsageTimeline } from '../models/cpu.ts';
import type { GcEvent } from '../models/runtime.ts';
import type { OpLog } from '../load/op-log.ts';
import type { NodeRecord } from '../results/timelines.ts';

/** The shortest stretch of the window simulated before its rest may be repeated. */
export const APPROX_MIN_SAMPLE_US = 2_000_000;
/** A node's quiet stretch (no collection) must be at least this long, and two timeline buckets
 * more (its timeline repeats only whole buckets after the collection's end), to stand for the rest. */
export const APPROX_MIN_QUIET_US = 1_000_000;
/** The sample ends only when no window operation is more than this past its intended start
 * unanswered: a collection's backlog has drained. A run that never settles runs plain. */
export const APPROX_SETTLED_LAG_US = 10_000;
/** Two successive collector periods that differ by more than this share are not a cycle. */
export const APPROX_PERIOD_AGREEMENT = 0.1;
/** The stretch to repeat and the one before it (or its two halves) must have p99 latencies
 * within this share of each other: near a core's or the Log mutex's capacity the queue wanders
 * for seconds, and a stretch shorter than that is not the window's (C++ A 32 GiB at 28,458
 * ops/s: a 2 s sample read the 10 s window's p99 6.7 ms as 5.8). */
export const APPROX_P99_AGREEMENT = 0.03;

/** A node's heap may not drift more than this share of its memory over the rest of the window,
 * at the rate its low point moved from one stretch to the next: G1's young pauses repeat at one
 * period while the old generation fills towards a full collection minutes away (Java A at 5 GiB:
 * three agreeing young periods in a 409 s window whose full collection the repeats would miss). */
export const APPROX_HEAP_DRIFT_SHARE = 0.005;

/** The lowest heap sample in buckets [from, to) (Infinity: none). */
function lowestHeap(samples: readonly (number | undefined)[], from: number, to: number): number {
  let low = Infinity;
  for (let b = Math.max(0, from); b < to; b++) {
    const v = samples[b];
    if (v !== undefined && v < low) low = v;
  }
  return low;
}

/** Whether the node's heap is steady enough for its stretch to repeat: its low point in the
 * stretch ending at `to_us` against the one before it (or the stretch's halves), projected over
 * the rest of the window, moves less than APPROX_HEAP_DRIFT_SHARE of `memory_bytes`. */
export function steadyHeap(samples: readonly (number | undefined)[], bucket_us: number, from_us: number, to_us: number, stretch_us: number, windowTo_us: number, memory_bytes: number): boolean {
  const b = (t: number) => Math.floor(t / bucket_us);
  const twoStretches = to_us - 2 * stretch_us >= from_us;
  const span = twoStretches ? stretch_us : stretch_us / 2;
  const before = lowestHeap(samples, b(to_us - 2 * span), b(to_us - span));
  const last = lowestHeap(samples, b(to_us - span), b(to_us));
  if (!Number.isFinite(before) || !Number.isFinite(last)) return true; // no samples: nothing seen to drift
  const drift = ((last - before) / span) * (windowTo_us - to_us);
  return Math.abs(drift) <= APPROX_HEAP_DRIFT_SHARE * memory_bytes;
}

/** The p99 of the latencies of the operations intended in [from, to) (0: none). */
function p99Between(log: OpLog, from_us: number, to_us: number): number {
  const xs: number[] = [];
  for (let i = 0; i < log.length; i++) {
    const t = log.intended_us[i]!;
    if (t >= from_us && t < to_us) xs.push(log.latency_us[i]!);
  }
  if (xs.length === 0) return 0;
  const a = Float64Array.from(xs).sort();
  return a[Math.min(a.length - 1, Math.ceil(0.99 * a.length) - 1)]!;
}

/** Whether the stretch `stretch_us` ending at `to_us` looks like the window's steady state: its
 * p99 within APPROX_P99_AGREEMENT of the stretch before it (when the window holds one), else of
 * its own first half against its second. */
export function steadyLatencies(log: OpLog, from_us: number, to_us: number, stretch_us: number): boolean {
  const [a, b] = to_us - 2 * stretch_us >= from_us
    ? [p99Between(log, to_us - 2 * stretch_us, to_us - stretch_us), p99Between(log, to_us - stretch_us, to_us)]
    : [p99Between(log, to_us - stretch_us, to_us - stretch_us / 2), p99Between(log, to_us - stretch_us / 2, to_us)];
  return Math.abs(a - b) <= APPROX_P99_AGREEMENT * Math.max(a, b);
}

/** Collector events that start a collection (G1's concurrent marking follows a pause). */
export function collectionStarts(events: readonly GcEvent[], from_us: number): number[] {
  const out: number[] = [];
  for (const e of events) if (e.kind !== 'g1_concurrent_mark' && e.t_s * 1e6 >= from_us) out.push(e.t_s * 1e6);
  return out.sort((a, b) => a - b);
}

/** When the node's last collection (any event, concurrent marking included) ended, µs; -Infinity: none. */
export function lastCollectionEnd_us(events: readonly GcEvent[]): number {
  let end = -Infinity;
  for (const e of events) end = Math.max(end, e.t_s * 1e6 + Math.max(e.pause_ms, e.duration_ms ?? 0) * 1000);
  return end;
}

/**
 * The node's stretch ending at `now_us` that repeats (µs), or null while it has none yet:
 * `periodic` — its last three collections in the window are two periods within
 * APPROX_PERIOD_AGREEMENT of each other (the last period repeats); `quietRest` — no collection is
 * due before the window's end (the caller's projection), so the stretch since its last one ended
 * repeats, once at least `min_quiet_us` long — returned negated, to say it is quiet.
 */
export function repeatStretch_us(events: readonly GcEvent[], from_us: number, now_us: number, quietRest: boolean, min_quiet_us: number): number | null {
  const starts = collectionStarts(events, from_us);
  const n = starts.length;
  if (n >= 3) {
    const last = starts[n - 1]! - starts[n - 2]!;
    const before = starts[n - 2]! - starts[n - 3]!;
    if (last > 0 && Math.abs(last - before) <= APPROX_PERIOD_AGREEMENT * last && lastCollectionEnd_us(events) <= now_us) return last;
  }
  if (!quietRest) return null;
  const quiet = now_us - Math.max(from_us, lastCollectionEnd_us(events));
  return quiet >= min_quiet_us ? -quiet : null;
}

/** Where the sample stands in the window. */
export interface SampleWindow {
  from_us: number;
  /** where the sample ended (the window's operations after it are repeated) */
  sampled_to_us: number;
  /** the window's planned end */
  to_us: number;
  bucket_us: number;
}

/** The window's latencies: the sample's, and the leader's stretch `stretch_us` (ending where
 * the sample ended) recorded again once for each period that fits before the window's end. */
export function repeatedLatencies(
  log: OpLog,
  w: SampleWindow,
  stretch_us: number,
  countOver_us: number | undefined,
): { read: LatencyHistogram; update: LatencyHistogram; service: LatencyHistogram; completed: number; over: number } {
  const read = new LatencyHistogram();
  const update = new LatencyHistogram();
  const service = new LatencyHistogram();
  let completed = 0;
  let over = 0;
  const one = (i: number) => {
    const lat = log.latency_us[i]!;
    (log.update[i] ? update : read).record(lat);
    const svc = log.service_us[i]!;
    if (!Number.isNaN(svc)) service.record(svc);
    if (!log.censored[i]) completed++;
    if (countOver_us !== undefined && lat > countOver_us) over++;
  };
  for (let i = 0; i < log.length; i++) one(i);
  const from = w.sampled_to_us - stretch_us;
  for (let k = 1; from + k * stretch_us < w.to_us; k++) {
    const shift = k * stretch_us;
    for (let i = 0; i < log.length; i++) {
      const t = log.intended_us[i]!;
      if (t >= from && t < w.sampled_to_us && t + shift < w.to_us) one(i);
    }
  }
  return { read, update, service, completed, over };
}

/** The node's record with its timelines and collector events carried on to the window's end,
 * each bucket after the sample's last whole one being the node's bucket a whole number of
 * stretches earlier (between two buckets where the stretch is not a whole number of them). */
export function repeatedNode(n: NodeRecord, w: SampleWindow, stretch_us: number, quiet: boolean): NodeRecord {
  const bs = w.bucket_us;
  const whole = Math.floor(w.sampled_to_us / bs + 1e-9);
  const end = Math.ceil(w.to_us / bs - 1e-9);
  // A quiet stretch starts where a collection ended, inside a bucket that holds some of it: only
  // its whole buckets after that repeat (any of them stands for the quiet rest). A periodic one
  // repeats at its period wherever the mapping lands, the cycle before it being the same.
  const r = quiet ? Math.max(1, whole - Math.ceil((w.sampled_to_us - stretch_us) / bs - 1e-9)) : stretch_us / bs;
  const usage = new UsageTimeline(n.usage.cores, bs);
  const heap: (number | undefined)[] = n.heap_samples.slice(0, whole);
  for (let b = 0; b < whole; b++) {
    usage.busy.push(n.usage.busy[b] ?? 0);
    usage.gc.push(n.usage.gc[b] ?? 0);
  }
  for (let b = whole; b < end; b++) {
    const k = Math.ceil((b + 1 - whole) / r - 1e-9);
    const x = Math.max(0, b - k * r);
    usage.busy.push(between(n.usage.busy, x));
    usage.gc.push(between(n.usage.gc, x));
    heap.push(n.heap_samples[Math.floor(x + 1e-9)]);
  }
  const events: GcEvent[] = n.gc_events.filter((e) => e.t_s * 1e6 < w.sampled_to_us);
  const from = w.sampled_to_us - stretch_us;
  const source = quiet ? [] : events.filter((e) => e.t_s * 1e6 >= from);
  for (let k = 1; from + k * stretch_us < w.to_us; k++) {
    for (const e of source) {
      const t_us = e.t_s * 1e6 + k * stretch_us;
      if (t_us < w.to_us) events.push({ ...e, t_s: t_us / 1e6 });
    }
  }
  return { ...n, usage, heap_samples: heap, gc_events: events };
}

/** The mean of a per-bucket series over [x, x + 1), x in buckets (fractional). */
function between(values: readonly number[], x: number): number {
  const i = Math.floor(x + 1e-9);
  const f = Math.max(0, x - i);
  const a = values[i] ?? 0;
  return f < 1e-9 ? a : a * (1 - f) + (values[i + 1] ?? 0) * f;
}
