// One measured window of closed-loop load on a fresh 3-node native cluster: W clients, one
// outstanding put each (100-byte values on 200 keys), S seconds after a 1-second warm-up; the
// throughput, latency percentiles, and what else the machine ran meanwhile. The paired A/B
// benchmarks (durability-ab.ts, server-ab.ts) take their ratios from such windows.
import { readFileSync } from 'node:fs';
import { NativeCluster, type LaunchOptions } from './launcher.ts';
import { ReplicantClient } from './client.ts';

export interface WindowFigures {
  ops: number;
  seconds: number;
  ops_per_s: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  /** cores other processes used during the window (/proc: machine busy minus ours) */
  other_cores: number;
  load_average_1m: number;
  started_at: string;
}

const CLOCK_TICKS_PER_S = 100; // USER_HZ on Linux

function machineBusyTicks(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait
  return cpu.reduce((a, b) => a + b, 0) - cpu[3]! - (cpu[4] ?? 0);
}

function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]); // utime stime cutime cstime
  } catch {
    return 0;
  }
}

export function loadAverage1m(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** "median [min–max]" of a set of figures. */
export function medianAndRange(xs: number[], digits = 2): string {
  return `${median(xs).toFixed(digits)} [${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}]`;
}

/** Starts a cluster with `options`, loads it for `seconds` with `workers` clients, stops it. */
export async function measureWindow(options: LaunchOptions, seconds: number, workers: number): Promise<WindowFigures> {
  const cluster = await NativeCluster.start(options);
  const clients = Array.from({ length: workers }, () => new ReplicantClient(cluster.config.clients, { timeoutMs: 10_000 }));
  try {
    // a leader, and every client on it
    await Promise.all(clients.map((c, i) => c.request(`put warm${i} x`, 120_000)));
    const value = 'v'.repeat(100);
    const run = async (untilMs: number, latencies: number[] | null) => {
      await Promise.all(
        clients.map(async (c, i) => {
          for (let j = 0; Date.now() < untilMs; j++) {
            const t0 = performance.now();
            await c.request(`put k${(i * 7919 + j) % 200} ${value}`, 30_000);
            latencies?.push(performance.now() - t0);
          }
        }),
      );
    };
    await run(Date.now() + 1000, null);
    const pids = [process.pid, ...cluster.processes.map((p) => p?.pid ?? 0)];
    const busy0 = machineBusyTicks();
    const ours0 = pids.reduce((a, p) => a + processTicks(p), 0);
    const latencies: number[] = [];
    const t0 = performance.now();
    const startedAt = new Date().toISOString();
    await run(Date.now() + seconds * 1000, latencies);
    const elapsedS = (performance.now() - t0) / 1000;
    const other = (machineBusyTicks() - busy0 - (pids.reduce((a, p) => a + processTicks(p), 0) - ours0)) / CLOCK_TICKS_PER_S / elapsedS;
    latencies.sort((a, b) => a - b);
    return {
      ops: latencies.length,
      seconds: Number(elapsedS.toFixed(3)),
      ops_per_s: Number((latencies.length / elapsedS).toFixed(1)),
      latency_p50_ms: Number(percentile(latencies, 50).toFixed(2)),
      latency_p99_ms: Number(percentile(latencies, 99).toFixed(2)),
      other_cores: Number(Math.max(0, other).toFixed(2)),
      load_average_1m: loadAverage1m(),
      started_at: startedAt,
    };
  } finally {
    for (const c of clients) c.close();
    await cluster.stop();
  }
}
