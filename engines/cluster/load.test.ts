// The closed-loop load leaves a node that does not answer: with every worker on a stopped
// leader, the live nodes would otherwise get no requests at all (the one-follower stall test).
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from './client.ts';
import { ClosedLoopLoad } from './load.ts';

const servers: Server[] = [];
const sockets: Socket[] = [];

/** A loopback server: `answer` false accepts and never replies (a SIGSTOPped node). */
async function node(answer: boolean): Promise<string> {
  const server = createServer((s) => {
    sockets.push(s);
    s.on('error', () => {});
    if (!answer) return;
    let buffer = '';
    s.setEncoding('utf8');
    s.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        s.write(line.startsWith('get ') ? 'v\n' : '\n');
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  if (a === null || typeof a === 'string') throw new Error('no port');
  return `127.0.0.1:${a.port}`;
}

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe('closed-loop load', () => {
  it('moves on from a node that accepts and never answers', async () => {
    const addresses = [await node(false), await node(true)];
    const load = new ClosedLoopLoad({ addresses, startNode: 0, workers: 2, timeoutMs: 200 });
    try {
      // before the fix every worker asked node 0 again after each time-out: no ok, ever
      expect(await waitUntil(() => load.tally.ok >= 10, 20_000), `tally ${JSON.stringify(load.tally)}`).toBe(true);
      expect(load.tally.errors).toBeGreaterThan(0);
    } finally {
      await load.stop();
    }
  }, 30_000);

  it('keeps every worker on startNode when told not to follow redirects, even when it does not answer', async () => {
    let asked = 0;
    const other = createServer((s) => {
      sockets.push(s);
      s.on('error', () => {});
      s.on('data', () => asked++);
    });
    servers.push(other);
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const a = other.address();
    if (a === null || typeof a === 'string') throw new Error('no port');
    const addresses = [await node(false), `127.0.0.1:${a.port}`];
    const load = new ClosedLoopLoad({ addresses, startNode: 0, workers: 2, timeoutMs: 100, followRedirects: false });
    try {
      // several time-outs on node 0 each; the workers moved to node 1 after the first before the fix
      expect(await waitUntil(() => load.tally.errors >= 6, 20_000), `tally ${JSON.stringify(load.tally)}`).toBe(true);
      expect(asked, 'requests that reached node 1').toBe(0);
    } finally {
      await load.stop();
    }
  }, 30_000);
});
