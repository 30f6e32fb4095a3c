// Differential test: random transcripts (random elections, deliveries, drops, duplicates,
// partitions, crashes, restarts and client commands) run through two engines, which must
// write byte-identical transcripts. The Go core is the reference.
//   npx tsx engines/java-wasm/test/differential.ts [--runs 200] [--seed 1] [--steps 150]
//       [--engines go,java] [--target wasm-node|native]
// A mismatch prints the seed and the first differing line, and writes the transcript (with
// the reference's output) to target/differential-<seed>.txt for a closer look.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AsyncEngine, EngineName } from '../../loader/engine.ts';
import { loadEngine } from '../../loader/node-loaders.ts';
import { formatTranscript, parseTranscript, TranscriptRunner } from '../../conformance/src/transcript.ts';
import { firstDifference } from '../../conformance/src/cli.ts';

/** mulberry32: a small seeded PRNG, so every run is reproducible from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ['a', 'b', 'k', 'key-1', '~'];
const BAD_LINES = ['', 'get', 'get  a', 'put a', 'del a b', 'list a', 'get a\tb', 'put \u00e9 1'];
const TYPES = ['prepare_request', 'prepare_response', 'accept_request', 'accept_response', 'commit_request',
  'commit_response'];

/** One random transcript (commands only; the expected output is whatever the engines say). */
export function randomTranscript(seed: number, steps: number): string {
  const r = rng(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const n = pick([1, 3, 3, 3, 5]);
  const node = () => Math.floor(r() * n);
  const req = new Map<number, number>();
  const lines = [`# differential seed=${seed}`, `create n=${n} seed=${seed % 1000} ci=${pick([150000, 20000])} ` +
    `timeout=${pick([1, 2, 3])} max_pending=${pick([2, 4096])}${r() < 0.2 ? ' trace=false' : ''}`];
  const down = new Set<number>();
  for (let i = 0; i < steps; i++) {
    const x = r();
    const to = node();
    if (x < 0.1) lines.push(`fire node=${to} timer=election`);
    else if (x < 0.2) lines.push(`fire node=${to} timer=commit`);
    else if (x < 0.45) lines.push(r() < 0.5 ? 'deliver' : `deliver to=${to}`);
    else if (x < 0.5) lines.push(`deliver all`);
    else if (x < 0.53) lines.push(`deliver type=${pick(TYPES)} count=2`);
    else if (x < 0.58) lines.push(r() < 0.5 ? 'drop' : `drop to=${to}`);
    else if (x < 0.61) lines.push('dup');
    else if (x < 0.78) {
      const client = 10 + to;
      const id = (req.get(client) ?? 0) + 1;
      req.set(client, id);
      const line = r() < 0.08 ? pick(BAD_LINES) : r() < 0.5 ? `put ${pick(KEYS)} v${i} ${pick(['', 'x y'])}`
        : `${pick(['get', 'del'])} ${pick(KEYS)}`;
      lines.push(`client node=${to} client=${client} req=${id} line=${line}`);
    } else if (x < 0.8 && n > 1) {
      if (down.has(to)) {
        lines.push(`restart node=${to}`);
        down.delete(to);
      } else if (down.size < Math.floor((n - 1) / 2)) {
        lines.push(`crash node=${to}`);
        down.add(to);
      }
    } else if (x < 0.82 && n > 1) lines.push(r() < 0.5 ? `cut between=${to},${(to + 1) % n}` : `isolate node=${to}`);
    else if (x < 0.85) lines.push('heal');
    else if (x < 0.87) lines.push('state');
    else if (x < 0.88) lines.push(`dump node=${to}`);
    else lines.push('deliver');
  }
  lines.push('heal', 'deliver all', 'state');
  for (let id = 0; id < n; id++) if (!down.has(id)) lines.push(`dump node=${id}`);
  // Every command needs its `----` and an (empty) expectation for the parser.
  return lines.map((l) => (l.startsWith('#') ? l : `${l}\n----\n`)).join('\n') + '\n';
}

async function main() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '200' },
      seed: { type: 'string', default: '1' },
      steps: { type: 'string', default: '150' },
      engines: { type: 'string', default: 'go,java' },
      target: { type: 'string', default: 'wasm-node' },
    },
  });
  const [refName, testName] = values.engines!.split(',') as [EngineName, EngineName];
  const target = values.target as 'native' | 'wasm-node';
  const ref: AsyncEngine = await loadEngine(refName, target);
  const test: AsyncEngine = await loadEngine(testName, target);
  const runs = Number(values.runs);
  const first = Number(values.seed);
  const steps = Number(values.steps);
  let lines = 0;
  const t0 = Date.now();
  try {
    for (let seed = first; seed < first + runs; seed++) {
      const items = parseTranscript(randomTranscript(seed, steps), `seed ${seed}`);
      const expected = formatTranscript(await new TranscriptRunner(ref).run(items));
      const actual = formatTranscript(await new TranscriptRunner(test).run(items));
      lines += expected.split('\n').length;
      if (actual !== expected) {
        const out = join(dirname(fileURLToPath(import.meta.url)), '../target', `differential-${seed}.txt`);
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, expected);
        console.log(`FAIL ${testName} vs ${refName} (${target}) seed ${seed} at ${firstDifference(expected, actual)}`);
        console.log(`  reference transcript: ${out}`);
        process.exitCode = 1;
        return;
      }
    }
  } finally {
    await ref.close();
    await test.close();
  }
  console.log(`${testName} vs ${refName} (${target}): ${runs} random transcripts (seeds ${first}..${first + runs - 1}, ` +
    `${lines} lines) identical in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
