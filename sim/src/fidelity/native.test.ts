import { describe, expect, it } from 'vitest';
import { comparable, nativeFigure, nativeSaturationSpec, nativeSearchSpec, nativeSettings, relativeError, type NativeRow } from './native.ts';

const note = (dur: string) => `scaled run: ${dur}; 5000 records; 1024 MiB/node via GOMEMLIMIT`;
function rows(id: string, language: string, dur: string, slo: number, sat: number, qualifier = 'exact', spread?: { min: number; max: number }): NativeRow[] {
  const base = { language, workload: 'A', memory_gib: 1, memory_data_ratio: null, vcpus: 8, note: note(dur) };
  return [
    { ...base, id: `${id}-measurement-status`, metric: 'measurement_status', value: 'clean', note: '1 of 1 repetition(s) clean' },
    { ...base, id: `${id}-slo-p99-latency`, metric: 'slo_p99_latency', value: 50 },
    { ...base, id: `${id}-max-throughput-slo`, metric: 'max_throughput_slo', value: slo, qualifier, ...(spread ? { spread } : {}) },
    { ...base, id: `${id}-saturation-throughput`, metric: 'saturation_throughput', value: sat },
  ];
}

describe('native settings for the simulator', () => {
  it('keeps Replicant engines in durability none, one setting over several files, and says why the rest is left out', () => {
    const { settings, skipped } = nativeSettings([
      { source: 'rep1.json', rows: [...rows('go-a-1gib-8vcpu', 'Go', 'durability none', 3.8, 11.5, 'exact', { min: 3.2, max: 3.9 }), ...rows('go-a-log-fsync-always-1gib-8vcpu', 'Go', 'durability log (write-ahead log, fsync always)', 0.2, 0.5), ...rows('etcd-a-1gib-8vcpu', 'etcd', "etcd's own WAL", 0.2, 0.3)] },
      { source: 'rep2.json', rows: rows('go-a-1gib-8vcpu', 'Go', 'durability none', 3.0, 9.0) },
    ]);
    expect(settings.map((s) => s.key)).toEqual(['go-a-5000rec-1gib-8vcpu-slo50']);
    const s = settings[0]!;
    expect(s.sources).toEqual(['rep1.json', 'rep2.json']);
    expect(s.statuses).toEqual(['clean', 'clean']);
    expect(nativeFigure(s, 'max_throughput_slo')).toMatchObject({ median: 3.4, min: 3.0, max: 3.9, n: 2 });
    expect(skipped.map((k) => k.why)).toEqual([expect.stringMatching(/durability log/), expect.stringMatching(/four Replicant engines/)]);
  });

  it('asks the simulator for the same engine, workload, records, memory, vCPUs and SLO; saturation closed-loop', () => {
    const { settings } = nativeSettings([{ source: 'x', rows: rows('cpp-a-1gib-8vcpu', 'C++', 'durability none', 2.7, 7.5) }]);
    const search = nativeSearchSpec(settings[0]!);
    expect(search.slo_p99_ms).toBe(50);
    expect(search.base.cluster.engines).toEqual(['cpp', 'cpp', 'cpp']);
    expect(search.base.resources).toEqual({ vcpus: 8, memory_gib: 1 });
    expect(search.base.workload).toMatchObject({ name: 'A', record_count: 5000, read_proportion: 0.5 });
    const sat = nativeSaturationSpec(settings[0]!);
    expect(sat.load).toMatchObject({ mode: 'closed', client_threads: 64 });
  });

  it('scores only values measured as numbers: no error against a bound', () => {
    expect(relativeError(1.25, 1)).toBeCloseTo(0.25);
    expect(relativeError(null, 1)).toBeNull();
    expect(relativeError(1, 0)).toBeNull();
    expect(comparable({ qualifiers: ['exact', 'approx'] })).toBe(true);
    expect(comparable({ qualifiers: ['exact', 'upper_bound'] })).toBe(false);
    expect(comparable({ qualifiers: ['lower_bound'] })).toBe(false);
    expect(comparable(null)).toBe(false);
  });
});
