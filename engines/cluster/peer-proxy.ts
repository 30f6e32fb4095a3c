// A TCP forwarder placed in front of one node's peer port, so a test can cut the traffic
// *into* that node without iptables (the node's own outgoing links bypass it). Cutting
// pauses forwarding, as a firewall dropping packets would: the kernel buffers what the
// senders write and TCP delivers it after the cut heals, unless the sender gave up first.
import { createServer, Socket, type Server } from 'node:net';

export class PeerProxy {
  private readonly server: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  private cutNow = false;
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
    const outbound = new Socket();
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
    outbound.connect(this.target.port, this.target.host);
  }
}
