import { describe, expect, it } from 'vitest';
import type { SweepResult } from '@replicant/sim/api';
import { defaultState } from '../state/app-state.ts';
import { PAPER } from '../paper/results.ts';
import { memoryAxisGib, runSpec, sweepSpec } from './lab-spec.ts';
import { sweepPointSearchSpec } from '@replicant/sim/search/slo';
import { fidelitySearchSpec } from '@replicant/sim/fidelity/specs';
import { nines, ninesLabel, probeSeries, publishedSeries, sweepSeries } from './lab-results.ts';

const lab = () => defaultState().lab;

describe('lab-spec', () => {
  it('builds the paper’s set-up by default: 3 nodes, 8 vCPUs, ratio 8, workload A, open loop at 64 threads', () => {
    const s = runSpec(lab(), 7, 'java');
    expect({ ...s, load: { ...s.load, duration_s: 0 } }).toEqual({
      cluster: { engines: ['java', 'java', 'java'], seed: 7 },
      resources: { vcpus: 8, memory_to_data_ratio: 8 },
      workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000, value_bytes: 500, distribution: 'zipfian' },
      load: { mode: 'open', target_ops_per_s: 20_000, client_threads: 64, duration_s: 0, warmup_s: 2 },
      fidelity: 'fast',
    });
    // The window is derived from the model (cards 1.5.0 on: G1's 200 ms young pauses come about every
    // half minute at 20 Kops/s and can decide the p99, so it holds one), never below 10 s.
    expect(s.load.duration_s).toBeGreaterThan(30);
    expect(runSpec({ ...lab(), engines: ['cpp'] }, 7, 'cpp').load.duration_s).toBe(10);
  });
  it('lengthens the window to hold Java’s full collections at a tight heap (derived from the model)', () => {
    const s = lab();
    s.ratio = 1.25;
    const r = runSpec(s, 1, 'java', 10_000);
    expect(r.load.duration_s).toBeGreaterThan(60);
    expect(r.load.duration_s).toBeLessThanOrEqual(600);
    expect(runSpec(s, 1, 'cpp', 10_000).load.duration_s).toBe(10);
  });
  it('builds the same searches as `npm run fidelity` for the same knobs (one definition of a measurement)', () => {
    const s = lab();
    const sweep = sweepSpec(s, 1);
    const gib = [32, 8, 6, 5];
    for (const engine of ['cpp', 'java', 'go', 'rust'] as const) {
      s.ratios.forEach((ratio, i) => {
        expect(sweepPointSearchSpec(sweep, engine, { ratio }, 8)).toEqual(fidelitySearchSpec(engine, 'A', gib[i]!, 8));
      });
    }
    const v = lab();
    v.sweep = 'vcpus';
    const vs = sweepSpec(v, 1);
    for (const vcpus of [8, 4, 2]) expect(sweepPointSearchSpec(vs, 'java', { ratio: 8 }, vcpus)).toEqual(fidelitySearchSpec('java', 'A', 32, vcpus));
    const b = lab();
    b.wl = 'B';
    expect(sweepPointSearchSpec(sweepSpec(b, 1), 'go', { ratio: 1.25 }, 8)).toEqual(fidelitySearchSpec('go', 'B', 5, 8));
  });
  it('sweeps the paper’s memory ratios, or vCPUs, for every chosen engine', () => {
    const s = lab();
    expect(sweepSpec(s, 1)).toMatchObject({ slo_p99_ms: 20, engines: ['cpp', 'java', 'go', 'rust'], memory_to_data_ratio: [8, 2, 1.5, 1.25] });
    expect(memoryAxisGib(s)).toEqual([32, 8, 6, 5]);
    s.sweep = 'vcpus';
    s.memunit = 'gib';
    s.lat = 120;
    const v = sweepSpec(s, 1);
    expect(v.vcpus).toEqual([8, 4, 2]);
    expect(v.memory_gib).toBeUndefined();
    expect(v.base.resources).toEqual({ vcpus: 8, memory_gib: 32 });
    expect(v.base.network).toEqual({ one_way_latency_us: 120 });
  });
  it('uses the custom read share only for the custom workload', () => {
    const s = lab();
    s.read = 0.8;
    expect(runSpec(s, 1, 'go').workload.read_proportion).toBe(0.5);
    s.wl = 'custom';
    expect(runSpec(s, 1, 'go').workload.read_proportion).toBe(0.8);
  });
});

// `stopped_early` is in the simulator's newer contract; the assertion keeps this file valid for both.
const SWEEP = {
  simulated: true,
  model_card_version: '1.1.0',
  points: [
    { engine: 'java', memory_gib: 32, vcpus: 8, result: { simulated: true, model_card_version: '1.1.0', max_ops_per_s_at_slo: 17_500, p99_ms_at_max: 18.2, leader_cpu_utilization_at_max: 0.5, probes: [{ target_ops_per_s: 100, p99_ms: 2, achieved_ops_per_s: 100, met: true, stopped_early: false }, { target_ops_per_s: 17_500, p99_ms: 18.2, achieved_ops_per_s: 17_400, met: true, stopped_early: false }] } },
    { engine: 'java', memory_gib: 5.1, vcpus: 8, result: { simulated: true, model_card_version: '1.1.0', max_ops_per_s_at_slo: null, p99_ms_at_max: null, leader_cpu_utilization_at_max: null, probes: [{ target_ops_per_s: 100, p99_ms: 40, achieved_ops_per_s: 99, met: false, stopped_early: false }] } },
  ],
} as unknown as SweepResult;

describe('lab-results', () => {
  it('places sweep points on the axis by position and marks an SLO that cannot be met', () => {
    const s = lab();
    s.engines = ['java'];
    s.ratios = [8, 1.25];
    const [series] = sweepSeries(SWEEP, s, 3);
    expect(series!.name).toBe('Java · simulated, model card 1.1.0');
    expect(series!.points.map((p) => [p.x, p.y, p.label])).toEqual([
      [32, 17.5, '17.5'],
      [5, 0.1, '<0.1'],
    ]);
    expect(series!.points[0]!.detail.lines[0]).toBe('Simulated by model card 1.1.0, seed 3: not a measurement.');
  });
  it('finds the paper’s published points for the same configurations, with provenance', () => {
    const s = lab();
    s.engines = ['java', 'go'];
    const series = publishedSeries(PAPER.rows, s);
    expect(series.map((x) => [x.name, x.points.map((p) => [p.x, p.y])])).toEqual([
      ['Java · the paper (AWS)', [[32, 18], [8, null], [6, null], [5, 3]]],
      ['Go · the paper (AWS)', [[32, 49.8], [8, null], [6, null], [5, 0.1]]],
    ]);
    expect(series[1]!.points[3]!.status).toBe('upper_bound');
    expect(series[1]!.points[1]!.status).toBe('missing');
    expect(series[0]!.points[0]!.detail.quote).toBeTruthy();
  });
  it('orders probe runs by offered rate and leaves out those stopped early', () => {
    const s = lab();
    s.engines = ['java'];
    const early = structuredClone(SWEEP);
    early.points[0]!.result.probes.push({ target_ops_per_s: 30_000, p99_ms: 20, achieved_ops_per_s: 900, met: false, stopped_early: true } as never);
    const [series] = probeSeries(early, s, 0);
    expect(series!.points.map((p) => [p.x, p.y])).toEqual([
      [0.1, 2],
      [17.4, 18.2],
    ]);
  });
  it('puts percentiles on the 1/(1−p) axis', () => {
    expect(nines(90)).toBeCloseTo(1);
    expect(nines(0.999)).toBeCloseTo(3);
    expect([0, 1, 2, 3, 4].map(ninesLabel)).toEqual(['0%', '90%', '99%', '99.9%', '99.99%']);
  });
});
