import { describe, expect, it } from 'vitest';
import type { RunSpec } from '../api.ts';
import { provider } from '../cli/engines.ts';
import { DEFAULT_CARD, param } from '../models/card.ts';
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

/** The default spec's exact run on the real Go engine, simulated once for the tests that read it
 * (the determinism test still simulates it a second time to compare the bytes). */
let goRun: ReturnType<typeof simulate> | undefined;
const defaultGoRun = async () => (goRun ??= simulate(spec(), await provider(['go'])));

describe('load runs', () => {
  it('the same spec and seed give the same bytes; another seed does not', async () => {
    const p = await provider(['go']);
    const a = JSON.stringify(await defaultGoRun());
    expect(JSON.stringify(simulate(spec(), p))).toBe(a);
    expect(JSON.stringify(simulate(spec({ cluster: { engines: ['go', 'go', 'go'], seed: 4 } }), p))).not.toBe(a);
  });

  it('a real election happens before the load and the clients find the leader', async () => {
    const r = await defaultGoRun();
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

  it("the paper's memory:data ratios mean its GiB points, and C++ and Rust survive the tightest (1.25 = 5 GiB)", () => {
    for (const engine of ['cpp', 'rust'] as const) {
      const r = simulate(spec({ cluster: { engines: [engine, engine, engine], seed: 1 }, resources: { vcpus: 8, memory_to_data_ratio: 1.25 }, fidelity: 'fast' }), null);
      expect(r.dataset.memory_gib).toBeCloseTo(5, 2);
      expect(r.nodes.every((n) => n.crashed_at_s === undefined), `${engine} was OOM-killed at ratio 1.25`).toBe(true);
      expect(r.achieved_ops_per_s).toBeGreaterThan(950);
    }
    const r8 = simulate(spec({ cluster: { engines: ['cpp', 'cpp', 'cpp'], seed: 1 }, resources: { vcpus: 8, memory_to_data_ratio: 8 }, fidelity: 'fast' }), null);
    expect(r8.dataset.memory_gib).toBeCloseTo(32, 2);
  });

  it('intended latency shows the stalls that service time hides (coordinated omission)', () => {
    // Java with a heap close to its live set: young pauses stall the leader for longer than
    // a client thread's tick (4 threads at 3000 ops/s: 1.33 ms), so the operations queued behind
    // a pause start late — their service time looks fine, their intended latency does not.
    const r = simulate(spec({ cluster: { engines: ['java', 'java', 'java'], seed: 1 }, workload: { name: 'A', read_proportion: 0.5, record_count: 100_000 }, resources: { vcpus: 2, memory_gib: 0.12 }, load: { mode: 'open', target_ops_per_s: 3000, client_threads: 4, duration_s: 3, warmup_s: 0.5 }, fidelity: 'fast' }), null);
    expect(r.nodes[0]!.gc_events.length).toBeGreaterThan(0);
    expect(r.latency.all.p99_us).toBeGreaterThan(2 * r.latency_uncorrected!.all.p99_us);
  });

  it('a long GC pause on the leader costs it its leadership — emergent, from the real engines', async () => {
    // Java with -Xmx just above its live set: the first young collection finds no room and
    // becomes a full collection of 4.5 GiB (~1.8 s). The followers' election timers (225-300 ms)
    // run out while the leader is stopped; one of them takes over.
    const r = simulate(spec({ cluster: { engines: ['java', 'java', 'java'], seed: 1 }, resources: { vcpus: 8, memory_gib: 4.75 }, workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000, engine_record_count: 200 }, load: { mode: 'open', target_ops_per_s: 3000, duration_s: 4, warmup_s: 0.5 } }), await provider(['java']));
    const first = r.leader_changes[0]!;
    const full = r.nodes[first.leader]!.gc_events.find((g) => g.kind === 'g1_full');
    expect(full, 'the first leader had a full collection').toBeDefined();
    expect(full!.pause_ms).toBeGreaterThan(1000);
    const next = r.leader_changes[1];
    expect(next, 'a new leader was elected').toBeDefined();
    expect(next!.leader).not.toBe(first.leader);
    expect(next!.t_s).toBeGreaterThan(full!.t_s);
    expect(next!.t_s).toBeLessThan(full!.t_s + full!.pause_ms / 1000);
    // Every operation of the window is measured, including those the stalled client threads
    // could only start after the window (a bug once dropped them, hiding the stall).
    expect(r.latency.all.count).toBeGreaterThanOrEqual(0.99 * 3000 * 4);
    expect(r.latency.all.p99_us).toBeGreaterThan(1_000_000);
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

describe('allocation per operation (model card alloc.<engine>.<role>_bytes_per_<kind>_op)', () => {
  const fast = (engine: 'go' | 'java' | 'cpp', read_proportion: number, target = 2000): RunSpec => ({
    cluster: { engines: [engine, engine, engine], seed: 5 },
    resources: { vcpus: 8, memory_gib: 32 },
    workload: { name: read_proportion === 0.95 ? 'B' : read_proportion === 0.5 ? 'A' : 'custom', read_proportion, record_count: 7_500_000 },
    load: { mode: 'open', target_ops_per_s: target, duration_s: 2, warmup_s: 0.5 },
    fidelity: 'fast',
  });

  it("a read and an update allocate exactly the card's bytes on the leader and on each follower", () => {
    for (const engine of ['go', 'java', 'cpp'] as const) {
      for (const op of ['read', 'update'] as const) {
        const r = simulate(fast(engine, op === 'read' ? 1 : 0), null);
        const [leader, ...followers] = r.nodes;
        expect(leader!.ops_entered).toBeGreaterThan(4000);
        expect(leader!.allocated_bytes_per_op).toBe(param(DEFAULT_CARD, `alloc.${engine}.leader_bytes_per_${op}_op`));
        for (const f of followers) {
          expect(f.ops_entered).toBe(leader!.ops_entered);
          expect(f.allocated_bytes_per_op).toBe(param(DEFAULT_CARD, `alloc.${engine}.follower_bytes_per_${op}_op`));
        }
      }
    }
  });

  it('with the real engines too, every workload operation is charged once on each node, by its kind', async () => {
    const r = simulate(spec({ workload: { name: 'custom', read_proportion: 1, record_count: 7_500_000, engine_record_count: 10 } }), await provider(['go']));
    const leader = r.nodes[r.leader_at_end!]!;
    // the load phase's 10 inserts (the engines' scaled-down keys) allocate nothing in the model
    expect(leader.ops_entered).toBeGreaterThan(1000);
    expect(leader.allocated_bytes_per_op).toBe(param(DEFAULT_CARD, 'alloc.go.leader_bytes_per_read_op'));
    for (const f of r.nodes.filter((n) => n.node !== r.leader_at_end)) {
      expect(f.ops_entered).toBe(leader.ops_entered);
      expect(f.allocated_bytes_per_op).toBe(param(DEFAULT_CARD, 'alloc.go.follower_bytes_per_read_op'));
    }
  });

  it('Go: workload B allocates less per operation than A, so it collects less often for the same load', () => {
    // 5.5 GiB: little runway above the live heap, so cycles come every few hundred MB.
    const tight = (read_proportion: number): RunSpec => ({ ...fast('go', read_proportion), resources: { vcpus: 8, memory_gib: 5.5 }, load: { mode: 'open', target_ops_per_s: 20_000, duration_s: 10, warmup_s: 0.5 } });
    const a = simulate(tight(0.5), null);
    const b = simulate(tight(0.95), null);
    expect(b.nodes[0]!.allocated_bytes_per_op).toBeLessThan(a.nodes[0]!.allocated_bytes_per_op);
    expect(b.nodes[1]!.allocated_bytes_per_op).toBeLessThan(a.nodes[1]!.allocated_bytes_per_op);
    const cycles = (r: typeof a) => r.nodes[0]!.gc_events.filter((e) => e.kind === 'go_cycle').length;
    expect(cycles(b)).toBeLessThan(cycles(a));
    expect(b.nodes[0]!.mean_gc_cpu_share).toBeLessThan(a.nodes[0]!.mean_gc_cpu_share);
  });
});
