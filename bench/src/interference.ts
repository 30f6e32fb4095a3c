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

/** One thread's scheduler counters from /proc/<pid>/task/<tid>/schedstat: time on a CPU, time
 * runnable but waiting in a run queue, and how many times it was given a CPU. */
export interface SchedStat {
  run_ns: number;
  wait_ns: number;
  slices: number;
}

export function parseSchedstat(text: string): SchedStat | null {
  const v = text.trim().split(/\s+/).map(Number);
  if (v.length !== 3 || v.some((x) => !Number.isFinite(x) || x < 0)) return null;
  return { run_ns: v[0]!, wait_ns: v[1]!, slices: v[2]! };
}

/**
 * How long the benchmark's own threads waited for a CPU while runnable, between two readings of
 * their schedstat (keyed by thread id). A thread born in the window counts from zero; one that
 * ended in it is lost (its counters went with it), so the figures are a lower bound.
 */
export interface RunQueueWait {
  threads: number;
  /** Cores of CPU time the threads got, and the mean number of them waiting at any moment. */
  run_cores: number;
  wait_cores: number;
  /** wait / (run + wait): the share of their runnable time spent waiting. */
  wait_share: number;
  /** Mean wait each time a thread was put on a CPU (the scheduling delay a request pays per hop). */
  wait_per_slice_us: number;
}

export function runQueueWaitBetween(a: Map<number, SchedStat>, b: Map<number, SchedStat>, window_s: number): RunQueueWait {
  let run = 0;
  let wait = 0;
  let slices = 0;
  let threads = 0;
  for (const [tid, after] of b) {
    const before = a.get(tid) ?? { run_ns: 0, wait_ns: 0, slices: 0 };
    // A counter that went backwards is a reused thread id: count it from zero.
    const fresh = after.run_ns < before.run_ns || after.wait_ns < before.wait_ns || after.slices < before.slices;
    const base = fresh ? { run_ns: 0, wait_ns: 0, slices: 0 } : before;
    if (after.slices === base.slices) continue;
    threads++;
    run += after.run_ns - base.run_ns;
    wait += after.wait_ns - base.wait_ns;
    slices += after.slices - base.slices;
  }
  return {
    threads,
    run_cores: window_s > 0 ? round(run / 1e9 / window_s) : 0,
    wait_cores: window_s > 0 ? round(wait / 1e9 / window_s) : 0,
    wait_share: run + wait > 0 ? round(wait / (run + wait)) : 0,
    wait_per_slice_us: slices > 0 ? round(wait / slices / 1000, 1) : 0,
  };
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
  /** schedstat of every thread of the benchmark's processes (absent where not read). */
  our_threads?: Map<number, SchedStat>;
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
  /** Run-queue wait of the benchmark's own threads (nodes and load generator); null: not read. */
  bench_wait?: RunQueueWait | null;
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
    bench_wait: a.our_threads && b.our_threads ? runQueueWaitBetween(a.our_threads, b.our_threads, window_s) : null,
  };
}

export interface Thresholds {
  /** A probe is disturbed when other processes used more than this many cores on average … */
  other_cores: number;
  /** … or when more than this share of the CPU time was stolen by the hypervisor … */
  steal_share: number;
  /** … or when the benchmark's threads waited longer than this for a CPU per time they got one. */
  wait_per_slice_us: number;
  /**
   * 'others': judge by other processes' cores (groups at the kernel's default weight compete
   * with every other process as equals). 'wait': the benchmark's groups carry a large
   * cpu.shares, so others run mostly on cycles the benchmark leaves idle and their CPU time
   * alone no longer says they delayed it: disturbed when the benchmark's own run-queue wait
   * crossed its threshold while others used more than other_cores (or on steal).
   */
  judge_by: 'others' | 'wait';
}

export const DEFAULT_THRESHOLDS: Thresholds = { other_cores: 0.25, steal_share: 0.05, wait_per_slice_us: 500, judge_by: 'others' };

export interface Verdict {
  disturbed: boolean;
  /** Human-readable evidence, one entry per threshold crossed. */
  reasons: string[];
}

/** Clean or disturbed, judged on what happened during the probe's measured window. */
export function classify(during: Interference, t: Thresholds): Verdict {
  const reasons: string[] = [];
  if (t.judge_by === 'wait') {
    if (!during.bench_wait) reasons.push('the benchmark\'s run-queue wait could not be read (no schedstat), so the probe cannot be judged clean');
    // A wait with nobody else on the CPUs is the benchmark queueing behind its own threads
    // (three nodes on one core at saturation, a leader duel): the system's own result.
    else if (during.bench_wait.wait_per_slice_us > t.wait_per_slice_us && during.other_cores > t.other_cores) {
      reasons.push(`the benchmark's threads waited ${during.bench_wait.wait_per_slice_us.toFixed(0)} µs for a CPU per slice (threshold ${t.wait_per_slice_us} µs; ${describeWait(during.bench_wait)}) while other processes used ${during.other_cores.toFixed(2)} cores (threshold ${t.other_cores})`);
    }
  } else if (during.other_cores > t.other_cores) {
    const who = during.top_others.slice(0, 3).map(describeOther).join(', ');
    reasons.push(`other processes used ${during.other_cores.toFixed(2)} cores (threshold ${t.other_cores})${who ? `: ${who}` : ''}`);
  }
  if (during.steal_share > t.steal_share) reasons.push(`hypervisor steal ${(during.steal_share * 100).toFixed(1)} % (threshold ${(t.steal_share * 100).toFixed(1)} %)`);
  return { disturbed: reasons.length > 0, reasons };
}

/** One line of evidence for a results row: what the machine did during a probe. */
export function describeInterference(i: Interference): string {
  const who = i.top_others.slice(0, 3).map(describeOther).join(', ');
  const wait = i.bench_wait ? `, benchmark run-queue wait ${describeWait(i.bench_wait)}` : '';
  return `other processes ${i.other_cores.toFixed(2)} cores${who ? ` (${who})` : ''}, steal ${(i.steal_share * 100).toFixed(1)} %${wait}, load average ${i.load_1m.toFixed(2)} over ${i.window_s.toFixed(0)} s`;
}

function describeWait(w: RunQueueWait): string {
  return `${w.wait_per_slice_us.toFixed(0)} µs per slice, ${(w.wait_share * 100).toFixed(1)} % of runnable time, ${w.threads} threads`;
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

/** schedstat of every thread of the given processes (processes that ended meanwhile are skipped). */
export function readThreadSchedstats(pids: Iterable<number>): Map<number, SchedStat> {
  const out = new Map<number, SchedStat>();
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const st = parseSchedstat(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8'));
        if (st) out.set(Number(tid), st);
      } catch {
        // ended meanwhile
      }
    }
  }
  return out;
}

export function takeSnapshot(ours_ns: number, our_pids: Iterable<number>): Snapshot {
  const pids = new Set(our_pids);
  return {
    t_s: Date.now() / 1000,
    cpu: parseCpuTicks(readFileSync('/proc/stat', 'utf8')),
    load: parseLoadAverage(readFileSync('/proc/loadavg', 'utf8')),
    processes: readProcesses(),
    ours_ns,
    our_pids: pids,
    harness_pid: process.pid,
    our_threads: readThreadSchedstats(pids),
  };
}
