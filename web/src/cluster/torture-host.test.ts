// The Cluster view's torture replays in the engine worker, on the real engines (Node wasm
// builds) and Porcupine's wasm build: a printed failing run is rebuilt from its lab address
// exactly as the CLI runs it (same digest), Porcupine rejects it and names the operations, and
// any step of it can be shown.
import { describe, expect, it } from 'vitest';
import { loadEngine, provider } from '@replicant/sim/cli/engines';
import { loadChecker } from '@replicant/checker/node';
import { tortureScenario } from '@replicant/sim/torture/torture';
import { parseReplaySpec, replayScenario } from '@replicant/sim/torture/replay-spec';
import { TortureHost } from './torture-host.ts';
import type { TortureLive, TortureRequest } from './cluster-protocol.ts';
import { oneAnswerAsker } from './one-answer.ts';

function host() {
  const h = new TortureHost(loadEngine, loadChecker);
  const ask = oneAnswerAsker<TortureRequest>((m, reply) => h.handle(m, reply));
  const torture = async (body: Record<string, unknown>): Promise<TortureLive> => {
    const r = await ask(body);
    if (r.type !== 'torture-state') throw new Error(JSON.stringify(r).slice(0, 400));
    return r.torture;
  };
  return { ask, torture };
}

// A seed `npm run torture -- --engine rust --seeds 300 --from 31 --amnesia` reports as not
// linearizable (crashed nodes come back empty: durability none).
const FAILING = 'rust:275;amnesia';

describe('TortureHost', () => {
  it('replays a printed failing run as the CLI does; Porcupine names the operations; every step can be shown', async () => {
    const { torture } = host();
    const t = await torture({ type: 'cluster-torture', spec: FAILING });
    const checker = await loadChecker();
    const cli = tortureScenario(replayScenario(parseReplaySpec(FAILING)), await provider(['rust']), (h) => checker.check(h).verdict);
    expect(t.digest).toBe(cli.run.digest);
    expect(t.total_steps).toBe(cli.run.steps);
    expect(t.ok).toBe(false);
    expect(t.verdict.verdict).toBe('violation');
    expect(t.verdict.suspect_operations.length).toBeGreaterThan(0);
    expect(t.problems[0]).toMatch(/not linearizable/);
    expect(t.faults.some((f) => f.kind === 'crash' && f.text.includes('restart as a fresh process'))).toBe(true); // the crash with amnesia
    // in the order they start, each with its place in the seed's list (the draw puts resets last)
    const drawn = replayScenario(parseReplaySpec(FAILING)).faults;
    expect(t.faults.map((f) => f.at_us)).toEqual(drawn.map((f) => f.at_us).sort((a, b) => a - b));
    expect(t.faults.map((f) => f.index).sort((a, b) => a - b)).toEqual(drawn.map((_, i) => i));
    for (const f of t.faults) expect(drawn[f.index]!.at_us).toBe(f.at_us);
    expect(t.draw).toEqual({ clients: cli.scenario.clients, keys: cli.scenario.keys, ops_per_client: cli.scenario.ops_per_client, fault_window_us: cli.scenario.fault_window_us, tail_us: cli.scenario.tail_us });
    expect(t.frame.step).toBe(t.total_steps);

    const mid = Math.floor(t.total_steps / 2);
    const a = await torture({ type: 'cluster-torture-goto', step: mid });
    expect(a.frame.step).toBe(mid);
    expect(a.frame.views).toHaveLength(3);
    expect(a.frame.explained.length).toBeGreaterThan(0);
    const b = await torture({ type: 'cluster-torture-goto', step: mid });
    expect(b.frame.inspect).toEqual(a.frame.inspect); // deterministic
    const first = await torture({ type: 'cluster-torture-goto', step: 1 });
    expect(first.frame.views.filter((v) => v !== null)).toHaveLength(1); // one node booted
  });

  it('a bad address is a clear error', async () => {
    const { ask } = host();
    expect(await ask({ type: 'cluster-torture', spec: 'rust:1;keep=99' })).toMatchObject({ type: 'error', message: expect.stringMatching(/no fault #99/) });
    expect(await ask({ type: 'cluster-torture-goto', step: 3 })).toMatchObject({ type: 'error', message: 'no torture run is open' });
  });
});
