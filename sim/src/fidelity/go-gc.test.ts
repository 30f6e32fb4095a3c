// Fig 12's Go GC figures read from a sample of whole cycles (go-gc.ts) against the plain 120 s
// runs (their figures kept in testdata/go-gc-plain.json, go-gc-plain.ts: ≈ 50 CPU-s to make).
// Bounds, for every figure the table takes from these runs: the GC's instantaneous CPU share and
// the share of time a cycle runs within 0.25 percentage points, cycles per second within 1 %, and
// so the 32 → 8 GiB multiplier and the 6 → 5 GiB one (whose 5 GiB side is a plain run) within 1 %
// too. One cycle more or fewer in the 122 s moves cycles per second by 1.3 % (76 cycles at 6 GiB)
// to 7 % (14 at 32 GiB) and the runtime share by 0.38 pp (a 0.46 s cycle at 6 GiB) or more: so the
// bounds ask for the plain run's count of cycles. Seen: every count equal, the shares within
// 0.02 pp. (The brief's 0.5 pp and 2 % let the sample count the cycle still running at the end
// of the 6 GiB run, which the plain run does not record; these do not.)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GO_GC_RUN_S, goGcRunSpec, sampledGoGc, type SampledGoGc } from './go-gc.ts';
import { checkGoGcPlain } from './go-gc-plain.ts';
import { DEFAULT_CARD } from '../models/card.ts';

const RECORD_URL = new URL('./testdata/go-gc-plain.json', import.meta.url);
const readRecord = () => JSON.parse(readFileSync(fileURLToPath(RECORD_URL), 'utf8')) as unknown;

const SHARE_BOUND_PP = 0.25;
const RATE_BOUND = 0.01;

describe("Fig 12's Go runs from a sample of whole cycles", () => {
  const plain = checkGoGcPlain(readRecord());
  const sampled = new Map<number, SampledGoGc>();
  const at = (gib: number): SampledGoGc => {
    if (!sampled.has(gib)) sampled.set(gib, sampledGoGc(goGcRunSpec('A', gib, 8, plain.points.find((p) => p.gib === gib)!.ops_per_s)));
    return sampled.get(gib)!;
  };

  for (const p of plain.points) {
    it(`Go A ${p.gib} GiB at ${p.ops_per_s} ops/s: each figure within its bound of the plain ${GO_GC_RUN_S} s run`, () => {
      const s = at(p.gib);
      expect(s.sampled_s, 'the run ended early (a sample)').toBeDefined();
      expect(s.sampled_s!).toBeLessThan(GO_GC_RUN_S / 3);
      expect(Math.abs(s.figures.instantaneous_pct - p.figures.instantaneous_pct), `instantaneous ${s.figures.instantaneous_pct} % against ${p.figures.instantaneous_pct} %`).toBeLessThanOrEqual(SHARE_BOUND_PP);
      expect(Math.abs(s.figures.runtime_share_pct - p.figures.runtime_share_pct), `runtime share ${s.figures.runtime_share_pct} % against ${p.figures.runtime_share_pct} %`).toBeLessThanOrEqual(SHARE_BOUND_PP);
      expect(Math.abs(s.figures.cycles_per_s / p.figures.cycles_per_s - 1), `cycles per second ${s.figures.cycles_per_s} against ${p.figures.cycles_per_s}`).toBeLessThanOrEqual(RATE_BOUND);
    });
  }

  it('the 32 → 8 GiB frequency multiplier within 1 % of the plain runs', () => {
    const fig = (gib: number) => plain.points.find((p) => p.gib === gib)!.figures.cycles_per_s;
    const sampledRatio = at(8).figures.cycles_per_s / at(32).figures.cycles_per_s;
    expect(Math.abs(sampledRatio / (fig(8) / fig(32)) - 1)).toBeLessThanOrEqual(RATE_BOUND);
  });

  it('a record made under another model card is refused, with the command that writes it again', () => {
    const stale = { ...(readRecord() as object), model_card_fingerprint: '0000000000000000' };
    expect(() => checkGoGcPlain(stale, DEFAULT_CARD)).toThrow(/regenerate it with `npm --workspace @replicant\/sim run go-gc-plain/);
    expect(() => checkGoGcPlain({ points: [{ gib: 6 }], regenerate: 'x' })).toThrow(/three finite figures/);
  });
});
