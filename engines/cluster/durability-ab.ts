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
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ENGINE_NAMES, type EngineName } from '../loader/engine.ts';
import { measureWindow, median, medianAndRange, type WindowFigures } from './closed-loop-window.ts';

type Mode = 'none' | 'log-never' | 'log-always';
const MODES: Mode[] = ['none', 'log-never', 'log-always'];

interface Window extends WindowFigures {
  engine: EngineName;
  repetition: number;
  mode: Mode;
}

async function measure(engine: EngineName, mode: Mode, repetition: number, seconds: number, workers: number): Promise<Window> {
  const figures = await measureWindow(
    {
      engines: [engine, engine, engine],
      ...(mode !== 'none' && { durability: 'log' as const, fsync: mode === 'log-always' ? ('always' as const) : ('never' as const) }),
    },
    seconds,
    workers,
  );
  return { engine, repetition, mode, ...figures };
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

const fmt = medianAndRange;
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
