import { describe, expect, it } from 'vitest';
import { PAPER } from '../paper/results.ts';
import type { SloSearchResult, SloSearchSpec } from '@replicant/sim/api';
import { SQUEEZE, eventWords, laneMitigation, laneOfSearch, laneReason, publishedAt, raceSentence, withLaneMitigation, type Lane } from './race-model.ts';

describe('race model', () => {
  it('squeezes memory the way the paper does', () => {
    expect(SQUEEZE.map((s) => s.gib)).toEqual([32, 8, 6, 5]);
    expect(SQUEEZE.every((s) => s.ratio * 4 === s.gib)).toBe(true);
  });
  it('finds the published value of each engine at each step, or none', () => {
    expect(publishedAt(PAPER.rows, 'java', 32, 'A')?.value).toBe(18);
    expect(publishedAt(PAPER.rows, 'java', 8, 'A')).toBeNull();
    expect(publishedAt(PAPER.rows, 'go', 5, 'A')?.qualifier).toBe('upper_bound');
    expect(publishedAt(PAPER.rows, 'rust', 6, 'A')?.qualifier).toBe('implied');
  });
  const lane = (engine: Lane['engine'], max_kops: number | null, extra: Partial<Lane> = {}): Lane => ({
    engine,
    max_kops,
    min_kops: 0.1,
    p99_ms_at_max: max_kops === null ? null : 12,
    missed: null,
    gc_share_pct: 0,
    why: null,
    crashed: [],
    window_s: 10,
    ...extra,
  });
  it('ranks the engines by the highest rate meeting the SLO and names those that cannot meet it', () => {
    expect(raceSentence([lane('cpp', 28.2), lane('java', 2.6), lane('go', null), lane('rust', 68.7)], 5, 20)).toBe(
      'At 5 GiB the highest rate meeting p99 ≤ 20 ms is Rust 68.7, C++ 28.2, Java 2.60 Kops/s; Go cannot meet it at any rate tried (simulated).',
    );
  });
  it('names engines that lost nodes', () => {
    expect(raceSentence([lane('cpp', null, { crashed: [{ node: 0, t_s: 1.5 }] }), lane('rust', null, { crashed: [{ node: 0, t_s: 1 }, { node: 1, t_s: 1 }] })], 5, 20)).toBe(
      'At 5 GiB no engine meets p99 ≤ 20 ms; C++ and Rust cannot meet it at any rate tried (simulated). C++ and Rust lost nodes (out of memory).',
    );
  });
  it('takes the number from the search, never from an offered load, and says which collector event decides it', () => {
    const r: SloSearchResult = {
      simulated: true,
      model_card_version: '1.1.0',
      max_ops_per_s_at_slo: 2596,
      p99_ms_at_max: 3.2,
      leader_cpu_utilization_at_max: 0.1,
      probes: [
        { target_ops_per_s: 100, p99_ms: 1, achieved_ops_per_s: 100, met: true, stopped_early: false, window_s: 10 },
        { target_ops_per_s: 2596, p99_ms: 3.2, achieved_ops_per_s: 2596, met: true, stopped_early: false, window_s: 420 },
        { target_ops_per_s: 2700, p99_ms: 20, achieved_ops_per_s: 2690, met: false, stopped_early: true, window_s: 400 },
      ],
      deciding_event: { kind: 'g1_full', period_s: 373.7, pause_ms: 1825.7 },
    };
    const l = laneOfSearch('java', r);
    expect(l.max_kops).toBeCloseTo(2.596);
    expect(l.missed).toEqual({ kops: 2.7, p99_ms: 20, stopped_early: true });
    expect(l.why).toBe('G1 full collections every 374 s (pause 1.8 s)');
    expect(laneReason(l, 20)).toBe('G1 full collections every 374 s (pause 1.8 s); p99 over 20.0 ms at 2.70 Kops/s.');
    expect(eventWords({ kind: 'go_cycle', period_s: 0.6, pause_ms: 0.2 })).toBe('Go GC cycles every 0.6 s');
    const none = laneOfSearch('go', { ...r, max_ops_per_s_at_slo: null, p99_ms_at_max: null, probes: [{ target_ops_per_s: 100, p99_ms: 20, achieved_ops_per_s: 90, met: false, stopped_early: true, window_s: 10 }], deciding_event: { kind: 'go_cycle', period_s: 0.6, pause_ms: 0.2 } });
    expect(none.max_kops).toBeNull();
    expect(laneReason(none, 20)).toBe('Misses the 20 ms SLO even at 0.100 Kops/s: Go GC cycles every 0.6 s; p99 over 20.0 ms at 0.100 Kops/s.');
  });
});

describe('a lane’s GC mitigation', () => {
  it('Go and Java lanes take the Race’s choice; C++ and Rust have nothing to mitigate', () => {
    const race = { gomit: 'blade', javamit: 'mitmem' } as const;
    expect(laneMitigation(race, 'go')).toBe('blade');
    expect(laneMitigation(race, 'java')).toBe('mitmem');
    expect(laneMitigation(race, 'cpp')).toBe('none');
    expect(laneMitigation(race, 'rust')).toBe('none');
  });
  it('the lane’s search carries the mode in its base run, and is unchanged without one', () => {
    const spec = { base: { fidelity: 'fast' }, slo_p99_ms: 20 } as unknown as SloSearchSpec;
    expect(withLaneMitigation(spec, 'none')).toBe(spec);
    expect(withLaneMitigation(spec, 'blade').base.mitigation).toEqual({ mode: 'blade' });
    expect(spec.base.mitigation).toBeUndefined();
  });
});
