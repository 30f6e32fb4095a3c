import { describe, expect, it } from 'vitest';
import type { StampedStatus } from './catch-up-timing.ts';
import { countCauses, electionsWithCauses } from './election-causes.ts';

/** A stamped status line with what election-causes.ts reads. */
const line = (atMs: number, elections: number, late = 0, leader: number | null = 2): StampedStatus =>
  ({ atMs, status: { elections, timer_late_max_ms: late, leader } }) as unknown as StampedStatus;

/** Lines every 100 ms from `fromMs` to `toMs` with a constant election counter. */
const steady = (fromMs: number, toMs: number, elections: number): StampedStatus[] => {
  const out: StampedStatus[] = [];
  for (let t = fromMs; t <= toMs; t += 100) out.push(line(t, elections));
  return out;
};

describe('why each election happened', () => {
  it('blames the reset when the node that stood had its links reset and every timer was on time', () => {
    const n0 = [...steady(0, 1000, 3), line(1100, 4), line(1200, 4)];
    const r = electionsWithCauses([n0, steady(0, 1200, 5), steady(0, 1200, 1)], [{ atMs: 700, follower: 0 }], 100);
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ atMs: 1100, node: 0, count: 1, leaderBefore: 2, worstLateMs: 0, worstStatusGapMs: 0, sinceResetOfThisNodeMs: 400, cause: 'reset' });
  });

  it('blames starvation when any server ran late, or its status lines stopped, just before', () => {
    const late = [...steady(0, 1000, 3), line(1100, 4)];
    const other = [...steady(0, 900, 5).map((x) => (x.atMs === 900 ? line(900, 5, 80) : x))];
    expect(electionsWithCauses([late, other], [], 100)[0]!.cause).toBe('starvation');
    // a 300 ms silence of the third node (status lines 100 ms apart otherwise)
    const silent = [...steady(0, 600, 1), line(900, 1), line(1000, 1)];
    expect(electionsWithCauses([late, steady(0, 1100, 5), silent], [], 100)[0]).toMatchObject({ worstStatusGapMs: 200, cause: 'starvation' });
  });

  it("blames the harness when the test process's loop stalled, before anything else", () => {
    const n1 = [...steady(0, 1000, 5), line(1100, 6, 90)];
    // the tick at 1,300 ran 500 ms late: its stall began at 800, inside the 400 ms before 1,100
    const r = electionsWithCauses([steady(0, 1100, 3), n1], [{ atMs: 1000, follower: 1 }], 100, [{ atMs: 1300, lateMs: 500 }]);
    expect(r[0]).toMatchObject({ node: 1, worstLoopLateMs: 500, cause: 'harness' });
    // a stall that began after the election does not count
    expect(electionsWithCauses([steady(0, 1100, 3), n1], [], 100, [{ atMs: 1400, lateMs: 200 }])[0]).toMatchObject({ worstLoopLateMs: 0, cause: 'starvation' });
  });

  it('leaves an election with none of these unexplained, ignores an old reset and another node’s reset, and counts', () => {
    const n0 = [...steady(0, 3000, 3), line(3100, 5)];
    const r = electionsWithCauses([n0, steady(0, 3100, 5)], [{ atMs: 1000, follower: 0 }, { atMs: 3000, follower: 1 }], 100, []);
    expect(r[0]).toMatchObject({ count: 2, sinceResetOfThisNodeMs: null, worstLoopLateMs: 0, cause: 'unexplained' });
    expect(countCauses(r)).toEqual({ harness: 0, starvation: 0, reset: 0, unexplained: 2 });
  });
});
