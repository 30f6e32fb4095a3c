// A TCP forwarder placed in front of one node's peer port, so a test can cut the traffic
// *into* that node without iptables (the node's own outgoing links bypass it). Cutting
// pauses forwarding, as a firewall dropping packets would: the kernel buffers what the
// senders write and TCP delivers it after the cut heals, unless the sender gave up first.
import { createServer, Socket, type Server } from 'node:net';

/** A connection into the node held by hold(): what its sender wrote, not yet forwarded. */
interface HeldConnection {
  inbound: Socket;
  chunks: Buffer[];
}

export class PeerProxy {
  private readonly server: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  private cutNow = false;
  private holding = false;
  private readonly held = new Set<HeldConnection>();
  /** Where it listened before refuse(). */
  private address: { address: string; port: number } | null = null;

  private constructor(readonly target: { host: string; port: number }) {
    this.server = createServer((inbound) => this.forward(inbound));
  }

  /** Listens on host:port and forwards every connection to target. */
  static async listen(host: string, port: number, target: { host: string; port: number }): Promise<PeerProxy> {
    const proxy = new PeerProxy(target);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(port, host, () => resolve());
    });
    return proxy;
  }

  get isCut(): boolean {
    return this.cutNow;
  }

  /** Stops forwarding into the target; connections stay open, bytes wait. */
  cut(): void {
    this.cutNow = true;
    for (const [inbound] of this.pairs) inbound.pause();
  }

  heal(): void {
    this.cutNow = false;
    for (const [inbound] of this.pairs) inbound.resume();
  }

  /** Resets every connection through the proxy at once (as `ss -K` would); senders redial. */
  reset(): void {
    for (const [a, b] of this.pairs) (a.resetAndDestroy(), b.resetAndDestroy());
    this.pairs.clear();
    for (const h of this.held) h.inbound.resetAndDestroy();
    this.held.clear();
  }

  /**
   * From now on accepts connections into the node but neither dials the node nor forwards:
   * what the senders write is kept, until release(). The restart-promise scenario holds a
   * candidate's messages this way while the node behind the proxy is down.
   */
  hold(): void {
    this.holding = true;
  }

  /**
   * Ends hold() once a sender has written a whole line: dials the node for each held
   * connection until its port accepts (every 1 ms:
   * the moment it binds), sends it the newest whole line the sender wrote (the older ones are
   * lost, as a network may lose them) and forwards as usual from then on.
   */
  async release(timeoutMs: number): Promise<string[]> {
    const sent: string[] = [];
    const deadline = performance.now() + timeoutMs;
    // a sender must have connected and written a whole line first: that line is the point
    while (![...this.held].some((h) => h.chunks.some((c) => c.includes(10))) && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1));
    }
    this.holding = false;
    await Promise.all(
      [...this.held].map(async (h) => {
        const outbound = await this.dialUntilAccepted(deadline);
        if (!this.held.delete(h) || !outbound) {
          outbound?.destroy();
          return;
        }
        h.inbound.removeAllListeners('data');
        const text = Buffer.concat(h.chunks).toString('utf8');
        const lines = text.split('\n');
        const partial = lines.pop()!;
        const newest = lines.pop();
        outbound.write((newest === undefined ? '' : newest + '\n') + partial);
        if (newest !== undefined) sent.push(newest);
        this.pair(h.inbound, outbound);
      }),
    );
    return sent;
  }

  private async dialUntilAccepted(deadline: number): Promise<Socket | null> {
    while (performance.now() < deadline) {
      const socket = await new Promise<Socket | null>((resolve) => {
        const s = new Socket();
        s.once('error', () => resolve(null));
        s.connect(this.target.port, this.target.host, () => resolve(s));
      });
      if (socket) return socket;
      await new Promise((r) => setTimeout(r, 1));
    }
    return null;
  }

  /**
   * While the node behind the proxy is down, refuses connections as its closed port would (an
   * accepted connection that the proxy then drops makes a sender redial at once, hundreds of
   * times a second, where a refused one backs off).
   */
  async refuse(): Promise<void> {
    if (!this.server.listening) return;
    this.address = this.server.address() as { address: string; port: number };
    this.reset();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Accepts connections again after refuse(). */
  async accept(): Promise<void> {
    const a = this.address;
    if (this.server.listening || !a) return;
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(a.port, a.address, () => (this.server.off('error', reject), resolve()));
    });
  }

  async close(): Promise<void> {
    this.heal();
    for (const [a, b] of this.pairs) (a.destroy(), b.destroy());
    this.pairs.clear();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(inbound: Socket): void {
    if (this.holding) {
      const h: HeldConnection = { inbound, chunks: [] };
      this.held.add(h);
      inbound.on('data', (chunk: Buffer) => h.chunks.push(chunk));
      inbound.on('error', () => inbound.destroy()).on('close', () => this.held.delete(h));
      return;
    }
    const outbound = new Socket();
    this.pair(inbound, outbound);
    outbound.connect(this.target.port, this.target.host);
  }

  /** Forwards between a connection into the node and one to it (connected or connecting). */
  private pair(inbound: Socket, outbound: Socket): void {
    const pair: [Socket, Socket] = [inbound, outbound];
    this.pairs.add(pair);
    const end = () => {
      inbound.destroy();
      outbound.destroy();
      this.pairs.delete(pair);
    };
    inbound.on('error', end).on('close', end);
    outbound.on('error', end).on('close', end);
    // Forwarded by hand, not with pipe(): pipe() resumes a paused source on 'drain', which
    // would reopen a cut link under load.
    inbound.on('data', (chunk) => {
      if (!outbound.write(chunk)) {
        inbound.pause();
        outbound.once('drain', () => {
          if (!this.cutNow) inbound.resume();
        });
      }
    });
    outbound.on('data', (chunk) => inbound.write(chunk)); // the node's side sends nothing in practice
    if (this.cutNow) inbound.pause();
  }
}
