import { describe, expect, it } from 'vitest';
import type { RunSpec } from '../api.ts';
import { simulate } from '../run/simulate.ts';
import { CpuPool, MIN_VCPUS } from './cpu.ts';

// A node of the native benchmark holds a share of one core shared with two other nodes; before
// this, the simulator took only whole vCPUs (RangeError / SpecError for 0.5).
describe('fractional vCPUs: a share of a core', () => {
  it('runs a job of w µs of CPU for w / share µs of wall time, whole vCPUs unchanged', () => {
    const half = new CpuPool(0.5, 1e6);
    expect(half.cores).toBe(1);
    expect(half.speed).toBe(0.5);
    expect(half.run(0, 100)).toEqual({ start_us: 0, end_us: 200 });
    expect(half.run(0, 100)).toEqual({ start_us: 200, end_us: 400 });
    expect(half.serial(0, 10)).toEqual({ start_us: 0, end_us: 20 });
    // busy all the time it was busy: utilisation of its share, not of a whole core
    expect(half.usage.utilization(0, 1e6).total).toBeCloseTo(400 / 1e6, 9);
    const two = new CpuPool(2, 1e6);
    expect(two.speed).toBe(1);
    expect(two.run(0, 100)).toEqual({ start_us: 0, end_us: 100 });
    const oneAndHalf = new CpuPool(1.5, 1e6);
    expect([oneAndHalf.cores, oneAndHalf.speed]).toEqual([2, 0.75]);
  });

  it('refuses a count that is not a positive number of at least a twentieth of a core', () => {
    expect(() => new CpuPool(0, 1e6)).toThrow(RangeError);
    expect(() => new CpuPool(MIN_VCPUS / 2, 1e6)).toThrow(/vCPUs must be a number in/);
    expect(() => new CpuPool(Number.NaN, 1e6)).toThrow(RangeError);
  });

  it('a closed-loop cluster on half a core per node serves about half of what one core serves', () => {
    const spec = (vcpus: number): RunSpec => ({
      cluster: { engines: ['rust', 'rust', 'rust'], seed: 1 },
      resources: { vcpus, memory_gib: 4 },
      workload: { name: 'A', read_proportion: 0.5, record_count: 5000 },
      load: { mode: 'closed', target_ops_per_s: 200_000, client_threads: 64, duration_s: 1, warmup_s: 0.2 },
      fidelity: 'fast',
    });
    const one = simulate(spec(1), null).achieved_ops_per_s;
    const half = simulate(spec(0.5), null).achieved_ops_per_s;
    expect(half / one).toBeGreaterThan(0.4);
    expect(half / one).toBeLessThan(0.6);
    expect(() => simulate(spec(0.01), null)).toThrow(/resources.vcpus/);
  });
});
