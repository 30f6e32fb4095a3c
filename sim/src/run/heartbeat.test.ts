// The paper's heartbeat in the fast mode (card 1.8.2, models/heartbeat.ts): the leader's commit
// round waits for every peer, so a follower stopped longer than the other follower's election
// wait (1.5-2 commit intervals, 225-300 ms) costs an election, and the new leader replays the
// log above the stalled global last executed before it serves again; a shorter stop costs none.
// The stop is a full collection on follower 1 about 1 s into the run, after the clients have
// found the leader (its G1 state has no room left for an eden, and the least eden, 5 % of the
// heap, is 25 MB short of full: about 1.1 s of its ~22 MB/s at 2000 ops/s); its length follows the live map (records × 649 B at 3 ns/B on 8
// GC threads: 3.7 M records ≈ 900 ms, 0.4 M ≈ 100 ms).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ModelCard, RunResult } from '../api.ts';
import type { G1State } from '../models/g1.ts';
import { validateCard } from '../models/card.ts';
import { simulate } from './simulate.ts';

const cardFile = (v: string): ModelCard => validateCard(JSON.parse(readFileSync(new URL(`../../../data/models/${v}.json`, import.meta.url), 'utf8')));
const card182 = cardFile('1.8.2');
const card181 = cardFile('1.8.1');

const FRESH: G1State = { edenUsed: 0, oldGarbage: 0, updatesSinceYoung: 0, marking: false, markEnd_us: 0, mixedLeft: 0, reclaimablePerMixed: 0 };
const GIB = 2 ** 30;
/** No room for even the least eden, which is 25 MB short of full: a full collection soon. */
const NEAR_FULL: G1State = { ...FRESH, edenUsed: 0.05 * 8 * GIB - 25e6, oldGarbage: 8 * GIB };

function followerStopped(card: ModelCard, records: number): { r: RunResult; pause_ms: number } {
  const r = simulate(
    {
      cluster: { engines: ['java', 'java', 'java'], seed: 1 },
      resources: { vcpus: 8, memory_gib: 8 },
      workload: { name: 'A', read_proportion: 0.5, record_count: records },
      load: { mode: 'open', target_ops_per_s: 2000, duration_s: 3, warmup_s: 0.5 },
      fidelity: 'fast',
      model_card: card,
    },
    null,
    { g1_states: [FRESH, NEAR_FULL, FRESH] },
  );
  const full = r.nodes[1]!.gc_events.filter((e) => e.kind === 'g1_full');
  expect(full.length).toBe(1);
  expect(full[0]!.t_s).toBeGreaterThan(0.8);
  expect(full[0]!.t_s).toBeLessThan(1.5);
  // the leader and follower 2 do not collect in these 3 s
  expect(r.nodes[0]!.gc_events.length + r.nodes[2]!.gc_events.length).toBe(0);
  return { r, pause_ms: full[0]!.pause_ms };
}

describe("the paper's heartbeat waits for every peer (card 1.8.2)", () => {
  it('a follower stopped longer than the election wait: heartbeats withheld, an election, a stall while the new leader replays', () => {
    const { r, pause_ms } = followerStopped(card182, 3_700_000);
    expect(pause_ms).toBeGreaterThan(800);
    // the cluster served nothing for a while: the slowest operations waited hundreds of ms
    expect(r.latency.all.max_us).toBeGreaterThan(200_000);
    expect(r.latency.all.p99_us).toBeGreaterThan(20_000);
    expect(r.leader_changes.length).toBeGreaterThan(1);
    expect(r.leader_changes[1]!.t_s).toBeGreaterThan(r.nodes[1]!.gc_events[0]!.t_s + 0.225); // not before a whole election wait
    expect(r.elections).toMatchObject({ heartbeats_withheld: expect.any(Number), elections_started: expect.any(Number), elections_won: expect.any(Number) });
    expect(r.elections!.heartbeats_withheld).toBeGreaterThan(0);
    expect(r.elections!.elections_started).toBeGreaterThan(0);
    expect(r.elections!.elections_won).toBeGreaterThan(0);
  });

  it('the same stop with card 1.8.1: the other follower covers it, no election, no stall', () => {
    const { r } = followerStopped(card181, 3_700_000);
    expect(r.elections).toBeUndefined();
    expect(r.leader_changes.length).toBe(1);
    expect(r.latency.all.p99_us).toBeLessThan(20_000);
    expect(r.latency.all.max_us).toBeLessThan(100_000);
  });

  it('a follower stopped for less than the election wait: no election, no stall', () => {
    const { r, pause_ms } = followerStopped(card182, 400_000);
    expect(pause_ms).toBeLessThan(150);
    expect(r.elections!.elections_started).toBe(0);
    expect(r.leader_changes.length).toBe(1);
    expect(r.latency.all.p99_us).toBeLessThan(20_000);
  });

  it('the same seed gives the same bytes with elections', () => {
    const a = JSON.stringify(followerStopped(card182, 3_700_000).r);
    expect(JSON.stringify(followerStopped(card182, 3_700_000).r)).toBe(a);
  });
});
