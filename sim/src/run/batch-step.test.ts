// The exact host through the engines' batch step (docs/protocol.md, "Batch step";
// run/node-queue.ts) against the same host stepping one event a call: the same spec and seed
// must give the same run, byte for byte. And the window's guards: a node event queued inside
// a window already stepped ahead, or a step that is not the one stepped ahead, throws.
import { describe, expect, it } from 'vitest';
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { RunSpec } from '../api.ts';
import { provider } from '../cli/engines.ts';
import { simulate } from './simulate.ts';
import { countingBatches } from './batch-count.ts';
import { NodeQueues } from './node-queue.ts';
import { EV, type Ev } from './events.ts';
import { EngineHost, type NodeEvent } from './hosts.ts';

const spec = (engines: EngineName[], target_ops_per_s: number, extra: Partial<RunSpec> = {}): RunSpec => ({
  cluster: { engines, seed: 7 },
  resources: { vcpus: 4, memory_gib: 32 },
  workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000, engine_record_count: 100 },
  load: { mode: 'open', target_ops_per_s, duration_s: 0.4, warmup_s: 0.1 },
  fidelity: 'exact',
  ...extra,
});

describe('the exact host on the batch step', () => {
  const cases: [EngineName[], number][] = [
    [['cpp', 'cpp', 'cpp'], 20_000],
    [['rust', 'rust', 'rust'], 20_000],
    [['go', 'go', 'go'], 8_000],
    [['java', 'java', 'java'], 5_000],
    [['rust', 'go', 'cpp'], 8_000],
    // past what the cluster serves: queues build up, batches are long
    [['cpp', 'cpp', 'cpp'], 120_000],
  ];
  for (const [cluster, rate] of cases) {
    it(`gives the run one event a call gives (${cluster.join(', ')} at ${rate} ops/s)`, async () => {
      const base = await provider(cluster);
      const counted = { calls: 0, events: 0 };
      const batched = JSON.stringify(simulate(spec(cluster, rate), countingBatches(base, counted), { batch_steps: true }));
      // the batch path really ran, with more than one event a call
      expect(counted.calls).toBeGreaterThan(100);
      expect(counted.events).toBeGreaterThan(counted.calls * 1.2);
      const single = JSON.stringify(simulate(spec(cluster, rate), base));
      expect(batched).toBe(single);
    });
  }

});

describe('the batch window', () => {
  const arrival = (node: number, from: number): Ev => ({ k: EV.arrival, node, inc: 1, kind: 'message', from, type: 'accept_response', payload: '', bytes: 10, update: false });

  it('names the queued events up to the window, in queue order, and stops at a timer', () => {
    const q = new NodeQueues(2, 100);
    const first = arrival(0, 1);
    const late = arrival(0, 1);
    const early = arrival(0, 2);
    const other = arrival(1, 0);
    const timer: Ev = { k: EV.timer, node: 0, gen: 1, timer: 'commit' };
    const beyond = arrival(0, 2);
    q.add(10, first);
    q.add(60, late);
    q.add(40, early); // queued after `late` but arrives before it
    q.add(50, other);
    q.add(70, timer);
    q.add(80, beyond);
    q.take(first);
    expect(q.followers(0, 1, 10)).toEqual([early, late]);
  });

  it('throws when an event is queued for a node inside the window it stepped ahead', () => {
    const q = new NodeQueues(1, 100);
    const a = arrival(0, 1);
    const b = arrival(0, 1);
    q.add(10, a);
    q.add(90, b);
    q.take(a);
    expect(q.followers(0, 1, 10)).toHaveLength(1);
    expect(() => q.add(50, arrival(0, 1))).toThrow(/batch window/);
    expect(() => q.add(90, arrival(0, 1))).not.toThrow(); // queued after b at the same time
    q.forget(0); // the node crashed: nothing it stepped ahead is kept
    expect(() => q.add(50, arrival(0, 1))).not.toThrow();
  });

  it('throws when the node is given another event than the one it stepped ahead', async () => {
    const engine = (await provider(['cpp']))('cpp');
    const host = new EngineHost(engine.createNode({ id: 0, num_peers: 3, seed: 1 }));
    const start: NodeEvent = { kind: 'start' };
    const planned: NodeEvent = { kind: 'client', client_id: 1, request_id: 1, op: 'read', line: 'get k', bytes: 6 };
    const other: NodeEvent = { kind: 'client', client_id: 1, request_id: 1, op: 'read', line: 'get k', bytes: 6 };
    host.stepNextTogether([planned]);
    host.step(start);
    expect(() => host.step(other)).toThrow(/batch window did not hold/);
    host.destroy();
  });
});
