import { describe, expect, it } from 'vitest';
import { simulate } from '../run/simulate.ts';
import { baseRunSpec, measurementSearchSpec, type MeasurementKnobs } from '../run/measurement.ts';
import { searchSlo } from './slo.ts';

// C++ at 0.2 GiB: the model's nodes need more than that at start, so every node is OOM-killed at
// t = 0 and nothing is ever answered.
const dead: MeasurementKnobs = { workload: 'A', memory: { gib: 0.2 }, vcpus: 1, min_window_s: 1 };

describe('a cluster that serves nothing', () => {
  it('leaves its unanswered operations as slow as the run was long, not at zero latency', () => {
    const r = simulate(baseRunSpec(dead, 'cpp', 5000), null);
    expect(r.nodes.every((n) => n.crashed_at_s !== undefined)).toBe(true);
    expect(r.achieved_ops_per_s).toBe(0);
    expect(r.latency.all.p99_us).toBeGreaterThan(1_000_000);
  });
  it('meets no SLO at any rate (it once "met" 200,000 ops/s)', () => {
    const s = searchSlo({ ...measurementSearchSpec(dead, 'cpp'), tolerance: 0.2 }, null);
    expect(s.max_ops_per_s_at_slo).toBeNull();
    expect(s.probes.every((p) => !p.met)).toBe(true);
  });
  it('at the Lab\'s smallest memory (1 GiB, its defaults otherwise) C++ and Rust are OOM-killed and meet nothing', () => {
    for (const engine of ['cpp', 'rust'] as const) {
      const s = searchSlo(measurementSearchSpec({ workload: 'A', memory: { gib: 1 }, vcpus: 8 }, engine), null);
      expect(s.max_ops_per_s_at_slo, engine).toBeNull();
    }
  });
});
