// Closed-loop load for native clusters: each worker has one connection to one node and one
// request in flight, and sends the next as soon as the reply arrives. Used by the steady-
// leadership and stall tests and their long versions.
import { Socket } from 'node:net';
import { LineSocket } from './line-socket.ts';

/** Replies seen, by kind, and the longest wait for any successful reply. */
export interface LoadTally {
  ok: number;
  retry: number;
  redirect: number;
  other: number;
  errors: number;
  maxGapMs: number;
}

export function emptyTally(): LoadTally {
  return { ok: 0, retry: 0, redirect: 0, other: 0, errors: 0, maxGapMs: 0 };
}

/** One connection, one request at a time, opened again after a failure. */
class Worker {
  private conn: LineSocket | null = null;

  constructor(private readonly address: string) {}

  /** The reply line, or null if the connection failed or the reply took over timeoutMs
   * (connecting included: a stopped process's full accept queue leaves a connect hanging for
   * the kernel's SYN retries, a minute and more, so it is not awaited on its own). */
  async request(line: string, timeoutMs: number): Promise<string | null> {
    if (!this.conn || this.conn.dead) this.conn = new LineSocket(this.address);
    const reply = await this.conn.request(line, timeoutMs);
    return reply instanceof Error ? null : reply;
  }

  close(): void {
    this.conn?.close();
    this.conn = null;
  }
}

export interface LoadOptions {
  /** Client addresses of the nodes, by id. */
  addresses: string[];
  /** Node each worker starts on; workers follow `leader is N`. */
  startNode: number;
  workers: number;
  /** Per-request timeout (default 2 s). */
  timeoutMs?: number;
  /** Follow redirects and move on from a node that does not answer (default true); false keeps
   * every worker on startNode. */
  followRedirects?: boolean;
  /** Bytes in each put's value (default 100; YCSB's records are about 1,000). */
  valueBytes?: number;
  /** Keys each worker cycles through (default 200); a large number makes every put an insert,
   * as YCSB's load phase does. */
  keysPerWorker?: number;
}

/** Runs closed-loop put/get load until stop() and tallies the replies. */
export class ClosedLoopLoad {
  readonly tally: LoadTally = emptyTally();
  private running = true;
  private readonly done: Promise<void>;
  private lastOk = Date.now();

  constructor(private readonly options: LoadOptions) {
    this.done = Promise.all(Array.from({ length: options.workers }, (_, i) => this.work(i))).then(() => {});
  }

  private async work(i: number): Promise<void> {
    const workers = new Map<number, Worker>();
    let node = this.options.startNode;
    const value = 'v'.repeat(this.options.valueBytes ?? 100);
    for (let j = 0; this.running; j++) {
      let w = workers.get(node);
      if (!w) workers.set(node, (w = new Worker(this.options.addresses[node]!)));
      const keys = this.options.keysPerWorker ?? 200;
      const line = j % 2 === 0 ? `put load${i}-${j % keys} ${value}${j}` : `get load${i}-${(j - 1) % keys}`;
      const reply = await w.request(line, this.options.timeoutMs ?? 2000);
      const now = Date.now();
      if (reply === null) {
        // A node that does not answer (stopped, killed, cut off) may be the one the workers all
        // followed: try the next. Staying put kept every worker on a SIGSTOPped leader while
        // the live pair elected a new one and got no requests (the one-follower stall test's
        // "crawl", docs/protocol.md, "Log bound"). With followRedirects false the caller asked
        // for every worker to stay on startNode, so it does.
        this.tally.errors++;
        if (this.options.followRedirects !== false) node = (node + 1) % this.options.addresses.length;
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const redirect = /^leader is (\d+)$/.exec(reply);
      if (redirect) {
        this.tally.redirect++;
        if (this.options.followRedirects !== false) node = Number(redirect[1]);
        else await new Promise((r) => setTimeout(r, 20));
      } else if (reply === 'retry') {
        this.tally.retry++;
      } else if (reply === 'bad command') {
        this.tally.other++;
      } else {
        this.tally.ok++;
        this.tally.maxGapMs = Math.max(this.tally.maxGapMs, now - this.lastOk);
        this.lastOk = now;
      }
    }
    for (const w of workers.values()) w.close();
  }

  /** Restarts the longest-gap measurement (e.g. after a warm-up). */
  resetGap(): void {
    this.lastOk = Date.now();
    this.tally.maxGapMs = 0;
  }

  async stop(): Promise<LoadTally> {
    this.running = false;
    await this.done;
    return this.tally;
  }
}

/** A client that pipelines: writes `burst` requests at a time without waiting, optionally
 * never reading a reply (`deaf`), to push a server's per-connection limits. */
export class Pipeliner {
  private readonly socket: Socket;
  private running = true;
  private buffer = '';
  readonly replies = { retry: 0, other: 0 };
  private readonly timer: NodeJS.Timeout;

  constructor(address: string, burst: number, valueBytes: number, deaf = false) {
    const [host, port] = address.split(':');
    this.socket = new Socket();
    this.socket.on('error', () => {});
    if (!deaf) {
      this.socket.setEncoding('utf8');
      this.socket.on('data', (chunk: string) => {
        this.buffer += chunk;
        let nl: number;
        while ((nl = this.buffer.indexOf('\n')) >= 0) {
          if (this.buffer.slice(0, nl) === 'retry') this.replies.retry++;
          else this.replies.other++;
          this.buffer = this.buffer.slice(nl + 1);
        }
      });
    } else {
      this.socket.pause();
    }
    this.socket.connect(Number(port), host!);
    const value = 'p'.repeat(valueBytes);
    let j = 0;
    this.timer = setInterval(() => {
      // Write only what the socket takes: the point is the server's buffers, not Node's.
      if (!this.running || this.socket.writableNeedDrain) return;
      let lines = '';
      for (let k = 0; k < burst; k++) lines += `put pipe${j++ % 1000} ${value}\n`;
      this.socket.write(lines);
    }, 10);
  }

  stop(): void {
    this.running = false;
    clearInterval(this.timer);
    this.socket.destroy();
  }
}
