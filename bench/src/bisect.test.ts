import { describe, expect, it } from 'vitest';
import { checkSearchOptions, nextRate, searchMaxRate, type ProbeOutcome } from './bisect.ts';

/** A server whose p99 is fine up to `limit` ops/s and blows up beyond it. */
function thresholdServer(limit: number) {
  const asked: number[] = [];
  const probe = async (rate: number): Promise<ProbeOutcome> => {
    asked.push(rate);
    const met = rate <= limit;
    return { target_ops_per_s: rate, p99_ms: met ? 5 : 500, achieved_ops_per_s: rate, met };
  };
  return { probe, asked };
}

const options = { min_ops_per_s: 100, max_ops_per_s: 20_000, tolerance: 0.05, max_probes: 20 };

describe('searchMaxRate', () => {
  it('brackets the limit within the tolerance, starting high as the paper did', async () => {
    const s = thresholdServer(7_300);
    const r = await searchMaxRate(s.probe, options);
    expect(s.asked[0]).toBe(20_000);
    expect(s.asked[1]).toBe(100);
    expect(r.best!.met).toBe(true);
    expect(r.best!.target_ops_per_s).toBeLessThanOrEqual(7_300);
    expect(r.best!.target_ops_per_s).toBeGreaterThan(7_300 * (1 - 0.05) - 1);
    expect(r.ceiling_reached).toBe(false);
    expect(r.probes).toHaveLength(s.asked.length);
  });

  it('reports a limit above the range as a ceiling after one probe', async () => {
    const s = thresholdServer(50_000);
    const r = await searchMaxRate(s.probe, options);
    expect(s.asked).toEqual([20_000]);
    expect(r.ceiling_reached).toBe(true);
    expect(r.best!.target_ops_per_s).toBe(20_000);
  });

  it('returns no rate when even the minimum misses (the paper\'s Go at 5 GiB)', async () => {
    const s = thresholdServer(50);
    const r = await searchMaxRate(s.probe, options);
    expect(r.best).toBeNull();
    expect(s.asked).toEqual([20_000, 100]);
  });

  it('stops at the probe budget', async () => {
    const s = thresholdServer(7_300);
    const r = await searchMaxRate(s.probe, { ...options, max_probes: 4, tolerance: 0.001 });
    expect(r.probes).toHaveLength(4);
    expect(r.best!.met).toBe(true);
  });

  it('steps geometrically across a wide bracket and arithmetically across a narrow one', () => {
    expect(nextRate(100, 10_000)).toBe(1000);
    expect(nextRate(1000, 2000)).toBe(1500);
  });

  it('refuses nonsense options', () => {
    expect(() => checkSearchOptions({ ...options, min_ops_per_s: 0 })).toThrow(/min rate/);
    expect(() => checkSearchOptions({ ...options, max_ops_per_s: 50 })).toThrow(/max rate/);
    expect(() => checkSearchOptions({ ...options, tolerance: 1 })).toThrow(/tolerance/);
    expect(() => checkSearchOptions({ ...options, max_probes: 1 })).toThrow(/max probes/);
  });

  it('takes a probe that met the SLO under interference as met', async () => {
    const r = await searchMaxRate(async (rate) => ({ target_ops_per_s: rate, p99_ms: 5, achieved_ops_per_s: rate, met: true, disturbed: true }), options);
    expect(r.ceiling_reached).toBe(true);
    expect(r.stopped_by).toBeNull();
  });

  it('stops at a disturbed miss instead of taking it as the upper edge, keeping the last clean met rate', async () => {
    // The server meets up to 7,300, but everything from 1,000 up is disturbed.
    const asked: number[] = [];
    const r = await searchMaxRate(async (rate) => {
      asked.push(rate);
      const disturbed = rate >= 1000 && rate < 20_000;
      return { target_ops_per_s: rate, p99_ms: disturbed ? 900 : rate <= 7_300 ? 5 : 500, achieved_ops_per_s: rate, met: !disturbed && rate <= 7_300, disturbed };
    }, options);
    expect(asked).toEqual([20_000, 100, 1414]);
    expect(r.best!.target_ops_per_s).toBe(100);
    expect(r.stopped_by!.target_ops_per_s).toBe(1414);
  });

  it('stops right after the minimum when the top probe itself was a disturbed miss', async () => {
    const r = await searchMaxRate(async (rate) => ({ target_ops_per_s: rate, p99_ms: rate > 100 ? 900 : 5, achieved_ops_per_s: rate, met: rate <= 100, disturbed: rate > 100 }), options);
    expect(r.probes.map((p) => p.target_ops_per_s)).toEqual([20_000, 100]);
    expect(r.best!.target_ops_per_s).toBe(100);
    expect(r.stopped_by!.target_ops_per_s).toBe(20_000);
  });

  it('leaves a setting undecided (not "< minimum") when the minimum missed under interference', async () => {
    const r = await searchMaxRate(async (rate) => ({ target_ops_per_s: rate, p99_ms: 900, achieved_ops_per_s: rate, met: false, disturbed: true }), options);
    expect(r.best).toBeNull();
    expect(r.stopped_by!.target_ops_per_s).toBe(100);
  });

  it('reports a clean miss at the minimum as the system\'s own', async () => {
    const r = await searchMaxRate(thresholdServer(50).probe, options);
    expect(r.stopped_by).toBeNull();
  });
});

describe('searchMaxRate warm-started from a neighbouring setting', () => {
  /** Every search must end as a cold one would: a met rate with a miss within the tolerance above it. */
  function expectDecided(r: Awaited<ReturnType<typeof searchMaxRate>>, limit: number, tolerance: number) {
    expect(r.best!.met).toBe(true);
    expect(r.best!.target_ops_per_s).toBeLessThanOrEqual(limit);
    const missedAbove = r.probes.filter((p) => !p.met && p.target_ops_per_s > r.best!.target_ops_per_s);
    const edge = Math.min(...missedAbove.map((p) => p.target_ops_per_s));
    expect((edge - r.best!.target_ops_per_s) / edge).toBeLessThanOrEqual(tolerance);
  }

  it.each([
    ['the answer did not move', 7_300, 7_250],
    ['the answer fell a little', 7_000, 7_300],
    ['the answer fell far', 900, 7_300],
    ['the answer rose far', 15_000, 2_000],
  ])('%s: the same guarantee as a cold search', async (_what, limit, hint) => {
    const cold = thresholdServer(limit);
    const warm = thresholdServer(limit);
    const rc = await searchMaxRate(cold.probe, options);
    const rw = await searchMaxRate(warm.probe, { ...options, hint_ops_per_s: hint });
    expectDecided(rc, limit, options.tolerance);
    expectDecided(rw, limit, options.tolerance);
    expect(warm.asked[0]).toBe(hint);
  });

  it('ends in two probes when the answer has not moved, where a cold search takes eight', async () => {
    const cold = thresholdServer(7_300);
    const warm = thresholdServer(7_300);
    await searchMaxRate(cold.probe, options);
    const r = await searchMaxRate(warm.probe, { ...options, hint_ops_per_s: 7_200 });
    expect(warm.asked).toEqual([7_200, 7_578]);
    expect(r.best!.target_ops_per_s).toBe(7_200);
    expect(r.ceiling_reached).toBe(false);
    expect(cold.asked.length).toBeGreaterThanOrEqual(8);
    // just below a hint that missed: two probes as well, and no minimum probe
    const below = thresholdServer(7_000);
    const rb = await searchMaxRate(below.probe, { ...options, hint_ops_per_s: 7_300 });
    expect(below.asked).toEqual([7_300, 6_935]);
    expect(rb.best!.target_ops_per_s).toBe(6_935);
  });

  it('widens a wrong warm bracket to the top or the minimum, and only then probes them', async () => {
    // the answer rose far above the hint: hint met, one tolerance above met too -> the top, then bisection
    const up = thresholdServer(15_000);
    const ru = await searchMaxRate(up.probe, { ...options, hint_ops_per_s: 2_000 });
    expect(up.asked.slice(0, 3)).toEqual([2_000, 2_105, 20_000]);
    expectDecided(ru, 15_000, options.tolerance);
    // the answer fell far below it: hint missed, one tolerance below missed -> the minimum, then bisection
    const down = thresholdServer(900);
    const rd = await searchMaxRate(down.probe, { ...options, hint_ops_per_s: 7_300 });
    expect(down.asked.slice(0, 3)).toEqual([7_300, 6_935, 100]);
    expect(down.asked).not.toContain(20_000);
    expectDecided(rd, 900, options.tolerance);
    // above the whole range: the top meets and is still reported as a ceiling
    const high = thresholdServer(50_000);
    const rh = await searchMaxRate(high.probe, { ...options, hint_ops_per_s: 19_500 });
    expect(high.asked).toEqual([19_500, 20_000]);
    expect(rh.ceiling_reached).toBe(true);
    expect(rh.best!.target_ops_per_s).toBe(20_000);
  });

  it('keeps an upper edge within the probe budget: the top is probed before the budget runs out', async () => {
    const s = thresholdServer(15_000);
    const r = await searchMaxRate(s.probe, { ...options, max_probes: 2, hint_ops_per_s: 2_000 });
    expect(s.asked).toEqual([2_000, 20_000]);
    expect(r.probes.some((p) => !p.met && p.target_ops_per_s > r.best!.target_ops_per_s)).toBe(true);
  });

  it('still reports no rate when even the minimum misses', async () => {
    const s = thresholdServer(50);
    const r = await searchMaxRate(s.probe, { ...options, hint_ops_per_s: 3_000 });
    expect(r.best).toBeNull();
    expect(r.stopped_by).toBeNull();
    expect(s.asked).toEqual([3_000, 2_850, 100]);
  });

  it('ignores a hint outside the bracket, and a disturbed miss at the hint decides nothing', async () => {
    const s = thresholdServer(7_300);
    await searchMaxRate(s.probe, { ...options, hint_ops_per_s: 50_000 });
    expect(s.asked.slice(0, 2)).toEqual([20_000, 100]);
    const asked: number[] = [];
    const noisy = async (rate: number): Promise<ProbeOutcome> => {
      asked.push(rate);
      const disturbed = asked.length === 1;
      const met = rate <= 7_300 && !disturbed;
      return { target_ops_per_s: rate, p99_ms: met ? 5 : 500, achieved_ops_per_s: rate, met, disturbed };
    };
    const r = await searchMaxRate(noisy, { ...options, hint_ops_per_s: 5_000 });
    expect(asked.slice(0, 3)).toEqual([5_000, 20_000, 100]);
    expect(r.stopped_by).toBeNull();
    expectDecided(r, 7_300, options.tolerance);
  });

  it('stops at a disturbed miss one tolerance away with what the hint decided', async () => {
    const r = await searchMaxRate(async (rate) => {
      const disturbed = rate > 7_200 && rate < 8_000;
      const met = rate <= 7_300 && !disturbed;
      return { target_ops_per_s: rate, p99_ms: met ? 5 : 500, achieved_ops_per_s: rate, met, disturbed };
    }, { ...options, hint_ops_per_s: 7_200 });
    expect(r.probes.map((p) => p.target_ops_per_s)).toEqual([7_200, 7_578]);
    expect(r.best!.target_ops_per_s).toBe(7_200);
    expect(r.stopped_by!.target_ops_per_s).toBe(7_578);
  });
});
