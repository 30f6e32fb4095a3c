// Scripted test of native servers: starts a 3-node cluster on loopback ports, then checks the
// client protocol (put/get/del, followers' redirects, bad commands, over-long lines, pipelining),
// garbage on peer links, configuration errors (exit status 2), and a leader crash and
// restart. Each server may be another engine's (mixed clusters):
//
//   npx tsx engines/rust-wasm/server-test.ts [--servers rust,rust,rust]
//
// Prints `server-test: N passed, M failed`; exits 1 if any check failed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ENGINES = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { servers: { type: 'string', default: 'rust,rust,rust' } } });
const kinds = values.servers!.split(',');
const binary = (kind: string) => join(ENGINES, `${kind}-wasm/dist/replicant-server`);
for (const k of kinds) if (!existsSync(binary(k))) throw new Error(`${binary(k)} is missing; build it first`);

const N = kinds.length;
const BASE = 21000 + (process.pid % 400) * 20;
const peerPort = (i: number) => BASE + 2 * i;
const clientPort = (i: number) => BASE + 2 * i + 1;
const dir = mkdtempSync(join(tmpdir(), 'replicant-server-test-'));
const configPath = join(dir, 'cluster.json');
writeFileSync(
  configPath,
  JSON.stringify({
    commit_interval_ms: 20,
    peers: [...Array(N).keys()].map((i) => `127.0.0.1:${peerPort(i)}`),
    clients: [...Array(N).keys()].map((i) => `127.0.0.1:${clientPort(i)}`),
  }),
);

let passed = 0;
let failed = 0;
function check(name: string, ok: boolean, detail = ''): void {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `: ${detail}`}`);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const servers: (ChildProcess | null)[] = [];
const logs: string[] = [];
function start(i: number): void {
  logs[i] = '';
  const child = spawn(binary(kinds[i]!), ['--config', configPath, '--id', String(i)], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d: Buffer) => (logs[i] += d.toString()));
  servers[i] = child;
}
async function stop(i: number): Promise<void> {
  const child = servers[i];
  if (!child) return;
  servers[i] = null;
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await done;
}

/** A line-oriented client connection. */
class Client {
  private buf = '';
  private waiters: ((line: string | null) => void)[] = [];
  private lines: string[] = [];
  closed = false;
  private constructor(private readonly sock: Socket) {
    sock.on('data', (d) => {
      this.buf += d.toString('latin1');
      for (let nl = this.buf.indexOf('\n'); nl >= 0; nl = this.buf.indexOf('\n')) {
        this.push(this.buf.slice(0, nl));
        this.buf = this.buf.slice(nl + 1);
      }
    });
    const end = () => {
      this.closed = true;
      for (const w of this.waiters.splice(0)) w(null);
    };
    sock.on('close', end);
    sock.on('error', end);
  }
  private push(line: string) {
    const w = this.waiters.shift();
    if (w) w(line);
    else this.lines.push(line);
  }
  static open(port: number): Promise<Client> {
    return new Promise((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port }, () => resolve(new Client(s)));
      s.once('error', reject);
    });
  }
  write(text: string): void {
    this.sock.write(text);
  }
  /** The next line, or null when the connection closed or nothing came in time. */
  read(timeoutMs = 3000): Promise<string | null> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(null);
      }, timeoutMs);
      const done = (l: string | null) => {
        clearTimeout(t);
        resolve(l);
      };
      this.waiters.push(done);
    });
  }
  async ask(line: string): Promise<string | null> {
    this.write(line + '\n');
    return this.read();
  }
  close(): void {
    this.sock.destroy();
  }
}

async function ask(node: number, line: string): Promise<string | null> {
  try {
    const c = await Client.open(clientPort(node));
    const r = await c.ask(line);
    c.close();
    return r;
  } catch {
    return null;
  }
}

/** Waits until some live node leads; returns its id. */
async function findLeader(live: number[], timeoutMs = 10000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const i of live) {
      const r = await ask(i, 'get leader-probe');
      if (r === 'key not found' || r === '') return i;
    }
    await sleep(50);
  }
  return -1;
}

function exitStatusOf(args: string[], kind = kinds[0]!): { status: number | null; stderr: string } {
  const r = spawnSync(binary(kind), args, { encoding: 'utf8', timeout: 5000 });
  return { status: r.status, stderr: r.stderr };
}

async function main() {
  // --- configuration errors end the process with status 2 and say why ---
  const bad = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  for (const kind of new Set(kinds)) {
    const cases: [string, string[]][] = [
      ['missing file', ['--config', join(dir, 'nope.json'), '--id', '0']],
      ['malformed JSON', ['--config', bad('bad.json', '{"peers":['), '--id', '0']],
      ['bad id', ['--config', configPath, '--id', String(N)]],
      ['no id', ['--config', configPath]],
      ['unusable address', ['--config', bad('addr.json', '{"commit_interval_ms":150,"peers":["nowhere"],"clients":["127.0.0.1:1"]}'), '--id', '0']],
    ];
    for (const [name, args] of cases) {
      const r = exitStatusOf(args, kind);
      check(`${kind}: ${name} exits 2 with a message`, r.status === 2 && r.stderr.trim().length > 0, `status ${r.status}, stderr ${JSON.stringify(r.stderr)}`);
    }
  }

  for (let i = 0; i < N; i++) start(i);
  const leader = await findLeader([...Array(N).keys()]);
  check('a leader is elected', leader >= 0);
  if (leader < 0) return;
  const follower = (leader + 1) % N;
  // a port already in use is an unusable address too
  const busy = exitStatusOf(['--config', configPath, '--id', String(leader)], kinds[leader]);
  check('a port in use exits 2', busy.status === 2, `status ${busy.status}`);

  // --- the client protocol ---
  const c = await Client.open(clientPort(leader));
  check('put', (await c.ask('put k v')) === '');
  check('get', (await c.ask('get k')) === 'v');
  check('put a value with spaces', (await c.ask('put k2 a value  with spaces ')) === '');
  check('get it back', (await c.ask('get k2')) === 'a value  with spaces ');
  check('put an empty value', (await c.ask('put empty ')) === '');
  check('get an empty value', (await c.ask('get empty')) === '');
  check('del', (await c.ask('del k')) === '');
  check('get after del', (await c.ask('get k')) === 'key not found');
  check('del a missing key', (await c.ask('del k')) === 'key not found');
  check('CR LF line ending', (await c.ask('get k2\r')) === 'a value  with spaces ');
  for (const line of ['GET k', 'get', 'get ', 'put k', 'get a b', 'frob x', 'get\tk', '']) {
    check(`bad command: ${JSON.stringify(line)}`, (await c.ask(line)) === 'bad command');
  }
  // pipelining: many commands in one write, answered in order
  const many = 200;
  c.write([...Array(many).keys()].map((i) => `put p${i} ${i}\n`).join(''));
  let inOrder = true;
  for (let i = 0; i < many; i++) if ((await c.read()) !== '') inOrder = false;
  check(`${many} pipelined puts`, inOrder);
  check('a pipelined value is there', (await c.ask(`get p${many - 1}`)) === String(many - 1));
  c.close();
  check('a follower redirects', (await ask(follower, 'get k2')) === `leader is ${leader}`);

  // a line over 1 MiB: `bad command`, then the connection closes
  const long = await Client.open(clientPort(leader));
  long.write('put big ' + 'x'.repeat((1 << 20) + 10) + '\n');
  check('an over-long line gets bad command', (await long.read(5000)) === 'bad command');
  check('and the connection closes', (await long.read(5000)) === null && long.closed);
  long.close();

  // --- garbage on a peer link is dropped and logged; the link stays open ---
  const peer = await Client.open(peerPort(leader));
  peer.write('garbage\n{}\n[1,2,3]\n{"type":"commit_request","from":9,"to":0,"channel_id":1,"ballot":9,"last_executed":0,"global_last_executed":0}\n');
  peer.write(`{"type":"accept_response","from":${follower},"to":${(leader + 1) % N === leader ? 0 : leader},"channel_id":999999,"ok":true,"ballot":15}\n`);
  await sleep(200);
  check('garbage peer frames leave the link open', !peer.closed);
  check('the cluster still serves after garbage', (await ask(leader, 'get k2')) === 'a value  with spaces ');
  check('garbage peer frames are logged', /dropped/.test(logs[leader]!), logs[leader]!.slice(-500));
  peer.close();

  // --- the leader crashes: another takes over with the data; the old one comes back ---
  await stop(leader);
  const live = [...Array(N).keys()].filter((i) => i !== leader);
  const next = await findLeader(live);
  check('a new leader after the crash', next >= 0 && next !== leader);
  if (next >= 0) {
    check('committed data survives the leader', (await ask(next, 'get k2')) === 'a value  with spaces ');
    check('writes work under the new leader', (await ask(next, 'put after crash')) === '');
    start(leader);
    await sleep(500);
    check('the restarted node follows the new leader', (await ask(leader, 'get after')) === `leader is ${next}`);
    check('and the new leader still serves', (await ask(next, 'get after')) === 'crash');
  }
}

main()
  .catch((err) => {
    failed++;
    console.log(`FAIL ${err instanceof Error ? err.stack : err}`);
  })
  .finally(async () => {
    for (let i = 0; i < N; i++) await stop(i);
    if (failed) for (let i = 0; i < N; i++) console.log(`--- n${i} (${kinds[i]}) log tail ---\n${(logs[i] ?? '').slice(-1500)}`);
    rmSync(dir, { recursive: true, force: true });
    console.log(`server-test: ${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  });
