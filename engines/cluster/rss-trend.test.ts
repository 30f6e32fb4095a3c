import { describe, expect, it } from 'vitest';
import { describeRssTrend, rssTrend } from './rss-trend.ts';

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
    expect(describeRssTrend(climb)).toBe('first 10 s 15.0 MiB, last 10 s 65.0 MiB, slope +60.00 MiB/min, peak 70.0 MiB');
  });

  it('needs two samples', () => {
    expect(rssTrend([{ atMs: 0, bytes: 1 }])).toBeNull();
    expect(describeRssTrend(null)).toBe('no samples');
  });
});
