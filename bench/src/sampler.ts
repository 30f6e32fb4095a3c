// Samples, once a second, what each node's cgroup used (CPU from cpuacct, memory, RSS) and how
// busy the whole machine was, so a result can say how much CPU other tenants took meanwhile.
import { readFileSync } from 'node:fs';
import type { Cgroup } from './cgroup.ts';

export interface Sample {
  /** Seconds since the epoch. */
  t_s: number;
  /** Cumulative CPU ns of each group (nodes first, then the load generator). */
  cpu_ns: number[];
  memory_bytes: number[];
  rss_bytes: (number | null)[];
  /** Machine-wide cumulative busy and total jiffies (/proc/stat "cpu" line). */
  machine_busy_ticks: number;
  machine_total_ticks: number;
}

export function parseProcStatCpu(text: string): { busy: number; total: number } {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('/proc/stat has no cpu line');
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  // guest time is already counted in user/nice
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

export function rssBytes(pid: number | null): number | null {
  if (!pid) return null;
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export class Sampler {
  readonly samples: Sample[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly groups: Cgroup[], private readonly pids: () => (number | null)[], private readonly interval_ms = 1000) {}

  sampleNow(): Sample {
    const stat = parseProcStatCpu(readFileSync('/proc/stat', 'utf8'));
    const pids = this.pids();
    const safe = (f: () => number) => {
      try {
        return f();
      } catch {
        return 0;
      }
    };
    const s: Sample = {
      t_s: Date.now() / 1000,
      cpu_ns: this.groups.map((g) => safe(() => g.cpuUsageNs())),
      memory_bytes: this.groups.map((g) => safe(() => g.memoryUsageBytes())),
      rss_bytes: pids.map(rssBytes),
      machine_busy_ticks: stat.busy,
      machine_total_ticks: stat.total,
    };
    this.samples.push(s);
    return s;
  }

  start(): void {
    this.sampleNow();
    this.timer = setInterval(() => this.sampleNow(), this.interval_ms);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sampleNow();
  }
}

export interface WindowUsage {
  /** Cores used by each group, averaged over the window. */
  cores: number[];
  /** Per-second cores used by each group: [t_s relative to from, cores][]. */
  timeline: [number, number][][];
  memory_peak_bytes: number[];
  rss_peak_bytes: (number | null)[];
  /** Cores the whole machine was busy, and the part not used by our groups (other tenants). */
  machine_cores_busy: number;
  other_cores_busy: number;
}

/** Usage between two wall-clock instants, from the samples that bracket them. */
export function usageInWindow(samples: Sample[], from_s: number, to_s: number, ticksPerSecond = 100): WindowUsage {
  const inside = samples.filter((s) => s.t_s >= from_s - 0.5 && s.t_s <= to_s + 0.5);
  if (inside.length < 2) throw new Error(`too few samples in the window (${inside.length}); the probe was too short`);
  const first = inside[0]!;
  const last = inside[inside.length - 1]!;
  const span = last.t_s - first.t_s;
  const groups = first.cpu_ns.length;
  const cores = Array.from({ length: groups }, (_, g) => (last.cpu_ns[g]! - first.cpu_ns[g]!) / 1e9 / span);
  const timeline = Array.from({ length: groups }, (_, g) =>
    inside.slice(1).map((s, i) => {
      const prev = inside[i]!;
      return [Number((s.t_s - from_s).toFixed(3)), (s.cpu_ns[g]! - prev.cpu_ns[g]!) / 1e9 / (s.t_s - prev.t_s)] as [number, number];
    }),
  );
  const machine = (last.machine_busy_ticks - first.machine_busy_ticks) / ticksPerSecond / span;
  const ours = cores.reduce((a, b) => a + b, 0);
  return {
    cores,
    timeline,
    memory_peak_bytes: Array.from({ length: groups }, (_, g) => Math.max(...inside.map((s) => s.memory_bytes[g]!))),
    rss_peak_bytes: Array.from({ length: first.rss_bytes.length }, (_, g) => {
      const v = inside.map((s) => s.rss_bytes[g]).filter((x): x is number => x !== null);
      return v.length ? Math.max(...v) : null;
    }),
    machine_cores_busy: machine,
    other_cores_busy: Math.max(0, machine - ours),
  };
}

/** Cores the machine is busy with, over `window_ms`, minus what `ours()` used meanwhile. */
export async function backgroundCores(ours: () => number, window_ms = 1000, ticksPerSecond = 100): Promise<number> {
  const a = parseProcStatCpu(readFileSync('/proc/stat', 'utf8'));
  const oursA = ours();
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, window_ms));
  const b = parseProcStatCpu(readFileSync('/proc/stat', 'utf8'));
  const seconds = (Date.now() - t0) / 1000;
  const machine = (b.busy - a.busy) / ticksPerSecond / seconds;
  return Math.max(0, machine - (ours() - oursA) / 1e9 / seconds);
}
