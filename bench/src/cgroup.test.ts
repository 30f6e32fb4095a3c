// Real cgroups (cgroup v1, writable here as root; see docs/benchmarks.md): limits land in the
// kernel's files, a process wrapped into a group runs inside it, and clean-up leaves nothing.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Cgroup, checkCpuShares, controllerMounts, CPU_SHARES_KERNEL_DEFAULT, CPU_SHARES_MAX, liveGroups, ownGroups, parentDirs, removeAll, sweepStale } from './cgroup.ts';

const MOUNTS = [
  'cgroup /sys/fs/cgroup/memory cgroup rw,nosuid,nodev,noexec,relatime,memory 0 0',
  'cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,nodev,noexec,relatime,cpu,cpuacct 0 0',
  'cgroup /sys/fs/cgroup/cpuset cgroup rw,nosuid,nodev,noexec,relatime,cpuset 0 0',
  'proc /proc proc rw 0 0',
].join('\n');

describe('locating the hierarchies', () => {
  it('reads co-mounted controllers and the process\'s own groups', () => {
    expect(controllerMounts(MOUNTS)).toEqual({
      memory: '/sys/fs/cgroup/memory',
      cpu: '/sys/fs/cgroup/cpu,cpuacct',
      cpuacct: '/sys/fs/cgroup/cpu,cpuacct',
      cpuset: '/sys/fs/cgroup/cpuset',
    });
    expect(ownGroups('4:memory:/a/b\n3:cpu,cpuacct:/\n2:cpuset:/\n0::/')).toEqual({ memory: '/a/b', cpu: '/', cpuacct: '/', cpuset: '/' });
    expect(parentDirs(MOUNTS, '4:memory:/a/b\n3:cpu,cpuacct:/\n2:cpuset:/').memory).toBe('/sys/fs/cgroup/memory/a/b');
  });

  it('says clearly when a controller is missing (cgroup v2-only machines)', () => {
    expect(() => parentDirs('cgroup2 /sys/fs/cgroup cgroup2 rw 0 0', '0::/')).toThrow(/cgroup v1 controller "memory" is not mounted/);
  });
});

describe('Cgroup on this machine', () => {
  afterEach(() => {
    removeAll();
  });

  it('applies memory, CPU quota and cpuset limits', () => {
    const g = Cgroup.create('test-limits', { memory_bytes: 64 * 2 ** 20, cpu_quota_cores: 0.5, cpus: '0' });
    expect(Number(readFileSync(join(g.dirs.memory, 'memory.limit_in_bytes'), 'utf8'))).toBe(64 * 2 ** 20);
    expect(readFileSync(join(g.dirs.cpu, 'cpu.cfs_period_us'), 'utf8').trim()).toBe('10000');
    expect(readFileSync(join(g.dirs.cpu, 'cpu.cfs_quota_us'), 'utf8').trim()).toBe('5000');
    expect(readFileSync(join(g.dirs.cpuset, 'cpuset.cpus'), 'utf8').trim()).toBe('0');
  });

  it('gives the group the cpu.shares asked for, and refuses what the kernel would clamp', () => {
    const g = Cgroup.create('test-shares', { cpu_shares: CPU_SHARES_MAX });
    expect(readFileSync(join(g.dirs.cpu, 'cpu.shares'), 'utf8').trim()).toBe('262144');
    expect(g.cpuShares()).toBe(262_144);
    expect(Cgroup.create('test-shares-default', {}).cpuShares()).toBe(CPU_SHARES_KERNEL_DEFAULT);
    for (const bad of [1, 262_145, 1.5, Number.NaN]) expect(() => checkCpuShares(bad)).toThrow(/cpu.shares must be an integer from 2 to 262144/);
    expect(() => Cgroup.create('test-shares-bad', { cpu_shares: 300_000 })).toThrow(/cpu.shares/);
    expect(liveGroups()).toHaveLength(2); // the refused group left nothing behind
  });

  it('runs a wrapped process inside the group (same pid), accounts its CPU, and removes it', async () => {
    const g = Cgroup.create('test-run', { cpus: '0' });
    const argv = g.wrap(['sh', '-c', 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 30']);
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!g.pids().includes(child.pid!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(g.pids()).toContain(child.pid);
    await new Promise((r) => setTimeout(r, 300));
    expect(g.cpuUsageNs()).toBeGreaterThan(0);
    const exited = new Promise((r) => child.once('exit', r));
    const dirs = Object.values(g.dirs);
    removeAll(); // kills what is left in the group, then removes it everywhere
    await exited;
    for (const d of dirs) expect(existsSync(d)).toBe(false);
    expect(liveGroups()).toHaveLength(0);
  });

  it('kills a process that exceeds its memory limit (exit 137), as C++ and Rust nodes would be', async () => {
    const g = Cgroup.create('test-oom', { memory_bytes: 16 * 2 ** 20 });
    const argv = g.wrap(['node', '-e', 'const a=[]; for(;;) a.push(Buffer.alloc(1<<20, 1))']);
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
    const [code, signal] = await new Promise<[number | null, string | null]>((r) => child.once('exit', (c, s) => r([c, s])));
    expect(signal === 'SIGKILL' || code === 137).toBe(true);
    expect(g.oomKills()).toBeGreaterThanOrEqual(1);
  });

  it('refuses bad labels without leaving anything behind', () => {
    expect(() => Cgroup.create('Bad Label', {})).toThrow(/label/);
    expect(liveGroups()).toHaveLength(0);
  });

  it('sweeps nothing that belongs to a live process', () => {
    Cgroup.create('test-sweep', {});
    // Groups a killed run left behind on this machine are swept too (that is the sweep's job), so
    // the check is on this process's own groups, not on an empty list.
    const ours = `-${process.pid}-`;
    expect(sweepStale().filter((dir) => dir.includes(ours))).toEqual([]);
    expect(liveGroups()).toHaveLength(1);
  });
});
