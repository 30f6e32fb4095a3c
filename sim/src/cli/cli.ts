// The headless simulator: `npm run sim -- run|search|sweep …`. Progress goes to stderr; results
// (in the shared results schema) to --out; bad input ends with a message and exit status 2.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { languageOf } from '@replicant/engines/loader/catalogue';
import type { EngineName, RunSpec } from '../api.ts';
import { DEFAULT_CARD, validateCard } from '../models/card.ts';
import { readFileSync } from 'node:fs';
import { pointRows, resultsFile, sweepRows, type ResultsRow } from '../results/export.ts';
import { searchSlo, sweep } from '../search/slo.ts';
import { simulate, type EngineProvider } from '../run/simulate.ts';
import { ENGINE_NAMES, SpecError } from '../run/spec.ts';
import { availableEngines, provider } from './engines.ts';

export class UsageError extends Error {}

const USAGE = `usage: npm run sim -- <run|search|sweep> [options]
  --engine go|cpp|rust|java[,…]|all   engines (sweep: one search per engine; run/search: the cluster's engine)
  --nodes N                 cluster size (default 3)
  --workload a|b|custom     YCSB workload (default a); custom needs --read-proportion
  --read-proportion P       share of reads for custom
  --distribution zipfian|uniform|latest  (default zipfian)
  --records N               modelled records (default 7500000, the paper's)
  --engine-records N        records the engines really hold in exact mode (default 1000)
  --mem-gib X[,Y…]          memory per node in GiB (GOMEMLIMIT for Go, -Xmx for Java, the cgroup limit for C++/Rust)
  --ratio R[,S…]            memory as a memory:data ratio instead of GiB
  --vcpus N[,M…]            vCPUs per node (default 8)
  --slo-ms MS               p99 target for search/sweep (default 20)
  --target OPS              offered load for run (ops/s)
  --threads N               client threads (default 64)
  --mode open|closed        open: YCSB -target, latency from intended start (default); closed: back to back
  --duration-s S            measured window of a run (default 30); for search/sweep the shortest
                            window of a probe: the model lengthens it (--window model)
  --window model|fixed      search/sweep: 'model' (default, the paper's method) makes each probe's
                            window hold one period of the rarest GC event that can decide the p99
                            at its rate, at most --max-probe-s; 'fixed' keeps --duration-s
  --warmup-s S              warm-up before it (default 5)
  --fidelity fast|exact     (default: exact for run, fast for search/sweep)
  --min-ops N --max-ops N   search bracket (default 100 and 200000)
  --tolerance F             search stops when the bracket is within F (default 0.02)
  --probe-ops N             search/sweep: run each probe for max(duration, N / target) s, at most
                            --max-probe-s (default 600): rare events (a Java full GC every few minutes
                            with a tight heap) then decide the p99 as in the paper's 10-minute runs
  --latency-us U --jitter-us J --bandwidth-gbps B   network (default: the model card's one-AZ figures)
  --durability none|ordered|scattered  persist the log (models/storage.ts; default none, the paper's):
                            ordered = the engines' in-order log (Raft/etcd), scattered = FLEET's
                            parallel entries (fast fidelity only)
  --device cloud_block|local_nvme      the fsync device of --durability (default cloud_block)
  --card FILE               a model card to use instead of data/models/${DEFAULT_CARD.version}.json
  --seed N                  (default 1)
  --out FILE                results in the data/ results schema
  --raw FILE                the full RunResult / SloSearchResult / SweepResult JSON
  --date YYYY-MM-DD         the date written into --out metadata (default: today)`;

type Opts = Map<string, string>;

function parseArgs(argv: string[]): { cmd: string; opts: Opts } {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h') throw new UsageError(USAGE);
  if (!['run', 'search', 'sweep'].includes(cmd)) throw new UsageError(`unknown command "${cmd}"\n${USAGE}`);
  const opts: Opts = new Map();
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument "${a}"`);
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    const value = eq > 0 ? a.slice(eq + 1) : rest[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (!KNOWN.has(name)) throw new UsageError(`unknown option --${name}\n${USAGE}`);
    opts.set(name, value);
  }
  return { cmd, opts };
}

function windowOpt(v: string): 'model' | 'fixed' {
  if (v !== 'model' && v !== 'fixed') throw new UsageError(`--window must be model or fixed, got "${v}"`);
  return v;
}

const KNOWN = new Set(['window', 'probe-ops', 'max-probe-s', 'engine', 'nodes', 'workload', 'read-proportion', 'distribution', 'records', 'engine-records', 'mem-gib', 'ratio', 'vcpus', 'slo-ms', 'target', 'threads', 'mode', 'duration-s', 'warmup-s', 'fidelity', 'min-ops', 'max-ops', 'tolerance', 'latency-us', 'jitter-us', 'bandwidth-gbps', 'card', 'seed', 'out', 'raw', 'date', 'durability', 'device']);

function number(opts: Opts, name: string, fallback?: number, integer = false): number {
  const v = opts.get(name);
  if (v === undefined) {
    if (fallback === undefined) throw new UsageError(`--${name} is required`);
    return fallback;
  }
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a number'}, got "${v}"`);
  return n;
}

function numberList(opts: Opts, name: string): number[] | undefined {
  const v = opts.get(name);
  if (v === undefined) return undefined;
  return v.split(',').map((x) => {
    const n = Number(x);
    if (x.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} takes positive numbers separated by commas, got "${v}"`);
    return n;
  });
}

async function engines(opts: Opts): Promise<EngineName[]> {
  const v = opts.get('engine') ?? 'go';
  const list = v === 'all' ? await availableEngines() : v.split(',');
  for (const e of list) if (!(ENGINE_NAMES as readonly string[]).includes(e)) throw new UsageError(`unknown engine "${e}" (known: ${ENGINE_NAMES.join(', ')}, all)`);
  if (list.length === 0) throw new UsageError('no engine available');
  return list as EngineName[];
}

function workload(opts: Opts): { spec: RunSpec['workload']; name: 'A' | 'B' | null } {
  const w = (opts.get('workload') ?? 'a').toLowerCase();
  const records = number(opts, 'records', 7_500_000, true);
  const distribution = (opts.get('distribution') ?? 'zipfian') as 'zipfian';
  if (!['zipfian', 'uniform', 'latest'].includes(distribution)) throw new UsageError(`--distribution must be zipfian, uniform or latest`);
  const er = opts.get('engine-records');
  const common = { record_count: records, distribution, ...(er !== undefined ? { engine_record_count: number(opts, 'engine-records', 1000, true) } : {}) };
  switch (w) {
    case 'a': return { spec: { name: 'A', read_proportion: 0.5, ...common }, name: 'A' };
    case 'b': return { spec: { name: 'B', read_proportion: 0.95, ...common }, name: 'B' };
    case 'custom': return { spec: { name: 'custom', read_proportion: number(opts, 'read-proportion'), ...common }, name: null };
    default: throw new UsageError(`--workload must be a, b or custom, got "${w}"`);
  }
}

/** Paths on the command line are relative to where the user ran npm (npm runs workspace
 * scripts inside the workspace and says where it started in INIT_CWD). */
function userPath(p: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), p);
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return '0000000';
  }
}

class Progress {
  private last = -1;
  constructor(private readonly label: string) {}
  update(f: number): void {
    const pct = Math.floor(f * 100);
    if (pct === this.last) return;
    this.last = pct;
    if (process.stderr.isTTY) {
      const w = 30;
      const fill = Math.round((pct / 100) * w);
      process.stderr.write(`\r${this.label} [${'#'.repeat(fill)}${'.'.repeat(w - fill)}] ${pct}%`);
    } else if (pct % 10 === 0) process.stderr.write(`${this.label}: ${pct}%\n`);
  }
  done(): void {
    if (process.stderr.isTTY) process.stderr.write('\n');
  }
}

export async function main(argv: string[]): Promise<number> {
  const { cmd, opts } = parseArgs(argv);
  const names = await engines(opts);
  const card = opts.has('card') ? validateCard(JSON.parse(readFileSync(userPath(opts.get('card')!), 'utf8'))) : DEFAULT_CARD;
  const fidelity = (opts.get('fidelity') ?? (cmd === 'run' ? 'exact' : 'fast')) as 'fast' | 'exact';
  if (fidelity !== 'fast' && fidelity !== 'exact') throw new UsageError(`--fidelity must be fast or exact`);
  const mode = (opts.get('mode') ?? 'open') as 'open';
  if (mode !== 'open' && mode !== 'closed') throw new UsageError('--mode must be open or closed');
  const nodes = number(opts, 'nodes', 3, true);
  const seed = number(opts, 'seed', 1, true);
  const mems = numberList(opts, 'mem-gib');
  const ratios = numberList(opts, 'ratio');
  if (mems && ratios) throw new UsageError('give --mem-gib or --ratio, not both');
  const cpus = numberList(opts, 'vcpus') ?? [8];
  for (const c of cpus) if (!Number.isInteger(c)) throw new UsageError('--vcpus takes integers');
  const w = workload(opts);
  const network: RunSpec['network'] = {};
  if (opts.has('latency-us')) network.one_way_latency_us = number(opts, 'latency-us');
  if (opts.has('jitter-us')) network.jitter_us = number(opts, 'jitter-us');
  if (opts.has('bandwidth-gbps')) network.bandwidth_gbps = number(opts, 'bandwidth-gbps');
  const base: RunSpec = {
    cluster: { engines: Array.from({ length: nodes }, () => names[0]!), seed },
    network,
    resources: ratios ? { vcpus: cpus[0]!, memory_to_data_ratio: ratios[0]! } : { vcpus: cpus[0]!, memory_gib: mems?.[0] ?? 32 },
    workload: w.spec,
    load: {
      mode,
      target_ops_per_s: cmd === 'run' ? number(opts, 'target') : 1,
      client_threads: number(opts, 'threads', 64, true),
      duration_s: number(opts, 'duration-s', 30),
      warmup_s: number(opts, 'warmup-s', 5),
    },
    fidelity,
    model_card: card,
    ...(opts.has('durability') || opts.has('device') ? { storage: { durability: (opts.get('durability') ?? 'none') as 'none', device: (opts.get('device') ?? 'cloud_block') as 'cloud_block' } } : {}),
  };
  const provide: EngineProvider | null = fidelity === 'exact' ? await provider(names) : null;
  const slo = number(opts, 'slo-ms', 20);
  const bracket = {
    min_ops_per_s: number(opts, 'min-ops', 100),
    max_ops_per_s: number(opts, 'max-ops', 200_000),
    tolerance: number(opts, 'tolerance', 0.02),
    ...(opts.has('probe-ops') ? { probe_operations: number(opts, 'probe-ops') } : {}),
    max_duration_s: number(opts, 'max-probe-s', 600),
    ...(opts.has('window') ? { window: windowOpt(opts.get('window')!) } : {}),
  };
  const command = `npm run sim -- ${argv.join(' ')}`;
  const meta = {
    date: opts.get('date') ?? new Date().toISOString().slice(0, 10),
    git_commit: gitCommit(),
    command,
    seed,
    model_card_version: card.version,
    engines: { simulator: `@replicant/sim (${fidelity})`, ...Object.fromEntries(names.map((n) => [`engine-${n}`, fidelity === 'exact' ? 'wasm build' : 'modelled'])) },
  };
  let rows: ResultsRow[] = [];
  let raw: unknown;
  const progress = new Progress(cmd);
  if (cmd === 'run') {
    const t0 = performance.now();
    const r = simulate(base, provide, { progress: (f) => progress.update(f) });
    progress.done();
    r.wall_ms = Math.round(performance.now() - t0);
    raw = r;
    const lead = r.leader_at_end;
    process.stdout.write(
      `${names[0]} ${fidelity}: target ${base.load.target_ops_per_s} ops/s, achieved ${r.achieved_ops_per_s} ops/s, p50 ${r.latency.all.p50_us / 1000} ms, p99 ${r.latency.all.p99_us / 1000} ms (service time p99 ${(r.latency_uncorrected?.all.p99_us ?? 0) / 1000} ms), leader n${lead} CPU ${lead !== null ? Math.round(r.nodes[lead]!.mean_cpu_utilization * 1000) / 10 : '-'} %, GC events ${r.nodes.map((n) => n.gc_events.length).join('/')}, simulated (model card ${r.model_card_version})\n`,
    );
    const memory = r.dataset.memory_gib;
    rows = [
      { id: `sim-run-${names[0]}-p99-latency-intended`, figure_or_table: '', language: languageOf(names[0]!), workload: w.name, memory_gib: memory, vcpus: cpus[0]!, metric: 'p99_latency_intended', value: r.latency.all.p99_us / 1000, unit: 'ms', instance_type: null, clients: base.load.client_threads ?? 64, note: `simulated (${fidelity}) at ${base.load.target_ops_per_s} ops/s offered`, qualifier: 'exact', provenance: { kind: 'simulation' } },
    ];
  } else if (cmd === 'search') {
    const r = searchSlo({ base, slo_p99_ms: slo, ...bracket }, provide, { progress: (f) => progress.update(f) });
    progress.done();
    raw = r;
    const point = { engine: names[0]!, memory_gib: r.best_run?.dataset.memory_gib ?? mems?.[0] ?? 32, vcpus: cpus[0]!, result: r };
    rows = pointRows(point, w.name, base.load.client_threads ?? 64, fidelity);
    process.stdout.write(`${names[0]} ${fidelity}: max ${r.max_ops_per_s_at_slo ?? '<' + bracket.min_ops_per_s} ops/s at p99 ≤ ${slo} ms (p99 ${r.p99_ms_at_max} ms, leader CPU ${r.leader_cpu_utilization_at_max !== null ? Math.round(r.leader_cpu_utilization_at_max * 1000) / 10 + ' %' : '-'}), ${r.probes.length} probes, simulated (model card ${r.model_card_version})\n`);
    if (r.best_run) delete (r as { best_run?: unknown }).best_run;
  } else {
    const t0 = performance.now();
    const r = sweep({ base, slo_p99_ms: slo, engines: names, ...(ratios ? { memory_to_data_ratio: ratios } : { memory_gib: mems ?? [32] }), vcpus: cpus, ...bracket }, provide, { progress: (f) => progress.update(f) });
    progress.done();
    raw = r;
    rows = sweepRows(r, w.name, base.load.client_threads ?? 64, fidelity);
    for (const p of r.points)
      process.stdout.write(`${p.engine} ${p.memory_gib} GiB ${p.vcpus} vCPU: max ${p.result.max_ops_per_s_at_slo ?? '<' + bracket.min_ops_per_s} ops/s (leader CPU ${p.result.leader_cpu_utilization_at_max !== null ? Math.round(p.result.leader_cpu_utilization_at_max * 1000) / 10 + ' %' : '-'})\n`);
    process.stdout.write(`sweep: ${r.points.length} points in ${((performance.now() - t0) / 1000).toFixed(1)} s wall, simulated (model card ${r.model_card_version})\n`);
  }
  if (opts.has('out')) writeFileSync(userPath(opts.get('out')!), JSON.stringify(resultsFile({ title: `Simulated ${cmd}: ${names.join(', ')} workload ${w.name ?? 'custom'}`, ...meta }, rows), null, 2) + '\n');
  if (opts.has('raw')) writeFileSync(userPath(opts.get('raw')!), JSON.stringify(raw) + '\n');
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      if (e instanceof UsageError || e instanceof SpecError || (e instanceof Error && /must|needs|unknown|model card/.test(e.message) && !(e instanceof TypeError))) {
        process.stderr.write(`sim: ${(e as Error).message}\n`);
        process.exit(2);
      }
      if (e instanceof Error && e.name === 'EngineError') {
        // An engine that is not built (or refuses to load): say which and how to build it.
        process.stderr.write(`sim: ${e.message}\n`);
        process.exit(1);
      }
      process.stderr.write(`sim: ${(e as Error).stack ?? e}\n`);
      process.exit(1);
    },
  );
}
