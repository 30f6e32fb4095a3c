// npm run cluster:server-ab -- --engine cpp --variants a=PATH,b=PATH[,…] [--repetitions 3]
//                              [--seconds 5] [--workers 8] [--out FILE.jsonl]
// What a change to one engine's native server costs in throughput, as paired ratios on a
// shared, noisy machine: for each repetition, one 3-node cluster per variant (that server
// binary on all three nodes, through REPLICANT_SERVER_<ENGINE>) runs the same closed-loop load
// (closed-loop-window.ts), the variants' order rotated each repetition so that none always runs
// first. Each variant's ratio to the first is taken within a repetition; the summary gives the
// median and min–max of the ratios, with the load average and the other processes' CPU.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ENGINE_NAMES, type EngineName } from '../loader/engine.ts';
import { measureWindow, medianAndRange, type WindowFigures } from './closed-loop-window.ts';
import { eachVariantRotated, parseVariants, type ServerVariant } from './server-variants.ts';

interface Window extends WindowFigures {
  variant: string;
  repetition: number;
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'cpp' },
    variants: { type: 'string' },
    repetitions: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    workers: { type: 'string', default: '8' },
    out: { type: 'string' },
  },
});
const engine = values.engine as EngineName;
if (!ENGINE_NAMES.includes(engine)) fail(`unknown engine ${JSON.stringify(engine)}; choose from ${ENGINE_NAMES.join(', ')}`);
let variants: ServerVariant[] = [];
try {
  variants = parseVariants(values.variants, 2);
} catch (e) {
  fail((e as Error).message);
}
const repetitions = Number(values.repetitions);
const seconds = Number(values.seconds);
const workers = Number(values.workers);
if (![repetitions, seconds, workers].every((n) => Number.isInteger(n) && n >= 1)) fail('--repetitions, --seconds and --workers must be positive integers');

const windows: Window[] = [];
await eachVariantRotated(engine, variants, repetitions, async (v, rep) => {
  const w: Window = { variant: v.name, repetition: rep, ...(await measureWindow({ engines: [engine, engine, engine] }, seconds, workers)) };
  windows.push(w);
  console.log(JSON.stringify(w));
  if (values.out) writeFileSync(values.out, windows.map((x) => JSON.stringify(x)).join('\n') + '\n');
});

const base = variants[0]!.name;
console.log(`\n${engine}: ${repetitions} repetitions × ${seconds} s, ${workers} closed-loop clients, order rotated; median [min–max]`);
console.log(`| variant | ops/s | ratio to ${base} | p99 (ms) | other processes (cores) | load average |`);
console.log('|---|---|---|---|---|---|');
for (const v of variants) {
  const of = windows.filter((w) => w.variant === v.name);
  const ratios = of.map((w) => w.ops_per_s / windows.find((b) => b.variant === base && b.repetition === w.repetition)!.ops_per_s);
  console.log(
    `| ${v.name} | ${medianAndRange(of.map((w) => w.ops_per_s), 0)} | ${medianAndRange(ratios)} | ${medianAndRange(of.map((w) => w.latency_p99_ms), 1)} | ` +
      `${medianAndRange(of.map((w) => w.other_cores))} | ${medianAndRange(of.map((w) => w.load_average_1m), 1)} |`,
  );
}
