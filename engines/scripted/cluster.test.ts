import { describe, expect, it, beforeAll } from 'vitest';
import { asAsync, type SyncEngine } from '../loader/engine.ts';
import { wasmNodeEngine } from '../loader/node-loaders.ts';
import { AsyncScriptedCluster, ScriptedCluster, HarnessError, MAX_CLUSTER_SEED, nodeConfig, SEED_STRIDE_PER_INCARNATION, type TimerName } from './index.ts';

let rust: SyncEngine;
beforeAll(async () => {
  rust = await wasmNodeEngine('rust');
});

/** One script, written against the commands both drivers share. */
interface Commands {
  fire(id: number, t: TimerName): unknown;
  deliverAll(): unknown;
  client(id: number, c: number, r: number, line: string): unknown;
  drop(): unknown;
  duplicate(): unknown;
  cut(a: number, b: number): void;
  heal(): void;
  crash(id: number): unknown;
  restart(id: number, wiped?: boolean): unknown;
  take(): string[];
}

async function script(c: Commands): Promise<string[]> {
  await c.fire(0, 'election');
  await c.deliverAll();
  await c.client(0, 1, 1, 'put x 1');
  c.duplicate();
  c.cut(0, 2);
  await c.deliverAll();
  c.heal();
  await c.crash(1);
  await c.client(0, 1, 2, 'put y 2');
  c.drop();
  await c.restart(1);
  await c.fire(0, 'commit');
  await c.deliverAll();
  return c.take();
}

describe('scripted cluster', () => {
  it('gives the same log through the synchronous and the asynchronous driver', async () => {
    const sync = ScriptedCluster.start(rust, { num_nodes: 3, seed: 5, durability: 'log' });
    const a = await script(sync);
    const async = await AsyncScriptedCluster.start(asAsync(rust), { num_nodes: 3, seed: 5, durability: 'log' });
    const b = await script(async);
    expect(a.length).toBeGreaterThan(20);
    expect(b).toEqual(a);
    expect(a).toContain('n0: fire election');
    expect(a.some((l) => l.includes('lost (link 0->2 is cut)'))).toBe(true);
    expect(sync.inspect(2)).toBe(await async.inspect(2));
    expect(sync.core.incarnations).toEqual([0, 1, 0]);
    sync.close();
    await async.close();
  });

  it('tells the observer about every step, send and timer in order', () => {
    const seen: string[] = [];
    let next = 100;
    const c = ScriptedCluster.start(
      rust,
      { num_nodes: 3, seed: 1, log: false, next_id: () => next++ },
      {
        stepped: (n) => seen.push(`step n${n}`),
        sent: (m) => seen.push(`sent m${m.id} ${m.from}->${m.to}`),
        timerSet: (n, t) => seen.push(`timer n${n} ${t}`),
      },
    );
    c.fire(0, 'election');
    expect(c.take()).toEqual([]); // log off
    expect(seen.slice(0, 3)).toEqual(['timer n0 election', 'step n0', 'timer n1 election']);
    expect(seen).toContain('sent m100 0->1');
    expect(c.core.pending.map((m) => m.id)).toEqual([100, 101]);
    c.close();
  });

  it('gives node i seed S + i + 16 per restart, and leaves knobs at their default out', () => {
    expect(nodeConfig(2, 3, 10, 0, { check_quorum: false, repair_batch: 0, mitigation: 'none' })).toEqual({ id: 2, num_peers: 3, seed: 12 });
    expect(nodeConfig(2, 3, 10, 3, { durability: 'log', trace: false }).seed).toBe(12 + 3 * SEED_STRIDE_PER_INCARNATION);
    expect(nodeConfig(0, 3, 10, 0, { durability: 'log', trace: false, check_quorum: true })).toMatchObject({ durability: 'log', trace: false, check_quorum: true });
  });

  it('refuses bad sizes, seeds, nodes and commands with a HarnessError', () => {
    expect(() => ScriptedCluster.start(rust, { num_nodes: 0, seed: 1 })).toThrow(HarnessError);
    expect(() => ScriptedCluster.start(rust, { num_nodes: 16, seed: 1 })).toThrow(HarnessError);
    expect(() => ScriptedCluster.start(rust, { num_nodes: 3, seed: MAX_CLUSTER_SEED + 1 })).toThrow(HarnessError);
    const c = ScriptedCluster.start(rust, { num_nodes: 3, seed: 1 });
    expect(() => c.fire(3, 'election')).toThrow('no node n3');
    expect(() => c.fire(0, 'commit')).toThrow('not armed');
    expect(() => c.deliver()).toThrow('no pending message matches');
    c.crash(1);
    expect(() => c.crash(1)).toThrow('n1 is down');
    expect(() => c.restart(0)).toThrow('n0 is up');
    c.close();
  });
});
