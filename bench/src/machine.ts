// What machine and software produced a result: the metadata every native results file carries.
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { readFileSync } from 'node:fs';

function run(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    return '';
  }
}

export interface MachineInfo {
  description: string;
  cpu_model: string;
  vcpus: number;
  memory_gib: number;
  os: string;
}

export function machineInfo(): MachineInfo {
  const osRelease = (() => {
    try {
      return /^PRETTY_NAME="?(.*?)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? 'Linux';
    } catch {
      return 'Linux';
    }
  })();
  const kernel = run('uname', ['-r']);
  const model = cpus()[0]?.model ?? 'unknown';
  const n = cpus().length;
  const mem = Math.round((totalmem() / 2 ** 30) * 10) / 10;
  return {
    description: `${n}-core ${model} shared with other developers' sessions, ${mem} GiB; servers and load generator on the same machine (loopback), each node in its own cgroup v1`,
    cpu_model: model,
    vcpus: n,
    memory_gib: mem,
    os: `${osRelease}, Linux ${kernel}`,
  };
}

export function gitCommit(cwd: string): { commit: string; dirty: boolean } {
  const commit = run('git', ['-C', cwd, 'rev-parse', 'HEAD']);
  const status = run('git', ['-C', cwd, 'status', '--porcelain', '--untracked-files=no']);
  return { commit: /^[0-9a-f]{40}$/.test(commit) ? commit : '0000000', dirty: status.length > 0 };
}

/** Versions of every tool a native run involves. */
export function toolVersions(etcdBinary: string): Record<string, string> {
  const javaVersion = run('sh', ['-c', 'java -version 2>&1 | head -1']) || 'unknown'; // it prints on stderr
  return {
    node: process.version,
    go: run('go', ['version']) || 'unknown',
    java: javaVersion,
    ycsb: 'site.ycsb:core 0.17.0 (HdrHistogram 2.1.12)',
    etcd: (run(etcdBinary, ['--version']).split('\n')[0] ?? 'unknown') || 'not built',
  };
}
