// Resident memory over a run, per node: what "stays flat" means in figures (issue 20's 60 s run
// with a reset every 5 s). Pure: samples in, summary out; reset.test.ts samples /proc.

export interface RssSample {
  /** ms since the run started */
  atMs: number;
  bytes: number;
}

export interface RssTrend {
  /** Mean over the first and the last `windowMs` of the run. */
  firstMeanBytes: number;
  lastMeanBytes: number;
  /** Least-squares slope over every sample, in bytes per minute. */
  slopeBytesPerMin: number;
  peakBytes: number;
  samples: number;
  /** Least-squares slope over the samples from `settleMs` on (the runtimes' and buffers'
   * warm-up left out), in bytes per minute; null with fewer than two such samples. */
  settledSlopeBytesPerMin: number | null;
}

/** The warm-up left out of the settled slope: the first 20 s of issue 20's 60 s run. */
export const SETTLE_MS = 20_000;
/**
 * What "flat" means for the 60 s reset run: the settled slope (the last 40 s) within ±1 MiB a
 * minute. A node that holds a bounded log and a fixed key set still moves by a few hundred KiB as
 * allocators and kernel socket buffers come and go; a leak of one peer message per reset, or a
 * log that stopped trimming, climbs by megabytes a minute (issue 20: 10-20 MiB in 7 s).
 */
export const FLAT_SLOPE_BYTES_PER_MIN = 1 << 20;

function slope(samples: RssSample[]): number | null {
  if (samples.length < 2) return null;
  const mt = samples.reduce((a, s) => a + s.atMs, 0) / samples.length;
  const mb = samples.reduce((a, s) => a + s.bytes, 0) / samples.length;
  let cov = 0;
  let varT = 0;
  for (const s of samples) {
    cov += (s.atMs - mt) * (s.bytes - mb);
    varT += (s.atMs - mt) ** 2;
  }
  return varT > 0 ? (cov / varT) * 60_000 : 0;
}

/** Whether a trend is flat by FLAT_SLOPE_BYTES_PER_MIN (null: too short to say). */
export function isFlat(t: RssTrend | null): boolean | null {
  if (!t || t.settledSlopeBytesPerMin === null) return null;
  return Math.abs(t.settledSlopeBytesPerMin) <= FLAT_SLOPE_BYTES_PER_MIN;
}

/** Summarises a node's samples (at least two, in time order); null if there are fewer. */
export function rssTrend(samples: RssSample[], windowMs = 10_000, settleMs = SETTLE_MS): RssTrend | null {
  if (samples.length < 2) return null;
  const start = samples[0]!.atMs;
  const end = samples[samples.length - 1]!.atMs;
  const mean = (xs: RssSample[]) => xs.reduce((a, s) => a + s.bytes, 0) / xs.length;
  const first = samples.filter((s) => s.atMs <= start + windowMs);
  const last = samples.filter((s) => s.atMs >= end - windowMs);
  return {
    firstMeanBytes: mean(first),
    lastMeanBytes: mean(last),
    slopeBytesPerMin: slope(samples)!,
    peakBytes: Math.max(...samples.map((s) => s.bytes)),
    samples: samples.length,
    settledSlopeBytesPerMin: slope(samples.filter((s) => s.atMs >= start + settleMs)),
  };
}

/** "first 10 s 12.3 MiB, last 10 s 12.5 MiB, slope +0.1 MiB/min, peak 13.0 MiB" */
export function describeRssTrend(t: RssTrend | null): string {
  if (!t) return 'no samples';
  const mib = (b: number) => (b / (1 << 20)).toFixed(1);
  const slope = t.slopeBytesPerMin / (1 << 20);
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
  const settled =
    t.settledSlopeBytesPerMin === null
      ? ''
      : `, after ${SETTLE_MS / 1000} s ${signed(t.settledSlopeBytesPerMin / (1 << 20))} MiB/min (${isFlat(t) ? 'flat' : 'not flat'}: bound ±${FLAT_SLOPE_BYTES_PER_MIN / (1 << 20)})`;
  return `first 10 s ${mib(t.firstMeanBytes)} MiB, last 10 s ${mib(t.lastMeanBytes)} MiB, slope ${signed(slope)} MiB/min, peak ${mib(t.peakBytes)} MiB${settled}`;
}
