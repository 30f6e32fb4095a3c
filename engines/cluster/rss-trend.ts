// Resident memory over a run, per node: what "stays flat" means in figures (issue 20's 60 s run
// with a reset every 5 s). Pure: samples in, summary out; reset.test.ts samples /proc.
import type { EngineName } from '../loader/engine.ts';

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
  /** Least-squares slope over the samples from the rule's `settleMs` on (the runtimes' and
   * buffers' warm-up left out), in bytes per minute; null with fewer than two such samples. */
  settledSlopeBytesPerMin: number | null;
  /** The rule the settled slope was taken by and is judged by. */
  rule: FlatRule;
}

/**
 * What "flat" means for a node of the reset run: the least-squares slope of its RSS after a
 * warm-up (`settleMs`, left out) within ±`boundBytesPerMin`. A node that holds a bounded log and
 * a fixed key set still moves by a few hundred KiB as allocators and kernel socket buffers come
 * and go; a leak of one peer message per reset, or a log that stopped trimming, climbs by
 * megabytes a minute (issue 20: 10-20 MiB in 7 s).
 */
export interface FlatRule {
  settleMs: number;
  boundBytesPerMin: number;
}

/** The rule for Go, Rust and C++: a 20 s warm-up, then ±1 MiB a minute. */
export const FLAT_RULE: FlatRule = { settleMs: 20_000, boundBytesPerMin: 1 << 20 };
/** The first 20 s of the 60 s run (FLAT_RULE's warm-up). */
export const SETTLE_MS = FLAT_RULE.settleMs;
/**
 * The rule for the JVM: the same bound after a 120 s warm-up, so it needs a run of 180 s
 * (`REPLICANT_RESET_S=180`); a 60 s run gets no verdict. Its RSS moves in steps of up to
 * ~12 MiB, either way, for as long as the JIT compiles hot paths: HotSpot's compiler arenas
 * ("Arena Chunk" in -XX:NativeMemoryTracking) take memory from malloc for a C2 compilation and
 * give it back a few seconds later, and malloc returns only part of it to the kernel. Heap
 * (fixed, pre-touched), GC structures, code cache, metaspace and threads stay flat. In the
 * 180 s runs of docs/reliability.md the last such step came at ~100 s; a leak still climbs
 * through the last minute, which the unchanged bound catches.
 */
export const JVM_FLAT_RULE: FlatRule = { settleMs: 120_000, boundBytesPerMin: FLAT_RULE.boundBytesPerMin };

/** The rule a node of `engine` is judged by (only the JVM's differs). */
export function flatRuleFor(engine: EngineName | undefined): FlatRule {
  return engine === 'java' ? JVM_FLAT_RULE : FLAT_RULE;
}

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

/** Whether a trend is flat by its rule (null: too short to say). */
export function isFlat(t: RssTrend | null): boolean | null {
  if (!t || t.settledSlopeBytesPerMin === null) return null;
  return Math.abs(t.settledSlopeBytesPerMin) <= t.rule.boundBytesPerMin;
}

/** Summarises a node's samples (at least two, in time order); null if there are fewer. */
export function rssTrend(samples: RssSample[], rule: FlatRule = FLAT_RULE, windowMs = 10_000): RssTrend | null {
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
    settledSlopeBytesPerMin: slope(samples.filter((s) => s.atMs >= start + rule.settleMs)),
    rule,
  };
}

/** "first 10 s 12.3 MiB, last 10 s 12.5 MiB, slope +0.1 MiB/min, peak 13.0 MiB, after 20 s …" */
export function describeRssTrend(t: RssTrend | null): string {
  if (!t) return 'no samples';
  const mib = (b: number) => (b / (1 << 20)).toFixed(1);
  const slope = t.slopeBytesPerMin / (1 << 20);
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
  const bound = `bound ±${t.rule.boundBytesPerMin / (1 << 20)}`;
  const settled =
    t.settledSlopeBytesPerMin === null
      ? `, nothing after ${t.rule.settleMs / 1000} s (no verdict: ${bound} after ${t.rule.settleMs / 1000} s)`
      : `, after ${t.rule.settleMs / 1000} s ${signed(t.settledSlopeBytesPerMin / (1 << 20))} MiB/min (${isFlat(t) ? 'flat' : 'not flat'}: ${bound})`;
  return `first 10 s ${mib(t.firstMeanBytes)} MiB, last 10 s ${mib(t.lastMeanBytes)} MiB, slope ${signed(slope)} MiB/min, peak ${mib(t.peakBytes)} MiB${settled}`;
}
