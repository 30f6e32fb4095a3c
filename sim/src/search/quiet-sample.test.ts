// The quiet sample of a collector-free probe (search/slo.ts, collectorSample: C++ and Rust whose
// memory fits, a window of the minimum length) against the plain run. The sample ends after 3 s
// with no operation over half the SLO and nothing late; a probe near the SLO or over it runs
// whole. Both must reach the same verdict, count the same share over the SLO within 0.5 pp and
// put the p99 within 10 %; the search's utilisation at its answer is the window's (the mean of
// the sample's whole buckets), held to the plain run of that probe within 0.5 pp.
import { describe, expect, it } from 'vitest';
import type { EngineName } from '../api.ts';
import { followerUtilization, leaderUtilization, runProbe, searchSlo } from './slo.ts';
import { fidelitySearchSpec } from '../fidelity/specs.ts';

const STOP = { stop_when_p99_exceeds_us: 20_000 };

function bothWays(engine: EngineName, rate: number) {
  const spec = fidelitySearchSpec(engine, 'A', 32, 8);
  return {
    sampled: runProbe({ ...spec, steady_state_shortcut: true }, rate, null, STOP),
    plain: runProbe({ ...spec, steady_state_shortcut: false }, rate, null, STOP),
  };
}

describe("a collector-free probe's quiet sample against the plain run", () => {
  for (const [engine, rate, met, sampled] of [
    ['rust', 69_168, true, true],
    ['rust', 71_934, false, false],
    ['cpp', 27_363, true, true],
  ] as const) {
    it(`${engine} A 32 GiB at ${rate} ops/s: ${met ? 'met' : 'missed'} both ways${sampled ? ', from a 3 s sample of the 10 s window' : ', not sampled (not quiet)'}`, () => {
      const { sampled: s, plain: p } = bothWays(engine, rate);
      expect(p.probe.sampled_s).toBeUndefined();
      expect(s.probe.met).toBe(met);
      expect(p.probe.met).toBe(met);
      expect(s.probe.window_s).toBe(p.probe.window_s);
      if (!sampled) {
        expect(s.probe.sampled_s).toBeUndefined();
        return;
      }
      expect(s.probe.sampled_s!).toBeLessThan(p.probe.window_s! / 3);
      expect(Math.abs(s.probe.over_slo_share! - p.probe.over_slo_share!)).toBeLessThanOrEqual(0.005);
      expect(Math.abs(s.probe.p99_ms / p.probe.p99_ms - 1), `p99 ${s.probe.p99_ms} against ${p.probe.p99_ms} ms`).toBeLessThanOrEqual(0.1);
    });
  }

  // The sample's run reads the leader at 53.7 % where the window reads 55.5 %: its last 100 ms
  // bucket is cut short. The window's utilisation is its whole buckets' mean.
  it("Rust A 32 GiB: the search's answer and its utilisation are the plain run's", () => {
    const spec = fidelitySearchSpec('rust', 'A', 32, 8);
    const found = searchSlo(spec, null);
    const plainSearch = searchSlo({ ...spec, steady_state_shortcut: false }, null);
    expect(found.max_ops_per_s_at_slo).toBe(plainSearch.max_ops_per_s_at_slo);
    expect(found.probes.map((p) => [p.target_ops_per_s, p.met])).toEqual(plainSearch.probes.map((p) => [p.target_ops_per_s, p.met]));
    expect(found.probes.find((p) => p.target_ops_per_s === found.max_ops_per_s_at_slo)?.sampled_s).toBeDefined();
    expect(Math.abs(found.leader_cpu_utilization_at_max! - plainSearch.leader_cpu_utilization_at_max!), `leader ${found.leader_cpu_utilization_at_max} against ${plainSearch.leader_cpu_utilization_at_max}`).toBeLessThanOrEqual(0.005);
    expect(Math.abs(found.follower_cpu_utilization_at_max! - plainSearch.follower_cpu_utilization_at_max!)).toBeLessThanOrEqual(0.005);
    expect(Math.abs(found.p99_ms_at_max! / plainSearch.p99_ms_at_max! - 1)).toBeLessThanOrEqual(0.1);
    // (leaderUtilization of the best run itself is the sample's own mean: not the window's.)
    expect(leaderUtilization(found.best_run!)).toBeLessThan(found.leader_cpu_utilization_at_max! - 0.01);
    expect(followerUtilization(found.best_run!)).not.toBeNull();
  });
});
