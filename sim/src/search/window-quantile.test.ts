import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../metrics/histogram.ts';
import { windowQuantile_us } from './window-quantile.ts';

function hist(values: [latency_us: number, count: number][]): LatencyHistogram {
  const h = new LatencyHistogram();
  for (const [v, n] of values) for (let i = 0; i < n; i++) h.record(v);
  return h;
}

describe('the window p99 from weighed runs', () => {
  it('of one run at weight 1 is that run\'s p99', () => {
    // 20 operations above 1 ms: 1 % of 1,000 is 10, so the p99 is 5 ms
    const h = hist([[1000, 980], [5000, 15], [30_000, 5]]);
    expect(windowQuantile_us([{ latencies: h, weight: 1 }], 0.01)).toBe(5000);
    expect(Math.abs(h.percentile_us(99) - 5000)).toBeLessThanOrEqual(5); // (HdrHistogram's bucket, 3 digits)
    // 10 above 1 ms: exactly 1 %, so 1 ms already has no more than 1 % above it
    const g = hist([[1000, 990], [30_000, 10]]);
    expect(windowQuantile_us([{ latencies: g, weight: 1 }], 0.01)).toBe(1000);
    expect(Math.abs(g.percentile_us(99) - 1000)).toBeLessThanOrEqual(1);
  });
  it('weighs a steady sample against an episode by the operations each stands for', () => {
    // an episode of 1,000 operations, 50 of them at 200 ms; a steady sample of 1,000 at 2 ms,
    // 10 at 8 ms, standing for 10,000 operations of the window
    const episode = hist([[2000, 950], [200_000, 50]]);
    const steady = hist([[2000, 990], [8000, 10]]);
    const parts = [{ latencies: episode, weight: 1 }, { latencies: steady, weight: 10 }];
    // 11,000 operations: 1 % is 110; 50 at 200 ms and 100 at 8 ms exceed 2 ms, 50 exceed 8 ms
    expect(windowQuantile_us(parts, 0.01)).toBeGreaterThanOrEqual(7990);
    expect(windowQuantile_us(parts, 0.01)).toBeLessThanOrEqual(8000);
    // with the sample standing for fewer operations the episode's pause decides it
    const few = [{ latencies: episode, weight: 1 }, { latencies: steady, weight: 1 }];
    expect(windowQuantile_us(few, 0.01)).toBeGreaterThan(199_000);
  });
  it('is 0 for no operations', () => {
    expect(windowQuantile_us([{ latencies: new LatencyHistogram(), weight: 3 }], 0.01)).toBe(0);
  });
});
