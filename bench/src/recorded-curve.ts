// A setting's response curve as its native probes recorded it (details/<setting>.jsonl): intended
// p99 against offered rate, for replaying a search without a cluster (search-cost.ts, the warm
// start's tests). Between two recorded rates the p99 is interpolated linearly; below the lowest
// it is the lowest's, above the highest the highest's. Only clean search probes count.
import { readFileSync } from 'node:fs';
import type { ProbeOutcome } from './bisect.ts';

export interface RecordedCurve {
  setting: string;
  /** Clean search probes, by rate: [ops/s, intended p99 ms (Infinity: none completed)]. */
  points: [number, number][];
  /** The rate the recorded search started at: the saturation probe's throughput + 10 %. */
  top_ops_per_s: number;
  /** What the recorded search reported: its best met rate (null: not even the minimum). */
  answer_ops_per_s: number | null;
  search_probes: number;
}

interface DetailsLine {
  type: string;
  kind?: string;
  target_ops_per_s?: number;
  p99_ms?: number | null;
  met?: boolean;
  disturbed?: boolean;
  setting?: { id: string };
  search?: { best: { target_ops_per_s: number } | null };
}

export function readRecordedCurve(detailsFile: string): RecordedCurve {
  const lines = readFileSync(detailsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as DetailsLine);
  const head = lines.find((l) => l.type === 'setting');
  if (!head?.setting) throw new Error(`${detailsFile}: no setting line`);
  const probes = lines.filter((l) => l.type === 'probe');
  const search = probes.filter((p) => p.kind === 'search');
  const byRate = new Map<number, number>();
  for (const p of search) if (!p.disturbed) byRate.set(p.target_ops_per_s!, p.p99_ms ?? Infinity);
  const points = [...byRate.entries()].sort((a, b) => a[0] - b[0]);
  if (!points.length) throw new Error(`${detailsFile}: no clean search probe`);
  return {
    setting: head.setting.id,
    points,
    top_ops_per_s: search[0]!.target_ops_per_s!,
    answer_ops_per_s: head.search?.best?.target_ops_per_s ?? null,
    search_probes: search.length,
  };
}

/** The curve's p99 at a rate. */
export function p99At(curve: Pick<RecordedCurve, 'points'>, rate: number): number {
  const pts = curve.points;
  if (rate <= pts[0]![0]) return pts[0]![1];
  for (let i = 1; i < pts.length; i++) {
    const [r1, p1] = pts[i]!;
    if (rate <= r1) {
      const [r0, p0] = pts[i - 1]!;
      if (!Number.isFinite(p1)) return rate === r1 ? p1 : p0;
      return p0 + ((p1 - p0) * (rate - r0)) / (r1 - r0);
    }
  }
  return pts.at(-1)![1];
}

/** A noise-free probe on the curve: met when its p99 is within the SLO. */
export function curveProbe(curve: Pick<RecordedCurve, 'points'>, slo_ms: number, asked?: number[]) {
  return async (rate: number): Promise<ProbeOutcome> => {
    asked?.push(rate);
    const p99 = p99At(curve, rate);
    return { target_ops_per_s: rate, p99_ms: Number.isFinite(p99) ? p99 : null, achieved_ops_per_s: rate, met: p99 <= slo_ms };
  };
}
