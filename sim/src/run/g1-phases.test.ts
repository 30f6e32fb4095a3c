// Card 1.8.1 (candidate, g1.independent_phases): each JVM's young collections start at their own
// seeded phase, in the run and in the window's dry runs alike. Before it, the two followers
// allocate alike from an empty eden and pause at the same instants (card 1.8.0), and the
// shortcut gives both the one follower's state.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateCard } from '../models/card.ts';
import { simulate } from './simulate.ts';
import { baseRunSpec, modelWindow, type MeasurementKnobs } from './measurement.ts';

const card = (v: string) => validateCard(JSON.parse(readFileSync(fileURLToPath(import.meta.resolve(`@replicant/data/models/${v}.json`)), 'utf8')));
const CARD_180 = card('1.8.0');
const CARD_181 = card('1.8.1');
const knobs: MeasurementKnobs = { workload: 'A', memory: { gib: 8 }, vcpus: 8, min_window_s: 14 };

/** The pauses' start times (young, remark, mixed) of each node in a 16 s run of Java A at
 * 8 GiB, 20 Kops/s, from fresh collectors. */
function pauses(model_card: typeof CARD_180): number[][] {
  const r = simulate({ ...baseRunSpec(knobs, 'java', 20_000), model_card }, null);
  return r.nodes.map((n) => n.gc_events.filter((e) => e.pause_ms > 0).map((e) => e.t_s));
}

describe('G1 collectors at their own phases (card 1.8.1)', () => {
  it('the followers\' pauses fall at their own times; with card 1.8.0 at the same instants', () => {
    const inStep = pauses(CARD_180);
    expect(inStep[1]!.length).toBeGreaterThan(2);
    // (in step to a fraction of a millisecond: they hear the same messages, a link's jitter apart)
    expect(inStep[2]!.length).toBe(inStep[1]!.length);
    inStep[2]!.forEach((t, i) => expect(Math.abs(t - inStep[1]![i]!)).toBeLessThan(0.001));
    const own = pauses(CARD_181);
    expect(own[1]!.length).toBeGreaterThan(2);
    expect(own[2]!.length).toBeGreaterThan(2);
    const together = own[1]!.filter((t) => own[2]!.some((u) => Math.abs(u - t) < 0.1));
    expect(together).toEqual([]);
  });

  it('the window\'s dry runs give the shortcut one state per node, the followers\' apart', () => {
    const w = modelWindow({ ...baseRunSpec({ ...knobs, min_window_s: 10 }, 'java', 11_000), model_card: CARD_181 });
    expect(w.event?.kind).toBe('g1_mixed_dense');
    const p = w.g1_phases!;
    expect(p.steady).toHaveLength(3);
    expect(p.steady[2]!.edenUsed).not.toBe(p.steady[1]!.edenUsed);
    for (const e of p.episodes) expect(e.states).toHaveLength(3);
    // Where young pauses decide the window (32 GiB), the run starts settled: every node as it
    // stands at the leader's settled instant, not each just after its own pause (which would
    // put the followers back in step).
    const young = modelWindow({ ...baseRunSpec({ ...knobs, memory: { gib: 32 }, min_window_s: 10 }, 'java', 17_000), model_card: CARD_181 });
    expect(young.event?.kind).toBe('g1_young');
    expect(young.g1_start).toHaveLength(3);
    // (a follower allocates 10,982 B per operation of workload A: 187 MB a second at 17 Kops/s;
    // just after its own pause each would hold less than a second's worth)
    const followerBytesPerSecond = 17_000 * 10_982;
    expect(Math.abs(young.g1_start![2]!.edenUsed - young.g1_start![1]!.edenUsed)).toBeGreaterThan(followerBytesPerSecond);
    // Card 1.8.0: one follower's state stands for both.
    const inStep = modelWindow({ ...baseRunSpec({ ...knobs, min_window_s: 10 }, 'java', 11_000), model_card: CARD_180 });
    expect(inStep.g1_phases!.steady).toHaveLength(2);
  });
});
