import { describe, expect, it } from 'vitest';
import { DEFAULT_CARD } from '../models/card.ts';
import { storageCosts } from '../models/storage.ts';
import { recordBytes } from './run-result.ts';
import { simulate } from './simulate.ts';

describe('a run\'s result', () => {
  it('record sizes: the command\'s key, and the value of a put, on the record\'s overhead', () => {
    const c = storageCosts(DEFAULT_CARD);
    const r = recordBytes(c, 23, 500);
    expect(r.read).toBe(c.record_overhead_bytes + 23);
    expect(r.update - r.read).toBe(500);
    expect(r.commit_mark).toBe(c.small_record_bytes);
  });
  it('reports the window\'s throughput and latencies, the nodes, the count over a threshold, and no served rate unless stopped early', () => {
    const r = simulate(
      { cluster: { engines: ['cpp', 'cpp', 'cpp'], seed: 3 }, resources: { vcpus: 8, memory_gib: 32 }, workload: { name: 'A', read_proportion: 0.5, record_count: 1_000_000 }, load: { mode: 'open', target_ops_per_s: 2000, duration_s: 1, warmup_s: 0 }, fidelity: 'fast' },
      null,
      { count_over_us: 1 },
    );
    expect(r.simulated).toBe(true);
    expect(r.achieved_ops_per_s).toBeGreaterThan(1900);
    expect(r.latency.all.count).toBe(r.latency.read.count + r.latency.update.count);
    expect(r.nodes).toHaveLength(3);
    expect(r.ops_over).toEqual({ threshold_us: 1, count: r.latency.all.count });
    expect(r.served_ops_per_s).toBeUndefined();
    expect(r.mitigation).toBeUndefined();
    expect(r.storage).toBeUndefined();
    expect(r.leader_at_end).toBe(0);
  });
});
