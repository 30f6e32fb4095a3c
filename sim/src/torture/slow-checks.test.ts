import { describe, expect, it } from 'vitest';
import { noteSlowCheck, SLOWEST_CHECKS_KEPT, type SlowCheck } from './slow-checks.ts';

const check = (seed: number, check_s: number): SlowCheck => ({ seed, check_s, operations: 100, unknown_writes: 3 });

describe('noteSlowCheck', () => {
  it('keeps the slowest checks, slowest first, however they arrive', () => {
    const slowest: SlowCheck[] = [];
    const times = [0.2, 110.05, 0.01, 3.5, 0.4, 0.3, 7.25, 0.05];
    times.forEach((t, i) => noteSlowCheck(slowest, check(5501 + i, t)));
    expect(slowest.map((c) => c.seed)).toEqual([5502, 5507, 5504, 5505, 5506]);
    expect(slowest).toHaveLength(SLOWEST_CHECKS_KEPT);
  });

  it('rounds the time to milliseconds and keeps the rest of the entry', () => {
    const slowest: SlowCheck[] = [];
    noteSlowCheck(slowest, { seed: 5528, check_s: 110.04712, operations: 121, unknown_writes: 21 });
    expect(slowest).toEqual([{ seed: 5528, check_s: 110.047, operations: 121, unknown_writes: 21 }]);
  });
});
