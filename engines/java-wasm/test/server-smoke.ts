// Scripted test of the Java native server (dist/replicant-server): configuration errors exit
// with status 2; a 3-node cluster elects a leader, serves put/get/del, answers bad lines with
// `bad command`, closes a connection after a line over 1 MiB, drops garbage peer frames and
// keeps serving, survives the loss of its leader and takes a restarted node back.
//   npx tsx engines/java-wasm/test/server-smoke.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artefacts } from '../../loader/node-loaders.ts';

const SERVER = artefacts.java.server;
const dir = mkdtempSync(join(tmpdir(), 'replicant-java-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let failures = 0;

function check(ok: boolean, what: string): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Runs the server to completion (for configurations that must fail). */
function runToExit(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(SERVER, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const t = setTimeout(() => p.kill('SIGKILL'), 15000);
    p.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, stderr });
    });
  });
}

/** A client connection that sends lines and reads reply lines. */
class Client {
  private buf = '';
  private waiters: ((line: string | null) => void)[] = [];
  closed = false;
  constructor(readonly sock: Socket) {
    sock.setNoDelay(true);
    sock.on('data', (d: Buffer) => {
      this.buf += d.toString('latin1');
      this.drain();
    });
    sock.on('close', () => {
      this.closed = true;
      this.drain();
      for (const w of this.waiters.splice(0)) w(null);
    });
    sock.on('error', () => {});
  }
  /** Hands complete lines to waiting readers, in order. */
  private drain(): void {
    for (let nl = this.buf.indexOf('\n'); nl >= 0 && this.waiters.length; nl = this.buf.indexOf('\n')) {
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 1);
      this.waiters.shift()!(line);
    }
  }
  static connect(port: number): Promise<Client> {
    return new Promise((resolve, reject) => {
      const s = new Socket();
      s.once('error', reject);
      s.connect(port, '127.0.0.1', () => resolve(new Client(s)));
    });
  }
  /** The next reply line, or null if the connection closed first. */
  next(timeoutMs = 5000): Promise<string | null> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no reply within ' + timeoutMs + ' ms')), timeoutMs);
      this.waiters.push((l) => {
        clearTimeout(t);
        resolve(l);
      });
      this.drain();
      if (this.closed) for (const w of this.waiters.splice(0)) w(null);
    });
  }
  async ask(line: string): Promise<string | null> {
    this.sock.write(line + '\n');
    return this.next();
  }
  close(): void {
    this.sock.destroy();
  }
}

async function ask(port: number, line: string): Promise<string | null> {
  const c = await Client.connect(port);
  try {
    return await c.ask(line);
  } finally {
    c.close();
  }
}

// --- configuration errors: exit status 2 and a message naming the problem ---
{
  const good = { commit_interval_ms: 100, peers: ['127.0.0.1:1', '127.0.0.1:2'], clients: ['127.0.0.1:3', '127.0.0.1:4'] };
  const cases: [string, string[], string][] = [
    ['missing file', [join(dir, 'nope.json'), '--id', '0'], 'cannot read configuration'],
    ['bad JSON', ['{"peers":', '--id', '0'], 'not valid JSON'],
    ['unknown field', [JSON.stringify({ ...good, colour: 1 }), '--id', '0'], 'unknown field "colour"'],
    ['id out of range', [JSON.stringify(good), '--id', '2'], 'bad id 2'],
    ['no id', [JSON.stringify(good)], 'no --id given'],
    ['unusable address', [JSON.stringify({ ...good, peers: ['127.0.0.1:99999', '127.0.0.1:2'] }), '--id', '0'],
      'is not a usable address'],
    ['address not ours', [JSON.stringify({ ...good, peers: ['192.0.2.1:4000', '127.0.0.1:2'] }), '--id', '0'],
      'cannot listen on peers[0]'],
    ['mismatched lists', [JSON.stringify({ ...good, clients: ['127.0.0.1:3'] }), '--id', '0'], 'one each per node'],
  ];
  const runs = cases.map(async ([name, args, message], i) => {
    const a = [...args];
    if (a[0]!.startsWith('{')) {
      const path = join(dir, `bad-${i}.json`);
      writeFileSync(path, a[0]!);
      a[0] = path;
    }
    const { code, stderr } = await runToExit(a);
    return [name, code === 2 && stderr.includes(message), `${code}: ${stderr.trim().split('\n')[0]}`] as const;
  });
  for (const [name, ok, got] of await Promise.all(runs)) check(ok, `bad configuration (${name}) exits 2 naming it — ${got}`);
}

// --- a 3-node cluster ---
const peers: number[] = [];
const clients: number[] = [];
for (let i = 0; i < 3; i++) (peers.push(await freePort()), clients.push(await freePort()));
const config = join(dir, 'cluster.json');
writeFileSync(config, JSON.stringify({
  commit_interval_ms: 150,
  peers: peers.map((p) => `127.0.0.1:${p}`),
  clients: clients.map((p) => `127.0.0.1:${p}`),
}));
const procs: (ChildProcess | null)[] = [null, null, null];
const logs = ['', '', ''];
function startNode(id: number): void {
  const p = spawn(SERVER, [config, '--id', String(id)], { stdio: ['ignore', 'ignore', 'pipe'] });
  p.stderr!.on('data', (d: Buffer) => (logs[id] += d.toString()));
  procs[id] = p;
}
async function stopNode(id: number): Promise<void> {
  const p = procs[id];
  procs[id] = null;
  if (!p || p.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGKILL');
  });
}

/** Polls until some live node names a leader that says it leads; returns its id. */
async function findLeader(timeoutMs = 20000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (let id = 0; id < 3; id++) {
      if (!procs[id]) continue;
      const reply = await ask(clients[id]!, 'get leader-probe').catch(() => null);
      if (reply === 'key not found') return id;
    }
    await sleep(100);
  }
  throw new Error('no leader elected within ' + timeoutMs + ' ms');
}

try {
  for (let id = 0; id < 3; id++) startNode(id);
  const leader = await findLeader();
  check(true, `a leader was elected: node ${leader}`);
  const c = await Client.connect(clients[leader]!);
  check((await c.ask('put k a value with  spaces')) === '', 'put answers an empty line');
  check((await c.ask('get k')) === 'a value with  spaces', 'get returns the value');
  check((await c.ask('put e ')) === '' && (await c.ask('get e')) === '', 'an empty value round-trips');
  check((await c.ask('del k')) === '', 'del answers an empty line');
  check((await c.ask('del k')) === 'key not found', 'a second del: key not found');
  check((await c.ask('get k')) === 'key not found', 'get after del: key not found');
  check((await c.ask('get k\r')) === 'key not found', 'one trailing CR is removed');
  for (const bad of ['bad', 'get  k', 'put k', 'get k v', 'PUT k v', 'put k\tv', 'get caf\u00e9']) {
    check((await c.ask(bad)) === 'bad command', `bad line ${JSON.stringify(bad)}: bad command`);
  }
  const follower = (leader + 1) % 3;
  check((await ask(clients[follower]!, 'get k')) === `leader is ${leader}`, 'a follower names the leader');

  // Pipelined requests are all answered, in order.
  const n = 500;
  const replies: Promise<string | null>[] = [];
  for (let i = 0; i < n; i++) replies.push(c.next(20000));
  c.sock.write(Array.from({ length: n }, (_, i) => `put p${i} ${i}\n`).join(''));
  const got = await Promise.all(replies);
  check(got.every((r) => r === ''), `${n} pipelined puts all answered ok`);
  check((await c.ask(`get p${n - 1}`)) === String(n - 1), 'the last pipelined put is readable');

  // A line over 1 MiB: bad command, then the connection is closed.
  const big = await Client.connect(clients[leader]!);
  big.sock.write('put big ' + 'v'.repeat(1 << 20) + '\n');
  check((await big.next()) === 'bad command', 'a line over 1 MiB gets bad command');
  check((await big.next()) === null && big.closed, '... and the connection is closed');

  // Garbage on a peer connection is dropped and logged; the cluster keeps serving.
  const g = new Socket();
  await new Promise<void>((resolve) => g.connect(peers[follower]!, '127.0.0.1', () => resolve()));
  g.write('not json\n{"type":"prepare_request","from":9,"to":' + follower + ',"channel_id":1,"ballot":265}\n' +
    '{"type":"prepare_request","from":0,"to":7,"channel_id":1,"ballot":256}\n\n');
  await sleep(300);
  check((logs[follower]!.match(/dropped a frame/g) ?? []).length >= 3, 'garbage peer frames are logged as dropped');
  check((await c.ask('put after-garbage 1')) === '', 'the cluster still serves after garbage frames');
  g.destroy();
  c.close();

  // Losing the leader: the other two elect a new one and keep the data.
  await stopNode(leader);
  const next = await findLeader();
  check(next !== leader, `after the leader died, node ${next} leads`);
  check((await ask(clients[next]!, `get p${n - 1}`)) === String(n - 1), 'the new leader has the data');
  check((await ask(clients[next]!, 'put after-failover yes')) === '', 'and accepts writes');

  // The old leader restarts empty, follows, and the cluster still answers through it.
  startNode(leader);
  let named = '';
  for (let i = 0; i < 100 && named !== `leader is ${next}`; i++) {
    await sleep(100);
    named = (await ask(clients[leader]!, 'get x').catch(() => null)) ?? '';
  }
  check(named === `leader is ${next}`, `the restarted node follows node ${next}`);
} catch (err) {
  check(false, (err as Error).message);
} finally {
  for (let id = 0; id < 3; id++) await stopNode(id);
}
if (failures) {
  for (let id = 0; id < 3; id++) console.log(`--- node ${id} log (tail)\n${logs[id]!.split('\n').slice(-15).join('\n')}`);
}
console.log(failures ? `java server smoke: ${failures} FAILED` : 'java server smoke: all checks passed');
process.exitCode = failures ? 1 : 0;
