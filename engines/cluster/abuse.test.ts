// Servers under abuse (issue 14): garbage and half lines on the client and peer ports, 2 MiB
// lines, 2,000 connections opened and dropped, a client that stalls mid-line. Each node must
// stay up, answer the bad input clearly (`bad command` and a closed connection for a client line
// over 1 MiB; a dropped, logged frame on a peer port), serve the other clients all along, and
// come back to its resident memory level afterwards (within the 64 MiB the limits document,
// docs/protocol.md, "Native servers"). REPLICANT_CLUSTER_ENGINES picks the engines (each one
// present runs alone in a 3-node cluster; default Go).
import { afterAll, describe, expect, it } from 'vitest';
import { Socket } from 'node:net';
import type { EngineName } from '../loader/engine.ts';
import { NativeCluster } from './launcher.ts';
import { ReplicantClient, sleep } from './client.ts';
import { residentBytes } from './node-status.ts';

const mixes = (process.env.REPLICANT_CLUSTER_ENGINES ?? 'go,go,go').split(';').map((m) => m.split(',') as EngineName[]);
const engines = [...new Set(mixes.flat())];
const MiB = 1 << 20;
const RSS_BOUND_BYTES = 64 * MiB;

function connect(address: string): Promise<Socket> {
  const [host, port] = address.split(':');
  return new Promise((resolve, reject) => {
    const s = new Socket();
    s.once('error', reject);
    s.connect(Number(port), host!, () => (s.off('error', reject), s.on('error', () => {}), resolve(s)));
  });
}

/** Writes bytes, then reads until the server closes the connection or `until` matches what came back. */
function exchange(s: Socket, payload: string | Buffer, until: (reply: string) => boolean, timeoutMs = 20_000): Promise<{ reply: string; closed: boolean }> {
  return new Promise((resolve) => {
    let reply = '';
    let closed = false;
    const finish = () => (clearTimeout(timer), s.off('data', onData), resolve({ reply, closed }));
    const timer = setTimeout(finish, timeoutMs);
    const onData = (d: Buffer) => ((reply += d.toString()), until(reply) && finish());
    s.on('data', onData);
    s.once('close', () => ((closed = true), finish()));
    s.write(payload);
  });
}

for (const engine of engines) {
  describe(`servers under abuse: ${engine}`, () => {
    let cluster: NativeCluster | undefined;
    let client: ReplicantClient | undefined;
    afterAll(async () => {
      client?.close();
      await cluster?.stop();
    });
    const alive = () => cluster!.processes.map((p, id) => `n${id} ${p && p.exitCode === null ? 'up' : cluster!.describeExit(id)}`);
    const rss = () => cluster!.processes.map((p) => (p?.pid ? residentBytes(p.pid) ?? 0 : 0));

    it('stays up, answers bad input clearly, serves others throughout, and returns to its memory level', async () => {
      const c = (cluster = await NativeCluster.start({ engines: [engine, engine, engine], commitIntervalMs: 50, logDir: process.env.REPLICANT_CLUSTER_LOGS }));
      client = new ReplicantClient(c.config.clients, { timeoutMs: 5000 });
      const up = alive();
      // warm-up: buffers and heaps reach their working size before the level is taken
      for (let i = 0; i < 200; i++) expect(await client.request(`put warm${i % 20} ${'v'.repeat(1000)}`, 30_000)).toBe('');
      const level = rss();

      // a client that stalls mid-line, held open through everything below
      const staller = await connect(c.config.clients[client.currentNode]!);
      staller.write('put stalled half');

      // client ports: garbage, half lines (then closed), a 2 MiB line
      for (const addr of c.config.clients) {
        const garbage = await connect(addr);
        const g = await exchange(garbage, Buffer.from([0, 0xff, 0xfe, 10, 0x80, 0x81, 10]), (r) => r.split('\n').length > 2);
        expect(g.reply).toBe('bad command\nbad command\n');
        garbage.destroy();
        const half = await connect(addr);
        await new Promise<void>((r) => half.end('put half', r));
        const big = await connect(addr);
        const b = await exchange(big, `put big ${'x'.repeat(2 * MiB)}\n`, () => false);
        expect(b).toEqual({ reply: 'bad command\n', closed: true });
      }
      expect(await client.request('get warm1')).toBe('v'.repeat(1000));

      // peer ports: garbage, a half frame (then closed), a 2 MiB line: dropped, the link stays
      for (const addr of c.config.peers) {
        const s = await connect(addr);
        s.write('garbage\n\u0000\u00ff\n{"type":"accept_request"}\n');
        s.write(`{"type":"commit_request","junk":"${'y'.repeat(2 * MiB)}"}\n`);
        await new Promise<void>((r) => s.end('{"type":"prepare_req', r)); // a half frame, then closed
      }
      expect(await client.request('put after-peers 1')).toBe('');

      // 2,000 connections opened and dropped (client and peer ports), in waves of 200
      const addrs = [...c.config.clients, ...c.config.peers];
      for (let wave = 0; wave < 10; wave++) {
        const socks = await Promise.all(Array.from({ length: 200 }, (_, i) => connect(addrs[(wave * 200 + i) % addrs.length]!).catch(() => null)));
        expect(socks.filter((s) => s === null).length).toBe(0);
        for (const s of socks) s?.destroy();
        expect(await client.request(`put wave${wave} ${wave}`)).toBe('');
      }

      // the staller finishes its line: it gets the ordinary answer, as if it had never paused
      const done = await exchange(staller, ' line\n', (r) => r.endsWith('\n'));
      expect(done.reply === '\n' || /^leader is \d\n$/.test(done.reply) || done.reply === 'retry\n').toBe(true);
      staller.destroy();
      for (let wave = 0; wave < 10; wave++) expect(await client.request(`get wave${wave}`)).toBe(String(wave));

      expect(alive()).toEqual(up);
      // memory back to its level: wait on it (the runtimes return freed memory at their own pace)
      let now = rss();
      for (const deadline = Date.now() + 30_000; Date.now() < deadline && now.some((r, i) => r > level[i]! + RSS_BOUND_BYTES); now = rss()) {
        await client.request('get warm1'); // keep the nodes stepping: some runtimes free on activity
        await sleep(250);
      }
      console.log(`${engine}: resident MiB before ${level.map((r) => (r / MiB).toFixed(1)).join('/')}, after ${now.map((r) => (r / MiB).toFixed(1)).join('/')}`);
      now.forEach((r, i) => expect(r, `n${i} resident memory`).toBeLessThanOrEqual(level[i]! + RSS_BOUND_BYTES));
    }, 240_000);
  });
}
