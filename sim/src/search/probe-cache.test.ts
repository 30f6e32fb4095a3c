import { describe, expect, it } from 'vitest';
import type { EngineName, RunSpec } from '../api.ts';
import { simulate } from '../run/simulate.ts';
import { memoryFreeKey, ProbeCache } from './probe-cache.ts';
import { forgetProbes, runProbe } from './slo.ts';
import { measurementSearchSpec } from '../run/measurement.ts';

const spec = (engine: EngineName, memory: { memory_gib: number } | { memory_to_data_ratio: number }, fidelity: 'fast' | 'exact' = 'fast'): RunSpec => ({
  cluster: { engines: [engine, engine, engine], seed: 5 },
  resources: { vcpus: 8, ...memory },
  workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000 },
  load: { mode: 'open', target_ops_per_s: 20_000, duration_s: 1, warmup_s: 0.2 },
  fidelity,
});

describe('the probe cache', () => {
  it('C++ and Rust at two memory sizes they fit in: the same run, byte for byte, but for the memory fields', () => {
    for (const engine of ['cpp', 'rust'] as const) {
      const big = spec(engine, { memory_gib: 32 });
      const small = spec(engine, { memory_to_data_ratio: 1.25 }); // 5 GiB
      const key = memoryFreeKey(big, 20_000, 20_000);
      expect(key).not.toBeNull();
      expect(memoryFreeKey(small, 20_000, 20_000)).toBe(key);
      const cache = new ProbeCache();
      cache.set(key!, simulate(big, null, { stop_when_p99_exceeds_us: 20_000, count_over_us: 20_000 }));
      const plain = simulate(small, null, { stop_when_p99_exceeds_us: 20_000, count_over_us: 20_000 });
      expect(JSON.stringify(cache.get(key!, small))).toBe(JSON.stringify(plain));
    }
  });

  it('nothing is shared where the memory may matter: a collector, an OOM kill, the real engines, another stop rule', () => {
    expect(memoryFreeKey(spec('go', { memory_gib: 32 }), 1, 1)).toBeNull();
    expect(memoryFreeKey(spec('java', { memory_gib: 32 }), 1, 1)).toBeNull();
    expect(memoryFreeKey(spec('cpp', { memory_gib: 4 }), 1, 1)).toBeNull(); // below its live set: OOM-killed
    expect(memoryFreeKey(spec('cpp', { memory_gib: 32 }, 'exact'), 1, 1)).toBeNull();
    expect(memoryFreeKey(spec('cpp', { memory_gib: 32 }), 1, 1)).not.toBe(memoryFreeKey(spec('cpp', { memory_gib: 32 }), 2, 1));
    const other = spec('cpp', { memory_gib: 32 });
    other.load.target_ops_per_s = 20_001;
    expect(memoryFreeKey(other, 1, 1)).not.toBe(memoryFreeKey(spec('cpp', { memory_gib: 8 }), 1, 1));
  });

  it('a probe made again is remembered (the same probe, or another memory size the run does not enter) until the probes are forgotten', () => {
    const at = (ratio: number) => ({ ...measurementSearchSpec({ workload: 'A', memory: { ratio }, vcpus: 8, min_window_s: 1 }, 'cpp'), max_duration_s: 1 });
    const stop = { stop_when_p99_exceeds_us: 20_000 };
    forgetProbes();
    const first = runProbe(at(8), 5_000, null, stop);
    expect(first.remembered).toBeUndefined();
    const again = runProbe(at(8), 5_000, null, stop);
    expect(again.remembered).toBe('probe');
    expect(JSON.stringify(again.run)).toBe(JSON.stringify(first.run));
    expect(runProbe(at(1.25), 5_000, null, stop).remembered).toBe('other memory');
    forgetProbes();
    expect(runProbe(at(8), 5_000, null, stop).remembered).toBeUndefined();
  });
});
