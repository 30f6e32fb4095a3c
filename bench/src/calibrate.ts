// `npm run bench -- calibrate`: measures, per engine, what the simulator's model card needs —
//  - CPU µs per operation on the leader and on a follower, from cgroup CPU accounting while a
//    real 3-node cluster serves YCSB at a fixed open-loop rate (workloads A and B);
//  - bytes allocated per operation by the core, leader and follower, from each engine's own
//    counters (Go runtime.MemStats, the JVM's allocated-bytes counter, the C++ and Rust counting
//    allocators) read through the native hosts' stats() while a scripted 3-node cluster
//    replicates the same mix of commands.
// It writes a model-card fragment (sim/src/api.ts ModelCard: every parameter `measured`, with
// machine, date and commit in its note) to data/models/measured/<version>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { AsyncScriptedCluster } from '@replicant/engines/scripted';
import { nativeEngine } from '@replicant/engines/loader/node-loaders';
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import type { AsyncEngine, EngineName } from '@replicant/engines/loader/engine';
import { buildPlan, resolveOptions, UsageError } from './plan.ts';
import { measureFixedRate } from './measure.ts';
import { gitCommit, machineInfo } from './machine.ts';
import { BENCH_DIR } from './ycsb.ts';

const REPO = resolve(BENCH_DIR, '..');

export interface CardParameter {
  value: number;
  unit: string;
  source: 'measured' | 'derived' | 'assumed';
  note: string;
}

/** Deterministic stream of workload-A-like commands: half reads, half 500-byte writes. */
export function commandMix(count: number, keys: number, readProportion: number, seed = 1): string[] {
  let x = seed >>> 0;
  const next = () => ((x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0), x / 2 ** 32);
  const value = 'v'.repeat(500);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = `user${String(Math.floor(next() * keys)).padStart(19, '0')}`; // 23 bytes, as YCSB's
    out.push(next() < readProportion ? `get ${key}` : `put ${key} ${value}`);
  }
  return out;
}

interface AllocPerOp {
  leader_bytes: number | null;
  follower_bytes: number | null;
  note: string;
}

function allocTotal(statsJson: string): number | null {
  const v = (JSON.parse(statsJson) as { alloc_bytes_total?: number | null }).alloc_bytes_total;
  return typeof v === 'number' ? v : null;
}

/** A per-node engine: each node in its own host process, so per-process counters are per node. */
function perNodeEngine(name: EngineName): AsyncEngine {
  const hosts: AsyncEngine[] = [];
  return {
    name,
    target: 'native',
    async createNode(config) {
      const host = nativeEngine(name);
      hosts.push(host);
      return host.createNode(config);
    },
    async close() {
      await Promise.all(hosts.map((h) => h.close()));
    },
  };
}

/** Core allocation per replicated command, leader (node 0) and followers, through the hosts. */
export async function coreAllocation(name: EngineName, commands: string[], warmup: number): Promise<AllocPerOp> {
  const engine = perNodeEngine(name);
  const cluster = await AsyncScriptedCluster.start(engine, { num_nodes: 3, seed: 7 });
  try {
    await cluster.fire(0, 'election');
    await cluster.deliverAll();
    const run = async (lines: string[], offset: number) => {
      for (const [i, line] of lines.entries()) {
        await cluster.client(0, 3 * (1 + ((offset + i) % 64)), offset + i + 1, line);
        await cluster.deliverAll();
        if ((offset + i) % 200 === 199) {
          await cluster.fire(0, 'commit');
          await cluster.deliverAll();
        }
        cluster.take();
      }
    };
    await run(commands.slice(0, warmup), 0);
    const before = await Promise.all([0, 1, 2].map(async (id) => allocTotal(await cluster.node(id).stats())));
    await run(commands.slice(warmup), warmup);
    const after = await Promise.all([0, 1, 2].map(async (id) => allocTotal(await cluster.node(id).stats())));
    const n = commands.length - warmup;
    const per = (id: number) => (before[id] !== null && after[id] !== null ? (after[id]! - before[id]!) / n : null);
    const followers = [per(1), per(2)].filter((v): v is number => v !== null);
    return {
      leader_bytes: per(0),
      follower_bytes: followers.length ? followers.reduce((a, b) => a + b, 0) / followers.length : null,
      note: `scripted 3-node cluster through ${name}'s native host, ${n} commands after ${warmup} warm-up, one commit round per 200; counts the host's own JSON event and effect handling too, not the TCP server's buffers`,
    };
  } finally {
    await cluster.close();
    await engine.close();
  }
}

/** One measured parameter from its repetitions: the median (the mean of the middle two for an
 * even count), every repetition's value and note kept in the note. */
export function medianParameter(samples: { value: number; note: string }[], unit: string): CardParameter {
  if (!samples.length) throw new Error('no repetition measured');
  const xs = samples.map((x) => x.value).sort((a, b) => a - b);
  const mid = xs.length >> 1;
  const median = xs.length % 2 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
  const head = samples.length === 1 ? '' : `Median of ${samples.length} repetitions (${samples.map((x) => x.value).join(', ')} ${unit}; min ${xs[0]}, max ${xs.at(-1)}). `;
  return { value: Math.round(median * 10) / 10, unit, source: 'measured', note: head + samples.map((x) => x.note).join(' | ') };
}

export async function runCalibration(flags: Record<string, string | boolean | undefined>, command: string): Promise<number> {
  const engines = ((flags.engine as string | undefined) ?? ENGINE_NAMES.join(',')).split(',') as EngineName[];
  for (const e of engines) if (!ENGINE_NAMES.includes(e)) throw new UsageError(`calibrate --engine: ${JSON.stringify(e)} is not a Replicant engine (${ENGINE_NAMES.join(', ')})`);
  const rate = Number(flags.rate ?? 1000);
  if (!(rate > 0)) throw new UsageError('--rate must be a positive number of ops/s');
  const options = resolveOptions({
    engine: engines.join(','),
    workload: 'a,b',
    records: (flags.records as string | undefined) ?? '20000',
    ratio: '8',
    'duration-s': (flags['duration-s'] as string | undefined) ?? '20',
    'warmup-s': (flags['warmup-s'] as string | undefined) ?? '5',
    ...(flags.repetitions !== undefined ? { repetitions: String(flags.repetitions) } : {}),
    preset: 'scaled',
  });
  const { commit } = gitCommit(REPO);
  const machine = machineInfo();
  const date = new Date().toISOString().slice(0, 10);
  const where = `bench calibrate, ${date}, commit ${commit.slice(0, 12)}, ${machine.vcpus}-core ${machine.cpu_model}`;
  const parameters: Record<string, CardParameter> = {};
  const scratch = join(BENCH_DIR, 'runs', `calibrate-${process.pid}`);
  // The plan runs every setting --repetitions times (3 by default): each parameter is the
  // median of its repetitions, with all of them in its note (the last one used to overwrite).
  const cpuSamples = new Map<string, { value: number; note: string }[]>();
  for (const planned of buildPlan(options)) {
    // No memory limit at all: these are per-operation costs, not what a tight heap does to them.
    const setting = { ...planned, memory_bytes: 0 };
    const e = setting.system;
    console.log(`calibrate ${e}, workload ${setting.workload.toUpperCase()}: ${rate} ops/s for ${options.duration_s} s`);
    const m = await measureFixedRate(setting, options, rate, scratch);
    if (!m) {
      console.log(`  ${e}: no measurement (see ${scratch})`);
      continue;
    }
    const w = setting.workload;
    const note = `${where}; YCSB workload ${w.toUpperCase()} at ${m.achieved_ops_per_s} ops/s open loop, ${setting.records} records, no memory limit, nodes sharing cpuset ${options.node_cpus}, cgroup cpuacct over ${options.duration_s} s; intended p99 ${m.p99_ms?.toFixed(1) ?? '?'} ms; background load from other tenants ${m.background_cores} cores`;
    for (const [role, v] of [['leader', m.leader_us_per_op], ['follower', m.follower_us_per_op]] as const) {
      const key = `${e}.cpu_us_per_op.${role}.${w}`;
      cpuSamples.set(key, [...(cpuSamples.get(key) ?? []), { value: Math.round(v * 10) / 10, note: `repetition ${setting.repetition}: ${note}` }]);
    }
    console.log(`  CPU per op: leader ${m.leader_us_per_op.toFixed(1)} µs, follower ${m.follower_us_per_op.toFixed(1)} µs`);
  }
  for (const [key, samples] of cpuSamples) parameters[key] = medianParameter(samples, 'us');
  for (const e of engines) {
    for (const [w, reads] of [['a', 0.5], ['b', 0.95]] as const) {
      try {
        const a = await coreAllocation(e, commandMix(6000, 2000, reads), 1000);
        const note = `${where}; ${a.note}; workload ${w.toUpperCase()} mix (${reads * 100} % reads, 500-byte values)`;
        if (a.leader_bytes !== null) parameters[`${e}.alloc_bytes_per_op.leader.${w}`] = { value: Math.round(a.leader_bytes), unit: 'B', source: 'measured', note };
        if (a.follower_bytes !== null) parameters[`${e}.alloc_bytes_per_op.follower.${w}`] = { value: Math.round(a.follower_bytes), unit: 'B', source: 'measured', note };
        console.log(`calibrate ${e} ${w.toUpperCase()}: core allocation per op: leader ${a.leader_bytes?.toFixed(0) ?? 'n/a'} B, follower ${a.follower_bytes?.toFixed(0) ?? 'n/a'} B`);
      } catch (err) {
        console.log(`calibrate ${e} ${w.toUpperCase()}: no allocation figures: ${(err as Error).message}`);
      }
    }
  }
  // data/validate.mjs checks every card under data/models against its schema, named <version>.json.
  // a second rate gets its own card (the default 1,000 ops/s keeps the name the cards cite)
  const version = `0.1.0-measured${rate === 1000 ? '' : `-${rate}ops`}.${date.replace(/-/g, '')}`;
  const out = flags.out ? resolve(process.env.INIT_CWD ?? process.cwd(), flags.out as string) : join(REPO, `data/models/measured/${version}.json`);
  mkdirSync(dirname(out), { recursive: true });
  const card = {
    version,
    description: `Measured parameters for the simulator's model card (${where}). Command: ${command}`,
    parameters: Object.fromEntries(Object.entries(parameters).sort(([a], [b]) => a.localeCompare(b))),
  };
  writeFileSync(out, JSON.stringify(card, null, 2) + '\n');
  console.log(`wrote ${relative(process.env.INIT_CWD ?? process.cwd(), out)} (${Object.keys(parameters).length} parameters)`);
  return Object.keys(parameters).length ? 0 : 1;
}
