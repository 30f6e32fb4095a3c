// `npm --workspace @replicant/sim run cold-answer -- --engine E --gib G --out FILE`: runs a cold
// SLO search with the Lab's defaults and writes it as test data (search/cold-answer.ts).
import { writeFileSync } from 'node:fs';
import type { EngineName } from '../api.ts';
import { computeColdAnswer } from '../search/cold-answer.ts';

const ENGINES: EngineName[] = ['cpp', 'rust', 'go', 'java'];
const USAGE = 'usage: npm --workspace @replicant/sim run cold-answer -- --engine cpp|rust|go|java --gib G --out FILE (FILE relative to sim/)';

function main(args: string[]): void {
  const opts = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const k = args[i]!;
    const v = args[i + 1];
    if (!['--engine', '--gib', '--out'].includes(k)) throw new Error(`unknown argument ${JSON.stringify(k)}\n${USAGE}`);
    if (v === undefined || v.startsWith('--')) throw new Error(`${k} needs a value\n${USAGE}`);
    opts.set(k, v);
  }
  const engine = opts.get('--engine') as EngineName | undefined;
  const gib = Number(opts.get('--gib'));
  const out = opts.get('--out');
  if (!engine || !ENGINES.includes(engine)) throw new Error(`--engine must be one of ${ENGINES.join(', ')}\n${USAGE}`);
  if (!(Number.isFinite(gib) && gib > 0)) throw new Error(`--gib must be a positive number\n${USAGE}`);
  if (!out) throw new Error(`--out is needed\n${USAGE}`);
  const t0 = Date.now();
  const a = computeColdAnswer(engine, gib, out);
  writeFileSync(out, JSON.stringify(a, null, 2) + '\n');
  console.log(`${engine} ${gib} GiB: ${a.max_ops_per_s_at_slo} ops/s, ${a.probes.length} probes, ${((Date.now() - t0) / 1000).toFixed(1)} s; wrote ${out}`);
}

try {
  main(process.argv.slice(2));
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
