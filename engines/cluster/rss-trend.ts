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
   * buffers' warm-up left out), in bytes per minute, printed beside the verdict; null with fewer
   * than two such samples. */
  settledSlopeBytesPerMin: number | null;
  /** The same over the resident floor of those samples (residentFloor): what the rule judges.
   * null with fewer than two windows. */
  settledFloorSlopeBytesPerMin: number | null;
  /** From the first to the last sample after the warm-up (0 with fewer than two). */
  settledSpanMs: number;
  /** The rule the settled slope was taken by and is judged by. */
  rule: FlatRule;
}

/**
 * What "flat" means for a node of the reset run, one rule for every engine, stated before the
 * runs it judges (the lead's decisions for issue 20, row 12; docs/reliability.md): after a
 * warm-up (`settleMs`, left out, the same for every engine), the memory the node keeps — the
 * resident floor, each 5 s window's least sample (residentFloor) — grows by at most
 * `boundBytesPerMin` (least-squares slope over the window). Since stop 38, stated before its
 * round: the issue's failure was a log that stopped trimming and grew without bound, so the
 * bound is on growth of what is kept; the misses of the form before it (every sample, both
 * ways) were a Go runtime giving heap back after a burst (-1.80 MiB/min) and JVMs whose RSS
 * moved a few MiB for seconds around a level (+3.2 MiB for a few seconds near the window's
 * end read +1.2 MiB/min). A leak, or a step a runtime keeps, is in every window after it, so
 * it climbs the floor as much as the samples; the slope of every sample and a fall are
 * printed beside the verdict, never hidden. A leak of one peer message per reset, or a log
 * that stopped trimming, climbs by megabytes a minute (issue 20: 10-20 MiB in 7 s).
 */
export interface FlatRule {
  settleMs: number;
  boundBytesPerMin: number;
}

/** The bound of the rule: growth of at most 1 MiB a minute. */
export const FLAT_BOUND_BYTES_PER_MIN = 1 << 20;

/**
 * The warm-up of issue 20's memory run (`npm run cluster:resets`; REPLICANT_RESET_WARMUP_S sets
 * another), the same for every engine: long enough for the JVM's JIT. HotSpot's compiler arenas
 * take up to ~12 MiB from malloc for a C2 compilation and give it back seconds later; in the
 * 180 s java,java,java runs with native memory tracking the last such step came at ~100 s, and
 * in the 600 s run the Java node's floor rose +1.46 MiB/min over 20-120 s and +0.47 over
 * 120-180 s (docs/reliability.md). Go, Rust and C++, judged after 20 s before branch trim10,
 * get the same 120 s.
 */
export const ISSUE_WARM_UP_MS = 120_000;

/** The rule with a warm-up of `warmUpMs`. */
export function flatRule(warmUpMs: number): FlatRule {
  return { settleMs: warmUpMs, boundBytesPerMin: FLAT_BOUND_BYTES_PER_MIN };
}

/** Issue 20's rule: ISSUE_WARM_UP_MS, then a window judged on its resident floor. */
export const FLAT_RULE: FlatRule = flatRule(ISSUE_WARM_UP_MS);

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

/** Whether a trend is flat by its rule, judged on the resident floor of its window (null: a
 * window shorter than MIN_FIT_SPAN_MS, too short to say). */
export function isFlat(t: RssTrend | null): boolean | null {
  if (!t || t.settledFloorSlopeBytesPerMin === null || t.settledSpanMs < MIN_FIT_SPAN_MS) return null;
  return withinFlatBound(t.settledFloorSlopeBytesPerMin, t.rule);
}

/** The rule's test of a slope: growth at most the bound; a fall of any size passes (it is
 * printed as one: describeSlope). */
export function withinFlatBound(slopeBytesPerMin: number, rule: FlatRule): boolean {
  return slopeBytesPerMin <= rule.boundBytesPerMin;
}

/** "+0.10 MiB/min (flat: growth bound +1)", "-1.80 MiB/min (flat, falling: memory given back;
 * growth bound +1)", "+2.16 MiB/min (not flat: growth bound +1)" */
function describeSlope(slopeBytesPerMin: number, rule: FlatRule): string {
  const v = slopeBytesPerMin / (1 << 20);
  const verdict = !withinFlatBound(slopeBytesPerMin, rule) ? 'not flat:' : -slopeBytesPerMin > rule.boundBytesPerMin ? 'flat, falling: memory given back;' : 'flat:';
  return `${v >= 0 ? '+' : ''}${v.toFixed(2)} MiB/min (${verdict} growth bound +${rule.boundBytesPerMin / (1 << 20)})`;
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
    settledSpanMs: settled.length > 1 ? settled[settled.length - 1]!.atMs - settled[0]!.atMs : 0,
    rule,
  };
}

/** "first 10 s 12.3 MiB, last 10 s 12.5 MiB, slope +0.1 MiB/min, peak 13.0 MiB, after 120 s
 * every sample +0.10 MiB/min (not judged), its 5 s floor +0.08 MiB/min (flat: growth bound +1)" */
export function describeRssTrend(t: RssTrend | null): string {
  if (!t) return 'no samples';
  const mib = (b: number) => (b / (1 << 20)).toFixed(1);
  const slope = t.slopeBytesPerMin / (1 << 20);
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
  const warmUp = `${t.rule.settleMs / 1000} s`;
  const head = `first 10 s ${mib(t.firstMeanBytes)} MiB, last 10 s ${mib(t.lastMeanBytes)} MiB, slope ${signed(slope)} MiB/min, peak ${mib(t.peakBytes)} MiB`;
  if (t.settledSlopeBytesPerMin === null) return `${head}, nothing after ${warmUp} (no verdict: growth bound +${t.rule.boundBytesPerMin / (1 << 20)} after ${warmUp})`;
  const floor = `its ${FLOOR_WINDOW_MS / 1000} s floor`;
  const floorSlope = t.settledFloorSlopeBytesPerMin;
  const judged =
    floorSlope === null
      ? `${floor} too short (no verdict)`
      : isFlat(t) === null
        ? `${floor} ${signed(floorSlope / (1 << 20))} MiB/min (no verdict: a window of ${(t.settledSpanMs / 1000).toFixed(1)} s, under ${MIN_FIT_SPAN_MS / 1000} s)`
        : `${floor} ${describeSlope(floorSlope, t.rule)}`;
  return `${head}, after ${warmUp} every sample ${signed(t.settledSlopeBytesPerMin / (1 << 20))} MiB/min (not judged), ${judged}`;
}

/**
 * The least window a verdict is given on (issue 20's window is 60 s; the rule before branch
 * `trim10` fitted 40 s after a 20 s warm-up). Shorter fits are too noisy for the ±1 MiB/min bound: in the
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

/** How long after a leadership change a node's new working set takes to settle (seen: a C++
 * node +0.7 MiB within 5 s of becoming leader, then flat; testdata). */
export const LEADERSHIP_SETTLE_MS = 20_000;

export interface SlopeSinceChange {
  changeAtMs: number;
  /** Samples from here on are fitted: the change plus LEADERSHIP_SETTLE_MS, or the rule's
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
 * hears from a new peer, so its working set grows to a new size as it did at start-up. The
 * same bound as the rule, over the resident floor; only the start moves, and a fit shorter than MIN_FIT_SPAN_MS
 * gets no verdict. A leak does not stop at a leadership change, so it still fails.
 */
export function slopeSinceChange(samples: RssSample[], rule: FlatRule, changeAtMs: number): SlopeSinceChange {
  const start = samples[0]?.atMs ?? 0;
  const fromMs = Math.max(changeAtMs + LEADERSHIP_SETTLE_MS, start + rule.settleMs);
  const after = samples.filter((s) => s.atMs >= fromMs);
  const span = after.length > 1 ? after[after.length - 1]!.atMs - after[0]!.atMs : 0;
  return { changeAtMs, fromMs, slopeBytesPerMin: span >= MIN_FIT_SPAN_MS ? slope(residentFloor(after)) : null, rule };
}

/** "since the leadership change at 41.1 s: after 61.1 s +0.11 MiB/min (flat: growth bound +1)". */
export function describeSlopeSinceChange(x: SlopeSinceChange): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const head = `since the leadership change at ${s(x.changeAtMs)}: after ${s(x.fromMs)}`;
  if (x.slopeBytesPerMin === null) return `${head} less than ${MIN_FIT_SPAN_MS / 1000} s of samples (no verdict)`;
  return `${head} ${describeSlope(x.slopeBytesPerMin, x.rule)}`;
}
