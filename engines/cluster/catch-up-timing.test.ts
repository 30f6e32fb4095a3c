import { describe, expect, it } from 'vitest';
import { catchUpTimes, caughtUpAndTrimmed, statusIntervalFromEnv, type StampedStatus } from './catch-up-timing.ts';

/** A stamped line with the fields catch-up timing reads. */
const line = (atMs: number, lastExecuted: number, gle: number, late = 0): StampedStatus =>
  ({ atMs, status: { last_executed: lastExecuted, global_last_executed: gle, last_index: lastExecuted, timer_late_max_ms: late } }) as unknown as StampedStatus;

const RESET = 10_000;

describe('catch-up timing after a reset', () => {
  it("takes the reference from the leader's first line after the reset and times both events from the stamps", () => {
    const leader = [line(9_950, 500, 480), line(10_050, 520, 490, 4), line(10_150, 540, 505), line(10_250, 560, 515, 7), line(10_350, 580, 545)];
    const follower = [line(9_990, 495, 480), line(10_090, 505, 490), line(10_190, 518, 505), line(10_290, 530, 520, 2), line(10_390, 560, 540)];
    const t = catchUpTimes(leader, follower, RESET);
    // reference: 520 (the leader's line at 10,050, not the 500 from before the reset)
    expect(t.referenceIndex).toBe(520);
    // the follower reached 520 on its line at 10,290; the leader's gle reached it at 10,350
    expect(t.caughtUpMs).toBe(290);
    expect(t.trimmingResumedMs).toBe(350);
    // lateness over the lines from the reset to the later event (the 7 at 10,250; not the lines before)
    expect(t.timerLateMs).toBe(7);
    expect(caughtUpAndTrimmed(t)).toBe(true);
  });

  it('says never for a follower that froze (issue 20 before repair), and counts all lateness since the reset', () => {
    const leader = [line(10_050, 520, 490), line(10_150, 900, 490, 30), line(10_250, 1300, 490)];
    const follower = [line(10_090, 490, 490), line(10_190, 490, 490), line(10_290, 490, 490)];
    const t = catchUpTimes(leader, follower, RESET);
    expect(t.caughtUpMs).toBeNull();
    expect(t.trimmingResumedMs).toBeNull();
    expect(t.timerLateMs).toBe(30);
    expect(caughtUpAndTrimmed(t)).toBe(false);
  });

  it('has no reference before the leader logs a line after the reset', () => {
    const t = catchUpTimes([line(9_950, 500, 480)], [line(10_090, 600, 480)], RESET);
    expect(t.referenceIndex).toBeNull();
    expect(caughtUpAndTrimmed(t)).toBe(false);
  });
});

describe('REPLICANT_STATUS_INTERVAL_MS', () => {
  it('defaults to 100 ms and takes a whole number the servers accept', () => {
    expect(statusIntervalFromEnv(undefined)).toBe(100);
    expect(statusIntervalFromEnv('')).toBe(100);
    expect(statusIntervalFromEnv('1000')).toBe(1000);
  });
  it('refuses what the servers would refuse, naming the variable', () => {
    for (const bad of ['abc', '9', '60001', '100.5', '-100', '1e9'])
      expect(() => statusIntervalFromEnv(bad)).toThrow(/REPLICANT_STATUS_INTERVAL_MS/);
  });
});
