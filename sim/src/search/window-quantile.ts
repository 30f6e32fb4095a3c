// The latency a share of a window's operations exceeds, when the window is known only through
// runs that stand for different numbers of its operations (the steady-state shortcut: each
// episode stands for itself, the steady sample for the rest of the window). Counts are read off
// each run's histogram (to its resolution, three significant digits) and weighed.
import type { LatencyHistogram } from '../metrics/histogram.ts';

export interface WeighedPart {
  latencies: LatencyHistogram;
  /** How many of the window's operations each of its operations stands for. */
  weight: number;
}

/** The lowest latency (µs, to a microsecond) that at most `share` of the window's operations exceed. */
export function windowQuantile_us(parts: readonly WeighedPart[], share: number): number {
  const total = parts.reduce((a, p) => a + p.weight * p.latencies.count, 0);
  if (total <= 0) return 0;
  const over = (v: number) => parts.reduce((a, p) => a + p.weight * p.latencies.countAbove(v), 0);
  const want = share * total;
  let lo = 0;
  let hi = parts.reduce((a, p) => Math.max(a, p.latencies.h.maxValue), 0);
  if (over(lo) <= want) return lo;
  // over() falls as the latency grows: bisect on whole microseconds.
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (over(mid) > want) lo = mid;
    else hi = mid;
  }
  return hi;
}
