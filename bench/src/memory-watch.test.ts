import { describe, expect, it } from 'vitest';
import { describeMemory, emptySummary, foldReading, threadCount, type MemoryReading } from './memory-watch.ts';

const MiB = 2 ** 20;
const reading = (usage: number, rss: number, kmem: number, threads: number): MemoryReading => ({
  usage_bytes: usage * MiB,
  rss_bytes: rss * MiB,
  cache_bytes: 0,
  kmem_bytes: kmem * MiB,
  threads,
});

describe('foldReading', () => {
  it('keeps the whole reading at the highest usage, and each field\'s own maximum', () => {
    let s = emptySummary();
    s = foldReading(s, reading(10, 9, 1, 5));
    s = foldReading(s, reading(14, 11, 3, 7)); // the peak: kmem high, rss not yet
    s = foldReading(s, reading(13, 12, 1, 6)); // rss peaks later, below the usage peak
    expect(s.samples).toBe(3);
    expect(s.at_peak).toEqual(reading(14, 11, 3, 7));
    expect(s.max).toEqual(reading(14, 12, 3, 7));
  });

  it('takes the first reading as the peak even when it is all zero (a node not yet started)', () => {
    const s = foldReading(emptySummary(), reading(0, 0, 0, 0));
    expect(s.samples).toBe(1);
    expect(foldReading(s, reading(1, 1, 0, 2)).at_peak.usage_bytes).toBe(MiB);
  });

  it('does not change the summary it folds into', () => {
    const s = foldReading(emptySummary(), reading(5, 4, 1, 3));
    foldReading(s, reading(9, 8, 1, 3));
    expect(s.at_peak.usage_bytes).toBe(5 * MiB);
    expect(s.max.rss_bytes).toBe(4 * MiB);
  });

  it('describes a node by its parts', () => {
    const s = foldReading(emptySummary(), reading(14.5, 13.5, 1, 6));
    expect(describeMemory(s)).toBe('usage 14.5 = rss 13.5 + kmem 1.0 + cache 0.0 MiB, 6 threads (max rss 13.5, kmem 1.0)');
  });
});

describe('threadCount', () => {
  it('reads this process\'s threads, and 0 for no process', () => {
    expect(threadCount(process.pid)).toBeGreaterThan(0);
    expect(threadCount(null)).toBe(0);
    expect(threadCount(2 ** 30)).toBe(0);
  });
});
