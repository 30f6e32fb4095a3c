import { describe, expect, it } from 'vitest';
import type { SweepResult } from '@replicant/sim/api';
import { defaultState } from '../state/app-state.ts';
import { decodeState, encodeState } from '../state/url-state.ts';
import type { ResultsFile, ResultRow } from '../paper/results.ts';
import { capacitySourceWords, parseCapacitySource } from './capacity-source.ts';
import { labSweepPoint, nativePoint, nativeSettings, priceThis, racePoint } from './price-this.ts';

const cost = () => defaultState().cost;

function sweepOf(points: [string, number | null][]): SweepResult {
  return {
    simulated: true,
    model_card_version: '9.8.7',
    points: points.map(([engine, max]) => ({ engine, memory_gib: 0, vcpus: 8, result: { max_ops_per_s_at_slo: max } })),
  } as unknown as SweepResult;
}

describe('price this', () => {
  it('turns a Lab sweep point into ops/s per cluster at its memory and vCPUs, sourced simulated', () => {
    const lab = { ...defaultState().lab, engines: ['cpp', 'go'] as ('cpp' | 'go')[], ratios: [8, 1.25] };
    // Engine-major: cpp at 8, cpp at 1.25, go at 8, go at 1.25.
    const point = labSweepPoint(sweepOf([['cpp', 28_000], ['cpp', 27_500], ['go', 21_000], ['go', null]]), lab, 1);
    expect(point).toMatchObject({ workload: 'A', memory_data_ratio: 1.25, vcpus: 8, kops: { cpp: 27.5, go: null } });
    const r = priceThis(cost(), point);
    if (!r.ok) throw new Error(r.reason);
    expect(r.cost).toMatchObject({ ratio: '1.25', vcpus: '8', capcpp: 27_500, srccpp: { kind: 'simulated', model: '9.8.7' }, capgo: null, srcgo: null, capjava: null });
    expect([...r.notPriced].sort()).toEqual(['go', 'java', 'rust']);
  });

  it('takes the vCPUs of a vCPU sweep and the memory of the Lab’s GiB setting', () => {
    const lab = { ...defaultState().lab, engines: ['cpp'] as 'cpp'[], sweep: 'vcpus' as const, memunit: 'gib' as const, gib: 8, vcpulist: [8, 4] };
    const r = priceThis(cost(), labSweepPoint(sweepOf([['cpp', 20_000], ['cpp', 12_345.6]]), lab, 1));
    expect(r.ok && r.cost).toMatchObject({ ratio: '2', vcpus: '4', capcpp: 12_346 });
  });

  it('refuses a setting the Cost view cannot price, saying which', () => {
    const lab = { ...defaultState().lab, engines: ['cpp'] as 'cpp'[], ratios: [3] };
    expect(priceThis(cost(), labSweepPoint(sweepOf([['cpp', 1000]]), lab, 0))).toEqual({ ok: false, reason: 'the Cost view prices memory:data ratios 8, 2, 1.5, 1.25, not 3' });
    const custom = { ...defaultState().lab, engines: ['cpp'] as 'cpp'[], wl: 'custom' as const };
    expect(priceThis(cost(), labSweepPoint(sweepOf([['cpp', 1000]]), custom, 0)).ok).toBe(false);
    expect(priceThis(cost(), racePoint([{ engine: 'cpp', max_kops: null }], 8, 'A', '1')).ok).toBe(false);
  });

  it('prices the Race’s lanes at their squeeze step, and the result survives the URL', () => {
    const r = priceThis(cost(), racePoint([{ engine: 'cpp', max_kops: 30.2 }, { engine: 'java', max_kops: 2.5 }], 1.5, 'B', '0.9.1'));
    if (!r.ok) throw new Error(r.reason);
    const state = { ...defaultState(), view: 'cost' as const, cost: r.cost };
    const back = decodeState(encodeState(state));
    expect(back.problems).toEqual([]);
    expect(back.state.cost).toEqual(r.cost);
    expect(back.state.cost).toMatchObject({ wl: 'B', ratio: '1.5', capcpp: 30_200, capjava: 2_500, srcjava: { kind: 'simulated', model: '0.9.1' } });
  });

  it('prices a native file’s setting from its measured rows (median of repetitions; a bound is not a capacity)', () => {
    const row = (language: string, ratio: number, value: number, qualifier: ResultRow['qualifier'] = 'exact'): ResultRow => ({
      id: `${language}-${ratio}-${value}`, language, workload: 'A', memory_data_ratio: ratio, vcpus: 8, metric: 'max_throughput_slo', value, unit: 'Kops/s', qualifier, provenance: { kind: 'measurement' },
    });
    const file = {
      schema_version: '1.0.0', metadata: { source_kind: 'native', title: 't', machine: { description: '2-core test box: shared' }, date: '2026-11-22', git_commit: null, command: 'x' },
      rows: [row('C++', 8, 1.2), row('C++', 8, 1.6), row('C++', 8, 1.3), row('Go', 8, 0.1, 'upper_bound'), row('C++', 2, 1.1), row('etcd', 1.5, 0.4), { ...row('Java', 8, 40), metric: 'p99_latency_intended', unit: 'ms' }],
    } as ResultsFile;
    expect(nativeSettings(file)).toEqual([{ workload: 'A', memory_data_ratio: 8, vcpus: 8 }, { workload: 'A', memory_data_ratio: 2, vcpus: 8 }]);
    const p = nativePoint(file, nativeSettings(file)[0]!);
    expect(p.kops).toEqual({ cpp: 1.3, go: null });
    const r = priceThis(cost(), p);
    if (!r.ok) throw new Error(r.reason);
    expect(r.cost).toMatchObject({ capcpp: 1300, srccpp: { kind: 'native', date: '2026-11-22', machine: '2-core test box: shared' }, capgo: null, srcgo: null });
    // The machine may hold a colon; it comes back whole from the URL.
    const state = { ...defaultState(), cost: r.cost };
    expect(decodeState(encodeState(state)).state.cost.srccpp).toEqual({ kind: 'native', date: '2026-11-22', machine: '2-core test box: shared' });
  });
});

describe('capacity source field', () => {
  it('refuses what it cannot read with a sentence, and the URL falls back to no source, saying so', () => {
    for (const bad of ['paper', 'sim:', 'sim:1 0', 'native:2026-13-45:box', 'native:2026-11-22', 'native:2026-11-22:', 'native:2026-11-22:a\u0001b']) {
      expect(() => parseCapacitySource(bad, 'Source')).toThrow(/Source must be empty, sim:<model card version> or native:<YYYY-MM-DD>:<machine>/);
    }
    const { state, problems } = decodeState('view=cost&cost.capcpp=5000&cost.srccpp=banana');
    expect(state.cost.srccpp).toBeNull();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('cost.srccpp=banana');
  });

  it('says where a capacity came from', () => {
    expect(capacitySourceWords(null, null)).toBe('the paper’s measured value');
    expect(capacitySourceWords(5000, null)).toBe('typed in by hand');
    expect(capacitySourceWords(5000, { kind: 'simulated', model: '0.9.1' })).toContain('simulated with model card 0.9.1');
    expect(capacitySourceWords(5000, { kind: 'native', date: '2026-11-22', machine: 'box' })).toBe('native run of 2026-11-22 on box');
  });
});

describe('tight vs ample from a Lab memory sweep', () => {
  it('puts the largest ratio in the form and the smallest as the compared ratio, each with its own simulated capacities and setting', async () => {
    const { priceTightVsAmple } = await import('./price-this.ts');
    const lab = { ...defaultState().lab, engines: ['cpp', 'java'] as ('cpp' | 'java')[], ratios: [1.25, 8, 2] };
    const sweep = sweepOf([['cpp', 28_000], ['cpp', 28_500], ['cpp', 28_200], ['java', 2_500], ['java', 17_000], ['java', 9_000]]);
    const r = priceTightVsAmple(cost(), sweep, lab);
    if (!r.ok) throw new Error(r.reason);
    expect(r.cost).toMatchObject({
      ratio: '8', capcpp: 28_500, capjava: 17_000, at: { workload: 'A', ratio: '8', vcpus: '8' },
      vs: '1.25', vscapcpp: 28_000, vscapjava: 2_500, vsat: { workload: 'A', ratio: '1.25', vcpus: '8' },
      vssrcjava: { kind: 'simulated', model: '9.8.7' }, vscapgo: null,
    });
    const back = decodeState(encodeState({ ...defaultState(), cost: r.cost }));
    expect(back.problems).toEqual([]);
    expect(back.state.cost).toEqual(r.cost);
  });

  it('is refused, saying why, for a vCPU sweep, one memory setting, or a ratio the Cost view lacks', async () => {
    const { priceTightVsAmple } = await import('./price-this.ts');
    const sweep = sweepOf([['cpp', 1000], ['cpp', 900]]);
    const lab = { ...defaultState().lab, engines: ['cpp'] as 'cpp'[] };
    expect(priceTightVsAmple(cost(), sweep, { ...lab, sweep: 'vcpus' })).toEqual({ ok: false, reason: 'tight vs ample needs a sweep over memory' });
    expect(priceTightVsAmple(cost(), sweep, { ...lab, ratios: [8] })).toEqual({ ok: false, reason: 'tight vs ample needs at least two memory settings in the sweep' });
    expect(priceTightVsAmple(cost(), sweep, { ...lab, ratios: [8, 3] })).toEqual({ ok: false, reason: 'its tight end: the Cost view prices memory:data ratios 8, 2, 1.5, 1.25, not 3' });
  });
});

describe('a single Lab run is not priced', () => {
  it('says per engine what one offered rate shows: a lower bound when met, nothing usable when missed', async () => {
    const { singleRunWords } = await import('./price-this.ts');
    const words = singleRunWords(
      [
        { engine: 'cpp', p99_us: 3_210, achieved_ops_per_s: 20_000 },
        { engine: 'java', p99_us: 45_600, achieved_ops_per_s: 19_000 },
        { engine: 'go', p99_us: Number.NaN, achieved_ops_per_s: 0 },
      ],
      20_000,
      20,
      (e) => e.toUpperCase(),
    );
    expect(words).toEqual([
      'CPP met the SLO at 20,000 ops/s (p99 3.21 ms ≤ 20 ms): its capacity is at least that, how much more is unknown.',
      'JAVA missed the SLO at 20,000 ops/s (p99 45.6 ms > 20 ms): its capacity is lower, by how much is unknown.',
      'GO: no p99 was measured, so nothing can be said about its capacity.',
    ]);
  });
});
