// The mitigation sandbox end to end in the fast model: a Java cluster whose heap is close to its
// live set (young pauses stall a node for longer than a client thread's tick), with each mode.
import { beforeAll, describe, expect, it } from 'vitest';
import type { MitigationMode, RunSpec } from '../api.ts';
import { simulate } from './simulate.ts';
import { provider } from '../cli/engines.ts';

const spec = (mode: MitigationMode, over: Partial<RunSpec> = {}): RunSpec => ({
  cluster: { engines: ['java', 'java', 'java'], seed: 1 },
  workload: { name: 'A', read_proportion: 0.5, record_count: 100_000 },
  resources: { vcpus: 2, memory_gib: 0.12 },
  load: { mode: 'open', target_ops_per_s: 1500, client_threads: 4, duration_s: 3, warmup_s: 0.5 },
  fidelity: 'fast',
  mitigation: { mode },
  ...over,
});

const none = simulate(spec('none'), null);
const blade = simulate(spec('blade'), null);
const mitmem = simulate(spec('mitmem', { mitigation: { mode: 'mitmem', deadline_ms: 1 } }), null);
const both = simulate(spec('both', { mitigation: { mode: 'both', deadline_ms: 1 } }), null);
const off = simulate(spec('none', { mitigation: { mode: 'none', collector: 'off' } }), null);

describe('BLADE in the simulator', () => {
  it('the leader hands off before it collects; with pauses this short the handoff costs more than it saves', () => {
    expect(none.mitigation).toBeUndefined();
    expect(none.leader_changes.length).toBe(1);
    expect(blade.mitigation!.handoffs).toBeGreaterThan(0);
    expect(blade.leader_changes.length).toBe(1 + blade.mitigation!.handoffs);
    expect(blade.achieved_ops_per_s).toBeGreaterThan(0.95 * none.achieved_ops_per_s);
    // Pauses of 4.5–15 ms here. The successor replays only the old leader's in-flight tail
    // (model 1.2.0: the handoff carries the commit point), but requests that reach the old
    // leader while it hands off are answered retry and wait out the client's 10 ms back-off:
    // the tail still rises above the unmitigated run's, and stays well under one heartbeat.
    const longestPause_ms = Math.max(...none.nodes.flatMap((n) => n.gc_events.map((g) => g.pause_ms)));
    expect(longestPause_ms).toBeLessThan(20);
    expect(blade.latency.all.p999_us).toBeGreaterThan(none.latency.all.p999_us);
    expect(blade.latency.all.p999_us).toBeLessThan(150_000 / 2);
  });

  it('at most f = 1 of 3 nodes collects at once, and every collection was announced (gc_pending) and permitted', () => {
    const m = blade.mitigation!;
    expect(m.max_collecting_at_once).toBe(1);
    expect(m.gc_pending).toBeGreaterThan(0);
    expect(m.forced_collections).toBe(0);
    expect(m.model_version).toBe('1.2.0');
  });

  it('GC off: the collector never runs', () => {
    expect(off.nodes.every((n) => n.gc_events.length === 0)).toBe(true);
    expect(none.nodes.some((n) => n.gc_events.length > 0)).toBe(true);
  });
});

describe('MITMEM in the simulator', () => {
  it('with one leader, busy replies only bounce back: the follower sends the client back to the paused leader', () => {
    const m = mitmem.mitigation!;
    expect(m.busy_replies).toBeGreaterThan(0);
    expect(m.busy_retries_served_elsewhere).toBe(0);
    expect(m.busy_retries_redirected_back).toBe(m.busy_replies);
  });

  it('with BLADE as well, a busy old leader’s clients are answered by the new one', () => {
    const m = both.mitigation!;
    expect(m.busy_retries_redirected_back).toBe(0);
    if (m.busy_replies > 0) expect(m.busy_retries_served_elsewhere).toBeGreaterThan(0);
  });
});

describe('determinism and bad input', () => {
  it('the same seed gives the same bytes with every mitigation', () => {
    expect(JSON.stringify(simulate(spec('both', { mitigation: { mode: 'both', deadline_ms: 1 } }), null))).toBe(JSON.stringify(both));
    expect(JSON.stringify(simulate(spec('none'), null))).toBe(JSON.stringify(none));
  });

  it('a bad mode names the field', () => {
    expect(() => simulate(spec('sometimes' as MitigationMode), null)).toThrow(/mitigation\.mode must be one of/);
  });
});

describe("BLADE in exact mode: the engines' own extension", () => {
  // The real Java core (wasm) gets gc_pending from the G1 model, asks / hands off over the
  // modelled network, and its collect effect lets the held collection run; gc_done follows.
  let exact: ReturnType<typeof simulate>;
  beforeAll(async () => {
    const engines = await provider(['java']);
    exact = simulate(spec('blade', { fidelity: 'exact' }), engines);
  }, 600_000);

  it('drives the cores: handoffs and grants happen, never more than f = 1 collecting, none forced', () => {
    const m = exact.mitigation!;
    expect(m.gc_pending).toBeGreaterThan(0);
    expect(m.handoffs).toBeGreaterThan(0);
    expect(exact.leader_changes.length).toBeGreaterThan(1);
    expect(m.max_collecting_at_once).toBe(1);
    expect(m.forced_collections).toBe(0);
    expect(exact.achieved_ops_per_s).toBeGreaterThan(0.95 * blade.achieved_ops_per_s);
  });

  it('a successor serves again well within a heartbeat of the handoff (bounded elections; the paper\'s replay kept it silent ~290 ms)', () => {
    // Before BLADE_ELECTION_BATCH the successor replayed every instance above the global last
    // executed one per round trip: p99.9 295 ms on this spec. Half a commit interval bounds it now.
    expect(exact.latency.all.p999_us).toBeLessThan(150_000 / 2);
  });

  it('the successor replays only the tail above the handoff\'s commit point (no replay of what the old leader executed)', () => {
    // Before the handoff carried last_executed (and without repair in the run) the successor
    // asked from its own last_executed, two heartbeats behind, and replayed everything above
    // the gle, 256 at a time: p99 27.7 ms, p99.9 35–38 ms on this spec. Now p99 2.25 ms and
    // p99.9 7.4 ms (the rest is the retry back-off of requests reaching the handing-off leader).
    expect(exact.latency.all.p99_us).toBeLessThan(10_000);
    expect(exact.latency.all.p999_us).toBeLessThan(20_000);
  });

  it('fast and exact mode agree: BLADE p99.9 within 35 %, p99 within 20 %', () => {
    // The fast model's successor replays the same range (the old leader's in-flight tail above
    // the handoff's commit point, B at a time), and the old leader answers retry until the
    // successor's prepare would reach it; what it leaves out is the CPU of the prepare and the
    // promises (model 1.2.0: exact p99 2.25 / p99.9 7.38 ms, fast 2.29 / 9.39 ms on this spec).
    const rel = (a: number, b: number) => Math.abs(a - b) / b;
    expect(rel(blade.latency.all.p999_us, exact.latency.all.p999_us)).toBeLessThan(0.35);
    expect(rel(blade.latency.all.p99_us, exact.latency.all.p99_us)).toBeLessThan(0.2);
  });
});
