// Java's sampled probe (search/slo.ts, collectorSample) against the plain run. Where G1's young or
// mixed pauses set a probe's window (Java A at 8 GiB, and at 6 GiB far below its answer: 10 s
// windows with ~10-15 ms pauses every 0.85-4 s per node), the run's window ends once every node
// has paused twice in it (or, by its eden, pauses no more before the window's end), nothing is
// late and no operation has taken longer than the SLO. Both must reach the same verdict, count
// the same share over the SLO within 0.5 percentage points and put the p99 within 15 % (the
// sample holds the pauses in about the window's proportion, not exactly). Windows set by full
// collections (5 GiB, 6 GiB near its answer) and at 32 GiB (one 200 ms young pause a window) are
// the steady-state shortcut's (shortcut.test.ts), not sampled.
import { describe, expect, it } from 'vitest';
import type { SloProbe } from '../api.ts';
import { followerUtilization, leaderUtilization, runProbe, searchSlo, wholeWindowRun } from '../search/slo.ts';
import { fidelitySearchSpec } from '../fidelity/specs.ts';

function bothWays(gib: number, rate: number): { sampled: SloProbe; plain: SloProbe } {
  const spec = fidelitySearchSpec('java', 'A', gib, 8);
  const sampled = runProbe({ ...spec, steady_state_shortcut: true }, rate, null, {}).probe;
  const plain = runProbe({ ...spec, steady_state_shortcut: false }, rate, null, {}).probe;
  return { sampled, plain };
}

describe("Java's sampled probe against the plain run", () => {
  for (const [gib, rate] of [
    // the Lab sweep's answer at 8 GiB: mixed pauses of 12-14 ms, the p99 13.6 ms
    [8, 23_220],
    // far below the answer at 6 GiB: with one pause a node the sample ended before the
    // followers' remark and read 2.6 ms against 4.7
    [6, 7_343],
  ] as const) {
    it(`Java A at ${gib} GiB, ${rate} ops/s: the same verdict and p99 from under half the window`, () => {
      const { sampled, plain } = bothWays(gib, rate);
      expect(sampled.window_event?.kind).toBe('g1_mixed');
      expect(plain.sampled_s).toBeUndefined();
      expect(sampled.sampled_s!).toBeLessThan(plain.window_s! / 2);
      expect(sampled.window_s).toBe(plain.window_s);
      expect(sampled.met).toBe(plain.met);
      expect(Math.abs(sampled.over_slo_share! - plain.over_slo_share!)).toBeLessThanOrEqual(0.005);
      expect(Math.abs(sampled.p99_ms / plain.p99_ms - 1), `p99 ${sampled.p99_ms} ms against ${plain.p99_ms} ms`).toBeLessThanOrEqual(0.15);
    });
  }

  // The point's utilisation is the whole window's, not the sample's: the 3 s sample at 8 GiB falls
  // inside the leader's concurrent marking and reads 77.4 % (followers 20.9 %) where the whole
  // window reads 70.4 % (27.7 %). A search that ends on the sampled probe reads its CPU figures
  // from the plain window; held within 0.5 percentage points.
  it('Java A at 8 GiB, 23220 ops/s: the search reports the plain window\'s utilisation, not the sample\'s', () => {
    const spec = fidelitySearchSpec('java', 'A', 8, 8);
    const found = searchSlo({ ...spec, hint: { met_ops_per_s: 23_220, missed_ops_per_s: 23_220 * 1.04 } }, null);
    expect(found.max_ops_per_s_at_slo).toBe(23_220);
    expect(found.probes.find((p) => p.target_ops_per_s === 23_220)?.sampled_s).toBeDefined();
    const plain = runProbe({ ...spec, steady_state_shortcut: false }, 23_220, null, {}).run;
    expect(Math.abs(found.leader_cpu_utilization_at_max! - leaderUtilization(plain)!), `leader ${found.leader_cpu_utilization_at_max} against ${leaderUtilization(plain)}`).toBeLessThanOrEqual(0.005);
    expect(Math.abs(found.follower_cpu_utilization_at_max! - followerUtilization(plain)!), `followers ${found.follower_cpu_utilization_at_max} against ${followerUtilization(plain)}`).toBeLessThanOrEqual(0.005);
  });

  // That window is computed, not run plain (search/window-utilization.ts, g1WholeWindowUtilization):
  // the mutator's rate from the sample's whole buckets plus the collector's share of the window
  // from the model run alone from the run's starting states. Each node held to the plain run
  // within 0.5 percentage points (seen within 0.1: 8 GiB leader 70.40 against 70.42 %, followers
  // 27.70 against 27.70; 6 GiB 26.26 against 26.27, 13.08 against 13.08). Reading the sample's
  // cut-short last bucket as whole put the 8 GiB leader 1.9 points low, and this failed.
  for (const [gib, rate] of [
    [8, 23_220],
    [6, 7_343],
  ] as const) {
    it(`Java A at ${gib} GiB, ${rate} ops/s: each node's utilisation over the window, from the sample and the model`, () => {
      const spec = fidelitySearchSpec('java', 'A', gib, 8);
      const sampled = runProbe({ ...spec, steady_state_shortcut: true }, rate, null, {});
      const plain = runProbe({ ...spec, steady_state_shortcut: false }, rate, null, {}).run;
      const whole = wholeWindowRun(spec, sampled.probe, sampled.run, null);
      expect(whole.settled_at_s, 'computed from the sampled run, not run plain').toBe(sampled.probe.sampled_s);
      whole.nodes.forEach((n, i) => {
        const want = plain.nodes[i]!.mean_cpu_utilization;
        expect(Math.abs(n.mean_cpu_utilization - want), `node ${i}: ${n.mean_cpu_utilization} against ${want}`).toBeLessThanOrEqual(0.005);
      });
    });
  }

  it('Java A at 5 GiB, 2679 ops/s: full collections set the window, so the probe is estimated, not sampled', () => {
    const probe = runProbe({ ...fidelitySearchSpec('java', 'A', 5, 8), steady_state_shortcut: true }, 2_679, null, {}).probe;
    expect(probe.window_event?.kind).toBe('g1_full');
    expect(probe.estimated_from).toBeDefined();
    expect(probe.sampled_s).toBeUndefined();
  });
});
