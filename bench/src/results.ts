// Turns measured settings into a results file of the shared schema (data/schema/
// results.schema.json, source_kind native) and a JSON Lines file of details (probes, per-node
// timelines, GC events) that the rows point to. Pure: results in, objects out.
import type { BenchOptions, Setting } from './plan.ts';
import type { SettingResult } from './measure.ts';
import { languageOfSystem } from './systems.ts';
import { describeInterference } from './interference.ts';
import type { ResultRow, ResultsFile } from '@replicant/data/results';

export type { ResultRow, ResultsFile };

const round = (x: number, digits = 3) => Number(x.toFixed(digits));

function settingNote(r: SettingResult, o: BenchOptions): string {
  const s = r.setting;
  const footprint = s.baseline_bytes ? ` (= ratio × data + ${round(s.baseline_bytes / 2 ** 20, 0)} MiB measured fixed footprint${o.hosts ? ', measured on the controller' : ''})` : '';
  const mem = `${round(s.memory_bytes / 2 ** 20, 1)} MiB/node${footprint} via ${r.memory_how}`;
  const ratio = s.ratio !== null ? `memory:data ratio ${s.ratio} over ${s.records} records (${round(s.raw_data_bytes / 2 ** 20, 1)} MiB raw)` : `${s.records} records`;
  const dur = s.system === 'etcd' ? "etcd's own WAL" : s.durability === 'log' ? `durability log (write-ahead log, fsync ${s.fsync})` : 'durability none';
  const cpu = s.cpu_quota_cores === null ? `nodes share cpuset ${o.node_cpus} without quota` : `nodes on cpuset ${o.node_cpus}, quota ${s.cpu_quota_cores} core each`;
  if (o.hosts) {
    const quota = s.cpu_quota_cores === null ? 'no CPU quota' : `CPU quota ${s.cpu_quota_cores} cores per node`;
    const gcHosts = o.mitigation === 'none' ? '' : `; GC mitigation ${o.mitigation} (server --mitigation ${o.mitigation})`;
    return `hosts run (Ansible inventory ${o.hosts}): 3 server hosts, YCSB on the client host; ${dur}; ${ratio}; ${mem}; ${s.vcpus} vCPUs = ${quota}; other tenants on the hosts not measured; SLO intended p99 <= ${r.slo_ms} ms${gcHosts}`;
  }
  const gc = o.mitigation === 'none' ? '' : `; GC mitigation ${o.mitigation} (server --mitigation ${o.mitigation})`;
  const shares = o.cpu_shares > 1024
    ? `cpu.shares ${o.cpu_shares} on the benchmark's groups (others 1024 each), disturbance judged by its run-queue wait > ${o.disturbed_wait_us} µs per slice`
    : `cpu.shares ${o.cpu_shares} (competing as an equal), disturbance judged by others' cores > ${o.disturbed_cores}`;
  return `scaled run: ${dur}; ${ratio}; ${mem}; ${s.vcpus} paper vCPUs = ${cpu}; YCSB on cpuset ${o.loadgen_cpus}; ${shares}; SLO intended p99 <= ${r.slo_ms} ms${gc}`;
}

/**
 * clean: every probe that decided the result was undisturbed (or met the SLO anyway);
 * bounded: a disturbed miss stopped the search above a clean rate (a lower bound);
 * disturbed: no rate could be decided — other tenants, not the system, failed the probes;
 * failed: the setting produced no probe to judge (the cluster did not start…), or no probe
 * completed a single operation after a node exited (an OOM kill, a process gone) or the load
 * failed to insert every record: that is no latency missed at 100 ops/s but a system that did
 * not run (issue 16: Rust at ratio 2 locally; Java, C++ and Rust at ratio 2 on hosts).
 */
export type SettingStatus = 'clean' | 'bounded' | 'disturbed' | 'failed';

export function settingStatus(r: SettingResult): SettingStatus {
  if (r.stopped_by && r.best) return 'bounded';
  if (!r.best && (r.stopped_by || r.floor?.disturbed)) return 'disturbed';
  if (!r.best && !r.floor) return 'failed';
  if (!r.best && (nodeExited(r) || !r.load.ok) && r.probes.every((p) => p.intended.count === 0)) return 'failed';
  return 'clean';
}

/** A node of the setting exited: the cluster was restarted for it, a node was OOM-killed, or
 * (on hosts, where nothing restarts a node) a node was gone when the cluster was stopped. */
function nodeExited(r: SettingResult): boolean {
  return r.restarts > 0 || r.nodes.some((n) => n.oom_kills > 0 || n.exited === true);
}

/** Why a failed setting failed, with its evidence: the errors, and the OOM kills per node. */
function failureEvidence(r: SettingResult): string {
  const kills = r.nodes.some((n) => n.oom_kills > 0) ? `; OOM kills per node at the end: ${r.nodes.map((n) => n.oom_kills).join('/')}` : '';
  const gone = r.nodes.filter((n) => n.exited === true).map((n) => n.id);
  const exited = gone.length ? `; node(s) ${gone.join(', ')} had exited before the cluster was stopped` : '';
  const probes = r.probes.length ? `; ${r.probes.length} probe(s), none completed an operation` : '';
  return `${r.errors.join(' | ').slice(0, 500) || 'no probe completed'}${kills}${exited}${probes}`;
}

function evidence(p: SettingResult['probes'][number]): string {
  const what = p.interference ? describeInterference(p.interference) : 'no interference measurement';
  const tries = p.discarded.length ? `; ${p.discarded.length} earlier run(s) discarded as disturbed too` : '';
  return `probe at ${p.target_ops_per_s} ops/s missed (intended p99 ${p.p99_ms === null ? 'unbounded' : `${round(p.p99_ms, 1)} ms`}) while ${what}${tries}`;
}

/** Rows of one measured setting. */
/** The bracket a clean search left wider than the tolerance when it ran out of probes: the best
 * met rate is then only a lower bound (2026-11-27-ratio8-tail's 3-probe searches stopped at
 * 1.5 Kops/s met under 23 Kops/s missed and read "exact"). Null when the bracket closed. */
export function openBracket(r: SettingResult, o: Pick<BenchOptions, 'tolerance' | 'max_probes'>): { missed_ops_per_s: number; gap: number } | null {
  if (!r.best || r.search.ceiling_reached || r.search.stopped_by) return null;
  const best = r.best.target_ops_per_s;
  const missed = r.probes.filter((p) => p.kind === 'search' && !p.met && !p.disturbed && p.target_ops_per_s > best).map((p) => p.target_ops_per_s);
  if (!missed.length) return null;
  const hi = Math.min(...missed);
  const gap = (hi - best) / hi; // the search's own measure (bench/src/bisect.ts)
  return gap > o.tolerance ? { missed_ops_per_s: hi, gap } : null;
}

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
  const add = (metric: string, value: number | string, unit: string, qualifier: ResultRow['qualifier'] = 'exact', extra = '') =>
    rows.push({ id: `${s.id}-${metric.replace(/_/g, '-')}`, ...base, metric, value, unit, qualifier, note: extra ? `${note}; ${extra}` : note });

  const status = settingStatus(r);
  const decider = r.stopped_by ?? r.floor;
  add('measurement_status', status, 'text', 'exact',
    status === 'clean' ? 'no disturbed probe decided this setting'
      : status === 'failed' ? `no rate could be decided: the setting failed: ${failureEvidence(r)}`
        : `${status === 'bounded' ? 'search stopped early' : 'no rate could be decided'}: ${evidence(decider!)}`);
  const shownProbe = r.best ?? r.floor;
  if (shownProbe?.interference) {
    add('other_processes_cpu', shownProbe.interference.other_cores, 'vCPU', 'exact', `cores used by processes outside the benchmark during the probe reported: ${describeInterference(shownProbe.interference)}`);
  }
  if (status === 'disturbed' || status === 'failed') {
    // No max_throughput_slo: "< 0.1" would say the system ran and missed the SLO, when other
    // tenants failed the probes (disturbed) or the system did not run at all (failed).
  } else if (r.best) {
    const open = openBracket(r, o);
    add('max_throughput_slo', round(r.best.target_ops_per_s / 1000), 'Kops/s', r.search.ceiling_reached || status === 'bounded' || open ? 'lower_bound' : 'exact',
      r.search.ceiling_reached ? 'the highest rate tried met the SLO' : status === 'bounded' ? `the search stopped at a disturbed probe of ${r.stopped_by!.target_ops_per_s} ops/s`
        : open ? `the search ran out of probes (--max-probes ${o.max_probes}) between ${r.best.target_ops_per_s} ops/s met and ${open.missed_ops_per_s} ops/s missed, a bracket of ${round(open.gap * 100, 1)} % (tolerance ${o.tolerance * 100} %)`
          : `bisection tolerance ${o.tolerance * 100} %`);
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
  const sat = r.probes.find((p) => p.kind === 'saturation');
  add('saturation_throughput', round(r.saturation_ops_per_s / 1000), 'Kops/s', sat?.disturbed ? 'lower_bound' : 'exact',
    `closed loop, ${o.threads} threads, no target: the top of the search${sat?.disturbed && sat.interference ? `; disturbed (${describeInterference(sat.interference)}), so a lower bound` : ''}`);
  add('leader_changes', Math.max(0, r.leader_changes.length - 1), 'events', 'approx', 'polled once a second over the whole setting');
  add('records_loaded', round(s.records / 1e6, 6), 'million entries');
  return rows;
}

const median = (sorted: number[]) => {
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
};

/** The setting a per-repetition row id belongs to, without its repetition. */
export function withoutRepetition(id: string): string {
  return id.replace(/-rep\d+(?=-)/, '');
}

/**
 * One row per setting and metric from the rows of its repetitions: the median as the value,
 * min–max as the spread, the count as repetitions, and each repetition's value in the note. A
 * metric a repetition did not produce (a disturbed setting has no max_throughput_slo) is simply
 * absent from that repetition, so the count says how many values the median is of.
 */
export function combineRepetitions(rows: ResultRow[]): ResultRow[] {
  const groups = new Map<string, ResultRow[]>();
  for (const r of rows) {
    const id = withoutRepetition(r.id);
    groups.set(id, [...(groups.get(id) ?? []), r]);
  }
  const out: ResultRow[] = [];
  for (const [id, group] of groups) {
    const first = group[0]!;
    const { stddev: _s, spread: _sp, repetitions: _r, ...base } = first;
    const mark = (r: ResultRow) => (r.qualifier === 'upper_bound' ? '< ' : r.qualifier === 'lower_bound' ? '≥ ' : '');
    const reps = group.map((r) => `${mark(r)}${r.value} (${/-rep(\d+)-/.exec(r.id)?.[1] ? `rep ${/-rep(\d+)-/.exec(r.id)![1]}` : 'rep ?'})`).join(', ');
    const qualifiers = new Set(group.map((r) => r.qualifier));
    const qualifier = qualifiers.size === 1 ? first.qualifier : 'approx';
    if (typeof first.value === 'number') {
      const values = group.map((r) => r.value as number).sort((a, b) => a - b);
      out.push({
        ...base,
        id,
        value: round(median(values), 4),
        qualifier,
        repetitions: group.length,
        ...(group.length > 1 ? { spread: { min: values[0]!, max: values[values.length - 1]! } } : {}),
        note: group.length > 1 ? `${first.note}; median of ${group.length} repetitions: ${reps}` : first.note,
      });
    } else {
      // Text (measurement_status): disturbed only when every repetition was.
      const values = group.map((r) => String(r.value));
      const value = values.includes('clean') ? 'clean' : values.includes('bounded') ? 'bounded' : values.includes('disturbed') ? 'disturbed' : 'failed';
      const why = (r: ResultRow) => /; ((?:no rate could be decided|search stopped early).*)$/.exec(r.note ?? '')?.[1] ?? '';
      const notes = group.map((r) => `rep ${/-rep(\d+)-/.exec(r.id)?.[1] ?? '?'}: ${r.value}${r.value === 'clean' ? '' : ` — ${why(r)}`}`);
      out.push({ ...base, id, value, qualifier, repetitions: group.length, note: `${values.filter((v) => v === 'clean').length} of ${group.length} repetition(s) clean; ${notes.join(' | ')}` });
    }
  }
  return out;
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
