// Small pure models the gc-cost lessons compute live, from the paper's own inputs; each says
// what it assumes. Figures from here are shown as "computed", never as the paper's.
import type { PaperIndex } from './paper.ts';

/** Nearest-rank percentile (p in 0..100) of a list of numbers. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export interface StallExample {
  rate_per_s: number;
  fast_count: number;
  fast_ms: number;
  slow_count: number;
  slow_ms: number;
}

/**
 * §4.5's example server, measured two ways over one cycle of its requests plus the stall.
 * Closed loop: one client sends the next request only after the last answer, so it records
 * each request's service time (fast_count fast ones, slow_count slow ones).
 * Open loop: requests are due every 1/rate seconds whatever happens; our reading is that the
 * slow requests are one stall of slow_count·slow_ms during which the server answers nothing, so
 * every request due during the stall waits for its end, and latency counts from when it was due.
 */
export function stallLatencies(x: StallExample): { closed_ms: number[]; open_ms: number[] } {
  const closed_ms = [...Array<number>(x.fast_count).fill(x.fast_ms), ...Array<number>(x.slow_count).fill(x.slow_ms)];
  const gap_ms = 1000 / x.rate_per_s;
  const stallStart_ms = x.fast_count * gap_ms;
  const stallEnd_ms = stallStart_ms + x.slow_count * x.slow_ms;
  const open_ms: number[] = [];
  // Two cycles: the one with the stall and the one whose requests were due during it.
  const horizon_ms = stallEnd_ms + x.fast_count * gap_ms;
  let freeAt_ms = 0;
  for (let due = 0; due < horizon_ms; due += gap_ms) {
    const start = Math.max(due, freeAt_ms, due >= stallStart_ms && due < stallEnd_ms ? stallEnd_ms : 0);
    const done = start + x.fast_ms;
    freeAt_ms = done;
    open_ms.push(done - due);
  }
  return { closed_ms, open_ms };
}

export function exampleFromPaper(paper: PaperIndex): StallExample {
  const num = (id: string) => {
    const f = paper.get(id);
    if (!f || typeof f.value !== 'number') throw new Error(`the paper data has no number ${id}`);
    return f.value;
  };
  return {
    rate_per_s: num('sec4-5-example-request-rate'),
    fast_count: num('sec4-5-example-request-count-fast'),
    fast_ms: num('sec4-5-example-request-latency-fast'),
    slow_count: num('sec4-5-example-request-count-slow'),
    slow_ms: num('sec4-5-example-request-latency-slow'),
  };
}

/** Every metric a lesson may name in a `model` checkpoint or a `{{model:…}}` placeholder. */
export const MODEL_METRICS = ['co.closed_mean_ms', 'co.closed_p95_ms', 'co.open_p95_ms', 'co.closed_p99_ms', 'co.open_p99_ms', 'co.open_share_over_slo'] as const;
export type ModelMetric = (typeof MODEL_METRICS)[number];

export function isModelMetric(s: string): s is ModelMetric {
  return (MODEL_METRICS as readonly string[]).includes(s);
}

export function modelValue(metric: ModelMetric, paper: PaperIndex): number {
  const { closed_ms, open_ms } = stallLatencies(exampleFromPaper(paper));
  switch (metric) {
    case 'co.closed_mean_ms':
      return Math.round((10 * closed_ms.reduce((a, b) => a + b, 0)) / closed_ms.length) / 10;
    case 'co.closed_p95_ms':
      return percentile(closed_ms, 95);
    case 'co.open_p95_ms':
      return percentile(open_ms, 95);
    case 'co.closed_p99_ms':
      return percentile(closed_ms, 99);
    case 'co.open_p99_ms':
      return percentile(open_ms, 99);
    case 'co.open_share_over_slo': {
      const slo = paper.get('sec5-1-all-slo-p99-latency')?.value as number;
      return Math.round((100 * open_ms.filter((v) => v > slo).length) / open_ms.length);
    }
  }
}
