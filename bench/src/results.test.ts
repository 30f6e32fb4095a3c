import { describe, expect, it } from 'vitest';
import type { SettingResult, ProbeDetail, NodeReport } from './measure.ts';
import { resolveOptions, buildPlan, withFootprint } from './plan.ts';
import { combineRepetitions, detailsLines, resultsFile, settingRows, settingStatus, withoutRepetition } from './results.ts';
import type { Interference } from './interference.ts';
import { validateResults } from './validate.ts';

const o = resolveOptions({ preset: 'smoke', engine: 'go' });
const setting = withFootprint(buildPlan(o)[0]!, 70 * 2 ** 20);

const quietWindow: Interference = { window_s: 5, other_cores: 0.05, steal_share: 0, load_1m: 1.5, runnable: 3, top_others: [] };
const busyWindow: Interference = { window_s: 5, other_cores: 1.4, steal_share: 0.01, load_1m: 14.2, runnable: 12, top_others: [{ comm: 'cc1plus', processes: 1, cores: 0.9 }] };

function probe(target: number, p99_ms: number | null, met: boolean, disturbed = false): ProbeDetail {
  const lat = { count: 1000, failed: 0, mean_us: 900, max_us: 30_000, p50_us: 800, p99_us: (p99_ms ?? Infinity) * 1000, p999_us: 25_000, spectrum: [[99, 5000]] as [number, number][], hdr_base64: 'HISTFAAA' };
  return {
    kind: 'search', background_cores: 0.2, quiet_waited_s: 0, target_ops_per_s: target, p99_ms, achieved_ops_per_s: target, met, started_at_s: 1000, window_s: 5,
    intended: lat, uncorrected: { ...lat, p99_us: 4000 }, read_p99_intended_us: 5000, update_p99_intended_us: 6000,
    usage: { cores: [0.5, 0.2, 0.2, 0.3], timeline: [], memory_peak_bytes: [1, 1, 1, 1], rss_peak_bytes: [150e6, 90e6, 90e6], machine_cores_busy: 1.5, other_cores_busy: 0.3 },
    leader: 0, binding: { redirects: 64, retries: 0, reconnects: 128 }, ycsb_exit: 0, ycsb_overall_ops_per_s: target, hdr_dir: '/tmp/x',
    disturbed, interference_before: quietWindow, interference: disturbed ? busyWindow : quietWindow, disturbed_reasons: disturbed ? ['other processes used 1.40 cores'] : [],
    discarded: disturbed ? [{ p99_ms: 300, achieved_ops_per_s: target, met: false, interference: busyWindow, reasons: ['other processes used 1.40 cores'] }] : [],
  };
}

function node(id: number, role: NodeReport['role'], util: number): NodeReport {
  return {
    id, role, cpu_cores: util, cpu_utilization: util, cpu_timeline: [[1, util]], memory_peak_bytes: 1, rss_peak_bytes: 150e6, oom_kills: 0,
    gc: { count: 3, pause_total_ms: 1, pause_max_ms: 0.5, cpu_ms: 10, active_share: 0.2, active_share_max_bucket: 0.3 },
    gc_events: [{ t_s: 1, kind: 'go-cycle', pause_ms: 0.5, duration_ms: 3, cpu_ms: 3 }],
  };
}

function result(best: ProbeDetail | null, floor: ProbeDetail | null, ceiling = false, stopped_by: ProbeDetail | null = null, rep = 1): SettingResult {
  return {
    setting: { ...setting, id: setting.id.replace(/rep\d+$/, `rep${rep}`), repetition: rep }, started_at: '2026-11-22T00:00:00Z', memory_how: 'GOMEMLIMIT', load: { seconds: 3, ops_per_s: 7000, ok: true }, saturation_ops_per_s: 3100,
    search: { best, ceiling_reached: ceiling, stopped_by }, best, floor, stopped_by, probes: [best ?? floor ?? stopped_by!], nodes: [node(0, 'leader', 0.5), node(1, 'follower', 0.2), node(2, 'follower', 0.2)],
    loadgen_cores: 0.3, leader_changes: [{ t_s: 1, leader: 0 }], restarts: 0, slo_ms: 20, errors: [],
  };
}

const meta = {
  source_kind: 'native' as const, title: 't', description: 'd',
  machine: { description: 'm', cpu_model: 'c', vcpus: 2, memory_gib: 24, os: 'Debian' },
  date: '2026-11-22', git_commit: 'abcdef1', engines: { go: 'go1.26' }, command: 'npm run bench -- --preset smoke',
};

describe('settingRows', () => {
  it('makes a results file the data workspace accepts', () => {
    const rows = settingRows(result(probe(2500, 12.5, true), null), o, 'bench/runs/x/details/go.jsonl');
    const file = resultsFile(meta, rows);
    expect(validateResults(file)).toEqual([]);
    const max = rows.find((r) => r.metric === 'max_throughput_slo')!;
    expect(max).toMatchObject({ value: 2.5, unit: 'Kops/s', qualifier: 'exact', language: 'Go', workload: 'A', vcpus: 8, clients: 64, memory_data_ratio: 8 });
    expect(max.note).toContain('ratio × data + 70 MiB measured fixed footprint');
    expect(rows.find((r) => r.metric === 'vcpu_utilization_leader')!.value).toBe(50);
    expect(rows.find((r) => r.metric === 'vcpu_utilization_follower')!.value).toBe(20);
    expect(rows.find((r) => r.metric === 'p99_latency_service_time')!.value).toBe(4);
    expect(rows.find((r) => r.metric === 'gc_runtime_share')!.value).toBe(20);
  });

  it('records "not even the minimum rate" as an upper bound, as data/ does for the paper', () => {
    const rows = settingRows(result(null, probe(100, 154, false)), o, 'x.jsonl');
    const max = rows.find((r) => r.metric === 'max_throughput_slo')!;
    expect(max).toMatchObject({ value: 0.1, qualifier: 'upper_bound' });
    expect(max.note).toContain('intended p99 154 ms');
    expect(validateResults(resultsFile(meta, rows))).toEqual([]);
  });

  it('says "disturbed" with the evidence, and no "< 0.1", when the minimum missed under interference', () => {
    const floor = probe(100, 480, false, true);
    const r = result(null, floor, false, floor);
    expect(settingStatus(r)).toBe('disturbed');
    const rows = settingRows(r, o, 'x.jsonl');
    expect(rows.find((x) => x.metric === 'max_throughput_slo')).toBeUndefined();
    const status = rows.find((x) => x.metric === 'measurement_status')!;
    expect(status).toMatchObject({ value: 'disturbed', unit: 'text' });
    expect(status.note).toContain('probe at 100 ops/s missed (intended p99 480 ms) while other processes 1.40 cores (cc1plus 0.90), steal 1.0 %, load average 14.20');
    expect(status.note).toContain('1 earlier run(s) discarded');
    expect(rows.find((x) => x.metric === 'other_processes_cpu')!.value).toBe(1.4);
    expect(validateResults(resultsFile(meta, rows))).toEqual([]);
  });

  it('keeps a clean miss at the minimum as the system\'s own "< 0.1"', () => {
    const r = result(null, probe(100, 154, false));
    expect(settingStatus(r)).toBe('clean');
  });

  it('says "failed" with the errors when a setting produced no probe at all', () => {
    const r = { ...result(null, null), probes: [], errors: ['ansible-playbook start.yml exited with 2'] };
    expect(settingStatus(r)).toBe('failed');
    const status = settingRows(r, o, 'x.jsonl').find((x) => x.metric === 'measurement_status')!;
    expect(status.note).toContain('the setting failed: ansible-playbook start.yml exited with 2');
  });

  // Issue 16, on hosts at ratio 2 (data/native/2026-11-27-hosts): every probe ran and none
  // completed an operation. Those rows read "clean, < 0.1".
  const nothingCompleted = (): ProbeDetail => {
    const p = probe(100, null, false);
    return { ...p, intended: { ...p.intended, count: 0 }, achieved_ops_per_s: 6 };
  };

  it('says "failed" when the load failed and no probe completed an operation (Java out of heap, no node gone)', () => {
    const floor = nothingCompleted();
    const r = { ...result(null, floor), load: { seconds: 65, ops_per_s: 0, ok: false }, errors: ['load phase did not insert every record'] };
    expect(settingStatus(r)).toBe('failed');
    const rows = settingRows(r, o, 'x.jsonl');
    expect(rows.find((x) => x.metric === 'max_throughput_slo')).toBeUndefined();
    expect(rows.find((x) => x.metric === 'measurement_status')!.note).toContain('the setting failed: load phase did not insert every record');
  });

  it('says "failed" when a node on a host had exited and no probe completed an operation', () => {
    const floor = nothingCompleted();
    const base = result(null, floor);
    const r = { ...base, nodes: base.nodes.map((n) => (n.id === 2 ? { ...n, exited: true } : n)) };
    expect(settingStatus(r)).toBe('failed');
    expect(settingRows(r, o, 'x.jsonl').find((x) => x.metric === 'measurement_status')!.note).toContain('node(s) 2 had exited before the cluster was stopped');
  });

  it('keeps "clean" when the load failed but a probe completed operations (the system ran and missed)', () => {
    const r = { ...result(null, probe(100, 154, false)), load: { seconds: 65, ops_per_s: 300, ok: false } };
    expect(settingStatus(r)).toBe('clean');
  });

  it('makes a rate below a disturbed miss a lower bound', () => {
    const r = result(probe(800, 12, true), null, false, probe(1600, 300, false, true));
    expect(settingStatus(r)).toBe('bounded');
    const max = settingRows(r, o, 'x.jsonl').find((x) => x.metric === 'max_throughput_slo')!;
    expect(max).toMatchObject({ value: 0.8, qualifier: 'lower_bound' });
    expect(max.note).toContain('disturbed probe of 1600 ops/s');
  });

  it('makes the best rate of a search that ran out of probes with its bracket open a lower bound', () => {
    // 2026-11-27-ratio8-tail, go-b-r8 rep 1: 25,054 missed, 100 and 1,583 met, then --max-probes 3
    const best = probe(1583, 42, true);
    const open = { ...result(best, null), probes: [probe(25054, 1842, false), probe(100, 32, true), best] };
    const max = settingRows(open, { ...o, tolerance: 0.1, max_probes: 3 }, 'x.jsonl').find((x) => x.metric === 'max_throughput_slo')!;
    expect(max).toMatchObject({ value: 1.583, qualifier: 'lower_bound' });
    expect(max.note).toContain('ran out of probes (--max-probes 3) between 1583 ops/s met and 25054 ops/s missed, a bracket of 93.7 %');
    // a bracket within the tolerance is the search's answer; a disturbed miss above is no edge
    const closed = { ...open, probes: [probe(1700, 80, false), probe(100, 32, true), best] };
    expect(settingRows(closed, { ...o, tolerance: 0.1 }, 'x.jsonl').find((x) => x.metric === 'max_throughput_slo')!.qualifier).toBe('exact');
    const noisy = { ...open, probes: [probe(1700, 80, false), probe(25054, 1842, false, true), best] };
    expect(settingRows(noisy, { ...o, tolerance: 0.1 }, 'x.jsonl').find((x) => x.metric === 'max_throughput_slo')!.qualifier).toBe('exact');
  });

  it('records a ceiling as a lower bound', () => {
    const rows = settingRows(result(probe(9000, 3, true), null, true), o, 'x.jsonl');
    expect(rows.find((r) => r.metric === 'max_throughput_slo')!.qualifier).toBe('lower_bound');
  });

  it('is caught by the validator when a row is broken', () => {
    const rows = settingRows(result(probe(2500, 12.5, true), null), o, 'x.jsonl');
    const bad = resultsFile(meta, [...rows, { ...rows[0]!, unit: 'furlongs' }]);
    expect(validateResults(bad).join('\n')).toMatch(/unit/);
    expect(validateResults(resultsFile(meta, [rows[0]!, rows[0]!]))).toEqual([`duplicate row id ${rows[0]!.id}`]);
  });
});

describe('combineRepetitions', () => {
  it('gives one row per setting and metric: the median, min–max and the count, each repetition in the note', () => {
    const rows = [
      ...settingRows(result(probe(2500, 12.5, true), null, false, null, 1), o, 'x.jsonl'),
      ...settingRows(result(probe(1800, 14, true), null, false, null, 2), o, 'x.jsonl'),
      ...settingRows(result(probe(3100, 11, true), null, false, null, 3), o, 'x.jsonl'),
    ];
    const combined = combineRepetitions(rows);
    expect(combined.length).toBe(rows.length / 3);
    const max = combined.find((r) => r.metric === 'max_throughput_slo')!;
    expect(max).toMatchObject({ id: 'go-a-r8-8vcpu-max-throughput-slo', value: 2.5, repetitions: 3, spread: { min: 1.8, max: 3.1 }, qualifier: 'exact' });
    expect(max.note).toContain('median of 3 repetitions: 2.5 (rep 1), 1.8 (rep 2), 3.1 (rep 3)');
    expect(validateResults(resultsFile(meta, combined))).toEqual([]);
  });

  it('leaves a disturbed repetition out of the median and says how many were clean', () => {
    const floor = probe(100, 480, false, true);
    const rows = [
      ...settingRows(result(probe(2000, 12.5, true), null, false, null, 1), o, 'x.jsonl'),
      ...settingRows(result(null, floor, false, floor, 2), o, 'x.jsonl'),
      ...settingRows(result(probe(3000, 11, true), null, false, null, 3), o, 'x.jsonl'),
    ];
    const combined = combineRepetitions(rows);
    expect(combined.find((r) => r.metric === 'max_throughput_slo')).toMatchObject({ value: 2.5, repetitions: 2, spread: { min: 2, max: 3 } });
    const status = combined.find((r) => r.metric === 'measurement_status')!;
    expect(status.value).toBe('clean');
    expect(status.note).toMatch(/^2 of 3 repetition\(s\) clean; rep 1: clean \| rep 2: disturbed — no rate could be decided: probe at 100 ops\/s/);
    expect(validateResults(resultsFile(meta, combined))).toEqual([]);
  });

  it('is "disturbed" only when every repetition was, and marks mixed bounds as approximate', () => {
    const floor = probe(100, 480, false, true);
    const combined = combineRepetitions([
      ...settingRows(result(null, floor, false, floor, 1), o, 'x.jsonl'),
      ...settingRows(result(null, floor, false, floor, 2), o, 'x.jsonl'),
    ]);
    expect(combined.find((r) => r.metric === 'measurement_status')!.value).toBe('disturbed');
    const mixed = combineRepetitions([
      ...settingRows(result(probe(9000, 3, true), null, true, null, 1), o, 'x.jsonl'),
      ...settingRows(result(probe(7000, 3, true), null, false, null, 2), o, 'x.jsonl'),
    ]);
    expect(mixed.find((r) => r.metric === 'max_throughput_slo')).toMatchObject({ value: 8, qualifier: 'approx' });
  });

  it('strips only the repetition from an id', () => {
    expect(withoutRepetition('go-a-r1p25-8vcpu-rep12-max-throughput-slo')).toBe('go-a-r1p25-8vcpu-max-throughput-slo');
  });
});

describe('detailsLines', () => {
  it('writes one JSON line for the setting, each probe and each node, with no Infinity', () => {
    const text = detailsLines(result(null, probe(100, null, false)));
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['setting', 'probe', 'node', 'node', 'node']);
    expect(lines[1].intended.p99_us).toBeNull();
    expect(lines[1].hdr_dir).toBeUndefined();
  });
});

describe('summarize', () => {
  it('makes one table row per setting, marking bounds', async () => {
    const { summarize } = await import('./summary.ts');
    const rows = settingRows(result(null, probe(100, 154, false)), o, 'x.jsonl');
    const text = summarize(resultsFile(meta, rows));
    const tableRows = text.split('\n').filter((l) => l.startsWith('| go-'));
    expect(tableRows).toHaveLength(1);
    expect(tableRows[0]).toContain('| < 0.1 |');
    expect(tableRows[0]).toContain('| 154 |');
    expect(tableRows[0]).toContain('| clean |');
  });

  it('shows the spread over repetitions and the evidence of a disturbed setting', async () => {
    const { summarize } = await import('./summary.ts');
    const floor = probe(100, 480, false, true);
    const rows = combineRepetitions([
      ...settingRows(result(probe(2000, 12.5, true), null, false, null, 1), o, 'x.jsonl'),
      ...settingRows(result(probe(3000, 11, true), null, false, null, 2), o, 'x.jsonl'),
      ...settingRows(result(probe(2600, 11, true), null, false, null, 3), o, 'x.jsonl'),
    ]);
    const disturbed = combineRepetitions(settingRows({ ...result(null, floor, false, floor, 1), setting: { ...setting, id: 'java-a-r8-8vcpu-rep1', system: 'java' } }, o, 'x.jsonl'));
    const text = summarize(resultsFile(meta, [...rows, ...disturbed]));
    const go = text.split('\n').find((l) => l.startsWith('| go-'))!;
    expect(go).toContain('| clean (3/3) |');
    expect(go).toContain('| 2.6 [2–3] |');
    const java = text.split('\n').find((l) => l.startsWith('| java-'))!;
    expect(java).toContain('| disturbed (0/1) |');
    expect(java).not.toContain('< 0.1');
    expect(text).toContain('- java-a-r8-8vcpu: 0 of 1 repetition(s) clean; rep 1: disturbed — no rate could be decided: probe at 100 ops/s');
  });
});
