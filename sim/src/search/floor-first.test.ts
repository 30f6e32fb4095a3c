import { describe, expect, it } from 'vitest';
import { measurementSearchSpec } from '../run/measurement.ts';
import { searchSlo } from './slo.ts';

// A warm start whose guess misses probes the floor before walking down (slo.ts, startFrom).
describe('a warm search whose guess misses', () => {
  it('Go A at 5 GiB, warm from the Race\'s 6 GiB answer: nothing meets, as cold, decided by the floor in two probes (the walk down took six)', () => {
    const spec = measurementSearchSpec({ workload: 'A', memory: { ratio: 1.25 }, vcpus: 8 }, 'go');
    const cold = searchSlo(spec, null);
    const warm = searchSlo({ ...spec, hint: { met_ops_per_s: 41_080 } }, null);
    expect(cold.max_ops_per_s_at_slo).toBeNull();
    expect(warm.max_ops_per_s_at_slo).toBeNull();
    expect(warm.probes.map((p) => [p.target_ops_per_s, p.met])).toEqual([
      [41_080, false],
      [100, false],
    ]);
  }, 60_000);
});
