// Reads the `status {...}` line every native server logs once a second (docs/protocol.md,
// "Native servers"): the node's own view of its role, leader and elections, and the server's
// counters for its limits. Tests judge leader changes and shedding from these, not from timing.
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';

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
  /** The runtime's own memory figures, where it has them: Go's heap goal and live heap, the
   * JVM's committed heap and non-heap (code cache, metaspace). */
  go_heap_goal_bytes?: number;
  go_heap_live_bytes?: number;
  jvm_heap_committed_bytes?: number;
  jvm_nonheap_committed_bytes?: number;
  /** How often the JVM hands freed native memory back to the kernel (ms; 0 never, -1 a JVM
   * without the option): the launcher sets it, or RSS keeps each late JIT compilation's
   * high-water mark (engines/java-wasm/build.sh). */
  jvm_native_trim_interval_ms?: number;
  /** C++: the times the server handed the heap's free pages back to the kernel (malloc_trim,
   * once a second) and the CPU time they took, both ever. */
  malloc_trims?: number;
  malloc_trim_cpu_us?: number;
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

/** The wall-clock stamp every server puts before a log line ("2026/11/27 06:50:25.185703",
 * the machine's local time), in ms since the epoch; null when the line has none. */
export function lineStampMs(line: string): number | null {
  const m = /(\d{4})\/(\d\d)\/(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6}) /.exec(line);
  if (!m) return null;
  const [y, mo, d, h, mi, sec, us] = m.slice(1).map(Number) as [number, number, number, number, number, number, number];
  return new Date(y, mo - 1, d, h, mi, sec, Math.floor(us / 1000)).getTime();
}

/** Every status line in a log text with its stamp, oldest first (lines without one skipped). */
export function parseStampedStatusLines(logText: string): { atMs: number; status: NodeStatus }[] {
  const out: { atMs: number; status: NodeStatus }[] = [];
  for (const line of logText.split('\n')) {
    const atMs = lineStampMs(line);
    const [status] = parseStatusLines(line);
    if (atMs !== null && status) out.push({ atMs, status });
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
    try {
      this.offset = statSync(this.path).size;
    } catch {
      this.offset = 0;
    }
  }

  /** The log's bytes from the last mark on (read from there, not from the start: a poll every
   * few ms of a long run's whole log took the test process's CPU from its clients). */
  private textSinceMark(): string {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return '';
    }
    try {
      const length = Math.max(0, fstatSync(fd).size - this.offset);
      const bytes = Buffer.alloc(length);
      const read = readSync(fd, bytes, 0, length, this.offset);
      return bytes.subarray(0, read).toString('utf8');
    } finally {
      closeSync(fd);
    }
  }

  /** The status lines written after the last mark, with the server's stamps, oldest first. A
   * line stamped after a moment is always written after it, so marking just before an event
   * keeps every line stamped after the event. */
  stampedSinceMark(): { atMs: number; status: NodeStatus }[] {
    return parseStampedStatusLines(this.textSinceMark());
  }

  /** Every status line in the whole log with the server's stamp, oldest first. */
  stamped(): { atMs: number; status: NodeStatus }[] {
    return parseStampedStatusLines(this.text());
  }

  /** The newest status line in the whole log, or null. */
  latest(): NodeStatus | null {
    const all = parseStatusLines(this.text());
    return all[all.length - 1] ?? null;
  }

  /** The newest status line written after the last mark, or null (does not wait). */
  latestSinceMark(): NodeStatus | null {
    const fresh = parseStatusLines(this.textSinceMark());
    return fresh[fresh.length - 1] ?? null;
  }

  /** Every status line written after the last mark, oldest first (does not wait). */
  sinceMark(): NodeStatus[] {
    return parseStatusLines(this.textSinceMark());
  }

  /** Waits (polling the file) for the first status line the server stamped at or after
   * `wallMs`. Not the same as written after a mark: the launcher relays the servers' output
   * through the test's own process, so on a starved machine a line can reach the file a second
   * after the server wrote it, with a view from before the event the test just caused. */
  async nextStatusStampedAfter(wallMs: number, timeoutMs = 15_000): Promise<NodeStatus> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = parseStampedStatusLines(this.text()).find((x) => x.atMs >= wallMs);
      if (hit) return hit.status;
      if (Date.now() > deadline) throw new Error(`no status line stamped after ${new Date(wallMs).toISOString()} in ${this.path} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Waits (polling the file) for the first status line written after the last mark. Always
   * lets the event loop run first: a caller's loop that did not mark again got the same line
   * back from a chain of microtasks only, which starved this process's clients and log relay
   * for its whole deadline (the one-follower stall test's two minutes at a few entries a second). */
  async nextStatus(timeoutMs = 15_000): Promise<NodeStatus> {
    await new Promise((r) => setImmediate(r));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const fresh = parseStatusLines(this.textSinceMark());
      if (fresh.length > 0) return fresh[fresh.length - 1]!;
      if (Date.now() > deadline) throw new Error(`no status line in ${this.path} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Resident set size of a process in bytes, from /proc (Linux); null when it has gone. */
export function residentBytes(pid: number): number | null {
  return residentParts(pid)?.totalBytes ?? null;
}

/** A process's resident memory split as the kernel counts it: anonymous pages (heaps, malloc
 * arenas, stacks: what a leak grows) and file-backed pages (the binary and libraries, which the
 * kernel may drop and read again). */
export interface ResidentParts {
  totalBytes: number;
  anonBytes: number;
  fileBytes: number;
}

/** From /proc/<pid>/status (Linux); null when the process has gone. */
export function residentParts(pid: number): ResidentParts | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kib = (field: string) => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : null;
  };
  const totalBytes = kib('VmRSS');
  if (totalBytes === null) return null;
  return { totalBytes, anonBytes: kib('RssAnon') ?? 0, fileBytes: kib('RssFile') ?? 0 };
}
