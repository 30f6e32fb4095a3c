import { describe, expect, it } from 'vitest';
import { formatBallot, leaderOf } from './ballot.ts';

describe('ballots as people read them', () => {
  it('shows round.leader', () => {
    expect(formatBallot(0x201)).toBe('2.1');
    expect(formatBallot(257)).toBe('1.1');
  });
  it('marks the initial ballot as leaderless', () => {
    expect(formatBallot(15)).toBe('0.-');
    expect(leaderOf(15)).toBeNull();
    expect(leaderOf(0x302)).toBe(2);
  });
});
