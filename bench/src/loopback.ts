// `npm --workspace @replicant/bench run loopback [-- --round-trips N --out FILE]`: measures this
// machine's loopback TCP, the network the native benchmark's nodes and YCSB talk over, for the
// simulator's machine card (data/models/machine/). Round trips of a 600-byte message (a
// 500-byte value and its framing) between two threads of one process, each end with its own
// event loop (as two server processes have), TCP_NODELAY as the servers set it; then one flow's
// bandwidth. Writes a card fragment whose parameters are all measured, with date, command and
// load average in the note (data/models/measured/<version>.json).
import { mkdirSync, writeFileSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const MESSAGE_BYTES = 600;

/** The echo end, run in a worker thread (plain JavaScript: a worker does not go through tsx):
 * answers each complete message with as many bytes; in bulk mode (first byte 'B') counts
 * bytes and says "done" once it has them all. */
const ECHO_SERVER = `
const { createServer } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const MESSAGE_BYTES = ${MESSAGE_BYTES};
const server = createServer((sock) => {
  sock.setNoDelay(true);
  let pending = 0;
  let bulk = -1;
  sock.on('data', (chunk) => {
    if (bulk < 0 && pending === 0 && chunk[0] === 0x42) bulk = 0;
    if (bulk >= 0) {
      bulk += chunk.length;
      if (bulk >= workerData.bulk_bytes) { sock.write('done'); bulk = -Infinity; }
      return;
    }
    pending += chunk.length;
    while (pending >= MESSAGE_BYTES) {
      pending -= MESSAGE_BYTES;
      sock.write(Buffer.alloc(MESSAGE_BYTES, 0x61));
    }
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

export interface LoopbackFigures {
  round_trips: number;
  rtt_min_us: number;
  rtt_median_us: number;
  rtt_mean_us: number;
  rtt_p99_us: number;
  bandwidth_gbps: number;
}

/** Order statistics of round-trip times (µs). Pure, for the test. */
export function rttStats(rtts_us: number[]): Pick<LoopbackFigures, 'rtt_min_us' | 'rtt_median_us' | 'rtt_mean_us' | 'rtt_p99_us'> {
  if (!rtts_us.length) throw new Error('no round trips measured');
  const s = [...rtts_us].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { rtt_min_us: s[0]!, rtt_median_us: at(0.5), rtt_mean_us: s.reduce((a, b) => a + b, 0) / s.length, rtt_p99_us: at(0.99) };
}

async function connect(port: number): Promise<Socket> {
  return new Promise((ok, fail) => {
    const sock = createConnection({ host: '127.0.0.1', port }, () => ok(sock));
    sock.setNoDelay(true);
    sock.once('error', fail);
  });
}

async function roundTrips(sock: Socket, n: number): Promise<number[]> {
  const msg = Buffer.alloc(MESSAGE_BYTES, 0x72);
  const out: number[] = [];
  let got = 0;
  let sent = 0n;
  let resolveAll: () => void;
  const all = new Promise<void>((ok) => (resolveAll = ok));
  const send = () => {
    sent = process.hrtime.bigint();
    sock.write(msg);
  };
  sock.on('data', (chunk: Buffer) => {
    got += chunk.length;
    if (got < MESSAGE_BYTES) return;
    got -= MESSAGE_BYTES;
    out.push(Number(process.hrtime.bigint() - sent) / 1000);
    if (out.length >= n) resolveAll();
    else send();
  });
  send();
  await all;
  sock.removeAllListeners('data');
  return out;
}

async function bulk(port: number, bytes: number): Promise<number> {
  const sock = await connect(port);
  const chunk = Buffer.alloc(1 << 20, 0x42);
  const t0 = process.hrtime.bigint();
  const done = new Promise<void>((ok) => sock.once('data', () => ok()));
  for (let sent = 0; sent < bytes; sent += chunk.length) if (!sock.write(chunk)) await new Promise((ok) => sock.once('drain', ok));
  await done;
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  sock.destroy();
  return (bytes * 8) / s / 1e9;
}

export async function measureLoopback(roundTripsCount: number, warmup: number, bulkBytes: number): Promise<LoopbackFigures> {
  const worker = new Worker(ECHO_SERVER, { eval: true, workerData: { bulk_bytes: bulkBytes } });
  try {
    const port = await new Promise<number>((ok, fail) => {
      worker.once('message', ok);
      worker.once('error', fail);
    });
    const sock = await connect(port);
    await roundTrips(sock, warmup);
    const rtts = await roundTrips(sock, roundTripsCount);
    sock.destroy();
    return { round_trips: roundTripsCount, ...rttStats(rtts), bandwidth_gbps: await bulk(port, bulkBytes) };
  } finally {
    await worker.terminate();
  }
}

function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(argv: string[]): Promise<void> {
  const n = Number(flag(argv, '--round-trips') ?? 20000);
  if (!Number.isInteger(n) || n < 100) throw new Error('--round-trips must be an integer >= 100');
  const load0 = loadavg()[0]!;
  const f = await measureLoopback(n, 1000, 256 << 20);
  const load1 = loadavg()[0]!;
  const date = new Date().toISOString().slice(0, 10);
  const where = `npm --workspace @replicant/bench run loopback, ${date}, ${cpus().length}-core ${cpus()[0]?.model.trim() ?? '?'}, load average ${load0.toFixed(1)} before and ${load1.toFixed(1)} after; ${f.round_trips} round trips of a ${MESSAGE_BYTES}-byte message over 127.0.0.1 TCP (TCP_NODELAY) between two threads, each with its own event loop, after 1,000 warm-up; bandwidth: one flow of 256 MiB`;
  const p = (value: number, unit: string, what: string) => ({ value: Math.round(value * 100) / 100, unit, source: 'measured', note: `${what} (${where}).` });
  const version = `0.1.0-loopback.${date.replace(/-/g, '')}`;
  const card = {
    version,
    description: `Loopback TCP of this machine, measured for the simulator's machine card (${where}).`,
    parameters: {
      'loopback.rtt_min_us': p(f.rtt_min_us, 'us', 'Least round trip'),
      'loopback.rtt_median_us': p(f.rtt_median_us, 'us', 'Median round trip'),
      'loopback.rtt_mean_us': p(f.rtt_mean_us, 'us', 'Mean round trip'),
      'loopback.rtt_p99_us': p(f.rtt_p99_us, 'us', '99th percentile round trip'),
      'loopback.bandwidth_gbps': p(f.bandwidth_gbps, 'Gbit/s', 'One flow\'s throughput'),
    },
  };
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const out = resolve(cwd, flag(argv, '--out') ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data/models/measured', `${version}.json`));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(card, null, 2) + '\n');
  console.log(`loopback: RTT min ${f.rtt_min_us.toFixed(1)} µs, median ${f.rtt_median_us.toFixed(1)}, mean ${f.rtt_mean_us.toFixed(1)}, p99 ${f.rtt_p99_us.toFixed(1)}; one flow ${f.bandwidth_gbps.toFixed(2)} Gbit/s; load ${load0.toFixed(1)} → ${load1.toFixed(1)}; wrote ${relative(cwd, out)}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(`loopback: ${(e as Error).message}`);
    process.exit(1);
  });
}
