// The start-up race of a durable server (docs/protocol.md, "Nothing before restart"; nemesis java
// seed 371), tried many times: node 0 of a 3-node configuration restarts from a data dir holding
// `slots` accepted slots while this process, standing in for node 1, sends it a prepare_request
// the moment its peer port takes a connection. Each try says whether node 0's promise carried the
// slots on its disk (it had stepped its restart first) or none (it answered before reading its
// disk: the defect seed 371 was inferred to have hit). Optionally node 0 is stopped (SIGSTOP) the
// moment its port accepts and resumed once the prepare is in its socket, so the prepare waits for
// it however early it was sent. Used by startup-order.test.ts and the restart-promise scenario.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from './ports.ts';
import { sleep, waitUntil } from './client.ts';
import { walFrame } from './wal-frame.ts';

const DISK_BALLOT = (1 << 8) | 2; // round 1, led by node 2
const CANDIDATE_BALLOT = (50 << 8) | 1; // round 50, led by node 1: above anything on disk

/** Writes a write-ahead log of `slots` accepted slots (ballot DISK_BALLOT) into dir. */
export function writeAcceptedLog(dir: string, slots: number): void {
  const frames = [walFrame(`{"kind":"promise","ballot":${DISK_BALLOT}}`)];
  for (let i = 1; i <= slots; i++) {
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
    await sleep(1); // the port refuses: poll it again (waiting on the bind, not on a time)
  }
}

export interface StartupTry {
  /** instances in node 0's promise: 0 means it promised before reading its disk */
  promised_instances: number;
  /** the lowest slot in the promise (null: none) */
  promised_first_slot: number | null;
  /** node 0 had logged its restart when its peer port first accepted */
  restarted_before_connect: boolean;
  /** ms from spawning node 0 to its peer port accepting */
  bind_ms: number;
}

export interface StartupTryOptions {
  serverArgv: string[];
  slots: number;
  /** SIGSTOP node 0 the moment its peer port accepts; SIGCONT once the prepare is written */
  stopAtBind?: boolean;
  env?: Record<string, string>;
}

/** One start of node 0 from a fresh data dir, one prepare the moment its peer port accepts. */
export async function tryStartupRace(o: StartupTryOptions): Promise<StartupTry> {
  const dir = mkdtempSync(join(tmpdir(), 'replicant-startup-race-'));
  const cleanups: (() => void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  try {
    writeAcceptedLog(dir, o.slots);
    const [p0, p1, p2, c0, c1, c2] = await freePorts(6);
    const peer1 = await fakePeer(p1!);
    const peer2 = await fakePeer(p2!);
    cleanups.push(() => void peer1.server.close(), () => void peer2.server.close());
    const config = join(dir, 'cluster.json');
    writeFileSync(config, JSON.stringify({ peers: [p0, p1, p2].map((p) => `127.0.0.1:${p}`), clients: [c0, c1, c2].map((p) => `127.0.0.1:${p}`) }));
    const [cmd, ...pre] = o.serverArgv;
    let output = '';
    const t0 = performance.now();
    const child: ChildProcess = spawn(cmd!, [...pre, '--config', config, '--id', '0', '--data-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...o.env } });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const alive = () => child.exitCode === null && child.signalCode === null;
    cleanups.push(() => {
      if (alive()) child.kill('SIGKILL');
    });
    const conn = await connectWhenAccepting(p0!, alive, () => output);
    if (o.stopAtBind) child.kill('SIGSTOP');
    const bind_ms = Math.round(performance.now() - t0);
    cleanups.push(() => void conn.destroy());
    const restarted_before_connect = /restarted from/.test(output);
    await new Promise<void>((r) => conn.write(`{"type":"prepare_request","from":1,"to":0,"channel_id":1,"ballot":${CANDIDATE_BALLOT}}\n`, () => r()));
    if (o.stopAtBind) child.kill('SIGCONT');
    const isAnswer = (l: string) => l.includes('"prepare_response"');
    const answered = await waitUntil(() => peer1.lines.some(isAnswer) || !alive(), 120_000);
    if (!answered || !alive()) throw new Error(`no prepare_response within 120 s; server output:\n${output}`);
    const answer = JSON.parse(peer1.lines.find(isAnswer)!) as { ok: boolean; instances: { index: number }[] };
    if (!answer.ok) throw new Error(`node 0 refused the prepare: ${JSON.stringify(answer).slice(0, 200)}`);
    const first = answer.instances.reduce<number | null>((m, i) => (m === null || i.index < m ? i.index : m), null);
    return { promised_instances: answer.instances.length, promised_first_slot: first, restarted_before_connect, bind_ms };
  } finally {
    for (const c of cleanups.reverse()) c();
  }
}
