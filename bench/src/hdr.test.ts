import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as hdr from 'hdr-histogram-js';
import { latencyStats, longestIntervalSeconds, mergeWindow, percentileWithFailures, readIntervalLog, readLogs, windowSeconds } from './hdr.ts';
import { parseYcsbSummary } from './ycsb.ts';

const dir = join(import.meta.dirname, 'testdata');
const read = (f: string) => readIntervalLog(readFileSync(join(dir, f), 'utf8'));

describe("YCSB's HdrHistogram interval logs", () => {
  it('hold the same operations as YCSB\'s own summary', () => {
    const summary = parseYcsbSummary(readFileSync(join(dir, 'ycsb-run.out'), 'utf8'));
    for (const name of ['Intended-READ', 'Intended-UPDATE', 'READ']) {
      expect(mergeWindow([read(`${name}.hdr`)], 0).totalCount).toBe(summary[name]!.Operations);
    }
  });

  it('agree with YCSB on the whole-run p99 (to the histogram\'s precision)', () => {
    const summary = parseYcsbSummary(readFileSync(join(dir, 'ycsb-run.out'), 'utf8'));
    const p99 = mergeWindow([read('Intended-READ.hdr')], 0).getValueAtPercentile(99);
    expect(Math.abs(p99 - summary['Intended-READ']!['99thPercentileLatency(us)']!)).toBeLessThan(p99 * 0.01);
  });

  it('drop the warm-up: the first, slow second of a run does not count', () => {
    const log = read('Intended-READ.hdr');
    const all = mergeWindow([log], 0);
    const measured = mergeWindow([log], 2);
    expect(measured.totalCount).toBeLessThan(all.totalCount);
    expect(measured.getValueAtPercentile(99)).toBeLessThan(all.getValueAtPercentile(99) / 5);
    const w = windowSeconds([log], 2);
    expect(w).toBeGreaterThan(3);
    expect(w).toBeLessThan(4.5);
  });

  it('merge reads and updates into one histogram', () => {
    const logs = readLogs(dir, ['Intended-READ', 'Intended-UPDATE', 'Intended-INSERT']);
    expect(logs).toHaveLength(2); // no INSERT log in a run phase
    const merged = mergeWindow(logs, 0);
    expect(merged.totalCount).toBe(mergeWindow([logs[0]!], 0).totalCount + mergeWindow([logs[1]!], 0).totalCount);
  });
});

describe('percentiles with failed operations', () => {
  const h = hdr.build({ numberOfSignificantValueDigits: 3 });
  for (let v = 1; v <= 1000; v++) h.recordValue(v);

  it('rank failures above every success', () => {
    expect(percentileWithFailures(h, 0, 99)).toBe(h.getValueAtPercentile(99));
    // 1000 ok + 10 failed: p99 is rank 999.9 of 1010, i.e. the ok value at 99.99 %.
    expect(percentileWithFailures(h, 10, 99)).toBe(h.getValueAtPercentile((0.99 * 1010 / 1000) * 100));
  });

  it('have no p99 when more than 1 % failed', () => {
    expect(percentileWithFailures(h, 20, 99)).toBeNull();
    expect(latencyStats(h, 20).p99_us).toBe(Number.POSITIVE_INFINITY);
  });

  it('summarise an empty histogram without inventing numbers', () => {
    const s = latencyStats(hdr.build(), 0);
    expect(s.count).toBe(0);
    expect(s.p99_us).toBe(Number.POSITIVE_INFINITY);
    expect(s.spectrum).toEqual([]);
  });
});

describe('longestIntervalSeconds', () => {
  it('is about a second for a healthy log', () => {
    expect(longestIntervalSeconds([read('Intended-READ.hdr')])).toBeLessThan(1.5);
  });

  it('finds the stalled writer whose one interval covers the whole run (seen at load average 25)', () => {
    const stalled = { intervals: [{ start_s: 0.001, end_s: 7.533, histogram: hdr.build() }] };
    expect(longestIntervalSeconds([stalled])).toBeCloseTo(7.532);
    // …and nothing of it lands in the window after a 2 s warm-up:
    expect(mergeWindow([stalled], 2).totalCount).toBe(0);
  });
});
