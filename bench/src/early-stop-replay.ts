// What --early-stop would have saved on a probe recorded without it (plan-replay --early-stop):
// its details line keeps no timeline, only the window's percentile spectrum, so how many
// operations were over the SLO is taken from the spectrum (a lower bound) and when the rule would
// have decided is estimated as if they came evenly (early-stop.ts estimatedDecisionS).
import * as hdr from 'hdr-histogram-js';
import { estimatedDecisionS, overSloCount } from './early-stop.ts';
import type { IntervalLog } from './hdr.ts';
import type { BenchOptions } from './plan.ts';

/** A details line of a probe, the fields used here. */
export interface RecordedProbe {
  type: string;
  kind?: string;
  met?: boolean;
  disturbed?: boolean;
  target_ops_per_s: number;
  achieved_ops_per_s: number;
  window_s: number;
  intended?: { count: number; hdr_base64?: string; spectrum?: [number, number][] };
}

/** At least this many operations were over the SLO: above the lowest percentile of the spectrum
 * whose latency is over it lies that share of the window (none if no point is over it). */
export function overSloFromSpectrum(spectrum: [number, number][], count: number, slo_us: number): number {
  const over = spectrum.filter(([, v]) => v > slo_us).map(([pct]) => pct);
  return over.length ? Math.floor(((100 - Math.min(...over)) / 100) * count) : 0;
}

/** Seconds of the probe's window the rule would have saved (0: not decided before its end, or
 * nothing kept to tell). The warm-up's operations are taken at the achieved rate. */
export function earlyStopSavingS(p: RecordedProbe, o: Pick<BenchOptions, 'warmup_s' | 'duration_s' | 'threads'>, slo_ms: number): number {
  const slo_us = slo_ms * 1000;
  const over = p.intended?.hdr_base64
    ? overSloCount(hdr.decodeFromCompressedBase64(p.intended.hdr_base64) as IntervalLog['intervals'][number]['histogram'], slo_us)
    : p.intended?.spectrum ? overSloFromSpectrum(p.intended.spectrum, p.intended.count, slo_us) : 0;
  const plan = { target_ops_per_s: p.target_ops_per_s, warmup_s: o.warmup_s, duration_s: o.duration_s, slo_ms, threads: o.threads };
  const at = estimatedDecisionS(plan, { over_slo: over, window_s: p.window_s, before_window: p.achieved_ops_per_s * o.warmup_s });
  return at === null ? 0 : Math.max(0, o.warmup_s + p.window_s - at);
}
