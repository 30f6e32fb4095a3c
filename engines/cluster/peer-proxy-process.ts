// The parent's side of peer-proxy-host.ts: starts the proxies' process and gives the launcher a
// handle per proxy with PeerProxy's verbs. cut, heal and reset are sent at once and applied in
// order by the host (the caller may await the answer); the rest answer when done.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LoopLagSample } from './loop-lag.ts';
import type { ProxyAnswer, ProxyCommand } from './peer-proxy-host.ts';

type CommandBody = ProxyCommand extends infer C ? (C extends { seq: number } ? Omit<C, 'seq'> : never) : never;

export class PeerProxyProcess {
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (a: ProxyAnswer) => void; reject: (e: Error) => void }>();
  private exited: string | null = null;

  private constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (text) => {
      const a = JSON.parse(text) as ProxyAnswer;
      const p = this.pending.get(a.seq);
      if (!p) return;
      this.pending.delete(a.seq);
      if (a.error) p.reject(new Error(`peer proxy host: ${a.error}`));
      else p.resolve(a);
    });
    child.on('exit', (code, signal) => {
      this.exited = signal ? `was ended by ${signal}` : `exited with status ${code}`;
      for (const p of this.pending.values()) p.reject(new Error(`peer proxy host ${this.exited}`));
      this.pending.clear();
    });
  }

  /** The host's process id (a test stalls it to stand for a loaded machine). */
  get pid(): number {
    return this.child.pid!;
  }

  /** Starts the host (TypeScript through tsx, as this package runs it). */
  static start(): PeerProxyProcess {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const host = fileURLToPath(new URL('./peer-proxy-host.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', tsx, host], { stdio: ['pipe', 'pipe', 'inherit'] });
    return new PeerProxyProcess(child);
  }

  call(body: CommandBody): Promise<ProxyAnswer> {
    if (this.exited) return Promise.reject(new Error(`peer proxy host ${this.exited}`));
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.child.stdin!.write(`${JSON.stringify({ ...body, seq })}\n`);
    });
  }

  /** A proxy on host:port forwarding to target, in the host process. */
  async listen(host: string, port: number, target: { host: string; port: number }): Promise<RemotePeerProxy> {
    const a = await this.call({ op: 'listen', host, port, target });
    return new RemotePeerProxy(this, a.proxy!);
  }

  /** The host loop's late ticks so far (loop-lag.ts): while it ran late, no peer message moved. */
  async loopLag(): Promise<LoopLagSample[]> {
    return (await this.call({ op: 'lag' })).lag ?? [];
  }

  /** Closes every proxy and ends the host. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.stdin!.end();
    await gone;
  }
}

/** One proxy in the host process, with PeerProxy's verbs. */
export class RemotePeerProxy {
  constructor(
    private readonly host: PeerProxyProcess,
    private readonly index: number,
  ) {}

  /** Cuts; resolves with when the cut took effect in the host (ms since the epoch). */
  async cut(): Promise<number> {
    return (await this.host.call({ op: 'cut', proxy: this.index })).atMs!;
  }
  /** Heals; resolves with when it took effect in the host. */
  async heal(): Promise<number> {
    return (await this.host.call({ op: 'heal', proxy: this.index })).atMs!;
  }
  reset(): Promise<unknown> {
    return this.host.call({ op: 'reset', proxy: this.index });
  }
  /** Holds every connection into the node (PeerProxy.hold); applied in order with the other verbs. */
  hold(): Promise<unknown> {
    return this.host.call({ op: 'hold', proxy: this.index });
  }
  /** Ends hold() (PeerProxy.release): the lines that had been held. */
  async release(timeoutMs: number): Promise<string[]> {
    return (await this.host.call({ op: 'release', proxy: this.index, timeoutMs })).released ?? [];
  }
  async refuse(): Promise<void> {
    await this.host.call({ op: 'refuse', proxy: this.index });
  }
  async accept(): Promise<void> {
    await this.host.call({ op: 'accept', proxy: this.index });
  }
  async close(): Promise<void> {
    await this.host.call({ op: 'close', proxy: this.index });
  }
}
