// The reset tests' choice of leader (current-leader.ts): a line from before the last election
// names no leader, however new it is in its own log.
import { describe, expect, it } from 'vitest';
import type { StampedStatus } from './catch-up-timing.ts';
import type { NodeStatus } from './node-status.ts';
import { lastElectionAtMs, leaderAfterLastElection } from './current-leader.ts';

const line = (atMs: number, role: string, leader: number | null, ballot: number, elections: number): StampedStatus => ({
  atMs,
  status: { role, leader, ballot, elections } as NodeStatus,
});

describe('the current leader from stamped status lines', () => {
  // n0 led and logged nothing since n1 stood and won: n0's newest line still says "leader". The
  // reset tests took the first node whose newest line said so (n0), and reset a "follower" of a
  // deposed leader.
  const deposedThenSilent = [
    [line(1000, 'leader', 0, 1, 0), line(1100, 'leader', 0, 1, 0)],
    [line(1000, 'follower', 0, 1, 0), line(1150, 'candidate', null, 2, 1), line(1300, 'leader', 1, 2, 1)],
    [line(1000, 'follower', 0, 1, 0), line(1250, 'follower', 1, 2, 0), line(1350, 'follower', 1, 2, 0)],
  ];

  it('takes the leader of a line newer than the last election, not a deposed leader\'s newest line', () => {
    expect(lastElectionAtMs(deposedThenSilent)).toBe(1150);
    expect(leaderAfterLastElection(deposedThenSilent)).toBe(1);
  });

  it('names none until a leader has logged after the last election', () => {
    expect(leaderAfterLastElection(deposedThenSilent.map((lines) => lines.filter((x) => x.atMs <= 1200)))).toBeNull();
  });

  it('takes the higher ballot when two lines after the last election say leader', () => {
    const both = [
      [line(1000, 'follower', 1, 1, 0), line(1100, 'candidate', null, 4, 1), line(1400, 'leader', 0, 4, 1)],
      [line(1000, 'leader', 1, 1, 0), line(1300, 'leader', 1, 1, 0)],
      [line(1000, 'follower', 1, 1, 0), line(1350, 'follower', 0, 4, 0)],
    ];
    expect(leaderAfterLastElection(both)).toBe(0);
  });

  it('with no election in the lines, the node whose newest line says leader', () => {
    expect(leaderAfterLastElection([[line(1000, 'follower', 2, 1, 0)], [line(1000, 'follower', 2, 1, 0)], [line(1000, 'leader', 2, 1, 0)]])).toBe(2);
  });
});
