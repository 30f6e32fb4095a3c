import { describe, expect, it } from 'vitest';
import { describeRssTrend, isFlat, rssTrend } from './rss-trend.ts';

const MiB = 1 << 20;

describe('rssTrend', () => {
  it('is flat for a constant series and finds a steady climb', () => {
    const flat = rssTrend(Array.from({ length: 61 }, (_, i) => ({ atMs: i * 1000, bytes: 20 * MiB })))!;
    expect(flat.slopeBytesPerMin).toBe(0);
    expect(flat.firstMeanBytes).toBe(20 * MiB);
    expect(flat.lastMeanBytes).toBe(20 * MiB);
    // 1 MiB a second over 60 s: 60 MiB a minute; the first 10 s (0..10) average 5 MiB above the start
    const climb = rssTrend(Array.from({ length: 61 }, (_, i) => ({ atMs: i * 1000, bytes: (10 + i) * MiB })))!;
    expect(climb.slopeBytesPerMin / MiB).toBeCloseTo(60, 6);
    expect(climb.firstMeanBytes / MiB).toBeCloseTo(15, 6);
    expect(climb.lastMeanBytes / MiB).toBeCloseTo(65, 6);
    expect(climb.peakBytes).toBe(70 * MiB);
    expect(describeRssTrend(climb)).toBe(
      'first 10 s 15.0 MiB, last 10 s 65.0 MiB, slope +60.00 MiB/min, peak 70.0 MiB, after 20 s +60.00 MiB/min (not flat: bound ±1)',
    );
  });

  it('leaves the warm-up out of the settled slope: a climb that levels off at 20 s is flat', () => {
    // +10 MiB over the first 20 s (a heap reaching its goal), then constant to 60 s
    const settling = rssTrend(Array.from({ length: 61 }, (_, i) => ({ atMs: i * 1000, bytes: (10 + Math.min(i, 20) / 2) * MiB })))!;
    expect(settling.slopeBytesPerMin / MiB).toBeGreaterThan(5);
    expect(settling.settledSlopeBytesPerMin).toBe(0);
    expect(isFlat(settling)).toBe(true);
    // a 10 s run has nothing after the warm-up: no verdict
    expect(isFlat(rssTrend([{ atMs: 0, bytes: 1 }, { atMs: 10_000, bytes: 2 }]))).toBeNull();
  });

  it('needs two samples', () => {
    expect(rssTrend([{ atMs: 0, bytes: 1 }])).toBeNull();
    expect(describeRssTrend(null)).toBe('no samples');
  });
});
