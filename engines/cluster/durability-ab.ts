// npm run cluster:durability-ab -- [--engines go,cpp,rust,java] [--repetitions 5] [--seconds 5]
//                                  [--workers 8] [--out FILE.jsonl]
// What the write-ahead log costs each engine, measured as paired ratios on a shared, noisy
// machine (docs/benchmarks.md, "Durability: paired A/B"). For each repetition and engine, three
// 3-node clusters run one after the other — durability none, log with --fsync never, log with
// --fsync always (the order reversed on even repetitions) — each under the same closed-loop load
// (W clients, one outstanding put each, 100-byte values on 200 keys) for S seconds after a
// 1-second warm-up. A ratio log/none is taken within one repetition, so the modes it compares
// ran seconds apart; the summary gives each ratio's median and min–max over the repetitions,
// with the machine's load average and the CPU other processes used during every window.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ENGINE_NAMES, type EngineName } from '../loader/engine.ts';
import { NativeCluster } from './launcher.ts';
import { ReplicantClient } from './client.ts';

type Mode = 'none' | 'log-never' | 'log-always';
const MODES: Mode[] = ['none', 'log-never', 'log-always'];

interface Window {
  engine: EngineName;
  repetition: number;
  mode: Mode;
  ops: number;
  seconds: number;
  ops_per_s: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  /** cores other processes used during the window (/proc: machine busy minus ours) */
  other_cores: number;
  load_average_1m: number;
  started_at: string;
}

const CLOCK_TICKS_PER_S = 100; // USER_HZ on Linux

function machineBusyTicks(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait
  return cpu.reduce((a, b) => a + b, 0) - cpu[3]! - (cpu[4] ?? 0);
}

function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]); // utime stime cutime cstime
  } catch {
    return 0;
  }
}

function loadAverage(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

async function measure(engine: EngineName, mode: Mode, repetition: number, seconds: number, workers: number): Promise<Window> {
  const cluster = await NativeCluster.start({
    engines: [engine, engine, engine],
    ...(mode !== 'none' && { durability: 'log' as const, fsync: mode === 'log-always' ? ('always' as const) : ('never' as const) }),
  });
  const clients = Array.from({ length: workers }, () => new ReplicantClient(cluster.config.clients, { timeoutMs: 10_000 }));
  try {
    // a leader, and every client on it
    await Promise.all(clients.map((c, i) => c.request(`put warm${i} x`, 120_000)));
    const value = 'v'.repeat(100);
    const run = async (untilMs: number, latencies: number[] | null) => {
      await Promise.all(
        clients.map(async (c, i) => {
          for (let j = 0; Date.now() < untilMs; j++) {
            const t0 = performance.now();
            await c.request(`put k${(i * 7919 + j) % 200} ${value}`, 30_000);
            latencies?.push(performance.now() - t0);
          }
        }),
      );
    };
    await run(Date.now() + 1000, null);
    const pids = [process.pid, ...cluster.processes.map((p) => p?.pid ?? 0)];
    const busy0 = machineBusyTicks();
    const ours0 = pids.reduce((a, p) => a + processTicks(p), 0);
    const latencies: number[] = [];
    const t0 = performance.now();
    const startedAt = new Date().toISOString();
    await run(Date.now() + seconds * 1000, latencies);
    const elapsedS = (performance.now() - t0) / 1000;
    const other = (machineBusyTicks() - busy0 - (pids.reduce((a, p) => a + processTicks(p), 0) - ours0)) / CLOCK_TICKS_PER_S / elapsedS;
    latencies.sort((a, b) => a - b);
    return {
      engine,
      repetition,
      mode,
      ops: latencies.length,
      seconds: Number(elapsedS.toFixed(3)),
      ops_per_s: Number((latencies.length / elapsedS).toFixed(1)),
      latency_p50_ms: Number(percentile(latencies, 50).toFixed(2)),
      latency_p99_ms: Number(percentile(latencies, 99).toFixed(2)),
      other_cores: Number(Math.max(0, other).toFixed(2)),
      load_average_1m: loadAverage(),
      started_at: startedAt,
    };
  } finally {
    for (const c of clients) c.close();
    await cluster.stop();
  }
}

const { values } = parseArgs({
  options: {
    engines: { type: 'string', default: 'go,cpp,rust,java' },
    repetitions: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    workers: { type: 'string', default: '8' },
    out: { type: 'string' },
  },
});
const engines = values.engines!.split(',') as EngineName[];
for (const e of engines) {
  if (!ENGINE_NAMES.includes(e)) {
    console.error(`unknown engine ${JSON.stringify(e)}; choose from ${ENGINE_NAMES.join(', ')}`);
    process.exit(2);
  }
}
const repetitions = Number(values.repetitions);
const seconds = Number(values.seconds);
const workers = Number(values.workers);
if (![repetitions, seconds, workers].every((n) => Number.isInteger(n) && n >= 1)) {
  console.error('--repetitions, --seconds and --workers must be positive integers');
  process.exit(2);
}

const windows: Window[] = [];
for (let rep = 1; rep <= repetitions; rep++) {
  for (const engine of engines) {
    const order = rep % 2 === 0 ? [...MODES].reverse() : MODES;
    for (const mode of order) {
      const w = await measure(engine, mode, rep, seconds, workers);
      windows.push(w);
      console.log(JSON.stringify(w));
      if (values.out) writeFileSync(values.out, windows.map((x) => JSON.stringify(x)).join('\n') + '\n');
    }
  }
}

const fmt = (xs: number[], digits = 2) =>
  `${median(xs).toFixed(digits)} [${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}]`;
console.log(`\n${repetitions} repetitions × ${seconds} s, ${workers} closed-loop clients; median [min–max]`);
console.log('| engine | none ops/s | log+never ops/s | log+always ops/s | log+never / none | log+always / none | p99 none / log+always (ms) | other processes (cores) | load average |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const engine of engines) {
  const of = (mode: Mode) => windows.filter((w) => w.engine === engine && w.mode === mode);
  const ratio = (mode: Mode) =>
    of(mode).map((w) => w.ops_per_s / of('none').find((n) => n.repetition === w.repetition)!.ops_per_s);
  const mine = windows.filter((w) => w.engine === engine);
  console.log(
    `| ${engine} | ${fmt(of('none').map((w) => w.ops_per_s), 0)} | ${fmt(of('log-never').map((w) => w.ops_per_s), 0)} | ` +
      `${fmt(of('log-always').map((w) => w.ops_per_s), 0)} | ${fmt(ratio('log-never'))} | ${fmt(ratio('log-always'))} | ` +
      `${median(of('none').map((w) => w.latency_p99_ms)).toFixed(1)} / ${median(of('log-always').map((w) => w.latency_p99_ms)).toFixed(1)} | ` +
      `${fmt(mine.map((w) => w.other_cores))} | ${fmt(mine.map((w) => w.load_average_1m), 1)} |`,
  );
}
