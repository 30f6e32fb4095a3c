// A load run's result (api.ts RunResult) from the state the run loop ends with: the window's
// latencies and throughput from the clients, each node's timelines, and the sandbox's and the
// disks' summaries. Reads the run; changes nothing.
import type { ModelCard, RunResult } from '../api.ts';
import type { Clients } from '../load/clients.ts';
import { GIB } from '../models/node-model.ts';
import type { MitigationStats } from '../models/mitigation.ts';
import { recoveryEstimate, summarise, type DeviceModel, type StorageCosts, type StorageStats } from '../models/storage.ts';
import { nodeTimelines, round3, round4, type RunWindow } from '../results/timelines.ts';
import { LatencyHistogram } from '../metrics/histogram.ts';
import type { SimNode } from './node-step.ts';
import type { ResolvedSpec } from './spec.ts';
import { repeatedLatencies, repeatedNode, type SampleWindow } from './cycle-repeat.ts';

/** Bytes of the fast mode's records: an instance holds its command (key, and the value of a put). */
export function recordBytes(costs: StorageCosts, key_bytes: number, value_bytes: number): { read: number; update: number; commit_mark: number } {
  return {
    read: costs.record_overhead_bytes + key_bytes,
    update: costs.record_overhead_bytes + key_bytes + value_bytes,
    commit_mark: costs.small_record_bytes,
  };
}

/** The run's disks, and how long a node would take to come back at the end of it: restarted
 * from its disk, it replays a log holding the load and the run (nothing compacts it); wiped, it
 * receives the modelled dataset by state transfer. */
export function storageStats(s: ResolvedSpec, store: { dev: DeviceModel; costs: StorageCosts }, nodes: readonly SimNode[], opsPerS: number): StorageStats {
  const disks = nodes.map((n) => n.disk!.stats);
  const rb = recordBytes(store.costs, s.key_bytes, s.value_bytes);
  const meanRecord = s.read_proportion * rb.read + (1 - s.read_proportion) * rb.update;
  const biggest = disks.reduce((a, d) => Math.max(a, d.bytes), 0);
  const loaded = s.record_count * rb.update;
  const recovery = recoveryEstimate(store.dev, store.costs, {
    durability: s.storage.durability,
    log_records: s.record_count + Math.round(biggest / meanRecord),
    log_bytes: loaded + biggest,
    write_rate_per_s: opsPerS,
    snapshot_bytes: s.record_count * (s.key_bytes + s.value_bytes + 16),
    snapshot_records: s.record_count,
    network_bytes_per_us: (s.network.bandwidth_gbps * 1e9) / 8 / 1e6,
    network_rtt_us: 2 * s.network.one_way_latency_us,
  });
  return summarise(s.storage, disks, recovery);
}

/** What the run loop ends with. */
export interface FinishedRun {
  spec: ResolvedSpec;
  card: ModelCard;
  clients: Clients;
  nodes: readonly SimNode[];
  bucket_us: number;
  /** virtual time of the last event */
  now_us: number;
  leader_changes: { t_s: number; leader: number }[];
  leader: number | null;
  mitigation: MitigationStats | null;
  store: { dev: DeviceModel; costs: StorageCosts } | null;
  count_over_us: number | undefined;
  /** The approximate fast mode, once its sample ended (cycle-repeat.ts): each node's stretch that
   * repeats, the window's planned end, the leader whose stretch the latencies repeat. */
  approx: { stretches_us: number[]; planned_to_us: number; leader: number } | null;
}

export function runResult(r: FinishedRun): RunResult {
  if (r.approx && !r.clients.stoppedEarly && r.clients.opLog && r.clients.settledAt_us !== null) return approximateResult(r, r.approx, r.clients.opLog);
  const { spec: s, clients: c } = r;
  const from = c.measureFrom_us;
  const to = c.measureTo_us;
  // A window ended early once settled (RunHooks.end_when_settled) measured only up to there.
  const measured_s = c.settledAt_us === null ? s.duration_s : (to - from) / 1e6;
  const w: RunWindow = { workload_start_us: c.workloadStart_us, from_us: from, to_us: to, bucket_us: r.bucket_us };
  const nodes = r.nodes.map((n) =>
    nodeTimelines({ id: n.id, engine: n.engine, usage: n.pool.usage, gc_events: n.runtime.events, heap_bytes_now: n.runtime.heapBytes(), heap_samples: n.heapSamples, ops_entered: n.opsEntered, allocated_bytes: n.allocatedBytes, crashed_at_us: n.crashed_at_us }, w),
  );
  return {
    simulated: true,
    model_card_version: r.card.version,
    fidelity: s.approximate ? 'fast-approx' : s.fidelity,
    spec: s.original,
    dataset: {
      modelled_records: s.record_count,
      engine_records: s.fidelity === 'exact' ? s.engine_records : 0,
      memory_gib: round4(s.memory_bytes / GIB),
      raw_data_gib: round4((s.record_count * (s.key_bytes + s.value_bytes)) / GIB),
    },
    achieved_ops_per_s: Number.isFinite(from) ? round3(c.completedInWindow / measured_s) : 0,
    latency: { all: c.allLatencies().summary(), read: c.hist.read.summary(), update: c.hist.update.summary() },
    latency_uncorrected: { all: c.histService.summary() },
    leader_changes: r.leader_changes,
    leader_at_end: r.leader,
    nodes,
    stopped_early: c.stoppedEarly,
    ...(c.stoppedEarly && r.now_us > c.workloadStart_us ? { served_ops_per_s: round3(c.servedOps / ((r.now_us - c.workloadStart_us) / 1e6)) } : {}),
    ...(r.mitigation ? { mitigation: r.mitigation } : {}),
    ...(r.store ? { storage: storageStats(s, r.store, r.nodes, Number.isFinite(from) ? c.completedInWindow / measured_s : 0) } : {}),
    ...(c.settledAt_us !== null ? { settled_at_s: round3(measured_s) } : {}),
    ...(r.count_over_us !== undefined ? { ops_over: { threshold_us: r.count_over_us, count: c.overCount } } : {}),
  };
}

/** The approximate fast mode's result: the sample's, with the rest of the window repeated from
 * each node's stretch (cycle-repeat.ts); it says so (`approximation`) and reads as a whole window. */
function approximateResult(r: FinishedRun, a: NonNullable<FinishedRun['approx']>, log: NonNullable<Clients['opLog']>): RunResult {
  const { spec: s, clients: c } = r;
  const w: SampleWindow = { from_us: c.measureFrom_us, sampled_to_us: c.settledAt_us!, to_us: a.planned_to_us, bucket_us: r.bucket_us };
  const lat = repeatedLatencies(log, w, Math.abs(a.stretches_us[a.leader]!), r.count_over_us);
  const all = new LatencyHistogram();
  all.add(lat.read);
  all.add(lat.update);
  const rw: RunWindow = { workload_start_us: c.workloadStart_us, from_us: w.from_us, to_us: w.to_us, bucket_us: r.bucket_us };
  const nodes = r.nodes.map((n, i) =>
    nodeTimelines(repeatedNode({ id: n.id, engine: n.engine, usage: n.pool.usage, gc_events: n.runtime.events, heap_bytes_now: n.runtime.heapBytes(), heap_samples: n.heapSamples, ops_entered: n.opsEntered, allocated_bytes: n.allocatedBytes, crashed_at_us: n.crashed_at_us }, w, Math.abs(a.stretches_us[i]!), a.stretches_us[i]! < 0), rw),
  );
  return {
    simulated: true,
    model_card_version: r.card.version,
    fidelity: 'fast-approx',
    spec: s.original,
    dataset: {
      modelled_records: s.record_count,
      engine_records: 0,
      memory_gib: round4(s.memory_bytes / GIB),
      raw_data_gib: round4((s.record_count * (s.key_bytes + s.value_bytes)) / GIB),
    },
    achieved_ops_per_s: round3(lat.completed / s.duration_s),
    latency: { all: all.summary(), read: lat.read.summary(), update: lat.update.summary() },
    latency_uncorrected: { all: lat.service.summary() },
    leader_changes: r.leader_changes,
    leader_at_end: r.leader,
    nodes,
    stopped_early: false,
    ...(r.count_over_us !== undefined ? { ops_over: { threshold_us: r.count_over_us, count: lat.over } } : {}),
    approximation: {
      simulated_s: round3((w.sampled_to_us - w.from_us) / 1e6),
      repeated_s: round3((w.to_us - w.sampled_to_us) / 1e6),
      stretch_s: a.stretches_us.map((x) => round3(Math.abs(x) / 1e6)),
      simulated_ops: c.completedInWindow,
    },
  };
}
