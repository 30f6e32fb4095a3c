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
  /** The same over the resident floor of those samples (residentFloor): what the verdict
   * judges. null with fewer than two windows. */
  settledFloorSlopeBytesPerMin: number | null;
  /** The rule the settled slope was taken by and is judged by. */
  rule: FlatRule;
}

/**
 * What "flat" means for a node of the reset run: the least-squares slope of its resident floor
 * (residentFloor: each 5 s window's least sample) after a warm-up (`settleMs`, left out) within
 * ±`boundBytesPerMin`. A node that holds a bounded log and
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
 * through the last minute, which the unchanged bound catches. Since the launcher has the JVM
 * trim its native heap once a second (describeNativeTrim), such a step is handed back within
 * seconds; a late compilation stayed in RSS before (the sixth series' Java risers).
 */
export const JVM_FLAT_RULE: FlatRule = { settleMs: 120_000, boundBytesPerMin: FLAT_RULE.boundBytesPerMin };

/**
 * What a JVM node's status says about trimming its native heap (`jvm_native_trim_interval_ms`),
 * printed beside its verdict: a JVM that never trims keeps the high-water mark of every C2
 * compilation in its RSS, so a compilation after the warm-up reads as growth (the sixth reset
 * series' two risers; docs/reliability.md, "The Java node beside C++ and Rust").
 */
export function describeNativeTrim(intervalMs: number | undefined): string {
  if (intervalMs === undefined) return 'not reported (an older server)';
  if (intervalMs < 0) return 'never (this JVM has no TrimNativeHeapInterval)';
  if (intervalMs === 0) return 'never (TrimNativeHeapInterval=0: RSS keeps each compilation\'s high-water mark)';
  return `every ${intervalMs} ms`;
}

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

/** The window residentFloor takes the least sample of. */
export const FLOOR_WINDOW_MS = 5_000;

/**
 * Each `windowMs` window's least sample (windows from the first sample on): the memory a node
 * kept through the window. Memory taken and given back within seconds (a JIT compilation's
 * arenas once the JVM trims its native heap; a collector's cycle) is not in it; memory kept is,
 * in every window after it, so a leak or a held step climbs the floor as much as the samples.
 * Seen: a Java node's +19.5 MiB for 4 s at 159 s, given back, read +2.16 MiB/min over every
 * sample after 120 s and +0.45 over the floor (docs/reliability.md, "The Java node beside C++
 * and Rust"); the sixth series' two held steps read +1.97 and +5.39 over the floor.
 */
export function residentFloor(samples: RssSample[], windowMs = FLOOR_WINDOW_MS): RssSample[] {
  const out: RssSample[] = [];
  const start = samples[0]?.atMs ?? 0;
  for (const s of samples) {
    const w = Math.floor((s.atMs - start) / windowMs);
    const last = out[out.length - 1];
    if (last && Math.floor((last.atMs - start) / windowMs) === w) {
      if (s.bytes < last.bytes) out[out.length - 1] = s;
    } else out.push(s);
  }
  return out;
}

/** Whether a trend is flat by its rule, judged on the resident floor (null: too short to say). */
export function isFlat(t: RssTrend | null): boolean | null {
  if (!t || t.settledFloorSlopeBytesPerMin === null) return null;
  return Math.abs(t.settledFloorSlopeBytesPerMin) <= t.rule.boundBytesPerMin;
}

/** Summarises a node's samples (at least two, in time order); null if there are fewer. */
export function rssTrend(samples: RssSample[], rule: FlatRule = FLAT_RULE, windowMs = 10_000): RssTrend | null {
  if (samples.length < 2) return null;
  const start = samples[0]!.atMs;
  const end = samples[samples.length - 1]!.atMs;
  const mean = (xs: RssSample[]) => xs.reduce((a, s) => a + s.bytes, 0) / xs.length;
  const first = samples.filter((s) => s.atMs <= start + windowMs);
  const last = samples.filter((s) => s.atMs >= end - windowMs);
  const settled = samples.filter((s) => s.atMs >= start + rule.settleMs);
  return {
    firstMeanBytes: mean(first),
    lastMeanBytes: mean(last),
    slopeBytesPerMin: slope(samples)!,
    peakBytes: Math.max(...samples.map((s) => s.bytes)),
    samples: samples.length,
    settledSlopeBytesPerMin: slope(settled),
    settledFloorSlopeBytesPerMin: slope(residentFloor(settled)),
    rule,
  };
}

/** "first 10 s 12.3 MiB, last 10 s 12.5 MiB, slope +0.1 MiB/min, peak 13.0 MiB, after 20 s +0.10
 * MiB/min, its 5 s floor +0.08 MiB/min (flat: bound ±1)" */
export function describeRssTrend(t: RssTrend | null): string {
  if (!t) return 'no samples';
  const mib = (b: number) => (b / (1 << 20)).toFixed(1);
  const slope = t.slopeBytesPerMin / (1 << 20);
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
  const bound = `bound ±${t.rule.boundBytesPerMin / (1 << 20)}`;
  const settled =
    t.settledSlopeBytesPerMin === null
      ? `, nothing after ${t.rule.settleMs / 1000} s (no verdict: ${bound} after ${t.rule.settleMs / 1000} s)`
      : `, after ${t.rule.settleMs / 1000} s ${signed(t.settledSlopeBytesPerMin / (1 << 20))} MiB/min, its ${FLOOR_WINDOW_MS / 1000} s floor ` +
        `${t.settledFloorSlopeBytesPerMin === null ? 'too short' : `${signed(t.settledFloorSlopeBytesPerMin / (1 << 20))} MiB/min`} (${isFlat(t) === null ? 'no verdict' : isFlat(t) ? 'flat' : 'not flat'}: ${bound})`;
  return `first 10 s ${mib(t.firstMeanBytes)} MiB, last 10 s ${mib(t.lastMeanBytes)} MiB, slope ${signed(slope)} MiB/min, peak ${mib(t.peakBytes)} MiB${settled}`;
}

/**
 * The least span of samples a settled slope is judged on: the 40 s the 60 s run's rule fits
 * (20 s of warm-up, 40 s after). Shorter fits are too noisy for the ±1 MiB/min bound: in the
 * third series (docs/reliability.md) the last 20 s of series flat over 40 s read −1.04 to
 * +2.25 MiB/min.
 */
export const MIN_FIT_SPAN_MS = 40_000;

/** Where a node's working set starts again: its first status line after the run started whose
 * role (leader or follower; a candidate is between the two) or leader differs from the line
 * before. Times in ms since the run started; candidates' lines are skipped. */
export function leadershipChanges(lines: { atMs: number; role: string; leader: number | null }[]): number[] {
  const out: number[] = [];
  let last: string | null = null;
  for (const x of lines) {
    if (x.role === 'candidate') continue;
    const now = `${x.role} ${x.leader}`;
    if (last !== null && now !== last && x.atMs >= 0) out.push(x.atMs);
    last = now;
  }
  return out;
}

export interface SlopeSinceChange {
  changeAtMs: number;
  /** Samples from here on are fitted: the change plus FLAT_RULE's warm-up, or the rule's own
   * warm-up if that ends later. */
  fromMs: number;
  /** The slope of their resident floor (as isFlat judges); null when the samples after
   * `fromMs` span less than MIN_FIT_SPAN_MS. */
  slopeBytesPerMin: number | null;
  rule: FlatRule;
}

/**
 * The settled slope counted again from a leadership change (leadershipChanges): a node that
 * starts leading takes on client connections and accept phases, and one whose leader changed
 * hears from a new peer, so its working set grows to a new size as it did at start-up (seen:
 * a C++ node +0.7 MiB within 5 s of becoming leader, then flat; testdata). The same warm-up
 * and the same bound as the rule; only the start moves, and a fit shorter than MIN_FIT_SPAN_MS
 * gets no verdict. A leak does not stop at a leadership change, so it still fails.
 */
export function slopeSinceChange(samples: RssSample[], rule: FlatRule, changeAtMs: number): SlopeSinceChange {
  const start = samples[0]?.atMs ?? 0;
  const fromMs = Math.max(changeAtMs + FLAT_RULE.settleMs, start + rule.settleMs);
  const after = samples.filter((s) => s.atMs >= fromMs);
  const span = after.length > 1 ? after[after.length - 1]!.atMs - after[0]!.atMs : 0;
  return { changeAtMs, fromMs, slopeBytesPerMin: span >= MIN_FIT_SPAN_MS ? slope(residentFloor(after)) : null, rule };
}

/** "since the leadership change at 41.1 s: after 61.1 s +0.11 MiB/min (flat: bound ±1)". */
export function describeSlopeSinceChange(x: SlopeSinceChange): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const bound = x.rule.boundBytesPerMin;
  const head = `since the leadership change at ${s(x.changeAtMs)}: after ${s(x.fromMs)}`;
  if (x.slopeBytesPerMin === null) return `${head} less than ${MIN_FIT_SPAN_MS / 1000} s of samples (no verdict)`;
  const v = x.slopeBytesPerMin / (1 << 20);
  return `${head} ${v >= 0 ? '+' : ''}${v.toFixed(2)} MiB/min (${Math.abs(x.slopeBytesPerMin) <= bound ? 'flat' : 'not flat'}: bound ±${bound / (1 << 20)})`;
}
