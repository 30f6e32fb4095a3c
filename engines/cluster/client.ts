// A client of the Replicant text protocol: one TCP connection per node, one request in
// flight per connection, following `leader is N` redirects and backing off on `retry`.
import { LineSocket } from './line-socket.ts';

export interface ClientOptions {
  /** Gives up on one request after this long (default 5 s). */
  timeoutMs?: number;
  retryDelayMs?: number;
}

export class ReplicantClient {
  private readonly connections = new Map<number, LineSocket>();
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

  private async connection(id: number): Promise<LineSocket> {
    let c = this.connections.get(id);
    if (!c) {
      c = new LineSocket(this.addresses[id]!);
      this.connections.set(id, c);
      const failed = await c.connected;
      if (failed) {
        this.connections.delete(id);
        throw failed;
      }
    }
    return c;
  }

  /** Sends one raw line to one node and returns its reply line (no redirects). */
  async raw(id: number, line: string, timeoutMs = this.options.timeoutMs ?? 5000): Promise<string> {
    const c = await this.connection(id);
    const reply = await c.request(line, timeoutMs);
    if (reply instanceof Error) {
      c.close();
      this.connections.delete(id);
      throw reply;
    }
    return reply;
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
