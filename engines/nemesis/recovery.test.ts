import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judgeRate, leaderKillRecoveries, recoveryProblems, type AckMark, type KillMark } from './recovery.ts';
import { fromReport } from './rederive.ts';

/** one acknowledgement every `every_ms` in [from_ms, to_ms) from `node` */
const acksAt = (from_ms: number, to_ms: number, every_ms: number, node = 0): AckMark[] =>
  Array.from({ length: Math.ceil((to_ms - from_ms) / every_ms) }, (_, i) => ({ at_us: (from_ms + i * every_ms) * 1000, node }));
const kill: KillMark = { at_ms: 2000, kind: 'kill', node: 1, was_leader: true };
const one = ['rust', 'rust', 'rust'];

describe('recovery after a leader kill', () => {
  it('passes a cluster that serves again at once and at the old rate', () => {
    const acks = [...acksAt(0, 2000, 10, 1), ...acksAt(2300, 7000, 10, 0)];
    const [r] = leaderKillRecoveries([kill], acks, 7000, one);
    expect(r).toMatchObject({ at_ms: 2000, first_ack_ms: 300, pre_rate_per_s: 100, post_rate_per_s: 100, other_fault_in_window: false, new_leader: 0, new_leader_ok: true, rate_ok: true, baseline: 'pre-kill second' });
    expect(recoveryProblems([r!])).toEqual([]);
  });

  it('fails a new leader later than 1 s, and a rate below 80 % 3 s after the kill', () => {
    const acks = [...acksAt(0, 2000, 10, 1), ...acksAt(3500, 7000, 20, 0)];
    const [r] = leaderKillRecoveries([kill], acks, 7000, one);
    expect(r).toMatchObject({ first_ack_ms: 1500, post_rate_per_s: 50, new_leader_ok: false, rate_ok: false });
    const problems = recoveryProblems([r!]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/after 1500 ms \(bound 1000 ms\)/);
    expect(problems[1]).toMatch(/50 ops\/s .* below 80 % of the 100 ops\/s of the pre-kill second/);
    expect(recoveryProblems(leaderKillRecoveries([kill], acksAt(0, 2000, 10, 1), 7000, one))[0]).toMatch(/came never/);
  });

  it('does not judge the rate when another fault lands in the window or the run ends first; ignores follower kills and pauses', () => {
    const acks = [...acksAt(0, 2000, 10, 1), ...acksAt(2100, 7000, 40, 0)];
    const pause: KillMark = { at_ms: 3500, kind: 'pause', node: 0, was_leader: false, duration_ms: 300 };
    expect(leaderKillRecoveries([kill, pause], acks, 7000, one)[0]).toMatchObject({ other_fault_in_window: true, rate_ok: null, rate_not_judged: 'other fault in the window', new_leader_ok: true });
    expect(leaderKillRecoveries([kill], acks, 5500, one)[0]).toMatchObject({ post_rate_per_s: null, rate_ok: null, rate_not_judged: 'run ended first' });
    expect(leaderKillRecoveries([{ ...kill, was_leader: false }, pause], acks, 7000, one)).toEqual([]);
    expect(leaderKillRecoveries([kill, { ...pause, node: 2, at_ms: 6500 }], acks, 7000, one)[0]).toMatchObject({ rate_ok: false, pre_kill_rate_ok: false });
  });

  it('judges the survivors: a killed node restarting inside the window leaves the rate unjudged unless it was up before the window', () => {
    const acks = [...acksAt(0, 2000, 10, 1), ...acksAt(2100, 7000, 40, 0)];
    const restart = (ready_ms: number | null): KillMark => ({ at_ms: 2800, kind: 'restart', node: 1, was_leader: false, ready_ms });
    // the old rule judged these as misses (40 against 100 a second)
    expect(leaderKillRecoveries([kill, restart(3000)], acks, 7000, one)[0]).toMatchObject({ killed_restart_up_ms: 3800, rate_ok: null, rate_not_judged: 'killed node restarting in the window', pre_kill_rate_ok: false });
    expect(leaderKillRecoveries([kill, restart(null)], acks, 7000, one)[0]).toMatchObject({ rate_ok: null, rate_not_judged: 'killed node restarting in the window' });
    // up 200 ms before the window: three nodes serve in it, and a slow one is still a miss
    expect(leaderKillRecoveries([kill, restart(2000)], acks, 7000, one)[0]).toMatchObject({ killed_restart_up_ms: 2800, rate_ok: false });
    // another node's restart is another fault
    expect(leaderKillRecoveries([kill, { ...restart(100), node: 2 }], acks, 7000, one)[0]).toMatchObject({ rate_ok: null, rate_not_judged: 'other fault in the window' });
  });

  it('in a mixed cluster holds the new leader to its own engine, not the killed one', () => {
    const mixed = ['cpp', 'rust', 'java'];
    // java (n2) led at 60/s, then rust (n1) at 100/s; rust is killed and java leads again at 55/s
    const acks = [...acksAt(0, 1500, 1000 / 60, 2), ...acksAt(1500, 4000, 10, 1), ...acksAt(4200, 9000, 1000 / 55, 2)];
    const k: KillMark = { ...kill, at_ms: 4000 };
    const [r] = leaderKillRecoveries([{ at_ms: 1500, kind: 'pause', node: 2, was_leader: true, duration_ms: 0 }, k], acks, 9000, mixed);
    expect(r).toMatchObject({ killed_engine: 'rust', new_leader: 2, new_leader_engine: 'java', pre_rate_per_s: 100, pre_kill_rate_ok: false, baseline: 'earlier second led by the same engine', rate_ok: true });
    expect(r!.baseline_per_s).toBeCloseTo(60, 0);
    // the same at a third of java's own rate is still a miss
    const slow = [...acksAt(0, 1500, 1000 / 60, 2), ...acksAt(1500, 4000, 10, 1), ...acksAt(4200, 9000, 50, 2)];
    expect(leaderKillRecoveries([k], slow, 9000, mixed)[0]).toMatchObject({ rate_ok: false });
    // no second led by java with every node up, before or after: not judged
    expect(leaderKillRecoveries([k, { at_ms: 8100, kind: 'pause', node: 0, was_leader: false, duration_ms: 1000 }], [...acksAt(0, 4000, 10, 1), ...acksAt(4200, 9000, 50, 2)], 9000, mixed)[0]).toMatchObject({
      rate_ok: null,
      rate_not_judged: 'no baseline for the new leader engine',
    });
  });
});

interface KillWindowFixture {
  source: string;
  engines: string[];
  kill_at_ms: number;
  end_ms: number;
  old_rule: { pre_rate_per_s: number; post_rate_per_s: number; rate_ok: boolean };
  faults: KillMark[];
  acks: [number, number][];
}
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`testdata/${name}`, import.meta.url), 'utf8')) as KillWindowFixture;
const judge = (f: KillWindowFixture) => leaderKillRecoveries(f.faults, f.acks.map(([at_us, node]) => ({ at_us, node })), f.end_ms, f.engines).find((k) => k.at_ms === f.kill_at_ms)!;

describe('recorded kill windows (kept runs of the ninth and tenth series)', () => {
  it('a C++ leader killed in cpp+rust+java: the old rule missed it against the C++ rate; against what Rust leads at, it is back', () => {
    const f = fixture('kill-window-mixed-cpp-to-rust.json');
    expect(f.old_rule.rate_ok).toBe(false);
    const r = judge(f);
    expect(r).toMatchObject({ killed_engine: 'cpp', new_leader_engine: 'rust', pre_kill_rate_ok: false, rate_ok: true, baseline: 'later second led by the same engine' });
    expect(r.pre_rate_per_s).toBe(f.old_rule.pre_rate_per_s);
    expect(r.post_rate_per_s).toBe(f.old_rule.post_rate_per_s);
  });

  it('a Rust leader killed in cpp+rust+java, Java leading after at well under its own later rate: still a miss', () => {
    const r = judge(fixture('kill-window-mixed-rust-to-java-slow.json'));
    expect(r).toMatchObject({ killed_engine: 'rust', new_leader_engine: 'java', rate_ok: false });
    expect(r.post_rate_per_s!).toBeLessThan(0.8 * r.baseline_per_s!);
  });

  it('rust ×3, the restarted node up before the window, 435 against 1,203 a second: still a miss', () => {
    const r = judge(fixture('kill-window-rust-slow.json'));
    expect(r).toMatchObject({ killed_engine: 'rust', new_leader_engine: 'rust', baseline: 'pre-kill second', rate_ok: false, pre_kill_rate_ok: false });
    expect(r.killed_restart_up_ms!).toBeLessThanOrEqual(3000);
  });

  it('java ×3 seed 503 (report only): the restarted JVM wrote its first line 4.7 s after the kill, so the old miss is not a verdict on the survivors', () => {
    // data/reliability/long/nemesis-java-501.json, seed 503, its first leader kill as the report holds it
    const run = {
      engines: ['java', 'java', 'java'],
      seed: 503,
      faults: [
        { at_ms: 1907, kind: 'kill' as const, node: 2, was_leader: true },
        { at_ms: 2444, kind: 'restart' as const, node: 2, was_leader: false, ready_ms: 4178 },
      ],
    };
    const k = { at_ms: 1907, pre_rate_per_s: 151, post_rate_per_s: 102, window_clean: true };
    const figures = fromReport(run, k);
    expect(figures).toMatchObject({ new_leader_engine: 'java', killed_restart_up_ms: 4715 });
    expect(102 >= 0.8 * 151).toBe(false); // the old verdict
    expect(judgeRate(figures)).toMatchObject({ rate_ok: null, rate_not_judged: 'killed node restarting in the window' });
    // and a mixed cluster's report alone cannot name the new leader's engine
    expect(judgeRate(fromReport({ ...run, engines: ['cpp', 'rust', 'java'] }, k))).toMatchObject({ rate_ok: null });
  });
});
