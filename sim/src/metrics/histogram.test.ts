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

  it("records exactly as the library's recordValue, below and above the looked-up range", () => {
    const ours = new LatencyHistogram();
    const lib = hdr.build({ useWebAssembly: false, bitBucketSize: 32, numberOfSignificantValueDigits: 3, lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, autoResize: false });
    // small, bucket edges, fractions (rounded up), the table's edge, and long pauses
    const values = [0.2, 1, 2, 2047, 2048, 2049, 4095.5, 4096, 65_535, 65_536, 65_537, 131_071, 1e6 + 0.5, 3e9];
    for (let i = 0; i < 5000; i++) values.push((i * 7919) % 70_000, 1 + ((i * 104_729) % 3_000_000));
    for (const v of values) {
      ours.record(v);
      lib.recordValue(Math.max(1, Math.ceil(v)));
    }
    expect(ours.h.totalCount).toBe(lib.totalCount);
    expect(ours.h.maxValue).toBe(lib.maxValue);
    expect(ours.h.minNonZeroValue).toBe(lib.minNonZeroValue);
    const libCounts = lib as unknown as { countsArrayIndex(v: number): number; getCountAtIndex(i: number): number };
    const last = libCounts.countsArrayIndex(lib.maxValue);
    for (let i = 0; i <= last; i++) if (ours.h.getCountAtIndex(i) !== libCounts.getCountAtIndex(i)) expect.fail(`count at index ${i}`);
    const back = hdr.decodeFromCompressedBase64(ours.encodeCompressedBase64(), 32, false);
    for (const p of [0, 10, 50, 90, 99, 99.9, 100]) expect(back.getValueAtPercentile(p)).toBe(lib.getValueAtPercentile(p));
  });

  it('an empty histogram summarises to zeros', () => {
    const s = new LatencyHistogram().summary();
    expect(s.count).toBe(0);
    expect(s.p99_us).toBe(0);
    expect(s.spectrum).toEqual([]);
  });
});
