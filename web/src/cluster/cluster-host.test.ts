// The Cluster view's side of the engine worker on the real engines (their Node wasm builds):
// every request gets one answer that survives postMessage (structured clone), engines stay
// byte-identical through it, the timeline rewinds and redoes, and durability log restarts a node
// from its disk or wiped.
import { describe, expect, it } from 'vitest';
import { loadEngine } from '@replicant/sim/cli/engines';
import { ClusterHost } from './cluster-host.ts';
import type { ClusterLive, ClusterRequest } from './cluster-protocol.ts';
import { oneAnswerAsker } from './one-answer.ts';

function host() {
  const h = new ClusterHost(loadEngine, () => import('@replicant/sim/step/session'));
  const ask = oneAnswerAsker<ClusterRequest>((m, reply) => h.handle(m, reply));
  const state = async (body: Record<string, unknown>): Promise<ClusterLive> => {
    const r = await ask(body);
    if (r.type !== 'cluster-state') throw new Error(JSON.stringify(r).slice(0, 400));
    return r.state;
  };
  return { ask, state };
}

const leaderOf = (s: ClusterLive) => s.snapshot.views.findIndex((v) => v?.role === 'leader');

async function elect(state: ReturnType<typeof host>['state'], first: ClusterLive): Promise<ClusterLive> {
  let s = first;
  for (let i = 0; i < 60 && (leaderOf(s) < 0 || s.snapshot.pending.some((p) => p.kind !== 'timer')); i++) s = await state({ type: 'cluster-act', action: { kind: 'next' } });
  expect(leaderOf(s)).toBeGreaterThanOrEqual(0);
  return s;
}

async function quiet(state: ReturnType<typeof host>['state'], first: ClusterLive): Promise<ClusterLive> {
  let s = first;
  for (let i = 0; i < 80 && s.snapshot.pending.some((p) => p.kind !== 'timer'); i++) s = await state({ type: 'cluster-act', action: { kind: 'next' } });
  return s;
}

describe('ClusterHost', () => {
  it('refuses to act before a cluster is open, with an error', async () => {
    const { ask } = host();
    expect(await ask({ type: 'cluster-act', action: { kind: 'next' } })).toEqual({ id: 1, type: 'error', message: 'no cluster is open', live: null, cluster: null });
  });

  it('runs C++ and Go side by side, identical; rewinds and redoes along the timeline; replays the choices it reports', async () => {
    const { state } = host();
    let s = await state({ type: 'cluster-open', engines: ['cpp', 'go'], nodes: 3, seed: 5, durability: 'none', choices: [], step: 0 });
    expect(s.snapshot.step).toBe(3); // one boot step per node
    s = await elect(state, s);
    const leader = leaderOf(s);
    s = await state({ type: 'cluster-act', action: { kind: 'client', node: leader, line: 'put k v' } });
    s = await quiet(state, s);
    expect(s.snapshot.comparison!.identical).toBe(true);
    expect(s.snapshot.explained.some((e) => e.details.some((d) => d.includes('answers the client: ok')))).toBe(true);
    const end = s.snapshot.step;
    expect(s.timeline.steps).toBe(end);
    s = await state({ type: 'cluster-goto-by', delta: -2 });
    expect(s.snapshot.step).toBe(end - 2);
    expect(s.timeline.steps).toBe(end);
    s = await state({ type: 'cluster-goto', step: end });
    expect(s.snapshot.step).toBe(end);
    const again = await host().state({ type: 'cluster-open', engines: ['go'], nodes: 3, seed: 5, durability: 'none', choices: s.timeline.choices, step: 0 });
    expect(again.snapshot.inspect).toEqual(s.snapshot.inspect);
  });

  it('durability log: restart from disk keeps the promise and the accepted entry; a wiped restart rejoins by state transfer', async () => {
    const { state, ask } = host();
    let s = await elect(state, await state({ type: 'cluster-open', engines: ['go'], nodes: 3, seed: 7, durability: 'log', choices: [], step: 0 }));
    const leader = leaderOf(s);
    const f = (leader + 1) % 3;
    s = await quiet(state, await state({ type: 'cluster-act', action: { kind: 'client', node: leader, line: 'put color blue' } }));
    expect(s.snapshot.disks[f]!.some((r) => r.includes('"value":"blue"'))).toBe(true);
    const ballot = s.snapshot.views[f]!.ballot;
    s = await state({ type: 'cluster-act', action: { kind: 'crash', node: f } });
    expect(s.snapshot.views[f]).toBeNull();
    s = await state({ type: 'cluster-act', action: { kind: 'restart', node: f } });
    expect(s.snapshot.views[f]!.ballot).toBe(ballot);
    expect(s.snapshot.views[f]!.log.map((i) => i.command.value)).toContain('blue');
    const h = await ask({ type: 'cluster-history' });
    if (h.type !== 'cluster-history') throw new Error(h.type);
    expect(h.history.ops.map((o) => `${o.op} ${o.key} ${o.result}`)).toEqual(['put color ok']);

    // heartbeats until every node executed index 1 and trimmed it, then a wiped restart
    for (let i = 0; i < 200 && s.snapshot.views[leader]!.global_last_executed < 1; i++) s = await state({ type: 'cluster-act', action: { kind: 'next' } });
    s = await state({ type: 'cluster-act', action: { kind: 'crash', node: f } });
    s = await state({ type: 'cluster-act', action: { kind: 'restart-wiped', node: f } });
    expect(s.snapshot.disks[f]).toEqual([]);
    expect(s.snapshot.views[f]!.log).toEqual([]);
    for (let i = 0; i < 200 && s.snapshot.views[f]!.kv.entries.length === 0; i++) s = await state({ type: 'cluster-act', action: { kind: 'next' } });
    expect(s.snapshot.views[f]!.kv.entries).toEqual([['color', 'blue']]);
    expect(s.snapshot.explained.some((e) => e.node === f && e.details.some((d) => /snapshot/i.test(d)))).toBe(true);
  });

  it('a bad setup or a bad recorded choice is a clear error, not a crash', async () => {
    const { ask, state } = host();
    const r = await ask({ type: 'cluster-open', engines: ['go'], nodes: 99, seed: 1, durability: 'none', choices: [], step: 0 });
    expect(r).toMatchObject({ type: 'error', message: 'a cluster has 1..7 nodes: 99' });
    const s = await state({ type: 'cluster-open', engines: ['go'], nodes: 3, seed: 1, durability: 'none', choices: ['deliver 9999'], step: 0 });
    expect(s.replay_error).toMatch(/no pending/);
    expect(s.snapshot.step).toBe(3);
  });
});
