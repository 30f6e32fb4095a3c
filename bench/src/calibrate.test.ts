import { describe, expect, it } from 'vitest';
import { commandMix, medianParameter } from './calibrate.ts';

describe('bench calibrate', () => {
  // The plan runs each setting three times; the card kept only the last repetition's CPU
  // (rust leader A 66.1, 58.2, 103.1 µs → 103.1 on 2026-11-27).
  it('takes the median of the repetitions and keeps them all in the note', () => {
    const p = medianParameter([{ value: 66.1, note: 'repetition 1: a' }, { value: 58.2, note: 'repetition 2: b' }, { value: 103.1, note: 'repetition 3: c' }], 'us');
    expect(p).toMatchObject({ value: 66.1, unit: 'us', source: 'measured' });
    expect(p.note).toMatch(/^Median of 3 repetitions \(66\.1, 58\.2, 103\.1 us; min 58\.2, max 103\.1\)\. repetition 1: a \| repetition 2: b \| repetition 3: c$/);
    expect(medianParameter([{ value: 10, note: 'x' }, { value: 20, note: 'y' }], 'us').value).toBe(15);
    expect(medianParameter([{ value: 7, note: 'only' }], 'us')).toMatchObject({ value: 7, note: 'only' });
    expect(() => medianParameter([], 'us')).toThrow(/no repetition/);
  });

  it('mixes reads and 500-byte writes in the workload\'s proportion, the same for a seed', () => {
    const b = commandMix(2000, 100, 0.95);
    const reads = b.filter((c) => c.startsWith('get ')).length / b.length;
    expect(reads).toBeGreaterThan(0.92);
    expect(reads).toBeLessThan(0.98);
    expect(commandMix(50, 100, 0.5)).toEqual(commandMix(50, 100, 0.5));
  });
});
