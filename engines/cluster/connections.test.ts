// The client-connection limit (docs/protocol.md, "Native servers", "Limits"): a node keeps at
// most 256 client connections open; the next one is answered `retry` and closed, the node
// counts it in its status line, and once a connection closes a new one is served again. Each
// engine present in REPLICANT_CLUSTER_ENGINES runs alone as a one-node cluster (the limit is a
// node's own).
import { Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineName } from '../loader/engine.ts';
import { NativeCluster } from './launcher.ts';
import { FINE_STATUS_INTERVAL_MS } from './catch-up-timing.ts';
import { ReplicantClient, waitUntil } from './client.ts';
import { StatusReader } from './node-status.ts';

const mixes = (process.env.REPLICANT_CLUSTER_ENGINES ?? 'go,go,go').split(';').map((m) => m.split(',') as EngineName[]);
const engines = [...new Set(mixes.flat())];
const MAX_CLIENTS = 256;

/** An open client connection and everything it has received so far. */
class RawClient {
  readonly socket = new Socket();
  received = '';
  closed = false;

  constructor(address: string) {
    const [host, port] = address.split(':');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (d: string) => (this.received += d));
    this.socket.on('close', () => (this.closed = true));
    this.socket.on('error', () => {});
    this.socket.connect(Number(port), host!);
  }

  connected(): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.socket.readyState === 'open') return resolve(true);
      this.socket.once('connect', () => resolve(true));
      this.socket.once('close', () => resolve(false));
    });
  }
}

for (const engine of engines) {
  describe(`client connection limit ${engine}`, () => {
    let cluster: NativeCluster | undefined;
    const raws: RawClient[] = [];
    afterAll(async () => {
      for (const r of raws) r.socket.destroy();
      await cluster?.stop();
    });

    it(`keeps ${MAX_CLIENTS} client connections, answers the next one retry, and serves again when one closes`, async () => {
      const c = (cluster = await NativeCluster.start({ engines: [engine], commitIntervalMs: 150, statusIntervalMs: FINE_STATUS_INTERVAL_MS, logDir: process.env.REPLICANT_CLUSTER_LOGS }));
      const reader = new StatusReader(c.logPath(0));
      const address = c.config.clients[0]!;
      const probe = new ReplicantClient([address], { timeoutMs: 1000 });
      try {
        expect(await probe.request('put limit before', 20_000)).toBe('');
      } finally {
        probe.close();
      }
      // The probe's connection has closed; wait until the node has let it go.
      expect(await waitUntil(() => (reader.latest()?.clients ?? 1) === 0, 20_000)).toBe(true);
      for (let k = 0; k < MAX_CLIENTS; k++) raws.push(new RawClient(address));
      expect((await Promise.all(raws.map((r) => r.connected()))).every(Boolean)).toBe(true);
      expect(await waitUntil(() => reader.latest()?.clients === MAX_CLIENTS, 20_000), 'the node counts 256 clients').toBe(true);
      const extra = new RawClient(address);
      expect(await waitUntil(() => extra.closed, 20_000), 'the 257th connection is closed').toBe(true);
      expect(extra.received).toBe('retry\n');
      expect(await waitUntil(() => (reader.latest()?.clients_refused ?? 0) >= 1, 20_000), 'the refusal is counted').toBe(true);
      // Every connection within the limit is served.
      const first = raws[0]!;
      first.socket.write('get limit\n');
      expect(await waitUntil(() => first.received.includes('\n'), 20_000)).toBe(true);
      expect(first.received).toBe('before\n');
      // One closes; a new connection is served again.
      raws.pop()!.socket.destroy();
      expect(await waitUntil(() => (reader.latest()?.clients ?? MAX_CLIENTS) < MAX_CLIENTS, 20_000)).toBe(true);
      const again = new RawClient(address);
      raws.push(again);
      expect(await again.connected()).toBe(true);
      again.socket.write('get limit\n');
      expect(await waitUntil(() => again.received.includes('\n') || again.closed, 20_000)).toBe(true);
      expect(again.received).toBe('before\n');
    });
  });
}
