// The servers' reset-peer test hook (docs/protocol.md, "Native servers"), on each of the four
// servers: off without --test-peer-reset (a clear error, and the line never reaches the core),
// a clear error on bad input, and on a good one the node drops its link to that peer as a TCP
// reset would (the link breaks, redials, and the cluster serves on with nothing lost). The
// reset tests (reset.test.ts) rely on it in place of the forwarding proxies.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EngineName } from '../loader/engine.ts';
import { ReplicantClient, waitUntil } from './client.ts';
import { NativeCluster } from './launcher.ts';
import { StatusReader } from './node-status.ts';
import { settledLeader } from './reset-failover.ts';

const ENGINES: EngineName[] = ['cpp', 'go', 'rust', 'java'];

/** What a node with the hook on answers to a bad reset-peer line in a 2-node cluster, as node 1. */
const badInput = (got: string) => `error reset-peer takes one peer id, 0 to 1 and not this node's own (1): got ${JSON.stringify(got)}`;

for (const engine of ENGINES) {
  describe(`reset-peer on the ${engine} server`, () => {
    it('answers a clear error when off or on bad input, and resets the link when asked', async () => {
      // node 0 without the flag, node 1 with it
      const cluster = await NativeCluster.start({
        engines: [engine, engine],
        testPeerReset: true,
        statusIntervalMs: 100,
        wrap: (id, argv) => (id === 0 ? argv.filter((a) => a !== '--test-peer-reset') : argv),
      });
      const operator = new ReplicantClient(cluster.config.clients, { timeoutMs: 10_000 });
      const client = new ReplicantClient(cluster.config.clients);
      try {
        await settledLeader(cluster.config.peers.map((_, id) => new StatusReader(cluster.logPath(id))));
        expect(await client.request('put before the-value')).toBe('');

        expect(await operator.raw(0, 'reset-peer 1')).toBe('error reset-peer is off: start the server with --test-peer-reset');
        for (const arg of ['1', '2', '-1', '+0', '0 ', ' 0', 'x', '0x0', '0000', '']) {
          expect(await operator.raw(1, arg === '' ? 'reset-peer' : `reset-peer ${arg}`), `reset-peer ${JSON.stringify(arg)}`).toBe(badInput(arg));
        }
        // only the verb itself is the hook's: a longer one is a client command, and a bad one
        expect(await operator.raw(1, 'reset-peers 0')).toBe('bad command');
        // the connection is still usable after every error (any answer of the client protocol:
        // node 1 may lead, follow, or be standing for election on a loaded machine)
        expect(await operator.raw(1, 'get before')).toMatch(/^(the-value|leader is 0|retry)$/);

        const before = readFileSync(cluster.logPath(1), 'utf8').split('\n').length;
        expect(await operator.raw(1, 'reset-peer 0')).toBe('reset peer 0');
        const broke = () =>
          readFileSync(cluster.logPath(1), 'utf8')
            .split('\n')
            .slice(before - 1)
            .some((line) => /link to peer 0 at \S+ broke: reset-peer; reconnecting/.test(line));
        expect(await waitUntil(broke, 10_000), "node 1's log says its link to peer 0 broke on reset-peer").toBe(true);
        // the link redials and the cluster serves on, with the write before the reset intact
        expect(await client.request('put after the-next-value', 20_000)).toBe('');
        expect(await client.request('get before', 20_000)).toBe('the-value');
        expect(await client.request('get after', 20_000)).toBe('the-next-value');
      } finally {
        operator.close();
        client.close();
        await cluster.stop();
      }
    }, 90_000);
  });
}
