// `npm --workspace @replicant/sim run fingerprint`: SHA-256 of the results of a fixed set of runs
// and searches (fast and exact, every engine, GC-heavy heaps, OOM kills, the mitigation sandbox,
// durability, early-stopped probes, a warm-started search). A refactor of the simulator that
// must not change its results prints the same digests before and after; a change that may
// (a shortcut) shows which runs moved. Prints one line per case and a digest of them all.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EngineName, RunSpec } from '../src/api.ts';
import type { RunHooks } from '../src/run/simulate.ts';

// `--ref REF`: the digests of sim/src as it is at git REF (extracted under sim/.bench-baseline/,
// as bench:sim's --baseline does), to compare with this checkout's.
const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..', '..');
const refAt = process.argv.indexOf('--ref');
let src = join(HERE, '..', 'src');
if (refAt >= 0) {
  const ref = process.argv[refAt + 1];
  if (!ref) throw new Error('--ref needs a git ref');
  const commit = execFileSync('git', ['rev-parse', '--short=12', `${ref}^{commit}`], { cwd: REPO, encoding: 'utf8' }).trim();
  const dir = join(REPO, 'sim', '.bench-baseline', commit);
  if (!existsSync(join(dir, 'sim', 'src', 'run', 'simulate.ts'))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-x', '-C', dir], { input: execFileSync('git', ['archive', commit, 'sim/src'], { cwd: REPO, maxBuffer: 1 << 28 }) });
  }
  src = join(dir, 'sim', 'src');
  console.log(`sim/src at ${commit}`);
}
const load = (path: string) => import(pathToFileURL(join(src, path)).href);
const { simulate } = await load('run/simulate.ts');
const { sweep } = await load('search/slo.ts');
const { baseRunSpec, measurementSweepSpec, modelWindow } = await load('run/measurement.ts');
// the engines' loading moved from src/node/ to src/cli/; an older --ref has it at the old place
const { availableEngines, provider } = await load(existsSync(join(src, 'cli', 'engines.ts')) ? 'cli/engines.ts' : 'node/engines.ts');

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

function run(e: EngineName | EngineName[], fidelity: 'exact' | 'fast', memory_gib: number, target: number, over: Partial<RunSpec> = {}): RunSpec {
  const engines = Array.isArray(e) ? e : [e, e, e];
  return {
    cluster: { engines, seed: 7 },
    resources: { vcpus: 8, memory_gib },
    workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000, engine_record_count: 200 },
    load: { mode: 'open', target_ops_per_s: target, duration_s: fidelity === 'exact' ? 0.5 : 2, warmup_s: 0.3 },
    fidelity,
    ...over,
  };
}

const small = (e: EngineName, over: Partial<RunSpec> = {}): RunSpec => ({
  cluster: { engines: [e, e, e], seed: 3 },
  workload: { name: 'A', read_proportion: 0.5, record_count: 100_000 },
  resources: { vcpus: 2, memory_gib: 0.12 },
  load: { mode: 'open', target_ops_per_s: 1500, client_threads: 4, duration_s: 2, warmup_s: 0.5 },
  fidelity: 'fast',
  ...over,
});

const lines: string[] = [];
function add(name: string, value: unknown): void {
  const h = sha(JSON.stringify(value));
  lines.push(`${h}  ${name}`);
  console.log(`${h}  ${name}`);
}

const ALL: EngineName[] = ['cpp', 'rust', 'go', 'java'];
for (const e of ALL) for (const gib of [32, 6, 5]) for (const rate of [5_000, 40_000]) add(`fast ${e} ${gib}GiB ${rate}`, simulate(run(e, 'fast', gib, rate), null));
add('fast closed go 8GiB', simulate(run('go', 'fast', 8, 10_000, { load: { mode: 'closed', target_ops_per_s: 10_000, duration_s: 1, warmup_s: 0.2, client_threads: 16 } }), null));
add('fast cpp 4GiB (OOM)', simulate(run('cpp', 'fast', 4, 5_000), null));
add('fast java tight heap', simulate(small('java'), null));
add('fast java workload B', simulate(run('java', 'fast', 5, 3_000, { workload: { name: 'B', read_proportion: 0.95, record_count: 7_500_000 } }), null));
for (const mode of ['blade', 'mitmem', 'both'] as const) add(`mitigation ${mode}`, simulate(small('java', { mitigation: { mode, deadline_ms: 1 } }), null));
add('mitigation go blade', simulate(small('go', { mitigation: { mode: 'blade' } }), null));
add('gc off', simulate(small('java', { mitigation: { mode: 'none', collector: 'off' } }), null));
for (const durability of ['ordered', 'scattered'] as const) add(`durable ${durability}`, simulate(run('rust', 'fast', 32, 5_000, { storage: { durability, device: 'cloud_block' } }), null));
const hooks: RunHooks = { stop_when_p99_exceeds_us: 20_000, count_over_us: 20_000 };
add('early stop cpp 200k', simulate(run('cpp', 'fast', 32, 200_000), null, hooks));
add('early stop java 5GiB', simulate(run('java', 'fast', 5, 20_000), null, hooks));
const phases = modelWindow(baseRunSpec({ workload: 'A', memory: { gib: 5 }, vcpus: 8 }, 'java', 3_000)).g1_phases;
if (phases) add('g1 states (the shortcut)', simulate(run('java', 'fast', 5, 3_000), null, { g1_states: phases.steady }));

const have = new Set<EngineName>(await availableEngines());
const exact = ALL.filter((e) => have.has(e));
const p = await provider(exact);
for (const e of exact) add(`exact ${e} 32GiB`, simulate(run(e, 'exact', 32, 2_000), p));
if (have.has('java')) add('exact java 4.75GiB', simulate(run('java', 'exact', 4.75, 3_000, { load: { mode: 'open', target_ops_per_s: 3_000, duration_s: 3, warmup_s: 0.5 } }), p));
if (have.has('go') && have.has('rust')) add('exact mixed', simulate(run(['go', 'rust', 'go'], 'exact', 8, 2_000), p));
if (have.has('rust')) add('exact durable', simulate(run('rust', 'exact', 32, 2_000, { storage: { durability: 'ordered', device: 'local_nvme' } }), p));

// The Lab's default sweep for C++ at two memory sizes (SLO searches, warm-started, early-stopped
// probes, model windows).
add('sweep cpp 32,5GiB', sweep(measurementSweepSpec({ workload: 'A', memory: { gib: 32 }, vcpus: 8 }, ['cpp'], { memory: [{ gib: 32 }, { gib: 5 }] }), null));
console.log(`${sha(lines.join('\n'))}  ALL (${lines.length} cases)`);
