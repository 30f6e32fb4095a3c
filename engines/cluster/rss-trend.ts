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
}

/** Summarises a node's samples (at least two, in time order); null if there are fewer. */
export function rssTrend(samples: RssSample[], windowMs = 10_000): RssTrend | null {
  if (samples.length < 2) return null;
  const start = samples[0]!.atMs;
  const end = samples[samples.length - 1]!.atMs;
  const mean = (xs: RssSample[]) => xs.reduce((a, s) => a + s.bytes, 0) / xs.length;
  const first = samples.filter((s) => s.atMs <= start + windowMs);
  const last = samples.filter((s) => s.atMs >= end - windowMs);
  const mt = samples.reduce((a, s) => a + s.atMs, 0) / samples.length;
  const mb = mean(samples);
  let cov = 0;
  let varT = 0;
  for (const s of samples) {
    cov += (s.atMs - mt) * (s.bytes - mb);
    varT += (s.atMs - mt) ** 2;
  }
  return {
    firstMeanBytes: mean(first),
    lastMeanBytes: mean(last),
    slopeBytesPerMin: varT > 0 ? (cov / varT) * 60_000 : 0,
    peakBytes: Math.max(...samples.map((s) => s.bytes)),
    samples: samples.length,
  };
}

/** "first 10 s 12.3 MiB, last 10 s 12.5 MiB, slope +0.1 MiB/min, peak 13.0 MiB" */
export function describeRssTrend(t: RssTrend | null): string {
  if (!t) return 'no samples';
  const mib = (b: number) => (b / (1 << 20)).toFixed(1);
  const slope = t.slopeBytesPerMin / (1 << 20);
  return `first 10 s ${mib(t.firstMeanBytes)} MiB, last 10 s ${mib(t.lastMeanBytes)} MiB, slope ${slope >= 0 ? '+' : ''}${slope.toFixed(2)} MiB/min, peak ${mib(t.peakBytes)} MiB`;
}
