import { describe, expect, it } from 'vitest';
import type { LatencySummary, RunResult, RunSpec, SweepResult } from '@replicant/sim/api';
import { asMitigatedSeries, cliffShift, cliffSentence, hasCollector, mitigationRunSpecs, mitigationTable, modeSentence, percentile_ms } from './mitigation-results.ts';
import { mitigatedSweepSpec, sweepSpec } from './lab-spec.ts';
import { defaultState } from '../state/app-state.ts';
import type { LabState } from './lab-fields.ts';

const base = { fidelity: 'fast' } as unknown as RunSpec;
const summary = (pairs: [number, number][]): LatencySummary => ({ count: 1, mean_us: 1, max_us: 9_000_000, spectrum: pairs, p50_us: 1, p99_us: 1, p999_us: 1, hdr_base64: '' });
const run = (pairs: [number, number][]) => ({ latency: { all: summary(pairs) } }) as unknown as RunResult;

describe('the mitigation knob’s runs', () => {
  it('a GC engine with a mode runs three times: mitigated, GC on, GC off; C++ and Rust once', () => {
    expect(mitigationRunSpecs(base, 'blade', 'java').map((r) => [r.role, r.spec.mitigation])).toEqual([
      ['mitigated', { mode: 'blade' }],
      ['gc-on', undefined],
      ['gc-off', { mode: 'none', collector: 'off' }],
    ]);
    expect(mitigationRunSpecs(base, 'both', 'rust')).toHaveLength(1);
    expect(mitigationRunSpecs(base, 'none', 'go')).toHaveLength(1);
    expect(hasCollector('cpp')).toBe(false);
  });
  it('reads p99 / p99.9 / p99.99 from the spectrum (percent or fraction), in ms, in Table 7 order', () => {
    expect(percentile_ms(summary([[50, 1000], [99, 2000], [99.9, 3000], [99.99, 4000]]), 99.9)).toBe(3);
    expect(percentile_ms(summary([[0.5, 1000], [0.99, 2000]]), 99)).toBe(2);
    expect(percentile_ms(summary([[50, 1000]]), 99.99)).toBe(9000); // past the spectrum: the max
    const t = mitigationTable({ mitigated: run([[99, 1000], [99.9, 1100], [99.99, 1200]]), gcOn: run([[99, 1000], [99.9, 900_000], [99.99, 1_500_000]]), gcOff: run([[99, 990], [99.9, 1050], [99.99, 1100]]) });
    expect(t.map((r) => [r.percentile, r.mitigated_ms, r.gc_off_ms, r.gc_on_ms])).toEqual([
      [99, 1, 0.99, 1],
      [99.9, 1.1, 1.05, 900],
      [99.99, 1.2, 1.1, 1500],
    ]);
  });
  it('MITMEM’s sentence says that one leader limits it, and when it helped in the run', () => {
    const s = modeSentence('mitmem', { mode: 'mitmem', collector: 'on', model_version: '1.0.0', gc_pending: 0, handoffs: 0, held_collections: 0, forced_collections: 0, max_collecting_at_once: 0, busy_replies: 19, busy_retries_served_elsewhere: 0, busy_retries_redirected_back: 19 });
    expect(s).toContain('only helps where another replica can answer');
    expect(s).toContain('19 busy replies, 0 answered by another replica, 19 sent back to the paused node');
    expect(modeSentence('blade', undefined)).toMatch(/at most a minority collects at once/);
  });
});

describe('the memory sweep with a mitigation', () => {
  const point = (engine: 'go' | 'java' | 'cpp', max: number | null) => ({ engine, memory_gib: 0, vcpus: 8, result: { max_ops_per_s_at_slo: max } });
  const sweep = (points: ReturnType<typeof point>[]) => ({ simulated: true, model_card_version: 'x', points }) as unknown as SweepResult;

  it('pairs the two sweeps per GC engine and axis point', () => {
    const plain = sweep([point('java', 20_000), point('java', null), point('cpp', 30_000), point('cpp', 30_000)]);
    const mit = sweep([point('java', 19_000), point('java', 2_000)]);
    const rows = cliffShift(plain, mit, [32, 5]);
    // the tightest point is the least memory, whatever the order swept
    expect(cliffSentence([...rows].reverse(), 'blade', 'GiB', () => 'Java', false)).toMatch(/^Simulated: Java at 5 GiB/);
    expect(rows).toEqual([
      { engine: 'java', x: 32, without: 20_000, with: 19_000 },
      { engine: 'java', x: 5, without: null, with: 2_000 },
    ]);
    const s = cliffSentence(rows, 'blade', 'GiB', () => 'Java', true);
    expect(s).toMatch(/^Simulated: Java at 5 GiB: none without, 2 Kops\/s with BLADE; the SLO is met at 1 of 2 points without and 2 with\./);
    expect(s).toMatch(/C\+\+ and Rust have no collector/);
    expect(cliffSentence(rows, 'mitmem', 'GiB', () => 'Java', false)).toMatch(/MITMEM alone gains nothing/);
  });

  it('the Lab sweeps again with the mitigation only for Go and Java, and not at all without one', () => {
    const lab = { ...defaultState().lab, engines: ['cpp', 'java', 'go'], mit: 'blade' } as LabState;
    const m = mitigatedSweepSpec(lab, 1)!;
    expect(m.engines).toEqual(['java', 'go']);
    expect(m.base.mitigation).toEqual({ mode: 'blade' });
    expect(sweepSpec(lab, 1).base.mitigation).toBeUndefined();
    expect(mitigatedSweepSpec({ ...lab, mit: 'none' }, 1)).toBeNull();
    expect(mitigatedSweepSpec({ ...lab, engines: ['rust'] }, 1)).toBeNull();
  });

  it('draws the mitigated series in the mode’s style with the mode in its name', () => {
    const s = asMitigatedSeries([{ name: 'Java · simulated, model card 1', styleKey: 'Java', kind: 'simulated', points: [] }], 'mitmem');
    expect(s[0]).toMatchObject({ name: 'Java + MITMEM · simulated, model card 1', styleKey: 'mitigation:MITMEM' });
  });
});
