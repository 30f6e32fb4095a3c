// The Lab's durability knob as data: the run without durability each durable run is compared
// with, the table of what persisting cost, the sentence that explains it, and FLEET's stated
// numbers beside it (data/fleet). Pure; StoragePanel draws it.
import fleetCsv from '@replicant/data/fleet/fleet-values.csv?raw';
import { parseMitigationValues, type MitigationValue } from '@replicant/data/mitigations';
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { DurabilityPlacement, RunResult, RunSpec, StorageStats } from '@replicant/sim/api';
import { formatValue } from '../paper/panel-model.ts';

/** FLEET's stated numbers (same columns as the mitigation papers' files). */
export const FLEET_VALUES: MitigationValue[] = parseMitigationValues(fleetCsv, 'data/fleet/fleet-values.csv');
export const FLEET_CITATION = 'Fan, Tan, Zhou and Li, “FLEET: High-Performance Durable Replicated State Machines using Scattered and Coordinated Log Entries” (PVLDB 18(5), 2025)';

export function fleetValue(id: string): MitigationValue {
  const v = FLEET_VALUES.find((r) => r.id === id);
  if (!v) throw new Error(`data/fleet/fleet-values.csv has no row "${id}"`);
  return v;
}

export function placementWords(d: DurabilityPlacement): string {
  return { none: 'no durability', ordered: 'an ordered log', scattered: 'scattered entries' }[d];
}

export function deviceWords(d: StorageStats['device']): string {
  return { cloud_block: 'a cloud block volume', local_nvme: 'local NVMe' }[d];
}

/** The same run without durability, to measure what persisting adds; none for a volatile run. */
export function volatileSpec(base: RunSpec): RunSpec | null {
  if (!base.storage || base.storage.durability === 'none') return null;
  const { storage: _dropped, ...rest } = base;
  return rest;
}

export interface StorageRow {
  engine: EngineName;
  durability: DurabilityPlacement;
  p50_ms: number;
  p99_ms: number;
  volatile_p50_ms: number;
  volatile_p99_ms: number;
  achieved_ops_per_s: number;
  volatile_ops_per_s: number;
  flush_mean_ms: number;
  persists_per_flush: number;
  /** added median latency in mean flushes: how many flushes an operation waits for in a row */
  flushes_in_a_row: number;
  replay_s: number;
  scattered_tail_ms: number;
  snapshot_s: number;
}

export function storageRow(engine: EngineName, durable: RunResult, volatile: RunResult): StorageRow {
  const st = durable.storage;
  if (!st) throw new Error('a durable run reports its storage');
  const p50 = durable.latency.all.p50_us / 1000;
  const v50 = volatile.latency.all.p50_us / 1000;
  const flush = st.flush_mean_us / 1000;
  return {
    engine,
    durability: st.durability,
    p50_ms: p50,
    p99_ms: durable.latency.all.p99_us / 1000,
    volatile_p50_ms: v50,
    volatile_p99_ms: volatile.latency.all.p99_us / 1000,
    achieved_ops_per_s: durable.achieved_ops_per_s,
    volatile_ops_per_s: volatile.achieved_ops_per_s,
    flush_mean_ms: flush,
    persists_per_flush: st.persists_per_flush,
    flushes_in_a_row: flush > 0 ? Math.round(((p50 - v50) / flush) * 10) / 10 : 0,
    replay_s: st.recovery.log_replay_ms / 1000,
    scattered_tail_ms: st.recovery.scattered_tail_ms,
    snapshot_s: st.recovery.snapshot_transfer_ms / 1000,
  };
}

/** What the durable runs show, in words, with FLEET's claim for scale. */
export function storageSentence(rows: StorageRow[], stats: StorageStats, lang: (e: EngineName) => string): string {
  const per = rows
    .map((r) => `${lang(r.engine)}: median ${formatValue(r.volatile_p50_ms)} → ${formatValue(r.p50_ms)} ms (about ${formatValue(r.flushes_in_a_row)} flushes of ${formatValue(r.flush_mean_ms)} ms waited for in a row), ${Math.round(r.achieved_ops_per_s).toLocaleString('en-US')} ops/s achieved`)
    .join('; ');
  const why =
    stats.durability === 'ordered'
      ? 'An ordered log puts the disk inside the ordering: the leader’s entry, each follower’s vote and the commit marks are written one flush after the other, and everything behind a flush waits for it (group commit shares the wait, it does not remove it).'
      : 'Scattered entries take the disk out of the ordering: the leader writes its copy while the followers write theirs, and nothing waits for an unrelated entry; the ordered log is written later, off the critical path.';
  return `Simulated with ${placementWords(stats.durability)} on ${deviceWords(stats.device)}. ${per}. ${why} FLEET claims the ordering, not the disk, is what limits a durable log; it states ${fleetValue('fig3-memkv-fleet-1disk-64b-peak-throughput').printed} Kops/s for scattered entries on one disk against ${fleetValue('fig3-memkv-fleet-vs-raft-1disk-64b-throughput-ratio').printed}× less for Raft on the same disk (§6.2, 64 B values).`;
}

/** The modelled recovery, in words, with FLEET's measured leader recovery beside it. */
export function recoverySentence(rows: StorageRow[], stats: StorageStats, lang: (e: EngineName) => string): string {
  const r = rows[0];
  if (!r) return '';
  const tail = stats.durability === 'scattered' ? `, plus ${formatValue(r.scattered_tail_ms)} ms to gather and sort the entries the ordered log has not caught up with` : '';
  return `Modelled recovery (${lang(r.engine)}'s run): restarted from its disk, a node replays its whole log in ${formatValue(r.replay_s)} s (the load and the run; nothing compacts it)${tail}; wiped, it receives the dataset by state transfer in ${formatValue(r.snapshot_s)} s. Neither includes the election timeout that notices a dead leader. FLEET measured a leader recovery of ${fleetValue('fig6b-memkv-fleet-leader-recovery-time').printed} ms against Raft’s ${fleetValue('fig6b-memkv-raft-leader-recovery-time').printed} ms (§6.6, mostly the 10 missed 100 ms heartbeats before an election).`;
}
