// The history client against scripted nodes on loopback: what it records when a node answers
// `leader is` or `retry` to a write (docs/reliability.md, the nemesis violations).
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryOp } from '@replicant/checker/lincheck';
import { HistoryClient } from './history-client.ts';

/** A node that answers each request line with answer(line) and records what it received. */
interface ScriptedNode {
  address: string;
  received: string[];
  server: Server;
}

async function scriptedNode(answer: (line: string) => string): Promise<ScriptedNode> {
  const received: string[] = [];
  const server = createServer((socket) => {
    socket.setEncoding('utf8');
    let buffer = '';
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        received.push(line);
        socket.write(answer(line) + '\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { address: `127.0.0.1:${port}`, received, server };
}

const nodes: ScriptedNode[] = [];
const clients: HistoryClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const n of nodes.splice(0)) await new Promise<void>((resolve) => n.server.close(() => resolve()));
});

/** Node 0 answers every request with `first`; node 1 (the leader it names) executes: `del` of a
 * key already gone answers `key not found`, a get answers a value. */
async function twoNodes(first: string): Promise<{ client: HistoryClient; history: HistoryOp[] }> {
  nodes.push(await scriptedNode(() => first));
  nodes.push(await scriptedNode((line) => (line.startsWith('del') ? 'key not found' : line.startsWith('get') ? 'v' : '')));
  const history: HistoryOp[] = [];
  let t = 0;
  const client = new HistoryClient({
    addresses: nodes.map((n) => n.address),
    history,
    nowUs: () => ++t,
    client: 0,
    idStride: 1024,
    target: 0,
    requestTimeoutMs: 60_000,
  });
  clients.push(client);
  return { client, history };
}

describe('HistoryClient', () => {
  // A deposed leader answers the clients of its open accept phases `leader is N`, and the next
  // leader may replay those commands. Resending the del made it run twice: the second copy
  // answered `key not found` and the history said an acknowledged put was lost (nemesis seeds
  // go 106, go 109, rust 114). This test failed before the fix (result not_found, resent).
  it('records a write answered `leader is` as unknown and does not send it again', async () => {
    const { client, history } = await twoNodes('leader is 1');
    const op = await client.run('del', 'k1');
    expect(op.result).toBe('unknown');
    expect(op.return_us).toBeUndefined();
    expect(nodes[1]!.received).toEqual([]);
    expect(client.target).toBe(1); // the next operation goes to the named leader
    expect(client.proc).toBe(1024); // and is recorded under a new id (the unknown one never ends)
    expect(history).toEqual([op]);
  });

  it('records a write answered `retry` as unknown and does not send it again', async () => {
    const { client } = await twoNodes('retry');
    const op = await client.run('put', 'k1', 'x');
    expect(op.result).toBe('unknown');
    expect(nodes[0]!.received).toEqual(['put k1 x']);
    expect(nodes[1]!.received).toEqual([]);
  });

  it('follows `leader is` for a read, which has no effect to duplicate', async () => {
    const { client } = await twoNodes('leader is 1');
    const op = await client.run('get', 'k1');
    expect(op).toMatchObject({ result: 'ok', value: 'v' });
    expect(nodes[1]!.received).toEqual(['get k1']);
  });
});
