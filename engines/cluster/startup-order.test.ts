// The start-up order of a durable server (docs/protocol.md, "Nothing before restart"; nemesis
// java seed 371): a restarted node must read its disk before it answers a peer. The server under
// test is node 0 of a 3-node configuration whose nodes 1 and 2 are this test's own listeners (a
// node answers a peer through its link to that peer's port, not on the connection it read from).
// Its data dir holds a write-ahead log of many accepted slots, so replaying it takes a while; from
// the moment its peer port takes a connection the test sends node 0 a prepare_request from node 1
// with a high ballot, and the one promise that comes back must carry the slots on its disk.
// Waits are on states (a port that accepts, a line on a socket, the server's log line), never on
// a fixed delay. REPLICANT_CLUSTER_ENGINES picks the engines (every engine named in it runs).
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineName } from '../loader/engine.ts';
import { serverCommand } from '../loader/node-loaders.ts';
import { freePorts } from './ports.ts';
import { sleep, waitUntil } from './client.ts';
import { walFrame } from './wal-frame.ts';

const engines = [...new Set((process.env.REPLICANT_CLUSTER_ENGINES ?? 'go,go,go').split(';').flatMap((m) => m.split(',') as EngineName[]))];

/** Slots in the log on disk: enough that the restart step is not instant, few enough to stay cheap. */
const SLOTS_ON_DISK = 20_000;
const DISK_BALLOT = (1 << 8) | 2; // round 1, led by node 2
const CANDIDATE_BALLOT = (50 << 8) | 1; // round 50, led by node 1: above anything on disk

function writeLog(dir: string): void {
  const frames = [walFrame(`{"kind":"promise","ballot":${DISK_BALLOT}}`)];
  for (let i = 1; i <= SLOTS_ON_DISK; i++) {
    const instance = `{"ballot":${DISK_BALLOT},"index":${i},"client_id":7,"request_id":${i},"state":"in_progress","command":{"type":"put","key":"k${i % 8}","value":"v${i}"}}`;
    frames.push(walFrame(`{"kind":"instance","instance":${instance}}`));
  }
  writeFileSync(join(dir, 'wal.log'), Buffer.concat(frames));
}

/** A listener standing in for a peer: collects the JSON lines the server sends it. */
function fakePeer(port: number): Promise<{ server: Server; lines: string[] }> {
  const lines: string[] = [];
  const server = createServer((socket) => {
    let buf = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        lines.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, lines })));
}

/** Connects once the port accepts (retrying refusals: the server may not have bound it yet). */
async function connectWhenAccepting(port: number, alive: () => boolean, output: () => string): Promise<Socket> {
  for (;;) {
    if (!alive()) throw new Error(`the server ended before its peer port accepted:\n${output()}`);
    const socket = await new Promise<Socket | null>((resolve) => {
      const s = createConnection({ port, host: '127.0.0.1' }, () => resolve(s));
      s.once('error', () => resolve(null));
    });
    if (socket) return socket;
    await sleep(5); // the port refuses: poll it again (waiting on the bind, not on a time)
  }
}

describe.each(engines)('%s durable server start-up order', (engine) => {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('answers a peer only after replaying its disk: its first promise carries the slots it holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), `replicant-startup-${engine}-`));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeLog(dir);
    const [p0, p1, p2, c0, c1, c2] = await freePorts(6);
    const peer1 = await fakePeer(p1!);
    const peer2 = await fakePeer(p2!);
    cleanups.push(() => void peer1.server.close(), () => void peer2.server.close());
    const config = join(dir, 'cluster.json');
    writeFileSync(config, JSON.stringify({ peers: [p0, p1, p2].map((p) => `127.0.0.1:${p}`), clients: [c0, c1, c2].map((p) => `127.0.0.1:${p}`) }));
    const [cmd, ...pre] = serverCommand(engine);
    let output = '';
    const child: ChildProcess = spawn(cmd!, [...pre, '--config', config, '--id', '0', '--data-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const alive = () => child.exitCode === null && child.signalCode === null;
    cleanups.push(() => {
      if (alive()) child.kill('SIGKILL');
    });

    const conn = await connectWhenAccepting(p0!, alive, () => output);
    cleanups.push(() => void conn.destroy());
    const restartedWhenConnected = /restarted from/.test(output);
    conn.write(`{"type":"prepare_request","from":1,"to":0,"channel_id":1,"ballot":${CANDIDATE_BALLOT}}\n`);

    const isAnswer = (l: string) => l.includes('"prepare_response"');
    const answered = await waitUntil(() => peer1.lines.some(isAnswer) || !alive(), 120_000);
    expect(answered && alive(), `no prepare_response within 120 s; server output:\n${output}`).toBe(true);
    // The answer went out after the restart step, so the log line is already written or on its way.
    expect(await waitUntil(() => /restarted from/.test(output), 30_000), output).toBe(true);
    const answer = JSON.parse(peer1.lines.find(isAnswer)!) as { ok: boolean; ballot: number; instances: { index: number }[] };
    expect(answer.ok, `${JSON.stringify(answer).slice(0, 200)}`).toBe(true);
    expect(answer.ballot).toBe(CANDIDATE_BALLOT);
    // The promise reflects the disk: it carries the first slot on it (a node that had not read its
    // disk would promise with an empty log, as the unfixed Java server did in seed 371).
    expect(answer.instances.length, `promise carried ${answer.instances.length} instances; port accepted ${restartedWhenConnected ? 'after' : 'before'} the restart line`).toBeGreaterThan(0);
    expect(answer.instances.some((i) => i.index === 1)).toBe(true);
  }, 180_000);
});
