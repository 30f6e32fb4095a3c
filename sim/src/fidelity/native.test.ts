import { describe, expect, it } from 'vitest';
import type { ModelCard } from '../api.ts';
import { DEFAULT_CARD } from '../models/card.ts';
import { comparable, limitOfNote, scoredQualifier, nativeFigure, nativeKnobs, nativeSaturationSpec, nativeSearchSpec, nativeSettings, relativeError, type NativeRow } from './native.ts';

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

  it('never merges the same setting across groups: a quiet run stays beside a loaded one', () => {
    const { settings } = nativeSettings([
      { source: 'loaded.json', group: 'loaded', rows: rows('cpp-a-1gib-8vcpu', 'C++', 'durability none', 6.8, 9.4) },
      { source: 'quiet.json', group: 'quiet', rows: rows('cpp-a-1gib-8vcpu', 'C++', 'durability none', 16.6, 16.6) },
    ]);
    expect(settings.map((s) => [s.key, s.group, s.sources])).toEqual([
      ['loaded:cpp-a-5000rec-1gib-8vcpu-slo50', 'loaded', ['loaded.json']],
      ['quiet:cpp-a-5000rec-1gib-8vcpu-slo50', 'quiet', ['quiet.json']],
    ]);
    expect(settings.map((s) => nativeFigure(s, 'max_throughput_slo')?.median)).toEqual([6.8, 16.6]);
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

  it('takes the files that measured a number over those that only bounded it', () => {
    const row = (source: string, value: number, qualifier: string) => ({ source, rows: [
      { id: 'rust-b-r8-8vcpu-slo-p99-latency', language: 'Rust', workload: 'B', memory_gib: null, memory_data_ratio: 8, vcpus: 8, metric: 'slo_p99_latency', value: 50, note: '100000 records' },
      { id: 'rust-b-r8-8vcpu-max-throughput-slo', language: 'Rust', workload: 'B', memory_gib: null, memory_data_ratio: 8, vcpus: 8, metric: 'max_throughput_slo', value, qualifier, note: '100000 records' },
    ] });
    const mixed = nativeSettings([row('full', 14.552, 'approx'), row('three-probe', 1.56, 'lower_bound')]).settings[0]!;
    expect(nativeFigure(mixed, 'max_throughput_slo')).toMatchObject({ median: 14.552, n: 1, qualifiers: ['approx'] });
    const bounds = nativeSettings([row('a', 2, 'lower_bound'), row('b', 1.5, 'lower_bound')]).settings[0]!;
    expect(nativeFigure(bounds, 'max_throughput_slo')).toMatchObject({ median: 1.75, n: 2, qualifiers: ['lower_bound'] });
    expect(comparable(nativeFigure(bounds, 'max_throughput_slo'))).toBe(false);
  });

  it('scores a search that ran out of probes only when its bracket is narrower than the ±25 % band', () => {
    const note = (gap: number) => `scaled run; 8 vCPUs; the search ran out of probes (--max-probes 7) between 6298 ops/s met and 7479 ops/s missed, a bracket of ${gap} % (tolerance 10 %)`;
    expect(scoredQualifier({ qualifier: 'lower_bound', note: note(15.8) })).toBe('approx');
    expect(scoredQualifier({ qualifier: 'lower_bound', note: note(93.7) })).toBe('lower_bound');
    expect(scoredQualifier({ qualifier: 'lower_bound', note: note(15.8), repetitions: 3 })).toBe('lower_bound');
    expect(scoredQualifier({ qualifier: 'lower_bound', note: 'the search stopped at a disturbed probe of 1600 ops/s' })).toBe('lower_bound');
    expect(scoredQualifier({ qualifier: 'upper_bound', note: note(5) })).toBe('upper_bound');
    expect(scoredQualifier({})).toBe('exact');
  });
});

describe("native settings with this machine's card", () => {
  const machineNote = 'scaled run: durability none; memory:data ratio 8 over 100000 records (49.9 MiB raw); 412 MiB/node (= ratio × data + 13 MiB measured fixed footprint) via cgroup memory.limit_in_bytes';
  const card: ModelCard = {
    ...DEFAULT_CARD,
    version: '0.2.0-machine.20261127',
    parameters: {
      ...DEFAULT_CARD.parameters,
      'machine.node_cores': { value: 1, unit: 'cores', source: 'derived', note: '' },
      'machine.cores_per_vcpu': { value: 0.125, unit: 'cores', source: 'derived', note: '' },
      'machine.cpp.leader_core_share.a': { value: 0.7, unit: 'fraction', source: 'derived', note: '' },
      'machine.cpp.closed_loop_leader_core_share.a': { value: 0.6, unit: 'fraction', source: 'derived', note: '' },
      'machine.cpp.closed_loop_cpu_factor': { value: 0.5, unit: 'fraction', source: 'derived', note: '' },
    },
  };
  const setting = () => {
    const base = { language: 'C++', workload: 'A', memory_gib: null, memory_data_ratio: 8, vcpus: 8, note: machineNote };
    return nativeSettings([{ source: 'x', rows: [
      { ...base, id: 'cpp-a-r8-8vcpu-slo-p99-latency', metric: 'slo_p99_latency', value: 50 },
      { ...base, id: 'cpp-a-r8-8vcpu-saturation-throughput', metric: 'saturation_throughput', value: 9 },
    ] }]).settings[0]!;
  };

  it('reads the limit and the measured footprint from a row note', () => {
    expect(limitOfNote(machineNote)).toEqual({ limit_mib: 412, footprint_mib: 13 });
    expect(limitOfNote('scaled run; 198.8 MiB/node (= ratio × data + 99 MiB measured fixed footprint)')).toEqual({ limit_mib: 198.8, footprint_mib: 99 });
    expect(limitOfNote('no figures here')).toEqual({});
    expect(setting()).toMatchObject({ limit_mib: 412, footprint_mib: 13, memory: { ratio: 8 } });
  });

  it('simulates the limit the harness set, the footprint it measured and the core share; the Lab card keeps the ratio and the label', () => {
    const s = setting();
    const k = nativeKnobs(s, card);
    expect(k.memory).toEqual({ gib: 412 / 1024 });
    expect(k.vcpus).toBe(0.7);
    expect(k.model_card!.parameters['memory.cpp.non_heap_bytes']!.value).toBe(13 * 1024 * 1024);
    expect(card.parameters['memory.cpp.non_heap_bytes']!.value).toBe(DEFAULT_CARD.parameters['memory.cpp.non_heap_bytes']!.value);
    expect(nativeSearchSpec(s, card).base.resources).toEqual({ vcpus: 0.7, memory_gib: 412 / 1024 });
    expect(nativeSearchSpec(s).base.resources).toEqual({ vcpus: 8, memory_to_data_ratio: 8 });
    expect(nativeSearchSpec(s).base.model_card).toBeUndefined();
    expect(nativeSaturationSpec(s, DEFAULT_CARD).resources).toEqual({ vcpus: 8, memory_to_data_ratio: 8 });
    // the closed-loop saturation run gets the batched costs and their core share, the footprint too
    const sat = nativeSaturationSpec(s, card);
    expect(sat.resources).toEqual({ vcpus: 0.6, memory_gib: 412 / 1024 });
    expect(sat.model_card!.parameters['cpu.cpp.in_us']!.value).toBeCloseTo(card.parameters['cpu.cpp.in_us']!.value * 0.5, 2);
    expect(sat.model_card!.parameters['memory.cpp.non_heap_bytes']!.value).toBe(13 * 1024 * 1024);
    expect(nativeSearchSpec(s, card).base.model_card!.parameters['cpu.cpp.in_us']!.value).toBe(card.parameters['cpu.cpp.in_us']!.value);
  });
});
