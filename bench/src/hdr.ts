// Reads YCSB's HdrHistogram interval logs (hdrhistogram.fileoutput=true), one file per
// measurement (READ, UPDATE, Intended-READ, …), and merges the intervals after the warm-up
// into one histogram per kind of latency. Values are microseconds, as YCSB records them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';

type Histogram = ReturnType<typeof hdr.build>;

export interface IntervalLog {
  /** Offset of each interval's start from the log's base time, s. */
  intervals: { start_s: number; end_s: number; histogram: Histogram }[];
}

export function readIntervalLog(text: string): IntervalLog {
  const reader = new hdr.HistogramLogReader(text);
  const intervals: IntervalLog['intervals'] = [];
  for (;;) {
    const h = reader.nextIntervalHistogram();
    if (!h) break;
    const base = reader.startTimeSec;
    intervals.push({ start_s: h.startTimeStampMsec / 1000 - base, end_s: h.endTimeStampMsec / 1000 - base, histogram: h as Histogram });
  }
  return { intervals };
}

/** Adds every interval that starts in [from_s, to_s) into one histogram. */
export function mergeWindow(logs: IntervalLog[], from_s: number, to_s = Infinity): Histogram {
  const total = hdr.build({ numberOfSignificantValueDigits: 3 });
  for (const log of logs) {
    for (const i of log.intervals) if (i.start_s >= from_s - 1e-6 && i.start_s < to_s) total.add(i.histogram);
  }
  return total;
}

/** Seconds covered by the intervals that start in [from_s, to_s) (the measured window). */
export function windowSeconds(logs: IntervalLog[], from_s: number, to_s = Infinity): number {
  let first = Infinity;
  let last = -Infinity;
  for (const log of logs) {
    for (const i of log.intervals) {
      if (i.start_s >= from_s - 1e-6 && i.start_s < to_s) {
        first = Math.min(first, i.start_s);
        last = Math.max(last, i.end_s);
      }
    }
  }
  return last > first ? last - first : 0;
}

/**
 * The longest interval in the logs, s. YCSB writes one interval a second; on a machine whose
 * CPUs are taken by others its writer thread stalls and one interval may span the whole run,
 * which then has nothing after the warm-up to measure.
 */
export function longestIntervalSeconds(logs: IntervalLog[]): number {
  let longest = 0;
  for (const log of logs) for (const i of log.intervals) longest = Math.max(longest, i.end_s - i.start_s);
  return longest;
}

export interface LatencyStats {
  count: number;
  /** Operations that failed (YCSB's *-FAILED), counted as slower than any success. */
  failed: number;
  mean_us: number;
  max_us: number;
  p50_us: number;
  p99_us: number;
  p999_us: number;
  /** [percentile, value_us] for the log 1/(1-p) plot. */
  spectrum: [number, number][];
  hdr_base64: string;
}

/** Percentile over successes and failures, failures ranked above every success; null if the
 * percentile falls among the failures. */
export function percentileWithFailures(h: Histogram, failed: number, percentile: number): number | null {
  const ok = h.totalCount;
  const total = ok + failed;
  if (total === 0) return null;
  const rank = (percentile / 100) * total;
  if (rank > ok) return null;
  return h.getValueAtPercentile(Math.min(100, (rank / ok) * 100));
}

export function latencyStats(h: Histogram, failed = 0): LatencyStats {
  const spectrumPoints = [50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100];
  const pct = (p: number) => percentileWithFailures(h, failed, p) ?? Number.POSITIVE_INFINITY;
  return {
    count: h.totalCount,
    failed,
    mean_us: h.totalCount ? h.mean : 0,
    max_us: h.totalCount ? h.maxValue : 0,
    p50_us: pct(50),
    p99_us: pct(99),
    p999_us: pct(99.9),
    spectrum: h.totalCount ? spectrumPoints.map((p) => [p, h.getValueAtPercentile(p)] as [number, number]) : [],
    hdr_base64: h.totalCount ? hdr.encodeIntoCompressedBase64(h) : '',
  };
}

/** The text of a log up to its last complete line: YCSB may be mid-line when it is read while
 * running, or when it is stopped (--early-stop). */
export function completeLines(text: string): string {
  const end = text.lastIndexOf('\n');
  return end < 0 ? '' : text.slice(0, end + 1);
}

/** The logs of the given measurements found in a YCSB output folder, each up to its last
 * complete line. */
export function readLogs(dir: string, names: string[]): IntervalLog[] {
  return names
    .map((n) => join(dir, `${n}.hdr`))
    .filter((f) => existsSync(f))
    .map((f) => readIntervalLog(completeLines(readFileSync(f, 'utf8'))));
}
