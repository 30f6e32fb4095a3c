// The model against the paper, at the measurement `npm run fidelity` and the Lab make with their
// default knobs: for one point per engine (Java at 5 GiB among them) the paper's max throughput
// at the SLO must lie within ±15 % of the model's — the SLO holds at 0.85 × the paper's value and
// fails at 1.15 × — and Go must miss the SLO at 100 ops/s with 5 GiB (the paper's bound). A
// check of the model, not of speed.
import { describe, expect, it } from 'vitest';
import type { EngineName } from '../api.ts';
import { searchSlo } from '../search/slo.ts';
import { fidelitySearchSpec } from './specs.ts';
import { validateCard } from '../models/card.ts';
import candidateCardJson from '@replicant/data/models/1.4.0.json' with { type: 'json' };
import card150Json from '@replicant/data/models/1.5.0.json' with { type: 'json' };
import card160Json from '@replicant/data/models/1.6.0.json' with { type: 'json' };
import card170Json from '@replicant/data/models/1.7.0.json' with { type: 'json' };
import { modelWindow } from '../run/measurement.ts';
import { simulate } from '../run/simulate.ts';
import { fidelityRunSpec } from './specs.ts';

/** Card 1.4.0 (G1's pause-time goal, Java's young-pause cost calibrated at 32 GiB): a candidate,
 * not the default card (docs: sim/README.md), held here to the mechanism it adds. */
const CANDIDATE_CARD = validateCard(candidateCardJson);
/** Card 1.5.0: 1.3.0's costs with G1's pause-time goal, ageing survivors at a copy cost from a
 * public G1 log, and Go's assists parked past the heap goal. */
const CARD_150 = validateCard(card150Json);
/** Card 1.6.0: 1.5.0 with each node's Go collector at its own phase and back-to-back cycles
 * chained between events. */
const CARD_160 = validateCard(card160Json);
/** Card 1.7.0: old garbage reclaimable by mixed collections once, as it is made (g1.reclaim_once),
 * and Java's Log-mutex step taken from C++ (the same code, §3). */
const CARD_170 = validateCard(card170Json);

const TOL = 0.15;

function bracket(engine: EngineName, workload: 'A' | 'B', memory_gib: number, paper_ops_per_s: number) {
  const spec = fidelitySearchSpec(engine, workload, memory_gib, 8);
  // The search's own first two probes, at the ends of the tolerance band; no bisection.
  return searchSlo({ ...spec, min_ops_per_s: paper_ops_per_s * (1 - TOL), max_ops_per_s: paper_ops_per_s * (1 + TOL), tolerance: 0.5 }, null);
}

describe('fidelity regression: the paper within ±15 % at the Lab’s default measurement', () => {
  const points: [EngineName, 'A' | 'B', number, number, string][] = [
    ['cpp', 'A', 32, 28_700, 'Fig 6(a)'],
    ['java', 'A', 32, 18_000, 'Fig 6(a)'],
    ['java', 'A', 5, 3_000, 'Fig 6(a): G1 full collections'],
    ['rust', 'A', 32, 69_500, 'Fig 9(a)'],
    ['go', 'A', 32, 49_800, 'Fig 9(a)'],
    // Held out: with 5 % updates the full collections come every 9 to 10 minutes, inside the
    // paper's 10-minute probe (card 1.7.0; card 1.6.0 never reached one and met the SLO at 27 Kops/s).
    ['java', 'B', 5, 17_000, 'Fig 8(a): G1 full collections with 5 % updates'],
  ];
  for (const [engine, workload, gib, paper, where] of points) {
    it(`${engine} ${workload} at ${gib} GiB, 8 vCPUs: ${paper / 1000} Kops/s (${where})`, () => {
      const r = bracket(engine, workload, gib, paper);
      const [lo, hi] = r.probes;
      expect(lo?.met, `meets the SLO at ${lo?.target_ops_per_s} ops/s (p99 ${lo?.p99_ms} ms)`).toBe(true);
      expect(hi?.met, `misses the SLO at ${hi?.target_ops_per_s} ops/s (p99 ${hi?.p99_ms} ms)`).toBe(false);
    }, 1_800_000); // Java at 5 GiB runs windows of several simulated minutes; a loaded machine is slow
  }
  // Fig 7: with half the vCPUs G1 has half the GC threads and, to keep its pauses to the goal,
  // collects twice as often: Java falls from 18 to 7 Kops/s although its CPU per operation is
  // the same. Card 1.4.0 has that mechanism; it does not reach 7 (about 10.8) but falls well
  // below the 15.7 Kops/s the mutex and the cores alone allow (cards up to 1.3.0, where this fails).
  it('card 1.4.0: java A at 32 GiB, 4 vCPUs meets the SLO at 5 Kops/s and misses it at 12.6 Kops/s (Fig 7(a): 7)', () => {
    const spec = fidelitySearchSpec('java', 'A', 32, 4);
    const r = searchSlo({ ...spec, base: { ...spec.base, model_card: CANDIDATE_CARD }, min_ops_per_s: 5_000, max_ops_per_s: 12_600, tolerance: 0.5 }, null);
    const [lo, hi] = r.probes;
    expect(lo?.met, `meets the SLO at ${lo?.target_ops_per_s} ops/s (p99 ${lo?.p99_ms} ms)`).toBe(true);
    expect(hi?.met, `misses the SLO at ${hi?.target_ops_per_s} ops/s (p99 ${hi?.p99_ms} ms)`).toBe(false);
  }, 1_800_000);
  // Fig 7 with a realistic copy cost: the survivor space a settled G1 copies at each pause, and
  // half the GC threads at 4 vCPUs, make Java meet the SLO at the paper's 7 Kops/s and miss it at
  // 10.9 (cards up to 1.3.0 meet it up to 15.7).
  it('card 1.5.0: java A at 32 GiB, 4 vCPUs meets the SLO at 7 Kops/s and misses it at 10.9 Kops/s (Fig 7(a): 7)', () => {
    const spec = fidelitySearchSpec('java', 'A', 32, 4);
    const r = searchSlo({ ...spec, base: { ...spec.base, model_card: CARD_150 }, min_ops_per_s: 7_000, max_ops_per_s: 10_900, tolerance: 0.5 }, null);
    const [lo, hi] = r.probes;
    expect(lo?.met, `meets the SLO at ${lo?.target_ops_per_s} ops/s (p99 ${lo?.p99_ms} ms)`).toBe(true);
    expect(hi?.met, `misses the SLO at ${hi?.target_ops_per_s} ops/s (p99 ${hi?.p99_ms} ms)`).toBe(false);
  }, 1_800_000);
  // §5.4: Go's p99 at 5 GiB is 154 ms at 100 ops/s. Assists charged as CPU alone give tens of ms;
  // parked on the assist queue until the cycle ends, a request waits for a good part of a cycle.
  it('card 1.5.0: go A at 5 GiB, 100 ops/s: the p99 is a cycle’s wait, over 100 ms (§5.4: 154 ms)', () => {
    const s = fidelityRunSpec('go', 'A', 5, 8, 100);
    const r = simulate({ ...s, model_card: CARD_150, load: { ...s.load, duration_s: 60 } }, null);
    expect(r.latency.all.p99_us / 1000).toBeGreaterThan(100);
  }, 600_000);
  // Card 1.5.0's 393 ms: the three nodes' cycles ran in step and a follower's cycle ended only
  // at its next event, so a request released by the leader's cycle end met a fresh whole cycle
  // at the follower (mean wait about 1.5 cycles). Nodes at their own phases, cycles chained:
  // a request waits for the rest of the leader's cycle and the rest of the earlier follower's.
  it('card 1.6.0: go A at 5 GiB, 100 ops/s: a request waits for the rest of a cycle, about one cycle in all on average (§5.4: p99 154 ms)', () => {
    const s = fidelityRunSpec('go', 'A', 5, 8, 100);
    const r = simulate({ ...s, model_card: CARD_160, load: { ...s.load, duration_s: 60 } }, null);
    const cycles = r.nodes[r.leader_at_end ?? 0]!.gc_events.filter((g) => g.kind === 'go_cycle');
    const cycle_ms = cycles.reduce((a, g) => a + g.duration_ms!, 0) / cycles.length;
    expect(r.latency.all.mean_us / 1000).toBeLessThan(cycle_ms * 1.1);
    expect(r.latency.all.p99_us / 1000).toBeGreaterThan(100);
    expect(new Set(r.nodes.map((n) => n.gc_events[1]?.t_s)).size).toBe(3);
  }, 600_000);
  // Fig 8(a): Java's workload B falls to 17 Kops/s at 5 GiB. Card 1.6.0 took a share of all old
  // garbage at every marking cycle, so B's reads, filling the least eden every half second, made
  // G1 mark often enough to keep the scattered garbage down: no full collection ever, and B ran
  // at its CPU limit. With the garbage reclaimable once, the full collections come at a period
  // set by the updates: at 17 Kops/s (5 % updates) about every 9 to 10 minutes, inside the
  // paper's 10-minute run; at 3 Kops/s of workload A (50 %) every 5.5 minutes, as card 1.6.0.
  it('card 1.7.0: java B at 5 GiB, 17 Kops/s meets a G1 full collection inside the 10-minute window (card 1.6.0: none)', () => {
    const at = (card: typeof CARD_160, w: 'A' | 'B', ops: number) => modelWindow({ ...fidelityRunSpec('java', w, 5, 8, ops), model_card: card }, 3600).event;
    expect(at(CARD_160, 'B', 17_000)?.kind).not.toBe('g1_full');
    const b = at(CARD_170, 'B', 17_000);
    expect(b?.kind).toBe('g1_full');
    expect(b!.period_s).toBeLessThan(600);
    const a160 = at(CARD_160, 'A', 3_000)!;
    const a170 = at(CARD_170, 'A', 3_000)!;
    expect(a170.kind).toBe('g1_full');
    expect(Math.abs(a170.period_s - a160.period_s) / a160.period_s).toBeLessThan(0.02);
  }, 600_000);
  // Fig 4 (Java, 5 GiB, 20 Kops/s, 60 s as the table runs it): the paper's 966 ms intended p99 lies
  // between the model's two readings of the record count (misses.ts, 'Latency at light load').
  // With Fig 3(a)'s 2 M records, the table's, only young pauses of tens of ms; with §4.3's 7.5 M,
  // the three nodes' full collections come after the same count of updates, the leader's just
  // after the followers', and the cluster stops for seconds.
  it('Fig 4(b): java at 5 GiB, 20 Kops/s, intended p99 under half the paper\'s 966 ms with 2 M records and over twice it with 7.5 M', () => {
    const at = (records: number) => {
      const s = fidelityRunSpec('java', 'A', 5, 8, 20_000, records);
      return simulate({ ...s, load: { ...s.load, duration_s: Math.max(s.load.duration_s, 60) } }, null);
    };
    const two = at(2_000_000);
    expect(two.latency.all.p99_us / 1000).toBeLessThan(966 / 2);
    expect(two.nodes.flatMap((n) => n.gc_events).filter((g) => g.kind === 'g1_full')).toHaveLength(0);
    const full = at(7_500_000);
    expect(full.latency.all.p99_us / 1000).toBeGreaterThan(966 * 2);
    const leaderIdx = full.leader_at_end ?? 0;
    const firstFull = full.nodes.map((n) => n.gc_events.find((g) => g.kind === 'g1_full'));
    expect(firstFull.every((g) => g !== undefined)).toBe(true);
    const leader = firstFull[leaderIdx]!;
    const followersEnd_s = Math.max(...firstFull.filter((_, i) => i !== leaderIdx).map((g) => g!.t_s + g!.pause_ms / 1000));
    // The leader's own full collection starts within a second of the followers' ending.
    expect(leader.t_s - followersEnd_s).toBeGreaterThanOrEqual(0);
    expect(leader.t_s - followersEnd_s).toBeLessThan(1);
  }, 600_000);
  for (const [workload, where] of [['A', 'Fig 9(a)'], ['B', 'Fig 11(a): read-heavy, yet it fails too']] as const) {
    it(`go ${workload} at 5 GiB cannot meet the SLO even at 100 ops/s (${where}, the paper’s bound)`, () => {
      const r = searchSlo({ ...fidelitySearchSpec('go', workload, 5, 8), min_ops_per_s: 100, max_ops_per_s: 200, tolerance: 0.5 }, null);
      expect(r.max_ops_per_s_at_slo).toBeNull();
      expect(r.probes[0]?.window_event?.kind).toBe('go_cycle');
    });
  }
});
