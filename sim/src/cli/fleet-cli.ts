// The simulator's side of the FLEET comparison (docs/fidelity.md, "FLEET: durability"): the fast
// model with durability none, an ordered log and scattered entries, on FLEET's co-located set-up
// (5 nodes, 256 B keys, 64 B and 4 KB values), saturated by a closed loop of client threads; the
// latency at FLEET's "extremely low" load (2 client threads); and the modelled recovery at
// FLEET's §6.6 rate (10,000 ops/s). Prints a markdown table.
//   npm --workspace @replicant/sim run fleet [-- --threads 256 --duration-s 1 --engine rust]
import type { EngineName, LatencySummary, RunResult, RunSpec, StorageSpec } from '../api.ts';
import { simulate } from '../run/simulate.ts';
import type { DeviceClass, DurabilityPlacement } from '../models/storage.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const threads = Number(arg('threads', '256'));
const duration_s = Number(arg('duration-s', '1'));
const engine = arg('engine', 'rust') as EngineName;
if (!Number.isInteger(threads) || threads < 1 || !(duration_s > 0)) {
  process.stderr.write('usage: fleet-cli [--threads N] [--duration-s S] [--engine go|cpp|rust|java]\n');
  process.exit(2);
}

function spec(value_bytes: number, storage: StorageSpec | undefined, load: RunSpec['load']): RunSpec {
  return {
    cluster: { engines: Array.from({ length: 5 }, () => engine), seed: 1 },
    resources: { vcpus: 8, memory_gib: 32 },
    workload: { name: 'custom', read_proportion: 0, record_count: 1_000_000, key_bytes: 256, value_bytes, distribution: 'uniform' },
    load,
    fidelity: 'fast',
    ...(storage ? { storage } : {}),
  };
}

function p90_ms(s: LatencySummary): number {
  const hit = s.spectrum.find(([q]) => (q > 1 ? q : q * 100) >= 90);
  return (hit ? hit[1] : s.max_us) / 1000;
}

const placements: DurabilityPlacement[] = ['none', 'ordered', 'scattered'];
const devices: DeviceClass[] = ['local_nvme', 'cloud_block'];
const saturate: RunSpec['load'] = { mode: 'closed', target_ops_per_s: 10_000_000, client_threads: threads, duration_s, warmup_s: 0.5 };
const light: RunSpec['load'] = { mode: 'closed', target_ops_per_s: 10_000_000, client_threads: 2, duration_s, warmup_s: 0.2 };
const fleetRate: RunSpec['load'] = { mode: 'open', target_ops_per_s: 10_000, client_threads: 64, duration_s, warmup_s: 0.2 };

const rows: string[] = [];
let card = '';
let storageModel = '';
const t0 = performance.now();
for (const device of devices) {
  for (const value of [64, 4096]) {
    const peak: Record<string, RunResult> = {};
    for (const p of placements) {
      const r = simulate(spec(value, p === 'none' ? undefined : { durability: p, device }, saturate), null);
      peak[p] = r;
      card = r.model_card_version;
      storageModel = r.storage?.model_version ?? storageModel;
      const lo = simulate(spec(value, p === 'none' ? undefined : { durability: p, device }, light), null);
      const at10k = p === 'none' ? null : simulate(spec(value, { durability: p, device }, fleetRate), null);
      rows.push(
        `| ${device} | ${value} B | ${p} | ${Math.round(r.achieved_ops_per_s).toLocaleString('en-US')} | ${(r.achieved_ops_per_s / peak.none!.achieved_ops_per_s).toFixed(2)} | ${(r.latency.all.p50_us / 1000).toFixed(2)} | ${p90_ms(lo.latency.all).toFixed(2)} | ${r.storage ? r.storage.persists_per_flush.toFixed(1) : '-'} | ${at10k ? at10k.storage!.recovery.scattered_tail_ms.toFixed(2) : '-'} |`,
      );
      process.stderr.write(`${device} ${value} B ${p}: ${Math.round(r.achieved_ops_per_s)} ops/s\n`);
    }
    rows.push(`| | | scattered / ordered | | **${(peak.scattered!.achieved_ops_per_s / peak.ordered!.achieved_ops_per_s).toFixed(2)}×** | | | | |`);
  }
}
const took = ((performance.now() - t0) / 1000).toFixed(0);
console.log(`Simulated (fast model, ${engine}, 5 nodes, model card ${card}, storage model ${storageModel}, seed 1; ${took} s of computing):
\`npm --workspace @replicant/sim run fleet -- --threads ${threads} --duration-s ${duration_s} --engine ${engine}\`

| device | value | durability | peak ops/s (${threads} threads, closed loop) | vs none | p50 at peak (ms) | p90 at 2 threads (ms) | persists per flush at peak | scattered tail at 10,000 ops/s (ms) |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}`);
