// A RunSpec with every default filled in and every field checked. Bad input gets an error that
// names the field and the accepted range.
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import type { EngineName, Fidelity, ModelCard, RunSpec } from '../api.ts';
import { validateClusterSeed } from '../core/nodes.ts';
import { defaultNetwork, param } from '../models/card.ts';
import { GIB } from '../models/node-model.ts';
import { MIN_VCPUS } from '../models/cpu.ts';
import { resolveMitigation, type MitigationSpec } from '../models/mitigation.ts';
import { resolveStorage, type ResolvedStorage } from '../models/storage.ts';
import type { NetworkParams } from '../net/network.ts';
import { validateNetwork } from '../net/network.ts';

export { ENGINE_NAMES };
export const PAPER_RECORDS = 7_500_000;

export interface ResolvedSpec {
  original: RunSpec;
  engines: EngineName[];
  seed: number;
  commit_interval_us: number;
  network: NetworkParams;
  vcpus: number;
  memory_bytes: number;
  record_count: number;
  engine_records: number;
  key_bytes: number;
  value_bytes: number;
  read_proportion: number;
  distribution: 'zipfian' | 'uniform' | 'latest';
  mode: 'open' | 'closed';
  target_ops_per_s: number;
  threads: number;
  duration_s: number;
  warmup_s: number;
  drain_s: number;
  /** 'exact' or 'fast'; a spec's 'fast-approx' is fast mode with `approximate` */
  fidelity: Exclude<Fidelity, 'fast-approx'>;
  /** fidelity 'fast-approx' (run/cycle-repeat.ts) */
  approximate: boolean;
  mitigation: Required<MitigationSpec>;
  storage: ResolvedStorage;
  timeline_bucket_us: number;
}

export class SpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecError';
  }
}

function num(v: unknown, name: string, min: number, max: number, integer = false): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v)))
    throw new SpecError(`${name} must be ${integer ? 'an integer' : 'a number'} in [${min}, ${max}], got ${JSON.stringify(v)}`);
  return v;
}

/** The thread hand-off of a cluster's engines (cpu.<engine>.handoff_mean_us; a card before
 * 1.2.0 has none): one network for the run, so a mixed cluster takes its engines' mean. */
function handoffMean(card: ModelCard, engines: EngineName[]): number {
  const v = engines.map((e) => card.parameters[`cpu.${e}.handoff_mean_us`]?.value ?? 0);
  return v.reduce((a, b) => a + b, 0) / v.length;
}

export function resolveSpec(spec: RunSpec, card: ModelCard): ResolvedSpec {
  if (!spec || typeof spec !== 'object') throw new SpecError('a run spec is an object');
  const c = spec.cluster;
  if (!c || !Array.isArray(c.engines) || c.engines.length < 1 || c.engines.length > 15)
    throw new SpecError('cluster.engines must list 1 to 15 engines');
  for (const e of c.engines) if (!ENGINE_NAMES.includes(e)) throw new SpecError(`unknown engine "${e}" (known: ${ENGINE_NAMES.join(', ')})`);
  try {
    validateClusterSeed(c.seed);
  } catch (e) {
    throw new SpecError((e as Error).message);
  }
  const w = spec.workload;
  if (!w) throw new SpecError('workload is required');
  const l = spec.load;
  if (!l) throw new SpecError('load is required');
  const r = spec.resources;
  if (!r) throw new SpecError('resources is required');
  if (spec.fidelity !== 'exact' && spec.fidelity !== 'fast' && spec.fidelity !== 'fast-approx') throw new SpecError(`fidelity must be "exact", "fast" or "fast-approx", got ${JSON.stringify(spec.fidelity)}`);
  const fidelity = spec.fidelity === 'exact' ? 'exact' : 'fast';
  const record_count = num(w.record_count, 'workload.record_count', 1, 2 ** 36, true);
  const key_bytes = num(w.key_bytes ?? 23, 'workload.key_bytes', 8, 256, true);
  const value_bytes = num(w.value_bytes ?? 500, 'workload.value_bytes', 0, 65536, true);
  // The paper's convention (§5.1): its ratios are memory / its "≈ 4 GiB" raw dataset, which
  // is 1.095 × the payload bytes of its 7.5 M records (see the card's note).
  const dataGib = (record_count * (key_bytes + value_bytes) * param(card, 'memory.dataset_bytes_per_payload_byte')) / GIB;
  let memory_gib: number;
  if (r.memory_gib !== undefined && r.memory_to_data_ratio !== undefined) throw new SpecError('give resources.memory_gib or resources.memory_to_data_ratio, not both');
  if (r.memory_to_data_ratio !== undefined) memory_gib = num(r.memory_to_data_ratio, 'resources.memory_to_data_ratio', 0.01, 1e6) * dataGib;
  else memory_gib = num(r.memory_gib ?? 32, 'resources.memory_gib', 0.001, 1e6);
  const distribution = w.distribution ?? 'zipfian';
  if (!['zipfian', 'uniform', 'latest'].includes(distribution)) throw new SpecError(`workload.distribution must be zipfian, uniform or latest, got ${JSON.stringify(distribution)}`);
  if (l.mode !== 'open' && l.mode !== 'closed') throw new SpecError(`load.mode must be "open" or "closed", got ${JSON.stringify(l.mode)}`);
  const duration_s = num(l.duration_s, 'load.duration_s', 0.001, 86_400);
  const d = defaultNetwork(card);
  const n = spec.network ?? {};
  const network = {
    one_way_latency_us: n.one_way_latency_us ?? d.one_way_latency_us,
    jitter_us: n.jitter_us ?? d.jitter_us,
    bandwidth_gbps: n.bandwidth_gbps ?? d.bandwidth_gbps,
    handoff_mean_us: handoffMean(card, c.engines),
  };
  try {
    validateNetwork(network);
  } catch (e) {
    throw new SpecError((e as Error).message);
  }
  let mitigation: ReturnType<typeof resolveMitigation>;
  try {
    mitigation = resolveMitigation(spec.mitigation);
  } catch (e) {
    throw new SpecError((e as Error).message);
  }
  let storage: ResolvedStorage;
  try {
    storage = resolveStorage(spec.storage);
  } catch (e) {
    throw new SpecError((e as Error).message);
  }
  if (storage.durability === 'scattered' && fidelity === 'exact') {
    throw new SpecError('storage.durability "scattered" needs fidelity "fast": the engines release what a persist holds strictly in persist order (docs/protocol.md, Durability), which is the ordered placement');
  }
  const bucketMs = l.timeline_bucket_ms ?? (duration_s >= 20 ? 1000 : 100);
  return {
    original: spec,
    engines: c.engines.slice(),
    seed: c.seed,
    commit_interval_us: num(c.commit_interval_us ?? 150_000, 'cluster.commit_interval_us', 1000, 60_000_000, true),
    network,
    // fractional below or between whole cores: a share of a shared core (CpuPool.speed)
    vcpus: num(r.vcpus, 'resources.vcpus', MIN_VCPUS, 256),
    memory_bytes: memory_gib * GIB,
    record_count,
    engine_records: num(w.engine_record_count ?? Math.min(record_count, 1000), 'workload.engine_record_count', 1, 1_000_000, true),
    key_bytes,
    value_bytes,
    read_proportion: num(w.read_proportion, 'workload.read_proportion', 0, 1),
    distribution,
    mode: l.mode,
    target_ops_per_s: num(l.target_ops_per_s, 'load.target_ops_per_s', 0.001, 100_000_000),
    threads: num(l.client_threads ?? 64, 'load.client_threads', 1, 100_000, true),
    duration_s,
    warmup_s: num(l.warmup_s ?? 0, 'load.warmup_s', 0, 86_400),
    drain_s: num(l.drain_s ?? Math.max(2, duration_s * 0.1), 'load.drain_s', 0, 86_400),
    fidelity,
    approximate: spec.fidelity === 'fast-approx',
    mitigation,
    storage,
    timeline_bucket_us: num(bucketMs, 'load.timeline_bucket_ms', 1, 3_600_000) * 1000,
  };
}
