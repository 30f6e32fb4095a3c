// `npm --workspace @replicant/sim run machine-card -- --measured M --loopback L --footprint R…
//   [--card IN] [--out OUT]`: writes the model card of this machine (sim/src/models/machine-card.ts)
// from the paper card (default: the Lab's), a measured card of `npm run bench -- calibrate`, a
// loopback card of `npm --workspace @replicant/bench run loopback`, and the fixed footprints the
// native harness measured (read from the notes of the results files given).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineOfLanguage, ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import type { EngineName, ModelCard } from '../api.ts';
import { DEFAULT_CARD, validateCard } from '../models/card.ts';
import { cpuPerOp, deriveMachineCard, HARNESS_DEFAULT_LAYOUT, WORKLOAD_KEYS, type Footprint, type WorkloadKey } from '../models/machine-card.ts';
import { limitOfNote } from '../fidelity/native.ts';
import { simulate } from '../run/simulate.ts';
import { leaderUtilization } from '../search/slo.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..', '..');

const USAGE = `usage: machine-card --measured MEASURED.json [--measured-high MEASURED-AT-A-HIGHER-RATE.json] [--measured-top MEASURED-NEAR-THE-CLOSED-LOOP.json] --loopback LOOPBACK.json --footprint RESULTS.json… [--open-loop-batched ENGINES "EVIDENCE"] [--card IN] [--version 0.2.0-machine.YYYYMMDD] [--out OUT]`;

function values(argv: string[], name: string): string[] {
  const i = argv.indexOf(name);
  if (i < 0) return [];
  const out: string[] = [];
  for (let j = i + 1; j < argv.length && !argv[j]!.startsWith('--'); j++) out.push(argv[j]!);
  return out;
}

function one(argv: string[], name: string, required: boolean): string | undefined {
  const v = values(argv, name);
  if (required && v.length !== 1) throw new Error(`${name} needs one file\n${USAGE}`);
  return v[0];
}

const userPath = (p: string) => resolve(process.env.INIT_CWD ?? process.cwd(), p);

function readJson(p: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(userPath(p), 'utf8'));
  } catch (e) {
    throw new Error(`cannot read the ${what} ${p}: ${(e as Error).message}`);
  }
}

/** The calibration's own point (bench calibrate: 1,000 ops/s open loop, 20,000 records, no memory
 * limit), simulated with `card` at one vCPU: leader CPU µs per operation. */
function simulatedLeaderUsPerOp(card: ModelCard, e: EngineName, w: WorkloadKey): number {
  const r = simulate({
    cluster: { engines: [e, e, e], seed: 1 },
    resources: { vcpus: 1, memory_gib: 32 },
    workload: { name: w === 'a' ? 'A' : 'B', read_proportion: w === 'a' ? 0.5 : 0.95, record_count: 20_000, value_bytes: 500, distribution: 'zipfian' },
    load: { mode: 'open', target_ops_per_s: 1000, duration_s: 10, warmup_s: 5 },
    fidelity: 'fast',
    model_card: card,
  }, null);
  const u = leaderUtilization(r);
  if (u === null || !(r.achieved_ops_per_s > 0)) throw new Error(`${e} ${w}: the calibration point's simulation served nothing`);
  return (u * 1 * 1e6) / r.achieved_ops_per_s;
}
const SIMULATED_POINT = '1,000 ops/s open loop, 20,000 records, 32 GiB, 1 vCPU per node, fast mode, seed 1, 10 s after 5 s warm-up: leader CPU utilisation x 1e6 / ops/s';

/** Each engine's footprint from the first results file whose notes name one. */
function footprints(files: string[]): Footprint {
  const mib: Partial<Record<EngineName, number>> = {};
  const used = new Set<string>();
  for (const f of files) {
    const doc = readJson(f, 'results file') as { rows?: { language: string; note?: string }[] };
    for (const r of doc.rows ?? []) {
      const e = engineOfLanguage(r.language);
      const fp = limitOfNote(r.note ?? '').footprint_mib;
      if (!e || fp === undefined || mib[e] !== undefined) continue;
      mib[e] = fp;
      used.add(f);
    }
  }
  const missing = ENGINE_NAMES.filter((e) => mib[e] === undefined && e !== 'java');
  if (missing.length) throw new Error(`no measured fixed footprint for ${missing.join(', ')} in ${files.join(' ')}`);
  return { mib: { java: 0, ...mib } as Record<EngineName, number>, source: `the harness's footprint probe, as the notes of ${[...used].join(' and ')} give it` };
}

async function main(argv: string[]): Promise<void> {
  const measuredPath = one(argv, '--measured', true)!;
  const loopbackPath = one(argv, '--loopback', true)!;
  const fpFiles = values(argv, '--footprint');
  if (!fpFiles.length) throw new Error(`--footprint needs one or more native results files\n${USAGE}`);
  const paper = one(argv, '--card', false) ? validateCard(readJson(one(argv, '--card', false)!, 'card')) : DEFAULT_CARD;
  const measured = readJson(measuredPath, 'measured card') as ModelCard;
  const highPath = one(argv, '--measured-high', false);
  const measured_high = highPath ? (readJson(highPath, 'measured card') as ModelCard) : undefined;
  const topPath = one(argv, '--measured-top', false);
  const measured_top = topPath ? (readJson(topPath, 'measured card') as ModelCard) : undefined;
  const loopback = readJson(loopbackPath, 'loopback card') as ModelCard;
  // what native probes showed about where the open loop's SLO answer lies (the card's note keeps it)
  const batched = values(argv, '--open-loop-batched');
  if (argv.includes('--open-loop-batched') && (batched.length !== 2 || !batched[1]!.trim())) throw new Error(`--open-loop-batched needs the engines (cpp,go,rust) and the evidence, in words with its command\n${USAGE}`);
  const batchedEngines = batched.length ? batched[0]!.split(',') : [];
  for (const e of batchedEngines) if (!(ENGINE_NAMES as readonly string[]).includes(e)) throw new Error(`--open-loop-batched: "${e}" is not an engine (${ENGINE_NAMES.join(', ')})`);
  const date = /(\d{8})$/.exec(measured.version)?.[1] ?? new Date().toISOString().slice(0, 10).replace(/-/g, '');
  const version = one(argv, '--version', false) ?? `0.2.0-machine.${date}`;
  if (!/^\d+\.\d+\.\d+-machine\.\d{8}$/.test(version)) throw new Error(`--version ${version}: a machine card's version is like 0.2.0-machine.20261127`);
  const out = userPath(one(argv, '--out', false) ?? `${ROOT}/data/models/machine/${version}.json`);
  if (basename(out) !== `${version}.json`) throw new Error(`--out must be named ${version}.json (data/validate.mjs: a card's file name is its version)`);
  const sim = {} as Record<EngineName, Record<WorkloadKey, number>>;
  for (const e of ENGINE_NAMES) {
    sim[e] = { a: 0, b: 0 };
    for (const w of WORKLOAD_KEYS) sim[e][w] = simulatedLeaderUsPerOp(paper, e, w);
  }
  const machine = /, (\d+-core [^).;]+)/.exec(measured.description ?? '')?.[1] ?? 'this machine';
  const card = validateCard(deriveMachineCard({ paper, measured, ...(measured_high ? { measured_high } : {}), ...(measured_top ? { measured_top } : {}), ...(batched.length ? { open_loop_batched: { engines: batchedEngines as EngineName[], evidence: batched[1]! } } : {}), loopback, simulated_leader_us_per_op: sim, simulated_point: SIMULATED_POINT, footprint: footprints(fpFiles), layout: HARNESS_DEFAULT_LAYOUT, version, machine }));
  card.description += ` Command: npm --workspace @replicant/sim run machine-card -- ${argv.join(' ')}`;
  writeFileSync(out, JSON.stringify(card, null, 2) + '\n');
  // The check: the derived card, simulated at the calibration's point, against the measurement.
  for (const e of ENGINE_NAMES) {
    // the card's costs are the open-loop ones: the lower rate's whole CPU per operation
    const check = WORKLOAD_KEYS.map((w) => `${w.toUpperCase()} ${simulatedLeaderUsPerOp(card, e, w).toFixed(1)} (measured ${cpuPerOp({ measured }, e, 'leader', w).us.toFixed(1)})`).join(', ');
    process.stderr.write(`${e}: card ${paper.version} leader ${sim[e].a.toFixed(1)} / ${sim[e].b.toFixed(1)} us/op; machine card leader ${check}\n`);
  }
  process.stderr.write(`wrote ${relative(process.cwd(), out)}\n`);
}

main(process.argv.slice(2)).catch((e) => {
  process.stderr.write(`machine-card: ${(e as Error).message}\n`);
  process.exit(1);
});
