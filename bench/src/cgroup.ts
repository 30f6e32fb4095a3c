// cgroup v1 groups for benchmark processes: one per node (and one for the load generator),
// each a child of this process's own cgroup in the memory, cpu, cpuacct and cpuset
// hierarchies. Limits: memory.limit_in_bytes, cpu.cfs_quota_us/period, cpuset.cpus.
// Every group this process makes is registered, so `removeAll` can clean up on exit,
// on Ctrl-C and on failure; `sweepStale` removes groups left by a harness that was killed.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const CONTROLLERS = ['memory', 'cpu', 'cpuacct', 'cpuset'] as const;
export type Controller = (typeof CONTROLLERS)[number];

/** Prefix of every group the harness makes; a host token and the harness's pid follow it.
 * The cpu hierarchies may be shared with other sandboxes on the same kernel, so the host token
 * keeps `sweepStale` away from groups that are not this machine's. */
export const GROUP_PREFIX = 'replicant-bench-';
const HOST_TOKEN = hostname().toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 12) || 'host';

/** The kernel's range for cgroup v1 cpu.shares (it clamps anything outside) and its default. */
export const CPU_SHARES_MIN = 2;
export const CPU_SHARES_MAX = 262_144;
export const CPU_SHARES_KERNEL_DEFAULT = 1024;

/** A cpu.shares value the kernel keeps as written, or a clear error (it would clamp silently). */
export function checkCpuShares(shares: number): number {
  if (!Number.isInteger(shares) || shares < CPU_SHARES_MIN || shares > CPU_SHARES_MAX) {
    throw new Error(`cpu.shares must be an integer from ${CPU_SHARES_MIN} to ${CPU_SHARES_MAX} (the kernel clamps anything else), got ${shares}`);
  }
  return shares;
}

export interface CgroupLimits {
  memory_bytes?: number;
  /** CFS weight against the group's siblings (1024: a plain process at nice 0); none: the kernel's 1024. */
  cpu_shares?: number;
  /** CPU bandwidth in cores (e.g. 0.5); none: unlimited. */
  cpu_quota_cores?: number;
  /** CFS period; short periods keep throttling stalls short (default 10 ms). */
  cpu_period_us?: number;
  /** cpuset.cpus, e.g. "1" or "0-1"; none: the parent's. */
  cpus?: string;
}

/** Where each controller's hierarchy is mounted, from /proc/self/mounts. */
export function controllerMounts(mountsText: string): Partial<Record<Controller, string>> {
  const out: Partial<Record<Controller, string>> = {};
  for (const line of mountsText.split('\n')) {
    const [, dir, type, opts] = line.split(' ');
    if (type !== 'cgroup' || !dir || !opts) continue;
    for (const c of CONTROLLERS) if (opts.split(',').includes(c)) out[c] ??= dir;
  }
  return out;
}

/** This process's group in each hierarchy, from /proc/self/cgroup ("4:memory:/a/b"). */
export function ownGroups(cgroupText: string): Partial<Record<Controller, string>> {
  const out: Partial<Record<Controller, string>> = {};
  for (const line of cgroupText.split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line.trim());
    if (!m) continue;
    for (const c of m[1]!.split(',')) if ((CONTROLLERS as readonly string[]).includes(c)) out[c as Controller] = m[2]!;
  }
  return out;
}

/** The directory under which this process may make child groups, per controller. */
export function parentDirs(
  mountsText = readFileSync('/proc/self/mounts', 'utf8'),
  cgroupText = readFileSync('/proc/self/cgroup', 'utf8'),
): Record<Controller, string> {
  const mounts = controllerMounts(mountsText);
  const own = ownGroups(cgroupText);
  const dirs = {} as Record<Controller, string>;
  for (const c of CONTROLLERS) {
    if (!mounts[c] || own[c] === undefined) {
      throw new Error(`cgroup v1 controller "${c}" is not mounted here; the native benchmarks need memory, cpu, cpuacct and cpuset (see docs/benchmarks.md)`);
    }
    dirs[c] = join(mounts[c]!, own[c]!);
  }
  return dirs;
}

const registry = new Set<Cgroup>();

export class Cgroup {
  readonly dirs: Record<Controller, string>;

  private constructor(readonly name: string, parents: Record<Controller, string>) {
    this.dirs = {} as Record<Controller, string>;
    for (const c of CONTROLLERS) this.dirs[c] = join(parents[c], name);
  }

  /** Makes the group in all four hierarchies and applies the limits. */
  static create(label: string, limits: CgroupLimits, parents = parentDirs()): Cgroup {
    if (!/^[a-z0-9-]+$/.test(label)) throw new Error(`cgroup label must be [a-z0-9-]+, got ${JSON.stringify(label)}`);
    const g = new Cgroup(`${GROUP_PREFIX}${HOST_TOKEN}-${process.pid}-${label}`, parents);
    registry.add(g);
    try {
      for (const c of CONTROLLERS) mkdirSync(g.dirs[c], { recursive: false });
      // A new cpuset has no CPUs and no memory nodes until told; start from the parent's.
      const parentCpuset = parents.cpuset;
      writeFileSync(join(g.dirs.cpuset, 'cpuset.mems'), readFileSync(join(parentCpuset, 'cpuset.mems'), 'utf8').trim());
      writeFileSync(join(g.dirs.cpuset, 'cpuset.cpus'), limits.cpus ?? readFileSync(join(parentCpuset, 'cpuset.cpus'), 'utf8').trim());
      if (limits.memory_bytes !== undefined) {
        writeFileSync(join(g.dirs.memory, 'memory.limit_in_bytes'), String(Math.floor(limits.memory_bytes)));
      }
      if (limits.cpu_shares !== undefined) {
        writeFileSync(join(g.dirs.cpu, 'cpu.shares'), String(checkCpuShares(limits.cpu_shares)));
      }
      if (limits.cpu_quota_cores !== undefined) {
        const period = limits.cpu_period_us ?? 10_000;
        writeFileSync(join(g.dirs.cpu, 'cpu.cfs_period_us'), String(period));
        writeFileSync(join(g.dirs.cpu, 'cpu.cfs_quota_us'), String(Math.max(1000, Math.round(limits.cpu_quota_cores * period))));
      }
    } catch (err) {
      g.remove();
      throw err;
    }
    return g;
  }

  /** argv that puts itself into this group, then execs `argv` (same pid). */
  wrap(argv: string[]): string[] {
    const procs = CONTROLLERS.map((c) => join(this.dirs[c], 'cgroup.procs'));
    const script = procs.map((p) => `echo $$ > ${p}`).join(' && ') + ' && exec "$@"';
    return ['/bin/sh', '-c', script, 'cgroup-enter', ...argv];
  }

  /** The group's CFS weight as the kernel holds it. */
  cpuShares(): number {
    return Number(readFileSync(join(this.dirs.cpu, 'cpu.shares'), 'utf8'));
  }

  /** CPU time used by every task ever in the group, ns. */
  cpuUsageNs(): number {
    return Number(readFileSync(join(this.dirs.cpuacct, 'cpuacct.usage'), 'utf8'));
  }

  memoryUsageBytes(): number {
    return Number(readFileSync(join(this.dirs.memory, 'memory.usage_in_bytes'), 'utf8'));
  }

  /** memory.stat's counters (rss, cache, mapped_file, …), bytes: where a group's memory is. */
  memoryStat(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const line of readFileSync(join(this.dirs.memory, 'memory.stat'), 'utf8').split('\n')) {
      const [k, v] = line.split(' ');
      if (k && v !== undefined && !k.startsWith('total_')) out[k] = Number(v);
    }
    return out;
  }

  memoryPeakBytes(): number {
    return Number(readFileSync(join(this.dirs.memory, 'memory.max_usage_in_bytes'), 'utf8'));
  }

  /** How many tasks the kernel's OOM killer ended in this group. */
  oomKills(): number {
    const text = readFileSync(join(this.dirs.memory, 'memory.oom_control'), 'utf8');
    return Number(/oom_kill (\d+)/.exec(text)?.[1] ?? 0);
  }

  /** Throttled periods and time (cpu.stat), for a note on quota artefacts. */
  throttling(): { periods: number; throttled: number; throttled_ns: number } {
    const text = readFileSync(join(this.dirs.cpu, 'cpu.stat'), 'utf8');
    const get = (k: string) => Number(new RegExp(`^${k} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { periods: get('nr_periods'), throttled: get('nr_throttled'), throttled_ns: get('throttled_time') };
  }

  pids(): number[] {
    return pidsIn(this.dirs.memory);
  }

  /** SIGKILLs whatever is left, then removes the group from every hierarchy. */
  remove(): void {
    for (const c of CONTROLLERS) {
      const dir = this.dirs[c];
      if (!existsSync(dir)) continue;
      for (const pid of pidsIn(dir)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      removeDir(dir);
    }
    registry.delete(this);
  }
}

function pidsIn(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** rmdir fails while the kernel still counts a dying task; wait briefly for it. */
function removeDir(dir: string): void {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      rmdirSync(dir);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (Date.now() > deadline) throw new Error(`cannot remove cgroup ${dir}: ${String(err)}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}

/** Removes every group this process made (idempotent). */
export function removeAll(): string[] {
  const problems: string[] = [];
  for (const g of [...registry]) {
    try {
      g.remove();
    } catch (err) {
      problems.push(String(err));
    }
  }
  return problems;
}

export function liveGroups(): Cgroup[] {
  return [...registry];
}

/** Removes groups left by earlier harness processes that no longer run. */
export function sweepStale(parents = parentDirs()): string[] {
  const removed: string[] = [];
  for (const c of CONTROLLERS) {
    let names: string[];
    try {
      names = readdirSync(parents[c]);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = new RegExp(`^${GROUP_PREFIX}${HOST_TOKEN}-(\\d+)-`).exec(name);
      if (!m || Number(m[1]) === process.pid || processAlive(Number(m[1]))) continue;
      const dir = join(parents[c], name);
      for (const pid of pidsIn(dir)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      try {
        removeDir(dir);
        removed.push(dir);
      } catch {
        // reported by the next sweep
      }
    }
  }
  return removed;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
