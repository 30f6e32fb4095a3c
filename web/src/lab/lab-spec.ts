// The Lab's knobs as the simulator's specifications (sim/src/api.ts). Pure.
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { RunSpec, SweepSpec, WorkloadSpec } from '@replicant/sim/api';
import type { LabState } from './lab-fields.ts';
import { paperGibOfRatio } from '../paper/memory-ratio.ts';


export const READ_SHARE = { A: 0.5, B: 0.95 } as const;

export function workloadOf(s: LabState): WorkloadSpec {
  return {
    name: s.wl,
    read_proportion: s.wl === 'custom' ? s.read : READ_SHARE[s.wl],
    record_count: s.records,
    value_bytes: s.value,
    distribution: s.dist,
  };
}

/** Memory of one node for the current (single-run) setting. */
export function memoryOf(s: LabState): { memory_gib: number } | { memory_to_data_ratio: number } {
  return s.memunit === 'gib' ? { memory_gib: s.gib } : { memory_to_data_ratio: s.ratio };
}

/** The memory sweep's values in GiB, for the chart's x axis (ratios at the paper's 4 GiB). */
export function memoryAxisGib(s: LabState): number[] {
  return s.memunit === 'gib' ? s.gibs : s.ratios.map((r) => Number(paperGibOfRatio(r).toFixed(3)));
}

/** A 3-node cluster of one engine under the Lab's load. */
export function runSpec(s: LabState, seed: number, engine: EngineName, target_ops_per_s = s.rate): RunSpec {
  return {
    cluster: { engines: [engine, engine, engine], seed },
    ...(s.lat === null ? {} : { network: { one_way_latency_us: s.lat } }),
    resources: { vcpus: s.vcpus, ...memoryOf(s) },
    workload: workloadOf(s),
    load: { mode: s.loop, target_ops_per_s, client_threads: s.threads, duration_s: s.duration },
    fidelity: s.fid,
  };
}

/** The paper's method over the chosen axis: the highest rate meeting the SLO, per point. */
export function sweepSpec(s: LabState, seed: number): SweepSpec {
  const base = runSpec(s, seed, s.engines[0]!);
  const spec: SweepSpec = { base, slo_p99_ms: s.slo, engines: s.engines };
  if (s.sweep === 'vcpus') spec.vcpus = s.vcpulist;
  else if (s.memunit === 'gib') spec.memory_gib = s.gibs;
  else spec.memory_to_data_ratio = s.ratios;
  return spec;
}
