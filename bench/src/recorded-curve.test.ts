import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { searchMaxRate, type SearchResult } from './bisect.ts';
import { curveProbe, p99At, readRecordedCurve, type RecordedCurve } from './recorded-curve.ts';

// Chunk 1 of the reference run (a quiet machine, 14 settings of workload A): each setting's own
// probes are its response curve. Named, not globbed: later chunks share the directory but were
// warm-started, so their few probes do not trace a whole curve (a glob broke this test when chunk
// 2 landed).
const DETAILS = join(dirname(fileURLToPath(import.meta.url)), '../../data/native/2026-11-27-reference/ratios-a/details');
const CHUNK_1 = [
  ...['cpp', 'go'].flatMap((e) => ['r1p25', 'r1p5', 'r2', 'r8'].map((r) => `${e}-a-${r}-8vcpu-rep1`)),
  ...['java', 'rust'].flatMap((e) => ['r1p5', 'r2', 'r8'].map((r) => `${e}-a-${r}-8vcpu-rep1`)),
].sort();
const curves = CHUNK_1.map((id) => readRecordedCurve(join(DETAILS, `${id}.jsonl`)));
const SLO_MS = 50;
const scaled = { min_ops_per_s: 100, tolerance: 0.1, max_probes: 7 };

/** The highest rate the curve meets the SLO at, to 1 ops/s. */
function limitOf(c: RecordedCurve): number {
  let lo = 1;
  let hi = c.top_ops_per_s * 4;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (p99At(c, mid) <= SLO_MS) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The bracket a search ended with: (lowest miss above the answer − answer) / that miss. */
function gapOf(r: SearchResult): number {
  const edge = Math.min(...r.probes.filter((p) => !p.met && p.target_ops_per_s > r.best!.target_ops_per_s).map((p) => p.target_ops_per_s));
  return (edge - r.best!.target_ops_per_s) / edge;
}

/** A search's guarantee: a met rate at or below the limit with a miss within the tolerance above it. */
function expectDecided(r: SearchResult, limit: number) {
  expect(r.best!.met).toBe(true);
  expect(r.best!.target_ops_per_s).toBeLessThanOrEqual(limit);
  expect(gapOf(r)).toBeLessThanOrEqual(scaled.tolerance);
}

/** A search that ran out of its 7 probes leaves a lower bound (bench/src/results.ts openBracket),
 * as 4 of chunk 1's 14 cold ones did natively; one that did not is decided. */
function expectAnswerOrLowerBound(r: SearchResult, limit: number) {
  expect(r.best!.target_ops_per_s).toBeLessThanOrEqual(limit);
  if (gapOf(r) > scaled.tolerance) expect(r.probes).toHaveLength(scaled.max_probes);
  else expectDecided(r, limit);
}

async function both(c: RecordedCurve, hint: number) {
  const coldAsked: number[] = [];
  const warmAsked: number[] = [];
  const cold = await searchMaxRate(curveProbe(c, SLO_MS, coldAsked), { ...scaled, max_ops_per_s: c.top_ops_per_s });
  const warm = await searchMaxRate(curveProbe(c, SLO_MS, warmAsked), { ...scaled, max_ops_per_s: c.top_ops_per_s, hint_ops_per_s: hint });
  return { cold, warm, coldAsked, warmAsked };
}

describe('the warm start on the response curves chunk 1 recorded', () => {
  it('reads every setting of the chunk, each with a met and a missed probe', () => {
    expect(curves).toHaveLength(14);
    for (const c of curves) {
      expect(c.points.some(([, p]) => p <= SLO_MS)).toBe(true);
      expect(c.points.some(([, p]) => p > SLO_MS)).toBe(true);
    }
  });

  it.each(curves.map((c) => [c.setting, c] as const))('%s: warm from its own answer (the next repetition) decides what a cold search decides, in fewer probes', async (_id, c) => {
    const limit = limitOf(c);
    const { cold, warm, coldAsked, warmAsked } = await both(c, c.answer_ops_per_s!);
    expectAnswerOrLowerBound(cold, limit);
    expectDecided(warm, limit);
    // a decided cold answer and the warm one lie within the tolerance below the same limit; a
    // cold lower bound lies below the warm answer's bracket
    if (gapOf(cold) <= scaled.tolerance) expect(Math.abs(warm.best!.target_ops_per_s - cold.best!.target_ops_per_s) / limit).toBeLessThanOrEqual(scaled.tolerance);
    else expect(cold.best!.target_ops_per_s).toBeLessThan(warm.best!.target_ops_per_s / (1 - scaled.tolerance));
    expect(warmAsked.length).toBeLessThanOrEqual(coldAsked.length);
  });

  it('widens a wrong warm bracket: Rust given Java\'s answer, Java given Rust\'s', async () => {
    const rust = curves.find((c) => c.setting === 'rust-a-r8-8vcpu-rep1')!;
    const java = curves.find((c) => c.setting === 'java-a-r8-8vcpu-rep1')!;
    const up = await both(rust, java.answer_ops_per_s!);
    // 4 times too low a hint costs the probes it took to find that out: a lower bound, as cold here
    expectAnswerOrLowerBound(up.warm, limitOf(rust));
    expectAnswerOrLowerBound(up.cold, limitOf(rust));
    expect(up.warmAsked.slice(0, 2).every((r) => p99At(rust, r) <= SLO_MS)).toBe(true); // hint and one tolerance above: both met
    expect(up.warmAsked).toContain(rust.top_ops_per_s); // so the bracket widened to the top
    const down = await both(java, Math.min(rust.answer_ops_per_s!, java.top_ops_per_s - 1));
    expectAnswerOrLowerBound(down.warm, limitOf(java));
    expect(down.warmAsked).toContain(scaled.min_ops_per_s); // widened to the minimum
    expectAnswerOrLowerBound(down.cold, limitOf(java));
  });
});
