// One TCP connection to a node's client port with one request in flight, for the clients of
// this folder (client.ts, load.ts, history-client.ts): each request gets the reply line or an
// Error. A failure or a timeout ends the connection for good, so that a late reply can never be
// taken for the answer to a later request; the callers decide what a failure means to them.
import { Socket } from 'node:net';

/** Whether a request surely never reached a server (refused connection, or never written). */
export function neverSent(e: Error): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'NOT_SENT' || code === 'ECONNREFUSED';
}

export class LineSocket {
  private readonly socket = new Socket();
  private buffer = '';
  private waiter: ((reply: string | Error) => void) | null = null;
  private failure: Error | null = null;
  /** Settles once: null when the connection is up, or the error that came first. */
  readonly connected: Promise<Error | null>;

  constructor(readonly address: string) {
    const [host, port] = address.split(':');
    this.socket.setNoDelay(true);
    this.socket.setEncoding('utf8');
    this.connected = new Promise((resolve) => {
      this.socket.once('connect', () => resolve(null));
      this.socket.once('error', resolve);
    });
    this.socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      const nl = this.buffer.indexOf('\n');
      if (nl >= 0 && this.waiter) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const w = this.waiter;
        this.waiter = null;
        w(line);
      }
    });
    this.socket.on('error', (e) => this.fail(e));
    this.socket.on('close', () => this.fail(new Error(`connection to ${address} closed`)));
    this.socket.connect(Number(port), host!);
  }

  /** Failed or closed: every request now answers an error at once. */
  get dead(): boolean {
    return this.failure !== null;
  }

  /** The reply line, or why there is none; a request on a dead connection is never sent (neverSent). */
  request(line: string, timeoutMs: number): Promise<string | Error> {
    if (this.failure) return Promise.resolve(Object.assign(new Error(this.failure.message), { code: 'NOT_SENT' }));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        this.close();
        resolve(new Error(`no reply to ${JSON.stringify(line.slice(0, 40))} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiter = (r) => (clearTimeout(timer), resolve(r));
      this.socket.write(line + '\n');
    });
  }

  close(): void {
    this.fail(new Error(`connection to ${this.address} closed`));
    this.socket.destroy();
  }

  private fail(e: Error): void {
    this.failure ??= e;
    const w = this.waiter;
    this.waiter = null;
    w?.(e);
  }
}
