// What other tenants did to a probe: CPU taken by processes outside the benchmark, hypervisor
// steal and the load average, from two snapshots of /proc around the probe, and the verdict
// "clean" or "disturbed" against thresholds. The parsing and the verdict are pure functions; only
// takeSnapshot() reads /proc.
import { readFileSync, readdirSync } from 'node:fs';

/** Cumulative CPU ticks of the whole machine, from the "cpu" line of /proc/stat. */
export interface CpuTicks {
  /** user + nice + system + irq + softirq: work done by this machine's processes. */
  work: number;
  idle: number;
  /** Time the hypervisor ran something else while we had work (steal). */
  steal: number;
  total: number;
}

export function parseCpuTicks(procStat: string): CpuTicks {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('/proc/stat has no "cpu" line');
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  if (v.length < 4 || v.some((x) => !Number.isFinite(x))) throw new Error(`/proc/stat: unreadable cpu line ${JSON.stringify(line)}`);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = v;
  // guest and guest_nice are already inside user and nice.
  return { work: user + nice + system + irq + softirq, idle: idle + iowait, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

export interface LoadAverage {
  one: number;
  five: number;
  fifteen: number;
  /** Runnable scheduling entities right now (threads, ours included). */
  runnable: number;
}

export function parseLoadAverage(text: string): LoadAverage {
  const m = /^([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\/(\d+)/.exec(text.trim());
  if (!m) throw new Error(`/proc/loadavg: unreadable ${JSON.stringify(text.slice(0, 80))}`);
  return { one: Number(m[1]), five: Number(m[2]), fifteen: Number(m[3]), runnable: Number(m[4]) };
}

/** One process's name and cumulative CPU ticks (utime + stime) from /proc/<pid>/stat. */
export function parsePidStat(text: string): { pid: number; comm: string; ticks: number } | null {
  // comm is in parentheses and may itself contain spaces and parentheses: split at the last ")".
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const rest = text.slice(close + 2).split(' ');
  // Fields after comm start at field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isInteger(pid) || !Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return { pid, comm: text.slice(open + 1, close), ticks: utime + stime };
}

export interface Snapshot {
  t_s: number;
  cpu: CpuTicks;
  load: LoadAverage;
  /** pid → [name, cumulative ticks] for every process, ours included. */
  processes: Map<number, [string, number]>;
  /** Cumulative CPU ns of the benchmark's own cgroups (nodes and load generator). */
  ours_ns: number;
  /** Processes of the benchmark (in its cgroups, and the harness itself). */
  our_pids: Set<number>;
  /** The harness's own process: outside the cgroups it measures, but not another tenant. */
  harness_pid: number;
}

/** Processes outside the benchmark, grouped by program name. */
export interface OtherProcess {
  comm: string;
  /** How many processes of that name used CPU in the window. */
  processes: number;
  cores: number;
}

/** What happened on the machine between two snapshots, outside the benchmark. */
export interface Interference {
  window_s: number;
  /** Cores of work by processes outside the benchmark's cgroups, averaged over the window. */
  other_cores: number;
  /** Share of the machine's CPU time stolen by the hypervisor, 0..1. */
  steal_share: number;
  /** Load average (1 min) at the end of the window, and runnable threads then. */
  load_1m: number;
  runnable: number;
  /** The busiest programs outside the benchmark, busiest first (at most five). */
  top_others: OtherProcess[];
}

export function interferenceBetween(a: Snapshot, b: Snapshot, ticksPerSecond = 100): Interference {
  const window_s = b.t_s - a.t_s;
  if (!(window_s > 0)) throw new Error(`snapshots out of order (${window_s} s apart)`);
  const machineWork = (b.cpu.work - a.cpu.work) / ticksPerSecond / window_s;
  const harnessTicks = (b.processes.get(b.harness_pid)?.[1] ?? 0) - (a.processes.get(a.harness_pid)?.[1] ?? 0);
  const ours = (b.ours_ns - a.ours_ns) / 1e9 / window_s + Math.max(0, harnessTicks) / ticksPerSecond / window_s;
  const totalTicks = b.cpu.total - a.cpu.total;
  const byName = new Map<string, OtherProcess>();
  for (const [pid, [comm, ticks]] of b.processes) {
    if (pid === b.harness_pid || b.our_pids.has(pid) || a.our_pids.has(pid)) continue;
    const before = a.processes.get(pid);
    // A process born inside the window counts from zero; one that reused a pid is skipped.
    const start = before && before[0] === comm ? before[1] : before ? ticks : 0;
    const cores = (ticks - start) / ticksPerSecond / window_s;
    if (cores <= 0) continue;
    const g = byName.get(comm) ?? { comm, processes: 0, cores: 0 };
    g.processes++;
    g.cores += cores;
    byName.set(comm, g);
  }
  const others = [...byName.values()].map((g) => ({ ...g, cores: round(g.cores) }));
  others.sort((x, y) => y.cores - x.cores || x.comm.localeCompare(y.comm));
  return {
    window_s: round(window_s),
    other_cores: round(Math.max(0, machineWork - ours)),
    steal_share: totalTicks > 0 ? round((b.cpu.steal - a.cpu.steal) / totalTicks) : 0,
    load_1m: b.load.one,
    runnable: b.load.runnable,
    top_others: others.slice(0, 5),
  };
}

export interface Thresholds {
  /** A probe is disturbed when other processes used more than this many cores on average. */
  other_cores: number;
  /** … or when more than this share of the CPU time was stolen by the hypervisor. */
  steal_share: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { other_cores: 0.25, steal_share: 0.05 };

export interface Verdict {
  disturbed: boolean;
  /** Human-readable evidence, one entry per threshold crossed. */
  reasons: string[];
}

/** Clean or disturbed, judged on what happened during the probe's measured window. */
export function classify(during: Interference, t: Thresholds): Verdict {
  const reasons: string[] = [];
  if (during.other_cores > t.other_cores) {
    const who = during.top_others.slice(0, 3).map(describeOther).join(', ');
    reasons.push(`other processes used ${during.other_cores.toFixed(2)} cores (threshold ${t.other_cores})${who ? `: ${who}` : ''}`);
  }
  if (during.steal_share > t.steal_share) reasons.push(`hypervisor steal ${(during.steal_share * 100).toFixed(1)} % (threshold ${(t.steal_share * 100).toFixed(1)} %)`);
  return { disturbed: reasons.length > 0, reasons };
}

/** One line of evidence for a results row: what the machine did during a probe. */
export function describeInterference(i: Interference): string {
  const who = i.top_others.slice(0, 3).map(describeOther).join(', ');
  return `other processes ${i.other_cores.toFixed(2)} cores${who ? ` (${who})` : ''}, steal ${(i.steal_share * 100).toFixed(1)} %, load average ${i.load_1m.toFixed(2)} over ${i.window_s.toFixed(0)} s`;
}

function describeOther(p: OtherProcess): string {
  return `${p.comm}${p.processes > 1 ? ` ×${p.processes}` : ''} ${p.cores.toFixed(2)}`;
}

function round(x: number, digits = 3): number {
  return Number(x.toFixed(digits));
}

// ---- reading /proc (not pure)

function readProcesses(): Map<number, [string, number]> {
  const out = new Map<number, [string, number]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const p = parsePidStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (p) out.set(p.pid, [p.comm, p.ticks]);
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

export function takeSnapshot(ours_ns: number, our_pids: Iterable<number>): Snapshot {
  return {
    t_s: Date.now() / 1000,
    cpu: parseCpuTicks(readFileSync('/proc/stat', 'utf8')),
    load: parseLoadAverage(readFileSync('/proc/loadavg', 'utf8')),
    processes: readProcesses(),
    ours_ns,
    our_pids: new Set(our_pids),
    harness_pid: process.pid,
  };
}
