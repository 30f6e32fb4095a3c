import { describe, expect, it } from 'vitest';
import type { RunSpec } from '../api.ts';
import { provider } from '../node/engines.ts';
import { simulate } from './simulate.ts';
import { SpecError } from './spec.ts';

const spec = (over: Partial<RunSpec> = {}): RunSpec => ({
  cluster: { engines: ['go', 'go', 'go'], seed: 3 },
  resources: { vcpus: 4, memory_gib: 32 },
  workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000, engine_record_count: 100 },
  load: { mode: 'open', target_ops_per_s: 1000, duration_s: 1, warmup_s: 0.3 },
  fidelity: 'exact',
  ...over,
});

describe('load runs', () => {
  it('the same spec and seed give the same bytes; another seed does not', async () => {
    const p = await provider(['go']);
    const a = JSON.stringify(simulate(spec(), p));
    expect(JSON.stringify(simulate(spec(), p))).toBe(a);
    expect(JSON.stringify(simulate(spec({ cluster: { engines: ['go', 'go', 'go'], seed: 4 } }), p))).not.toBe(a);
  });

  it('a real election happens before the load and the clients find the leader', async () => {
    const r = simulate(spec(), await provider(['go']));
    expect(r.leader_changes.length).toBeGreaterThanOrEqual(1);
    expect(r.leader_changes[0]!.t_s).toBeGreaterThan(0.2); // the first election timeout is 225-300 ms
    expect(r.achieved_ops_per_s).toBeGreaterThan(950);
    expect(r.dataset).toMatchObject({ modelled_records: 7_500_000, engine_records: 100, memory_gib: 32 });
    expect(r.dataset.raw_data_gib).toBeCloseTo((7_500_000 * 523) / 2 ** 30, 3);
  });

  it('C++ below its live set is OOM-killed: every node crashes, nothing is served', () => {
    const r = simulate(spec({ cluster: { engines: ['cpp', 'cpp', 'cpp'], seed: 1 }, resources: { vcpus: 4, memory_gib: 4 }, fidelity: 'fast' }), null);
    expect(r.nodes.every((n) => n.crashed_at_s !== undefined)).toBe(true);
    expect(r.achieved_ops_per_s).toBe(0);
  });

  it('intended latency shows the stalls that service time hides (coordinated omission)', () => {
    // Java with a heap close to its live set: young pauses stall the leader for longer than
    // a client thread's tick (4 threads at 3000 ops/s: 1.33 ms), so the operations queued behind
    // a pause start late — their service time looks fine, their intended latency does not.
    const r = simulate(spec({ cluster: { engines: ['java', 'java', 'java'], seed: 1 }, workload: { name: 'A', read_proportion: 0.5, record_count: 100_000 }, resources: { vcpus: 2, memory_gib: 0.12 }, load: { mode: 'open', target_ops_per_s: 3000, client_threads: 4, duration_s: 3, warmup_s: 0.5 }, fidelity: 'fast' }), null);
    expect(r.nodes[0]!.gc_events.length).toBeGreaterThan(0);
    expect(r.latency.all.p99_us).toBeGreaterThan(2 * r.latency_uncorrected!.all.p99_us);
  });

  it('bad specs are refused with the field named', () => {
    expect(() => simulate(spec({ fidelity: 'quick' as never }), null)).toThrow(SpecError);
    expect(() => simulate(spec({ resources: { vcpus: 0 } }), null)).toThrow(/resources.vcpus/);
    expect(() => simulate(spec({ cluster: { engines: ['cobol' as never], seed: 1 } }), null)).toThrow(/unknown engine "cobol"/);
    expect(() => simulate(spec({ load: { mode: 'open', target_ops_per_s: -5, duration_s: 1 } }), null)).toThrow(/target_ops_per_s/);
    expect(() => simulate(spec({ resources: { vcpus: 2, memory_gib: 4, memory_to_data_ratio: 2 } }), null)).toThrow(/not both/);
    expect(() => simulate(spec(), null)).toThrow(/exact fidelity needs engines/);
  });
});
