import { describe, expect, it } from 'vitest';
import { leaderKillRecoveries, recoveryProblems, type KillMark } from './recovery.ts';

/** one acknowledgement every `every_ms` in [from_ms, to_ms), as µs */
const acksAt = (from_ms: number, to_ms: number, every_ms: number) => Array.from({ length: Math.ceil((to_ms - from_ms) / every_ms) }, (_, i) => (from_ms + i * every_ms) * 1000);
const kill: KillMark = { at_ms: 2000, kind: 'kill', node: 1, was_leader: true };

describe('recovery after a leader kill', () => {
  it('passes a cluster that serves again at once and at the old rate', () => {
    const acks = [...acksAt(0, 2000, 10), ...acksAt(2300, 7000, 10)];
    const [r] = leaderKillRecoveries([kill], acks, 7000);
    expect(r).toMatchObject({ at_ms: 2000, first_ack_ms: 300, pre_rate_per_s: 100, post_rate_per_s: 100, window_clean: true, new_leader_ok: true, rate_ok: true });
    expect(recoveryProblems([r!])).toEqual([]);
  });

  it('fails a new leader later than 1 s, and a rate below 80 % 3 s after the kill', () => {
    const acks = [...acksAt(0, 2000, 10), ...acksAt(3500, 7000, 20)];
    const [r] = leaderKillRecoveries([kill], acks, 7000);
    expect(r).toMatchObject({ first_ack_ms: 1500, post_rate_per_s: 50, new_leader_ok: false, rate_ok: false });
    const problems = recoveryProblems([r!]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/after 1500 ms \(bound 1000 ms\)/);
    expect(problems[1]).toMatch(/50 ops\/s .* below 80 % of the 100 ops\/s/);
    expect(recoveryProblems(leaderKillRecoveries([kill], acksAt(0, 2000, 10), 7000))[0]).toMatch(/came never/);
  });

  it('does not judge the rate when another fault lands in the window or the run ends first; ignores follower kills and pauses', () => {
    const acks = [...acksAt(0, 2000, 10), ...acksAt(2100, 7000, 40)];
    const pause: KillMark = { at_ms: 3500, kind: 'pause', node: 0, was_leader: false };
    const [r] = leaderKillRecoveries([kill, pause], acks, 7000);
    expect(r).toMatchObject({ window_clean: false, rate_ok: null, new_leader_ok: true });
    expect(leaderKillRecoveries([kill], acks, 5500)[0]).toMatchObject({ post_rate_per_s: null, rate_ok: null });
    expect(leaderKillRecoveries([{ ...kill, was_leader: false }, pause], acks, 7000)).toEqual([]);
    // the killed node's own restart is part of the kill; another node's restart is not
    const own: KillMark = { at_ms: 2800, kind: 'restart', node: 1, was_leader: false };
    expect(leaderKillRecoveries([kill, own], acks, 7000)[0]).toMatchObject({ window_clean: true, rate_ok: false });
    expect(leaderKillRecoveries([kill, { ...own, node: 2 }], acks, 7000)[0]).toMatchObject({ window_clean: false, rate_ok: null });
  });
});
