// A client of the Replicant text protocol: one TCP connection per node, one request in
// flight per connection, following `leader is N` redirects and backing off on `retry`.
import { Socket } from 'node:net';

class LineConnection {
  private readonly socket: Socket;
  private buffer = '';
  private waiting: { resolve: (line: string) => void; reject: (e: Error) => void } | null = null;
  private failure: Error | null = null;
  readonly ready: Promise<void>;

  constructor(address: string) {
    const [host, port] = address.split(':');
    this.socket = new Socket();
    this.socket.setNoDelay(true);
    this.socket.setEncoding('utf8');
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      const nl = this.buffer.indexOf('\n');
      if (nl >= 0 && this.waiting) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const w = this.waiting;
        this.waiting = null;
        w.resolve(line);
      }
    });
    const fail = (err: Error) => {
      this.failure = err;
      this.waiting?.reject(err);
      this.waiting = null;
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error(`connection to ${address} closed`)));
    this.socket.connect(Number(port), host!);
  }

  request(line: string, timeoutMs: number): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(new Error(`no reply to ${JSON.stringify(line.slice(0, 40))} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting = {
        resolve: (l) => (clearTimeout(timer), resolve(l)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      };
      this.socket.write(line + '\n');
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

export interface ClientOptions {
  /** Gives up on one request after this long (default 5 s). */
  timeoutMs?: number;
  retryDelayMs?: number;
}

export class ReplicantClient {
  private readonly connections = new Map<number, LineConnection>();
  private node = 0;
  /** Redirects followed and retries made, for tests and reports. */
  redirects = 0;
  retries = 0;

  constructor(
    private readonly addresses: string[],
    private readonly options: ClientOptions = {},
  ) {}

  get currentNode(): number {
    return this.node;
  }

  private async connection(id: number): Promise<LineConnection> {
    let c = this.connections.get(id);
    if (!c) {
      c = new LineConnection(this.addresses[id]!);
      this.connections.set(id, c);
      try {
        await c.ready;
      } catch (err) {
        this.connections.delete(id);
        throw err;
      }
    }
    return c;
  }

  /** Sends one raw line to one node and returns its reply line (no redirects). */
  async raw(id: number, line: string, timeoutMs = this.options.timeoutMs ?? 5000): Promise<string> {
    const c = await this.connection(id);
    try {
      return await c.request(line, timeoutMs);
    } catch (err) {
      c.close();
      this.connections.delete(id);
      throw err;
    }
  }

  /** Runs a command on the leader, whoever it is, until it succeeds or the deadline passes. */
  async request(line: string, deadlineMs = 10_000): Promise<string> {
    const deadline = Date.now() + deadlineMs;
    let lastError: unknown = null;
    while (Date.now() < deadline) {
      let reply: string;
      try {
        reply = await this.raw(this.node, line, Math.min(this.options.timeoutMs ?? 5000, deadline - Date.now()));
      } catch (err) {
        lastError = err; // node down or silent: try the next one
        this.node = (this.node + 1) % this.addresses.length;
        await sleep(this.options.retryDelayMs ?? 20);
        continue;
      }
      const redirect = /^leader is (\d+)$/.exec(reply);
      if (redirect) {
        this.redirects++;
        this.node = Number(redirect[1]);
        continue;
      }
      if (reply === 'retry') {
        // A node that knows no leader (electing, or a leader that stepped down because it
        // hears no majority) says retry; every other retry asks the next node instead.
        if (++this.retries % 2 === 0) this.node = (this.node + 1) % this.addresses.length;
        await sleep(this.options.retryDelayMs ?? 20);
        continue;
      }
      return reply;
    }
    throw new Error(`request ${JSON.stringify(line.slice(0, 40))} did not succeed in ${deadlineMs} ms: ${String(lastError ?? 'kept being told to retry')}`);
  }

  close(): void {
    for (const c of this.connections.values()) c.close();
    this.connections.clear();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls a condition every 5 ms: true once it holds, false after timeoutMs (tests wait on state, not on time). */
export async function waitUntil(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) return false;
    await sleep(5);
  }
  return true;
}
