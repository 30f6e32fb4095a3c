import { describe, expect, it } from 'vitest';
import * as hdr from 'hdr-histogram-js';
import { LatencyHistogram } from './histogram.ts';

describe('latency histogram', () => {
  it('summarises percentiles and round-trips through the portable encoding', () => {
    const h = new LatencyHistogram();
    for (let i = 1; i <= 10_000; i++) h.record(i);
    const s = h.summary();
    expect(s.count).toBe(10_000);
    expect(s.p50_us).toBeGreaterThanOrEqual(4995);
    expect(s.p50_us).toBeLessThanOrEqual(5005);
    expect(s.p99_us).toBeGreaterThanOrEqual(9895);
    expect(s.p99_us).toBeLessThanOrEqual(9905);
    const back = hdr.decodeFromCompressedBase64(s.hdr_base64, 32, false);
    expect(back.totalCount).toBe(10_000);
    expect(back.getValueAtPercentile(99)).toBe(s.p99_us);
    expect(s.spectrum[0]![0]).toBe(0);
    expect(s.spectrum.at(-1)).toEqual([100, s.max_us]);
    // spectrum percentiles rise strictly
    for (let i = 1; i < s.spectrum.length; i++) expect(s.spectrum[i]![0]).toBeGreaterThan(s.spectrum[i - 1]![0]);
  });

  it('an empty histogram summarises to zeros', () => {
    const s = new LatencyHistogram().summary();
    expect(s.count).toBe(0);
    expect(s.p99_us).toBe(0);
    expect(s.spectrum).toEqual([]);
  });
});
