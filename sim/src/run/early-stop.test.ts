import { describe, expect, it } from 'vitest';
import type { RunSpec } from '../api.ts';
import { simulate } from './simulate.ts';

const LIMIT_US = 20_000;

const spec = (target_ops_per_s: number): RunSpec => ({
  cluster: { engines: ['cpp', 'cpp', 'cpp'], seed: 5 },
  resources: { vcpus: 8, memory_gib: 32 },
  workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000 },
  load: { mode: 'open', target_ops_per_s, duration_s: 2, warmup_s: 0.5 },
  fidelity: 'fast',
});

describe("a probe's early stop (stop_when_p99_exceeds_us)", () => {
  it('far above capacity, the backlog decides it before any window operation is answered, and the full run agrees', () => {
    // 200,000 ops/s is several times what three C++ nodes on 8 vCPUs serve: the warm-up's own
    // operations queue up for longer than the window lasts, so no window operation is ever
    // answered and the old rule (count slow answers) never fired.
    const stopped = simulate(spec(200_000), null, { stop_when_p99_exceeds_us: LIMIT_US });
    expect(stopped.stopped_early).toBe(true);
    expect(stopped.achieved_ops_per_s).toBeLessThan(0.01 * 200_000);
    const full = simulate(spec(200_000), null);
    expect(full.stopped_early).toBe(false);
    expect(full.latency.all.p99_us).toBeGreaterThan(LIMIT_US);
  });

  it('below capacity, the hook changes nothing: the same bytes as a run without it', () => {
    const plain = simulate(spec(5_000), null);
    expect(plain.latency.all.p99_us).toBeLessThan(LIMIT_US);
    const hooked = simulate(spec(5_000), null, { stop_when_p99_exceeds_us: LIMIT_US });
    expect(JSON.stringify(hooked)).toBe(JSON.stringify(plain));
  });
});
