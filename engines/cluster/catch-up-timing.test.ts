import { describe, expect, it } from 'vitest';
import { catchUpTimes, caughtUpAndTrimmed, clusterMeanwhile, statusIntervalFromEnv, type StampedStatus } from './catch-up-timing.ts';

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

/** A stamped line with an elections counter and a timer lateness. */
const counted = (atMs: number, elections: number, late = 0): StampedStatus =>
  ({ atMs, status: { elections, timer_late_max_ms: late } }) as unknown as StampedStatus;

describe('what the cluster went through while a follower caught up', () => {
  // the java,java,java 4 shape (fourth series, first reset): the reset follower n0 and the third
  // node n1 stood while n2 led; caught up 1,994 ms after the reset with every timer nearly on time
  const caughtUp = { referenceIndex: 2647, caughtUpMs: 1994, trimmingResumedMs: 2212, timerLateMs: 22 };
  const lines = [
    [counted(10_100, 3), counted(10_400, 4), counted(11_500, 6, 21), counted(12_300, 6), counted(13_000, 9, 400)],
    [counted(10_100, 5), counted(10_600, 6), counted(11_300, 8, 34), counted(12_200, 8)],
    [counted(10_100, 3), counted(11_000, 4, 22), counted(11_900, 6, 11), counted(12_200, 6)],
  ];

  it('counts the elections every node started and the worst lateness of any node up to the later event', () => {
    // n0 3 -> 6, n1 5 -> 8, n2 3 -> 6; the 400 ms at 13,000 comes after trimming resumed (12,212)
    expect(clusterMeanwhile(lines, [3, 5, 3], RESET, caughtUp)).toEqual({ elections: 9, clusterTimerLateMs: 34 });
  });

  it('counts from the last line before the reset, so an election on the first line after it is counted', () => {
    expect(clusterMeanwhile([[counted(10_050, 4)]], [3], RESET, { ...caughtUp, caughtUpMs: 100, trimmingResumedMs: 100 })).toEqual({ elections: 1, clusterTimerLateMs: 0 });
  });

  it('reads every line since the reset while the follower has not caught up', () => {
    const pending = { ...caughtUp, caughtUpMs: null };
    expect(clusterMeanwhile(lines, [3, 5, 3], RESET, pending)).toEqual({ elections: 12, clusterTimerLateMs: 400 });
  });

  it('counts no election for a quiet cluster', () => {
    const quiet = [[counted(10_100, 2), counted(10_200, 2)], [counted(10_150, 1)], []];
    expect(clusterMeanwhile(quiet, [2, 1, 1], RESET, { ...caughtUp, caughtUpMs: 250, trimmingResumedMs: 300 })).toEqual({ elections: 0, clusterTimerLateMs: 0 });
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
