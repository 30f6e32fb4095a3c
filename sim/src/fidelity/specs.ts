// The measurements behind `npm run fidelity`: the paper's points as the Lab's default knobs
// would ask for them (memory as the paper's memory:data ratio of its 4 GiB dataset, 8 vCPUs
// unless the point says otherwise, seed 1, fast mode), built by the one spec builder
// (run/measurement.ts). Pure: no files, no clock.
import type { EngineName, RunSpec, SloSearchSpec } from '../api.ts';
import { PAPER_DATASET_GIB } from '@replicant/data/memory-ratio';
import { PAPER_METHOD, measurementRunSpec, measurementSearchSpec, type MeasurementKnobs } from '../run/measurement.ts';

// The paper's memory sizes are ratios of its ≈ 4 GiB dataset (§5.1): one definition, in @replicant/data.
export { PAPER_DATASET_GIB };

/** The Lab's default knobs for a paper point. A point with another record count (Fig 4: 2 M
 * records in 5 GiB) states its memory in GiB, as the paper does. */
export function fidelityKnobs(workload: 'A' | 'B', memory_gib: number, vcpus: number, records: number = PAPER_METHOD.records): MeasurementKnobs {
  return {
    workload,
    memory: records === PAPER_METHOD.records ? { ratio: memory_gib / PAPER_DATASET_GIB } : { gib: memory_gib },
    vcpus,
    records,
    min_window_s: PAPER_METHOD.min_window_s,
    fidelity: 'fast',
    seed: PAPER_METHOD.seed,
  };
}

export function fidelitySearchSpec(engine: EngineName, workload: 'A' | 'B', memory_gib: number, vcpus: number): SloSearchSpec {
  return measurementSearchSpec(fidelityKnobs(workload, memory_gib, vcpus), engine);
}

export function fidelityRunSpec(engine: EngineName, workload: 'A' | 'B', memory_gib: number, vcpus: number, target_ops_per_s: number, records: number = PAPER_METHOD.records): RunSpec {
  return measurementRunSpec(fidelityKnobs(workload, memory_gib, vcpus, records), engine, target_ops_per_s);
}
