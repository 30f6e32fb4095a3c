// `npm run fidelity -- --native <results.json …>`: the simulator's prediction beside each native
// setting we have measured. This module is pure: it reads rows (already parsed), groups them into
// settings, builds the simulator's specs for the same knobs, and compares. No files, no clock.
import { engineOfLanguage } from '@replicant/engines/loader/catalogue';
import type { EngineName, ModelCard, RunResult, RunSpec, SloSearchSpec } from '../api.ts';
import { closedLoopCard, isMachineCard, machineVcpus, pricedRegime, type LoadRegime } from '../models/machine-card.ts';
import { PAPER_METHOD, baseRunSpec, type MeasurementKnobs } from '../run/measurement.ts';

/** A row of a native results file (data/schema/results.schema.json), the fields used here. */
export interface NativeRow {
  id: string;
  language: string;
  workload: string;
  memory_gib: number | null;
  memory_data_ratio: number | null;
  vcpus: number | null;
  metric: string;
  value: number | string;
  qualifier?: string;
  note?: string;
  spread?: { min: number; max: number };
  repetitions?: number;
}


/** What identifies a native setting the simulator can be asked about. */
export interface NativeSetting {
  key: string;
  /** The group its results files were given (`FILE@group`): settings of different groups — a
   * quiet run beside loaded ones — are never merged, and each group is scored on its own. */
  group?: string;
  engine: EngineName;
  workload: 'A' | 'B';
  records: number;
  memory: { gib: number } | { ratio: number };
  vcpus: number;
  slo_ms: number;
  /** Where the values came from (results files), for the report. */
  sources: string[];
  /** Values per metric: each file's value (a median when the file had repetitions), with the
   * file's own min–max where it had one, and its qualifier (exact, lower_bound, upper_bound…). */
  metrics: Map<string, { value: number; min: number; max: number; qualifier: string }[]>;
  statuses: string[];
  /** The memory limit per node the harness set and the fixed footprint it measured and added,
   * MiB, from the rows' notes ("412 MiB/node (= ratio × data + 13 MiB measured fixed
   * footprint)"), when they say. */
  limit_mib?: number;
  footprint_mib?: number;
}

/** The limit per node and the measured footprint a native row's note states (MiB). */
export function limitOfNote(note: string): { limit_mib?: number; footprint_mib?: number } {
  const limit = Number(/([\d.]+) MiB\/node/.exec(note)?.[1]);
  const footprint = Number(/\+ ([\d.]+) MiB measured fixed footprint/.exec(note)?.[1]);
  return { ...(limit > 0 ? { limit_mib: limit } : {}), ...(footprint > 0 ? { footprint_mib: footprint } : {}) };
}

/** The report scores a prediction within ±25 % of the native value (fidelity-native-cli). */
export const SCORE_BAND = 0.25;

/** A row's qualifier as the report reads it. A search that ran out of probes leaves its answer a
 * lower bound (bench/src/results.ts openBracket); when its bracket is narrower than the band a
 * prediction is scored in, the answer is read as approximate, since the true rate lies within
 * that band above it. A wider bracket (a 3-probe search stopped at 1.6 of 25 Kops/s) stays a
 * lower bound, shown but not scored. Only a single repetition's note names its own bracket. */
export function scoredQualifier(r: Pick<NativeRow, 'qualifier' | 'note' | 'repetitions'>): string {
  const q = r.qualifier ?? 'exact';
  if (q !== 'lower_bound' || (r.repetitions ?? 1) > 1) return q;
  const gap = Number(/ran out of probes .*? missed, a bracket of ([\d.]+) %/.exec(r.note ?? '')?.[1]);
  return gap > 0 && gap / 100 <= SCORE_BAND ? 'approx' : q;
}

export interface Skipped {
  source: string;
  id: string;
  why: string;
}

/** The setting id a row belongs to: its id without the metric suffix. */
function settingIdOf(row: NativeRow): string {
  const suffix = '-' + row.metric.replace(/_/g, '-');
  return row.id.endsWith(suffix) ? row.id.slice(0, -suffix.length) : row.id;
}

/**
 * Groups native rows into settings the simulator models: a Replicant engine (not etcd), durability
 * none (the paper's design; the simulator's storage model knows cloud and NVMe devices, not this
 * machine's disk), no GC mitigation, workload A or B. The same setting in several files (a run
 * split into one file per repetition) becomes one setting with every file's value.
 */
export function nativeSettings(files: { source: string; rows: NativeRow[]; group?: string }[]): { settings: NativeSetting[]; skipped: Skipped[] } {
  const byKey = new Map<string, NativeSetting>();
  const skipped: Skipped[] = [];
  const seenSkip = new Set<string>();
  const skip = (source: string, id: string, why: string) => {
    if (seenSkip.has(source + id)) return;
    seenSkip.add(source + id);
    skipped.push({ source, id, why });
  };
  for (const f of files) {
    // the SLO of a setting is in its own row
    const sloOf = new Map<string, number>();
    for (const r of f.rows) if (r.metric === 'slo_p99_latency' && typeof r.value === 'number') sloOf.set(settingIdOf(r), r.value);
    // and its record count in the notes of its measured rows (the status row's note is its evidence)
    const recordsOf = new Map<string, number>();
    for (const r of f.rows) {
      const n = Number(/(\d+) records/.exec(r.note ?? '')?.[1]);
      if (n > 0 && !recordsOf.has(settingIdOf(r))) recordsOf.set(settingIdOf(r), n);
    }
    for (const r of f.rows) {
      const sid = settingIdOf(r);
      const engine = engineOfLanguage(r.language);
      if (!engine) { skip(f.source, sid, `${r.language || 'unknown system'}: the simulator models the four Replicant engines only`); continue; }
      if (/-log-fsync-/.test(sid) || /durability log/.test(r.note ?? '')) { skip(f.source, sid, 'durability log: no storage model of this machine\'s disk'); continue; }
      if (/-(blade|mitmem|both)(-|$)/.test(sid)) { skip(f.source, sid, 'a GC mitigation run'); continue; }
      const workload = r.workload === 'A' || r.workload === 'B' ? r.workload : null;
      if (!workload) { skip(f.source, sid, `workload ${r.workload}`); continue; }
      const records = recordsOf.get(sid) ?? 0;
      if (!(records > 0)) { skip(f.source, sid, 'no record count in its note'); continue; }
      const slo = sloOf.get(sid);
      if (slo === undefined) { skip(f.source, sid, 'no slo_p99_latency row'); continue; }
      const memory = r.memory_data_ratio !== null && r.memory_data_ratio !== undefined ? { ratio: r.memory_data_ratio } : r.memory_gib ? { gib: r.memory_gib } : null;
      if (!memory || !r.vcpus) { skip(f.source, sid, 'no memory or vCPUs'); continue; }
      const memKey = 'ratio' in memory ? `r${memory.ratio}` : `${memory.gib}gib`;
      const key = `${f.group ? `${f.group}:` : ''}${engine}-${workload.toLowerCase()}-${records}rec-${memKey}-${r.vcpus}vcpu-slo${slo}`;
      let s = byKey.get(key);
      if (!s) {
        s = { key, ...(f.group ? { group: f.group } : {}), engine, workload, records, memory, vcpus: r.vcpus, slo_ms: slo, sources: [], metrics: new Map(), statuses: [] };
        byKey.set(key, s);
      }
      if (!s.sources.includes(f.source)) s.sources.push(f.source);
      if (s.limit_mib === undefined) Object.assign(s, limitOfNote(r.note ?? ''));
      if (r.metric === 'measurement_status') {
        s.statuses.push(String(r.value));
        continue;
      }
      if (typeof r.value !== 'number' || !Number.isFinite(r.value)) continue;
      const list = s.metrics.get(r.metric) ?? [];
      list.push({ value: r.value, min: r.spread?.min ?? r.value, max: r.spread?.max ?? r.value, qualifier: scoredQualifier(r) });
      s.metrics.set(r.metric, list);
    }
  }
  return { settings: [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key)), skipped };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const isNumber = (q: string) => q === 'exact' || q === 'approx';

/** A native metric over every file that measured it: median of the values, the widest min–max.
 * Where some files measured it as a number and others only bounded it (a 3-probe search's "≥ 1.6"
 * beside a full search's 14.6), the figure is of the numbers: a bound beside them says less. */
export function nativeFigure(s: NativeSetting, metric: string): { median: number; min: number; max: number; n: number; qualifiers: string[] } | null {
  const all = s.metrics.get(metric);
  if (!all || !all.length) return null;
  const numbers = all.filter((x) => isNumber(x.qualifier));
  const xs = numbers.length ? numbers : all;
  return {
    median: median(xs.map((x) => x.value)),
    min: Math.min(...xs.map((x) => x.min)),
    max: Math.max(...xs.map((x) => x.max)),
    n: xs.length,
    qualifiers: [...new Set(xs.map((x) => x.qualifier))],
  };
}

/** The simulator's knobs for a native setting: same engine, workload, record count, memory
 * (ratio or GiB per node), vCPU label and SLO; the Lab's fast mode and seed. The native run's
 * "vCPUs" are paper vCPUs mapped onto a share of one core (docs/benchmarks.md): the simulator
 * gives each node that many vCPUs of the card's machine, which is the calibration gap this report
 * measures. */
export function nativeKnobs(s: NativeSetting, card?: ModelCard, regime: LoadRegime = 'open'): MeasurementKnobs {
  if (card && isMachineCard(card)) return machineKnobs(s, card, regime);
  return {
    ...(card ? { model_card: card } : {}),
    workload: s.workload,
    memory: s.memory,
    vcpus: s.vcpus,
    records: s.records,
    slo_p99_ms: s.slo_ms,
    min_window_s: PAPER_METHOD.min_window_s,
    fidelity: 'fast',
    seed: PAPER_METHOD.seed,
  };
}

/** With this machine's card (sim/src/models/machine-card.ts) a native setting is simulated as
 * it ran: each node gets the share of the shared core its quota and the CFS split allow
 * (machineVcpus), the memory limit the harness set (its note's MiB per node, else the ratio),
 * and, for the engines whose footprint is not in their heap limit, the footprint the harness
 * measured for that run as the process's memory besides its data. A closed loop (the saturation
 * probe) keeps the servers' queues full: it runs on the card's batched CPU costs and core share
 * (closedLoopCard); the SLO search's open-loop probes on the unbatched ones. */
export function machineKnobs(s: NativeSetting, card: ModelCard, loop: LoadRegime = 'open'): MeasurementKnobs {
  const regime = pricedRegime(card, s.engine, loop);
  let model_card = regime === 'closed' ? closedLoopCard(card, s.engine, s.workload) : card;
  if (s.footprint_mib !== undefined && s.engine !== 'java') {
    const key = `memory.${s.engine}.non_heap_bytes`;
    model_card = { ...model_card, parameters: { ...model_card.parameters, [key]: { ...model_card.parameters[key]!, value: Math.round(s.footprint_mib * 1024 * 1024), note: `${model_card.parameters[key]!.note} This setting: ${s.footprint_mib} MiB, as its native run measured.` } } };
  }
  return {
    model_card,
    workload: s.workload,
    memory: s.limit_mib !== undefined ? { gib: s.limit_mib / 1024 } : s.memory,
    vcpus: machineVcpus(card, s.engine, s.workload, s.vcpus, regime),
    records: s.records,
    slo_p99_ms: s.slo_ms,
    min_window_s: PAPER_METHOD.min_window_s,
    fidelity: 'fast',
    seed: PAPER_METHOD.seed,
  };
}

export function nativeSearchSpec(s: NativeSetting, card?: ModelCard): SloSearchSpec {
  return {
    base: baseRunSpec(nativeKnobs(s, card), s.engine, 1),
    slo_p99_ms: s.slo_ms,
    min_ops_per_s: PAPER_METHOD.min_ops_per_s,
    max_ops_per_s: PAPER_METHOD.max_ops_per_s,
    // the native scaled preset's 10 % (its smoke runs used 30 %): no finer than what it is compared with
    tolerance: 0.1,
    window: 'model',
    max_duration_s: 60,
  };
}

/** The native harness's saturation probe: YCSB closed-loop, 64 threads, as fast as it goes. */
export function nativeSaturationSpec(s: NativeSetting, card?: ModelCard): RunSpec {
  const spec = baseRunSpec({ ...nativeKnobs(s, card, 'closed'), mode: 'closed' }, s.engine, PAPER_METHOD.max_ops_per_s);
  spec.load.duration_s = 10;
  return spec;
}

/** Share of the leader's window with a collection running (pause or concurrent cycle), in %,
 * the definition the native harness reads from gctrace / -Xlog:gc (gc_runtime_share). */
export function gcRunningSharePercent(r: RunResult): number | null {
  const leader = r.leader_at_end ?? 0;
  const node = r.nodes[leader];
  if (!node) return null;
  const start = r.spec.load.warmup_s ?? 0;
  const end = start + r.spec.load.duration_s;
  let busy_ms = 0;
  for (const e of node.gc_events) {
    if (e.t_s < start || e.t_s >= end) continue;
    busy_ms += Math.max(e.pause_ms, e.duration_ms ?? 0);
  }
  return Math.min(100, (100 * busy_ms) / ((end - start) * 1000));
}

/** Relative error of a prediction against a native median, or null when either is missing or 0. */
export function relativeError(predicted: number | null, native: number | null): number | null {
  if (predicted === null || native === null || !(native > 0)) return null;
  return predicted / native - 1;
}

/** A native value within the harness's reach: a lower bound (search stopped under a disturbed
 * miss) or an upper bound ("< 0.1": even the minimum missed) cannot be an error's reference. */
export function comparable(fig: { qualifiers: string[] } | null): boolean {
  return !!fig && fig.qualifiers.every(isNumber);
}
