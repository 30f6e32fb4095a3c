import { describe, expect, it } from 'vitest';
import { provider } from '../cli/engines.ts';
import { probeElections } from './election-probe.ts';

const provide = await provider(['rust', 'java']);

describe('elections under a uniform message delay (docs/reliability.md, "The election storm")', () => {
  it('elect one leader and serve while the round trip is shorter than the election delay', () => {
    for (const d of [0, 9_000]) {
      const p = probeElections('rust', 10_000, d, provide);
      expect([d, p.leaders]).toEqual([d, 1]);
      expect(p.elections).toBeLessThanOrEqual(5);
      expect(p.answered).toBeGreaterThan(20);
    }
  });

  it('known limitation: from a one-way delay of one commit interval no election completes, on every engine alike', () => {
    // A candidate abandons its prepare phase when its election timer (1.5-2 commit intervals)
    // fires; promises that come back later are stale. With a round trip of 2 commit intervals
    // every phase is abandoned: ~56 elections a second per node at a 10 ms commit interval,
    // none won, nothing answered, until the delay ends (then it serves at once). A fix flips
    // this test (and the docs' section with it).
    const rust = probeElections('rust', 10_000, 10_000, provide);
    expect([rust.leaders, rust.answered]).toEqual([0, 0]);
    expect(rust.elections).toBeGreaterThan(100);
    expect(rust.recovered_after_us).not.toBeNull();
    const java = probeElections('java', 10_000, 10_000, provide);
    expect({ ...java, engine: 'rust' }).toEqual(rust);
  });

  it('the experiment: election delays backed off in the host elect a leader and serve at that delay', () => {
    const p = probeElections('rust', 10_000, 10_000, provide, { backoff: true });
    expect(p.leaders).toBe(1);
    expect(p.elections).toBeLessThan(10);
    expect(p.answered).toBeGreaterThan(20);
  });
});
