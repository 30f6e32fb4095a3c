// The whole window's CPU utilisation of a Go probe that was sampled (slo.ts, collectorSample): the
// sample ends once every node's cycle is behind it, so its own utilisation holds the cycles in
// another share than the window does (Go A 6 GiB, 42,636 ops/s: the followers 28.3 % in a 2.1 s
// sample against 25.8 % over the 10 s window). Each node's Go cycles repeat at one period with the
// same cost — its pacer runs on from its own state at a steady offered rate — and so does its CPU,
// the collector's and the rest's alike (the mutator's work runs slower while a cycle marks:
// 0.66 against 0.59 of the cores on Go's leader at 6 GiB). So each timeline bucket of the window
// that the sample did not reach is the node's own bucket one or more periods earlier. A sampled
// Java probe's window is the sample's mutator rate plus the collector's share the model gives for
// the window (g1WholeWindowUtilization). Pure: from the sampled run's timelines and the periods or
// the collector's shares.
import type { NodeTimelines, RunResult } from '../api.ts';

/** Where a sampled run stands in its window, in seconds of the run's clock. */
export interface SampledWindow {
  /** the measured window's start (the end of the warm-up) */
  from_s: number;
  /** the window's planned length, and how much of it the sample ran */
  window_s: number;
  sampled_s: number;
  /** the timeline's bucket */
  bucket_s: number;
}

/** The timeline's values by bucket index (bucket i is [i·bucket, (i+1)·bucket)). */
function byBucket(n: NodeTimelines, bucket_s: number): number[] {
  const out: number[] = [];
  for (const p of n.cpu_utilization) out[Math.round(p.t_s / bucket_s) - 1] = p.value;
  return out;
}

/** The mean of a timeline over [x, x + one bucket), x in buckets (fractional): the two buckets it
 * straddles, weighed by overlap. Undefined where the timeline has no value. */
function bucketAt(values: number[], x: number): number | undefined {
  const i = Math.floor(x + 1e-9);
  const f = Math.max(0, x - i);
  const a = values[i];
  if (f < 1e-9) return a;
  const b = values[i + 1];
  return a === undefined || b === undefined ? undefined : a * (1 - f) + b * f;
}

/** A Go cycle of a node's: when it began, how long it ran, the collector's CPU in it. */
export interface GoCycle {
  t_s: number;
  duration_ms: number;
  cpu_ms: number;
}

/** The node's cycles: the run's, then after its last one those its period puts before `end_s`,
 * each as long and as costly as that last one (a cycle the sample cut short is not among the run's
 * events — a cycle is recorded as it ends — so it is one of these). */
export function goCyclesThrough(events: NodeTimelines['gc_events'], period_s: number, end_s: number): GoCycle[] {
  const run: GoCycle[] = events.filter((g) => g.kind === 'go_cycle').map((g) => ({ t_s: g.t_s, duration_ms: g.duration_ms ?? 0, cpu_ms: g.cpu_ms }));
  const last = run.at(-1);
  if (!last || !(period_s > 0) || !Number.isFinite(period_s)) return run;
  for (let t = last.t_s + period_s; t < end_s; t += period_s) run.push({ t_s: t, duration_ms: last.duration_ms, cpu_ms: last.cpu_ms });
  return run;
}

/**
 * Each node's mean CPU utilisation over the whole window, from its sample. `periods_s[i]`: node
 * i's cycle period (the model's, for its role). The buckets the sample ran whole are its own;
 * every later bucket of the window is the node's bucket a whole number of periods earlier (the
 * fewest that reach the sample's whole buckets). A node whose period is longer than the run so far
 * (Go's followers at 32 GiB, ~16 s) has no bucket that far back: where no cycle of it falls in the
 * rest of the window after the sample's end — none of the run's, none its period projects (and a
 * node without a cycle in the run has none: the sample ends only once its pacer puts the next
 * past the window's end, kernel.ts collectionsSeen) — the rest runs at its mean over the sample's
 * buckets that no cycle touches. Null where neither holds: the window must be run plain.
 */
export function wholeWindowUtilization(run: RunResult, w: SampledWindow, periods_s: readonly number[]): number[] | null {
  const bs = w.bucket_s;
  const first = Math.round(w.from_s / bs);
  const end = Math.ceil((w.from_s + w.window_s) / bs - 1e-9);
  // The sample's last bucket is cut short where the run stopped: only those before it are whole.
  const sampleTo_s = w.from_s + w.sampled_s;
  const whole = Math.floor(sampleTo_s / bs + 1e-9);
  const out = run.nodes.map((n, node) => {
    const values = byBucket(n, bs);
    const period = periods_s[node] ?? Infinity;
    const cycles = goCyclesThrough(n.gc_events, period, (end + 1) * bs).map((c) => [c.t_s, c.t_s + c.duration_ms / 1000] as const);
    const touches = (i: number, from_s = i * bs) => cycles.some(([a, b]) => a < (i + 1) * bs && b > from_s);
    let quiet: number | null | undefined;
    const quietMean = (): number | null => {
      const q: number[] = [];
      for (let i = first; i < whole; i++) if (!touches(i) && values[i] !== undefined) q.push(values[i]!);
      return q.length ? q.reduce((s, v) => s + v, 0) / q.length : null;
    };
    let sum = 0;
    for (let i = first; i < end; i++) {
      if (i < whole) {
        sum += values[i] ?? 0;
        continue;
      }
      const k = Math.ceil((i + 1 - whole) / (period / bs) - 1e-9);
      const x = Number.isFinite(period) ? i - (k * period) / bs : -1;
      const shifted = x >= 0 ? bucketAt(values, x) : undefined;
      if (shifted !== undefined) {
        sum += shifted;
        continue;
      }
      // (The sample's cut-short bucket keeps what it ran; the quiet rate fills the rest of it.)
      const ran = i === whole ? Math.max(0, Math.min(1, (sampleTo_s - i * bs) / bs)) : 0;
      if (touches(i, i * bs + ran * bs)) return null;
      if (quiet === undefined) quiet = quietMean();
      if (quiet === null) return null;
      sum += (ran > 0 ? (values[i] ?? 0) : 0) + quiet * (1 - ran);
    }
    return Math.min(1, sum / Math.max(end - first, 1));
  });
  return out.every((u) => u !== null) ? (out as number[]) : null;
}

/**
 * Each node's mean CPU utilisation over the whole window of a sampled Java probe. G1's cycle is
 * longer than its sample (Java A 8 GiB, 23,220 ops/s: the leader's 3 s sample lies inside one
 * 2.4 s concurrent marking on two of its eight cores, and reads 77.4 % where the window reads
 * 70.4 %), so no bucket of the sample stands for the rest. What repeats is the split: the
 * mutator's CPU runs at one rate whatever the collector does (the leader's 0.62 of its cores in
 * every bucket, marking or not), and the collector's share over the window is its own cycle's,
 * which the model gives alone (`gcShares`: measurement.ts g1WindowGcShares, the collector run
 * from the state the run starts it in). So: the mutator's mean over the sample's whole buckets
 * (the last, cut short, is not read: counting it whole put the leader 1.8 pp low) plus the
 * window's collector share.
 */
export function g1WholeWindowUtilization(run: RunResult, w: SampledWindow, gcShares: readonly number[]): number[] | null {
  const bs = w.bucket_s;
  const first = Math.round(w.from_s / bs);
  const whole = Math.floor((w.from_s + w.sampled_s) / bs + 1e-9);
  if (whole <= first) return null;
  const out = run.nodes.map((n, node) => {
    const busy = byBucket(n, bs);
    const gc: number[] = [];
    for (const p of n.gc_cpu_share) gc[Math.round(p.t_s / bs) - 1] = p.value;
    let mutator = 0;
    for (let i = first; i < whole; i++) {
      if (busy[i] === undefined) return null;
      mutator += busy[i]! - (gc[i] ?? 0);
    }
    const share = gcShares[node];
    return share === undefined ? null : Math.min(1, mutator / (whole - first) + share);
  });
  return out.every((u) => u !== null) ? (out as number[]) : null;
}
