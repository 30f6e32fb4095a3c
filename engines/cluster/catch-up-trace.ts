// Per-second evidence while a resumed node catches up (issue 20, docs/protocol.md "Log bound"):
// each node's status line (what it executed, its gle, role and ballot, what it has queued for
// its peers and dropped), the CPU each server process used in that second (/proc), and the bytes
// waiting in the kernel on the loopback connections into and out of the resumed node (`ss`
// Recv-Q / Send-Q): what the leader waits on can then be read off the lines — the resumed node's
// queued input, the leader's outbound queue to it, or the CPU it takes from the others.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { NodeStatus, StatusReader } from './node-status.ts';

const CLOCK_TICKS_PER_S = 100; // USER_HZ on Linux

/** CPU time (ms) a process has used so far (utime + stime, threads included); null when gone. */
export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return null;
  }
}

/** Bytes the kernel holds on established loopback connections to or from `port`:
 * `into` = Recv-Q of connections whose local port is `port` (sent to the node, not yet read by
 * it), `outOf` = Send-Q of connections whose remote port is `port` (written by its peers, not yet
 * taken by it). Null when `ss` is missing or fails. */
export function queuedAtPort(port: number): { recvQ: number; sendQ: number } | null {
  try {
    const out = execFileSync('ss', ['-tnH', 'state', 'established'], { encoding: 'utf8', timeout: 2000 });
    let recvQ = 0;
    let sendQ = 0;
    for (const line of out.split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f.length < 4) continue;
      const local = f[2]!;
      const remote = f[3]!;
      if (local.endsWith(`:${port}`)) recvQ += Number(f[0]);
      if (remote.endsWith(`:${port}`)) sendQ += Number(f[1]);
    }
    return { recvQ, sendQ };
  } catch {
    return null;
  }
}

/** Moves processes into a cgroup v1 directory (its `cgroup.procs`), e.g. one whose
 * cpu.cfs_quota_us caps them to stand in for a starved machine. */
export function joinCgroup(dir: string, pids: number[]): void {
  for (const pid of pids) writeFileSync(`${dir}/cgroup.procs`, `${pid}\n`);
}

export interface TraceSample {
  atMs: number;
  status: (NodeStatus | null)[];
  cpuMsInSecond: (number | null)[];
  /** At the resumed node's peer port: unread input (recvQ), its peers' unsent output (sendQ). */
  queued: { recvQ: number; sendQ: number } | null;
}

/**
 * Samples once a second until `done()` or `timeoutMs`: every node's newest status line, the CPU
 * each process used since the previous sample, and the kernel queues at `watchPort`.
 */
export async function traceCatchUp(o: {
  readers: StatusReader[];
  pids: number[];
  watchPort: number;
  done: () => boolean;
  timeoutMs: number;
}): Promise<TraceSample[]> {
  const samples: TraceSample[] = [];
  const start = Date.now();
  let cpu = o.pids.map(cpuMs);
  while (!o.done() && Date.now() - start < o.timeoutMs) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = o.pids.map(cpuMs);
    samples.push({
      atMs: Date.now() - start,
      status: o.readers.map((r) => r.latest()),
      cpuMsInSecond: now.map((c, i) => (c === null || cpu[i] === null ? null : c - cpu[i]!)),
      queued: queuedAtPort(o.watchPort),
    });
    cpu = now;
  }
  return samples;
}

/** One line per sample: per node role/ballot, last_executed (+ since the previous line), gle,
 * peer_queue_bytes, dropped_sends, CPU ms; then the kernel queues at the watched port. */
export function describeTrace(samples: TraceSample[]): string[] {
  return samples.map((s, k) => {
    const prev = k > 0 ? samples[k - 1]! : null;
    const nodes = s.status.map((x, i) => {
      if (!x) return `n${i} -`;
      const was = prev?.status[i]?.last_executed;
      const delta = was === undefined ? '' : ` (+${x.last_executed - was})`;
      return (
        `n${i} ${x.role[0]}${x.ballot} exec ${x.last_executed}${delta} gle ${x.global_last_executed} ` +
        `q ${x.peer_queue_bytes} drop ${x.dropped_sends} late ${x.timer_late_max_ms} cpu ${s.cpuMsInSecond[i] ?? '-'}ms`
      );
    });
    const q = s.queued ? `; kernel: unread by the resumed node ${s.queued.recvQ} B, unsent to it ${s.queued.sendQ} B` : '';
    return `+${(s.atMs / 1000).toFixed(1)} s: ${nodes.join(' | ')}${q}`;
  });
}
