// Reads the `status {...}` line every native server logs once a second (docs/protocol.md,
// "Native servers"): the node's own view of its role, leader and elections, and the server's
// counters for its limits. Tests judge leader changes and shedding from these, not from timing.
import { readFileSync } from 'node:fs';

export interface NodeStatus {
  role: string;
  leader: number | null;
  ballot: number;
  elections: number;
  last_index: number;
  last_executed: number;
  global_last_executed: number;
  replay_remaining: number;
  clients: number;
  clients_refused: number;
  in_flight: number;
  shed_retries: number;
  reads_paused: number;
  peer_queue_bytes: number;
  dropped_sends: number;
  garbage_frames: number;
  timer_late_max_ms: number;
  /** Write-ahead log (durability log; 0 without): group writes the persister made and the
   * persist batches they carried, ever, and the mean batches per group since the last line. */
  wal_groups?: number;
  wal_batches?: number;
  wal_group_mean?: number;
}

/** Every status line in a log text, oldest first; lines that do not parse are skipped. */
export function parseStatusLines(logText: string): NodeStatus[] {
  const out: NodeStatus[] = [];
  for (const line of logText.split('\n')) {
    const at = line.indexOf('status {');
    if (at < 0) continue;
    try {
      out.push(JSON.parse(line.slice(at + 'status '.length)) as NodeStatus);
    } catch {
      // a line cut short by a crash: not a status
    }
  }
  return out;
}

/** A node's log, read as it grows: `mark()` notes where it ends now, `nextStatus()` waits
 * for a status line written after the mark. */
export class StatusReader {
  private offset = 0;

  constructor(private readonly path: string) {}

  private text(): string {
    try {
      return readFileSync(this.path, 'utf8');
    } catch {
      return '';
    }
  }

  mark(): void {
    this.offset = Buffer.byteLength(this.text());
  }

  /** The newest status line in the whole log, or null. */
  latest(): NodeStatus | null {
    const all = parseStatusLines(this.text());
    return all[all.length - 1] ?? null;
  }

  /** The newest status line written after the last mark, or null (does not wait). */
  latestSinceMark(): NodeStatus | null {
    const fresh = parseStatusLines(Buffer.from(this.text()).subarray(this.offset).toString('utf8'));
    return fresh[fresh.length - 1] ?? null;
  }

  /** Every status line written after the last mark, oldest first (does not wait). */
  sinceMark(): NodeStatus[] {
    return parseStatusLines(Buffer.from(this.text()).subarray(this.offset).toString('utf8'));
  }

  /** Waits (polling the file) for the first status line written after the last mark. */
  async nextStatus(timeoutMs = 15_000): Promise<NodeStatus> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const fresh = parseStatusLines(Buffer.from(this.text()).subarray(this.offset).toString('utf8'));
      if (fresh.length > 0) return fresh[fresh.length - 1]!;
      if (Date.now() > deadline) throw new Error(`no status line in ${this.path} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Resident set size of a process in bytes, from /proc (Linux); null when it has gone. */
export function residentBytes(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}
