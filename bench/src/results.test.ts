import { describe, expect, it } from 'vitest';
import type { SettingResult, ProbeDetail, NodeReport } from './measure.ts';
import { resolveOptions, buildPlan } from './plan.ts';
import { detailsLines, resultsFile, settingRows } from './results.ts';
import { validateResults } from './validate.ts';

const o = resolveOptions({ preset: 'smoke', engine: 'go' });
const setting = { ...buildPlan(o)[0]!, baseline_bytes: 70 * 2 ** 20 };
setting.memory_bytes += setting.baseline_bytes;

function probe(target: number, p99_ms: number | null, met: boolean): ProbeDetail {
  const lat = { count: 1000, failed: 0, mean_us: 900, max_us: 30_000, p50_us: 800, p99_us: (p99_ms ?? Infinity) * 1000, p999_us: 25_000, spectrum: [[99, 5000]] as [number, number][], hdr_base64: 'HISTFAAA' };
  return {
    kind: 'search', background_cores: 0.2, quiet_waited_s: 0, target_ops_per_s: target, p99_ms, achieved_ops_per_s: target, met, started_at_s: 1000, window_s: 5,
    intended: lat, uncorrected: { ...lat, p99_us: 4000 }, read_p99_intended_us: 5000, update_p99_intended_us: 6000,
    usage: { cores: [0.5, 0.2, 0.2, 0.3], timeline: [], memory_peak_bytes: [1, 1, 1, 1], rss_peak_bytes: [150e6, 90e6, 90e6], machine_cores_busy: 1.5, other_cores_busy: 0.3 },
    leader: 0, binding: { redirects: 64, retries: 0, reconnects: 128 }, ycsb_exit: 0, hdr_dir: '/tmp/x',
  };
}

function node(id: number, role: NodeReport['role'], util: number): NodeReport {
  return {
    id, role, cpu_cores: util, cpu_utilization: util, cpu_timeline: [[1, util]], memory_peak_bytes: 1, rss_peak_bytes: 150e6, oom_kills: 0,
    gc: { count: 3, pause_total_ms: 1, pause_max_ms: 0.5, cpu_ms: 10, active_share: 0.2, active_share_max_bucket: 0.3 },
    gc_events: [{ t_s: 1, kind: 'go-cycle', pause_ms: 0.5, duration_ms: 3, cpu_ms: 3 }],
  };
}

function result(best: ProbeDetail | null, floor: ProbeDetail | null, ceiling = false): SettingResult {
  return {
    setting, started_at: '2026-11-22T00:00:00Z', memory_how: 'GOMEMLIMIT', load: { seconds: 3, ops_per_s: 7000, ok: true }, saturation_ops_per_s: 3100,
    search: { best, ceiling_reached: ceiling }, best, floor, probes: [best ?? floor!], nodes: [node(0, 'leader', 0.5), node(1, 'follower', 0.2), node(2, 'follower', 0.2)],
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
  });
});
