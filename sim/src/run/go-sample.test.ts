// Go's sampled probe (search/slo.ts, collectorSample) against the plain run. A Go probe's window is
// set by the GC cycle; the sampled run ends its window once every node's cycle that the window
// holds is behind it (ended, or by the node's pacer not due before the window's end) and the
// backlog has drained. Both must reach the same verdict, count the same share of operations over
// the SLO within 0.5 percentage points and put the p99 within 10 %. Where the sample cannot end
// early (overloaded probes, Go at 5 GiB) and where it does not apply (C++, Java: their own
// shortcut), the probe is the plain run itself.
import { describe, expect, it } from 'vitest';
import type { EngineName, ModelCard, SloProbe } from '../api.ts';
import { followerUtilization, leaderUtilization, runProbe, searchSlo, wholeWindowRun } from '../search/slo.ts';
import { fidelitySearchSpec } from '../fidelity/specs.ts';
import { validateCard } from '../models/card.ts';
import card170Json from '@replicant/data/models/1.7.0.json' with { type: 'json' };

/** Card 1.7.0, the default until 1.7.1: the 6 GiB cases at 42,636 and 44,196 ops/s were set at
 * its answer and hold the sampler to the plain run there; the default's own answer (card 1.7.1:
 * 41,082, where 42,636 misses) has its case too. */
const CARD_170 = validateCard(card170Json);

function bothWays(engine: EngineName, gib: number, rate: number, card?: ModelCard): { sampled: SloProbe; plain: SloProbe } {
  const { sampled, plain } = bothRuns(engine, gib, rate, card);
  return { sampled: sampled.probe, plain: plain.probe };
}

// (Probes are memoised by their spec: the tests below share these runs.)
function bothRuns(engine: EngineName, gib: number, rate: number, card?: ModelCard) {
  const spec = searchSpec(engine, gib, card);
  const sampled = runProbe({ ...spec, steady_state_shortcut: true }, rate, null, {});
  const plain = runProbe({ ...spec, steady_state_shortcut: false }, rate, null, {});
  return { spec, sampled, plain };
}

function searchSpec(engine: EngineName, gib: number, card?: ModelCard) {
  const spec = fidelitySearchSpec(engine, 'A', gib, 8);
  return card ? { ...spec, base: { ...spec.base, model_card: card } } : spec;
}

function expectAgrees(sampled: SloProbe, plain: SloProbe): void {
  expect(plain.sampled_s).toBeUndefined();
  expect(sampled.window_s).toBe(plain.window_s);
  expect(sampled.met).toBe(plain.met);
  expect(Math.abs(sampled.over_slo_share! - plain.over_slo_share!)).toBeLessThanOrEqual(0.005);
  expect(Math.abs(sampled.p99_ms / plain.p99_ms - 1), `p99 ${sampled.p99_ms} ms against ${plain.p99_ms} ms`).toBeLessThanOrEqual(0.1);
}

describe("Go's sampled probe against the plain run", () => {
  // 6 GiB near its answer (card 1.7.0: 42.6 Kops/s; the default 1.7.1: 41.1): cycles every ~1.6
  // to 1.9 s on each node, the window 10 s.
  for (const [rate, met, card] of [
    [42_636, true, CARD_170],
    [44_196, false, CARD_170],
    [41_082.004, true, undefined],
  ] as const) {
    it(`Go A at 6 GiB, ${rate} ops/s, ${card ? `card ${card.version}` : 'the default card'}: the same verdict (${met ? 'met' : 'missed'}) from a sample of about a fifth of the window`, () => {
      const { sampled, plain } = bothWays('go', 6, rate, card);
      expectAgrees(sampled, plain);
      expect(plain.met).toBe(met);
      expect(sampled.sampled_s!).toBeLessThan(plain.window_s! / 3);
    });
  }

  // The point's utilisation is the whole window's: at 6 GiB the 2.1 s sample holds the
  // followers' cycles in a larger share than the window does and reads them at 28.3 % where the
  // window reads 25.8 % (the leader 69.1 against 69.8 %). A search that ends on the sampled probe
  // reads its CPU figures from the plain window; held within 0.5 percentage points.
  it("Go A at 6 GiB, 42636 ops/s (card 1.7.0): the search reports the plain window's utilisation, not the sample's", () => {
    const spec = searchSpec('go', 6, CARD_170);
    const found = searchSlo({ ...spec, hint: { met_ops_per_s: 42_636, missed_ops_per_s: 44_196 } }, null);
    expect(found.max_ops_per_s_at_slo).toBe(42_636);
    expect(found.probes.find((p) => p.target_ops_per_s === 42_636)?.sampled_s).toBeDefined();
    const plain = runProbe({ ...spec, steady_state_shortcut: false }, 42_636, null, {}).run;
    expect(Math.abs(found.leader_cpu_utilization_at_max! - leaderUtilization(plain)!), `leader ${found.leader_cpu_utilization_at_max} against ${leaderUtilization(plain)}`).toBeLessThanOrEqual(0.005);
    expect(Math.abs(found.follower_cpu_utilization_at_max! - followerUtilization(plain)!), `followers ${found.follower_cpu_utilization_at_max} against ${followerUtilization(plain)}`).toBeLessThanOrEqual(0.005);
  });

  // The window's utilisation is computed from the sample (search/window-utilization.ts: each
  // bucket the sample did not reach is the node's own bucket whole periods earlier; a follower
  // whose period outlasts the run, at 32 GiB, runs the rest at its cycle-free rate), not from a
  // plain run of the window. Held to the plain run within 0.5 percentage points on every node
  // (seen within 0.06). Reading the sample's last, cut-short bucket as whole put the leader at
  // 6 GiB 1.3 points low; the sample's own figures are up to 2.5 points off (the followers at 6 GiB).
  for (const [gib, rate, card] of [
    [6, 42_636, CARD_170],
    [6, 41_082.004, undefined],
    [8, 49_600, undefined],
    [32, 49_600, undefined],
  ] as const) {
    it(`Go A at ${gib} GiB, ${rate} ops/s${card ? ` (card ${card.version})` : ''}: each node's utilisation over the window, from the sample alone`, () => {
      const { spec, sampled, plain } = bothRuns('go', gib, rate, card);
      const whole = wholeWindowRun(spec, sampled.probe, sampled.run, null);
      expect(whole.settled_at_s, 'computed from the sampled run, not run plain').toBe(sampled.probe.sampled_s);
      whole.nodes.forEach((n, i) => {
        const want = plain.run.nodes[i]!.mean_cpu_utilization;
        expect(Math.abs(n.mean_cpu_utilization - want), `node ${i}: ${n.mean_cpu_utilization} against ${want}`).toBeLessThanOrEqual(0.005);
      });
    });
  }

  // 8 GiB at its answer (49.6 Kops/s): the p99 (6.7 ms) is made by the cycles; a sample that
  // held none of them would read ~1 ms.
  it('Go A at 8 GiB, 49600 ops/s: the cycles that make the p99 are in the sample', () => {
    const { sampled, plain } = bothWays('go', 8, 49_600);
    expectAgrees(sampled, plain);
    expect(sampled.sampled_s).toBeDefined();
    expect(plain.p99_ms).toBeGreaterThan(5);
  });

  // 32 GiB at its answer: the leader's cycle (every ~8.3 s) falls late in this window; the
  // followers' next cycles come after it (their pacers say so).
  it('Go A at 32 GiB, 49600 ops/s: the same verdict and p99', () => {
    const { sampled, plain } = bothWays('go', 32, 49_600);
    expectAgrees(sampled, plain);
    expect(sampled.sampled_s).toBeDefined();
  });

  // 5 GiB: cycles back to back, the backlog never drains: the whole window runs, as plain.
  it('Go A at 5 GiB, 8527 ops/s: never settles, so the probe is the plain run', () => {
    const { sampled, plain } = bothWays('go', 5, 8_527);
    expect(sampled).toEqual(plain);
    expect(sampled.met).toBe(false);
  });

  // C++ has no collector (no Go window event); its quiet sample (search/quiet-sample.test.ts) ends
  // only where no operation took over half the SLO, and here one takes 14 ms: the plain run, byte
  // for byte.
  it('C++ A at 32 GiB, 28458 ops/s: not sampled, the plain run', () => {
    const { sampled, plain } = bothWays('cpp', 32, 28_458);
    expect(sampled).toEqual(plain);
    expect(sampled.sampled_s).toBeUndefined();
  });
});
