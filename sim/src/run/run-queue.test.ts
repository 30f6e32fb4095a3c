// The run queue's FIFO lanes must give exactly the order one heap gives, and a fast run with
// them the same bytes as without them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineName, RunSpec } from '../api.ts';
import { EventQueue } from '../core/heap.ts';
import { Prng } from '../core/prng.ts';
import { EV, type Ev } from './events.ts';
import { RunQueue } from './run-queue.ts';
import { simulate } from './simulate.ts';

describe('RunQueue', () => {
  it('pops heap events and lane messages in the (time, sequence) order of one heap, ties included', () => {
    const rng = new Prng(11, 0);
    const merged = new RunQueue(3);
    const plain = new EventQueue<string>();
    const laneLast = new Map<string, number>();
    let now = 0;
    let label = 0;
    const popBoth = () => {
      const t = merged.peekTime();
      expect(t).toBe(plain.peekTime());
      const a = merged.pop()!;
      const b = plain.pop()!;
      const got = a.k === EV.arrival && a.kind === 'message' ? (a.payload as string) : (a as Ev & { k: typeof EV.timeout_sweep } & { tag: string }).tag;
      expect(got).toBe(b);
      now = t;
    };
    for (let step = 0; step < 20_000; step++) {
      if (merged.size > 0 && rng.nextDouble() < 0.45) {
        popBoth();
        continue;
      }
      const tag = `e${label++}`;
      // times on a coarse grid, so equal times (ties broken by sequence) are common
      const t = now + rng.nextInt(6) * 5;
      if (rng.nextDouble() < 0.6) {
        const from = 1 + rng.nextInt(2);
        const key = `${from}`;
        // a link's messages arrive in the order they are sent (net/network.ts keeps it FIFO)
        const at = Math.max(t, laneLast.get(key) ?? 0);
        laneLast.set(key, at);
        expect(merged.pushMessage(at, from, 0, 1, 'accept_response', tag, 10, false)).toBe(true);
        plain.push(at, tag);
      } else {
        merged.push(t, { k: EV.timeout_sweep, tag } as unknown as Ev);
        plain.push(t, tag);
      }
    }
    while (merged.size > 0) popBoth();
    expect(plain.size).toBe(0);
  });

  it('refuses a message that would arrive before its lane’s last one', () => {
    const q = new RunQueue(2);
    expect(q.pushMessage(10, 1, 0, 1, 'accept_response', '', 10, false)).toBe(true);
    expect(q.pushMessage(9, 1, 0, 1, 'accept_response', '', 10, false)).toBe(false);
    expect(q.size).toBe(1);
    expect(() => q.pushMessage(Number.NaN, 1, 0, 1, 'accept_response', '', 10, false)).toThrow(RangeError);
  });
});

const spec = (engine: EngineName, memory_gib: number, target_ops_per_s: number, over: Partial<RunSpec> = {}): RunSpec => ({
  cluster: { engines: [engine, engine, engine], seed: 5 },
  resources: { vcpus: 8, memory_gib },
  workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000 },
  load: { mode: 'open', target_ops_per_s, duration_s: 0.6, warmup_s: 0.2 },
  fidelity: 'fast',
  ...over,
});

describe('fast mode: the leader’s messages in link lanes', () => {
  const cases: [string, RunSpec][] = [
    ['C++ at 32 GiB', spec('cpp', 32, 20_000)],
    ['Go at 6 GiB (its collector on every node)', spec('go', 6, 20_000)],
    ['Java at 8 GiB (G1)', spec('java', 8, 8_000)],
    ['Java in a tight heap on 2 vCPUs', { ...spec('java', 0.12, 1_500), resources: { vcpus: 2, memory_gib: 0.12 }, workload: { name: 'A', read_proportion: 0.5, record_count: 100_000 }, load: { mode: 'open', target_ops_per_s: 1_500, client_threads: 4, duration_s: 2, warmup_s: 0.5 } }],
    ['five Rust nodes', { ...spec('rust', 32, 20_000), cluster: { engines: ['rust', 'rust', 'rust', 'rust', 'rust'], seed: 5 } }],
  ];
  afterEach(() => {
    vi.restoreAllMocks();
  });
  /** How many messages a run put in lanes (the real pushMessage runs; the spy only counts). */
  const lanedIn = (run: () => void): number => {
    const spy = vi.spyOn(RunQueue.prototype, 'pushMessage');
    run();
    const laned = spy.mock.results.filter((r) => r.value === true).length;
    spy.mockRestore();
    return laned;
  };
  for (const [name, s] of cases) {
    it(`${name}: the same bytes as with every message a heap event`, () => {
      let withLanes = '';
      expect(lanedIn(() => (withLanes = JSON.stringify(simulate(s, null))))).toBeGreaterThan(500);
      expect(lanedIn(() => expect(JSON.stringify(simulate(s, null, { link_lanes: false }))).toBe(withLanes))).toBe(0);
    }, 120_000);
  }
  it('runs with faults or side paths take the plain queue: durability, the mitigation sandbox', () => {
    expect(lanedIn(() => simulate(spec('cpp', 32, 5_000, { storage: { durability: 'ordered' } }), null))).toBe(0);
    expect(lanedIn(() => simulate(spec('java', 8, 5_000, { mitigation: { mode: 'blade' } }), null))).toBe(0);
  }, 120_000);
  it('an early-stopped probe stops at the same event', () => {
    const hooks = { stop_when_p99_exceeds_us: 20_000 };
    const s = spec('cpp', 32, 200_000);
    const lanes = simulate(s, null, hooks);
    expect(lanes.stopped_early).toBe(true);
    expect(JSON.stringify(lanes)).toBe(JSON.stringify(simulate(s, null, { ...hooks, link_lanes: false })));
  }, 120_000);
});
