// Turns measured settings into a results file of the shared schema (data/schema/
// results.schema.json, source_kind native) and a JSON Lines file of details (probes, per-node
// timelines, GC events) that the rows point to. Pure: results in, objects out.
import type { BenchOptions, Setting } from './plan.ts';
import type { SettingResult } from './measure.ts';
import { languageOfSystem } from './systems.ts';
import type { MachineInfo } from './machine.ts';

export interface ResultRow {
  id: string;
  figure_or_table: '';
  language: string;
  workload: 'A' | 'B' | null;
  memory_gib: number | null;
  /** Memory per node over the raw data, when the setting was sized by ratio. */
  memory_data_ratio: number | null;
  vcpus: number | null;
  metric: string;
  value: number;
  unit: string;
  instance_type: null;
  clients: number | null;
  note: string | null;
  qualifier: 'exact' | 'approx' | 'lower_bound' | 'upper_bound';
  provenance: { kind: 'measurement'; raw_output: string };
  repetitions?: number;
  stddev?: number;
}

export interface ResultsFile {
  schema_version: '1.0.0';
  metadata: {
    source_kind: 'native';
    title: string;
    description: string;
    machine: MachineInfo;
    date: string;
    git_commit: string;
    engines: Record<string, string>;
    command: string;
  };
  rows: ResultRow[];
}

const round = (x: number, digits = 3) => Number(x.toFixed(digits));

function settingNote(r: SettingResult, o: BenchOptions): string {
  const s = r.setting;
  const footprint = s.baseline_bytes ? ` (= ratio × data + ${round(s.baseline_bytes / 2 ** 20, 0)} MiB measured fixed footprint)` : '';
  const mem = `${round(s.memory_bytes / 2 ** 20, 1)} MiB/node${footprint} via ${r.memory_how}`;
  const ratio = s.ratio !== null ? `memory:data ratio ${s.ratio} over ${s.records} records (${round(s.raw_data_bytes / 2 ** 20, 1)} MiB raw)` : `${s.records} records`;
  const cpu = s.cpu_quota_cores === null ? `nodes share cpuset ${o.node_cpus} without quota` : `nodes on cpuset ${o.node_cpus}, quota ${s.cpu_quota_cores} core each`;
  const shown = r.best ?? r.floor;
  const noise = shown?.usage ? `; other tenants used ${round(shown.usage.other_cores_busy, 2)} cores meanwhile` : '';
  return `scaled run: ${ratio}; ${mem}; ${s.vcpus} paper vCPUs = ${cpu}; YCSB on cpuset ${o.loadgen_cpus}; SLO intended p99 <= ${r.slo_ms} ms; repetition ${s.repetition}${noise}`;
}

/** Rows of one measured setting. */
export function settingRows(r: SettingResult, o: BenchOptions, detailsPath: string): ResultRow[] {
  const s = r.setting;
  const base = {
    figure_or_table: '' as const,
    language: languageOfSystem(s.system),
    workload: s.workload === 'custom' ? null : (s.workload.toUpperCase() as 'A' | 'B'),
    memory_gib: round(s.memory_bytes / 2 ** 30, 4),
    memory_data_ratio: s.ratio,
    vcpus: s.vcpus,
    instance_type: null,
    clients: o.threads,
    provenance: { kind: 'measurement' as const, raw_output: detailsPath },
  };
  const note = settingNote(r, o);
  const rows: ResultRow[] = [];
  const add = (metric: string, value: number, unit: string, qualifier: ResultRow['qualifier'] = 'exact', extra = '') =>
    rows.push({ id: `${s.id}-${metric.replace(/_/g, '-')}`, ...base, metric, value, unit, qualifier, note: extra ? `${note}; ${extra}` : note });

  if (r.best) {
    add('max_throughput_slo', round(r.best.target_ops_per_s / 1000), 'Kops/s', r.search.ceiling_reached ? 'lower_bound' : 'exact',
      r.search.ceiling_reached ? 'the highest rate tried met the SLO' : `bisection tolerance ${o.tolerance * 100} %`);
  } else if (r.floor) {
    const p99 = r.floor.p99_ms === null ? 'unbounded (failures)' : `${round(r.floor.p99_ms, 1)} ms`;
    add('max_throughput_slo', round(r.floor.target_ops_per_s / 1000), 'Kops/s', 'upper_bound', `not even ${r.floor.target_ops_per_s} ops/s met the SLO: intended p99 ${p99}`);
  }
  const shown = r.best ?? r.floor;
  if (shown) {
    if (shown.p99_ms !== null) add('p99_latency_intended', round(shown.p99_ms), 'ms', 'exact', `at ${shown.target_ops_per_s} ops/s`);
    if (Number.isFinite(shown.uncorrected.p99_us)) add('p99_latency_service_time', round(shown.uncorrected.p99_us / 1000), 'ms', 'exact', `uncorrected (coordinated omission), at ${shown.target_ops_per_s} ops/s`);
    const leader = r.nodes.find((n) => n.role === 'leader');
    const followers = r.nodes.filter((n) => n.role === 'follower');
    if (leader) {
      add('vcpu_utilization_leader', round(leader.cpu_utilization * 100, 1), '%', 'exact', `share of the cores the node could use, at ${shown.target_ops_per_s} ops/s`);
      if (leader.gc) {
        add('gc_runtime_share', round(leader.gc.active_share * 100, 1), '%', 'exact', 'leader: share of the measured window with a collection running');
        add('gc_pause_max', round(leader.gc.pause_max_ms), 'ms', 'exact', 'leader: longest stop-the-world pause in the measured window');
      }
    }
    if (followers.length) {
      add('vcpu_utilization_follower', round((followers.reduce((a, n) => a + n.cpu_utilization, 0) / followers.length) * 100, 1), '%', 'exact', 'mean over followers');
    }
    const peak = Math.max(...r.nodes.map((n) => n.rss_peak_bytes ?? 0));
    if (peak > 0) add('resident_memory_peak', round(peak / 2 ** 30, 4), 'GiB', 'exact', 'largest RSS of any node in the measured window');
  }
  add('slo_p99_latency', r.slo_ms, 'ms', 'exact', r.slo_derived
    ? `derived as in §5.1: 10 × the mean intended latency at ${o.min_rate} ops/s (${round(r.slo_derived.mean_ms, 2)} ms) on the first setting of the run`
    : 'as given');
  add('saturation_throughput', round(r.saturation_ops_per_s / 1000), 'Kops/s', 'exact', 'closed loop, 64 threads, no target: the top of the search');
  add('leader_changes', Math.max(0, r.leader_changes.length - 1), 'events', 'approx', 'polled once a second over the whole setting');
  add('records_loaded', round(s.records / 1e6, 6), 'million entries');
  return rows;
}

/** The details of one setting as JSON Lines: a summary, then one line per probe and per node. */
export function detailsLines(r: SettingResult): string {
  const lines: object[] = [];
  const { probes, nodes, ...summary } = r;
  lines.push({ type: 'setting', ...summary });
  for (const p of probes) {
    const { usage, intended, uncorrected, hdr_dir: _hdr, ...rest } = p;
    lines.push({
      type: 'probe',
      ...rest,
      intended: { ...intended, hdr_base64: undefined },
      uncorrected: { ...uncorrected, hdr_base64: undefined },
      usage: usage ? { cores: usage.cores, memory_peak_bytes: usage.memory_peak_bytes, rss_peak_bytes: usage.rss_peak_bytes, machine_cores_busy: usage.machine_cores_busy, other_cores_busy: usage.other_cores_busy } : null,
    });
  }
  for (const n of nodes) lines.push({ type: 'node', ...n });
  return lines.map((l) => JSON.stringify(l, (_k, v) => (v === Infinity ? null : v))).join('\n') + '\n';
}

export function resultsFile(meta: ResultsFile['metadata'], rows: ResultRow[]): ResultsFile {
  return { schema_version: '1.0.0', metadata: meta, rows };
}

export type { Setting };
