// Watches where each node's cgroup memory is while a run goes on (every 100 ms): the cgroup's
// usage, and what it is made of — anonymous memory (memory.stat rss), page cache, kernel memory
// (memory.kmem.usage_in_bytes: cgroup v1 charges it to the group's usage too, so stacks, page
// tables and slab count against the limit) — and the node's thread count. A footprint and a
// survival run watched the same way can be compared part by part.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Cgroup } from './cgroup.ts';

export interface MemoryReading {
  usage_bytes: number;
  rss_bytes: number;
  cache_bytes: number;
  kmem_bytes: number;
  threads: number;
}

export interface MemoryWatchSummary {
  /** The reading at the highest usage seen. */
  at_peak: MemoryReading;
  /** Each field's own highest value over the run (they need not peak together). */
  max: MemoryReading;
  samples: number;
}

const ZERO: MemoryReading = { usage_bytes: 0, rss_bytes: 0, cache_bytes: 0, kmem_bytes: 0, threads: 0 };

export function emptySummary(): MemoryWatchSummary {
  return { at_peak: { ...ZERO }, max: { ...ZERO }, samples: 0 };
}

/** Folds one reading into a summary (pure: the watcher's whole logic, tested on its own). */
export function foldReading(s: MemoryWatchSummary, r: MemoryReading): MemoryWatchSummary {
  const max = { ...s.max };
  for (const k of Object.keys(ZERO) as (keyof MemoryReading)[]) max[k] = Math.max(max[k], r[k]);
  const at_peak = s.samples === 0 || r.usage_bytes > s.at_peak.usage_bytes ? { ...r } : s.at_peak;
  return { at_peak, max, samples: s.samples + 1 };
}

/** The Threads: line of /proc/PID/status, 0 when the process is gone. */
export function threadCount(pid: number | null): number {
  if (!pid) return 0;
  try {
    return Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export function readMemory(g: Cgroup, pid: number | null): MemoryReading {
  const stat = g.memoryStat();
  let kmem = 0;
  try {
    kmem = Number(readFileSync(join(g.dirs.memory, 'memory.kmem.usage_in_bytes'), 'utf8'));
  } catch {
    // no kmem accounting on this kernel: kernel memory is then not in the usage either
  }
  return { usage_bytes: g.memoryUsageBytes(), rss_bytes: stat.rss ?? 0, cache_bytes: stat.cache ?? 0, kmem_bytes: kmem, threads: threadCount(pid) };
}

export class MemoryWatch {
  summaries: MemoryWatchSummary[];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly groups: Cgroup[], private readonly pid: (id: number) => number | null, private readonly interval_ms = 100) {
    this.summaries = groups.map(emptySummary);
  }

  sampleNow(): void {
    this.groups.forEach((g, i) => {
      try {
        this.summaries[i] = foldReading(this.summaries[i]!, readMemory(g, this.pid(i)));
      } catch {
        // the group is gone (node stopped): keep what was seen
      }
    });
  }

  start(): void {
    this.sampleNow();
    this.timer = setInterval(() => this.sampleNow(), this.interval_ms);
  }

  stop(): MemoryWatchSummary[] {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sampleNow();
    return this.summaries;
  }
}

const mib = (b: number) => (b / 2 ** 20).toFixed(1);

/** One node's summary in a line: "usage 14.3 = rss 13.7 + kmem 0.6 (+cache 0.0) MiB, 6 threads". */
export function describeMemory(s: MemoryWatchSummary): string {
  const p = s.at_peak;
  return `usage ${mib(p.usage_bytes)} = rss ${mib(p.rss_bytes)} + kmem ${mib(p.kmem_bytes)} + cache ${mib(p.cache_bytes)} MiB, ${p.threads} threads (max rss ${mib(s.max.rss_bytes)}, kmem ${mib(s.max.kmem_bytes)})`;
}
