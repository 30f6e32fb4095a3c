// Fast mode steps a follower when its leader sends (simulate.ts, stepAhead) instead of queueing
// the message, and issues a client thread's next operation when its last one is answered
// (load/clients.ts, issue_ahead) instead of through an op_start event: the same steps in the
// same order per node and per thread, so the run must agree with the plain one (hooks.step_ahead
// false: every event from the queue). The network's jitter and the operation mix are drawn in
// another order, so the figures move within noise, not beyond.
import { describe, expect, it } from 'vitest';
import type { EngineName, RunResult, RunSpec } from '../api.ts';
import { simulate } from './simulate.ts';

const spec = (engine: EngineName, memory_gib: number, target_ops_per_s: number): RunSpec => ({
  cluster: { engines: [engine, engine, engine], seed: 7 },
  resources: { vcpus: 8, memory_gib },
  workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000 },
  load: { mode: 'open', target_ops_per_s, duration_s: 2, warmup_s: 0.5 },
  fidelity: 'fast',
});

function close(a: RunResult, b: RunResult): void {
  expect(a.latency.all.count).toBe(b.latency.all.count);
  expect(Math.abs(a.achieved_ops_per_s / b.achieved_ops_per_s - 1)).toBeLessThanOrEqual(0.01);
  expect(Math.abs(a.latency.all.p99_us / b.latency.all.p99_us - 1)).toBeLessThanOrEqual(0.05);
  expect(Math.abs(a.latency.all.p50_us / b.latency.all.p50_us - 1)).toBeLessThanOrEqual(0.05);
  for (let i = 0; i < a.nodes.length; i++) {
    expect(Math.abs(a.nodes[i]!.mean_cpu_utilization - b.nodes[i]!.mean_cpu_utilization), `node ${i} CPU`).toBeLessThanOrEqual(0.01);
    expect(a.nodes[i]!.gc_events.length, `node ${i} GC events`).toBeGreaterThanOrEqual(b.nodes[i]!.gc_events.length - 2);
    expect(a.nodes[i]!.gc_events.length, `node ${i} GC events`).toBeLessThanOrEqual(b.nodes[i]!.gc_events.length + 2);
  }
}

describe('fast mode: followers stepped ahead of the queue', () => {
  const points: [EngineName, number, number][] = [
    ['cpp', 32, 20_000], // below the leader's limit
    ['rust', 32, 60_000], // near it
    ['go', 6, 30_000], // the collector running on every node
    ['java', 8, 10_000], // G1
  ];
  for (const [engine, gib, rate] of points) {
    it(`${engine} at ${gib} GiB, ${rate} ops/s: agrees with the plain run`, () => {
      close(simulate(spec(engine, gib, rate), null), simulate(spec(engine, gib, rate), null, { step_ahead: false }));
    }, 300_000);
  }
  it('an overloaded probe stops early at the same point and serves the same rate', () => {
    const hooks = { stop_when_p99_exceeds_us: 20_000 };
    const ahead = simulate(spec('cpp', 32, 40_000), null, hooks);
    const plain = simulate(spec('cpp', 32, 40_000), null, { ...hooks, step_ahead: false });
    expect(ahead.stopped_early && plain.stopped_early).toBe(true);
    expect(Math.abs(ahead.served_ops_per_s! / plain.served_ops_per_s! - 1)).toBeLessThanOrEqual(0.02);
    expect(Math.abs(ahead.latency.all.p99_us / plain.latency.all.p99_us - 1)).toBeLessThanOrEqual(0.2);
  }, 300_000);

  it('the same seed gives the same bytes', () => {
    expect(JSON.stringify(simulate(spec('java', 8, 10_000), null))).toBe(JSON.stringify(simulate(spec('java', 8, 10_000), null)));
  }, 300_000);
});
