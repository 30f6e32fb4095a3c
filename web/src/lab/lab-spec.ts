// The Lab's knobs as the simulator's specifications. Pure. The specs themselves come from the
// simulator's one spec builder (sim/src/run/measurement.ts), which `npm run fidelity` uses too:
// the Lab's defaults are the paper's method, measured window included.
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { RunSpec, SweepSpec, WorkloadSpec } from '@replicant/sim/api';
import { READ_SHARE, baseRunSpec, measurementRunSpec, measurementSweepSpec, type MeasurementKnobs } from '@replicant/sim/run/measurement';
import type { LabState } from './lab-fields.ts';
import { paperGibOfRatio } from '@replicant/data/memory-ratio';

export { READ_SHARE };

/** The Lab's settings as the simulator's measurement knobs. */
export function knobsOf(s: LabState, seed: number): MeasurementKnobs {
  const k: MeasurementKnobs = {
    workload: s.wl,
    memory: s.memunit === 'gib' ? { gib: s.gib } : { ratio: s.ratio },
    vcpus: s.vcpus,
    slo_p99_ms: s.slo,
    seed,
    records: s.records,
    value_bytes: s.value,
    distribution: s.dist,
    client_threads: s.threads,
    mode: s.loop,
    min_window_s: s.duration,
    fidelity: s.fid,
  };
  if (s.wl === 'custom') k.read_proportion = s.read;
  if (s.lat !== null) k.one_way_latency_us = s.lat;
  return k;
}

export function workloadOf(s: LabState): WorkloadSpec {
  return baseRunSpec(knobsOf(s, 1), 'cpp', 1).workload;
}

/** The memory sweep's values in GiB, for the chart's x axis (ratios at the paper's 4 GiB). */
export function memoryAxisGib(s: LabState): number[] {
  return s.memunit === 'gib' ? s.gibs : s.ratios.map((r) => Number(paperGibOfRatio(r).toFixed(3)));
}

/** A 3-node cluster of one engine under the Lab's load, with the window the model asks for. */
export function runSpec(s: LabState, seed: number, engine: EngineName, target_ops_per_s = s.rate): RunSpec {
  const spec = measurementRunSpec(knobsOf(s, seed), engine, target_ops_per_s);
  return s.dur === 'none' ? spec : { ...spec, storage: { durability: s.dur, device: s.disk } };
}

/** The paper's method over the chosen axis: the highest rate meeting the SLO, per point. */
export function sweepSpec(s: LabState, seed: number): SweepSpec {
  const axis = s.sweep === 'vcpus' ? { vcpus: s.vcpulist } : s.memunit === 'gib' ? { memory: s.gibs.map((gib) => ({ gib })) } : { memory: s.ratios.map((ratio) => ({ ratio })) };
  return measurementSweepSpec(knobsOf(s, seed), s.engines, axis);
}

/** The same sweep with the Lab's GC mitigation, for the engines that have a collector (C++ and
 * Rust have nothing to mitigate); null without a mitigation or without such an engine. */
export function mitigatedSweepSpec(s: LabState, seed: number): SweepSpec | null {
  const engines = s.engines.filter((e) => e === 'go' || e === 'java');
  if (s.mit === 'none' || engines.length === 0) return null;
  const plain = sweepSpec(s, seed);
  return { ...plain, engines, base: { ...plain.base, mitigation: { mode: s.mit } } };
}
