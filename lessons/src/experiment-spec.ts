// An experiment's settings as the simulator's run specification, through the simulator's one
// spec builder (the paper's method: 3 nodes, YCSB A, 64 client threads, an open loop), with a
// short window so a student's run takes seconds: fast fidelity, one second of warm-up.
import type { RunSpec } from '@replicant/sim/api';
import { baseRunSpec } from '@replicant/sim/run/measurement';
import type { Experiment, ExperimentSettings } from './experiment.ts';

export const EXPERIMENT_WARMUP_S = 1;

export function experimentSpec(e: Experiment, s: ExperimentSettings): RunSpec {
  const spec = baseRunSpec({ workload: 'A', memory: { ratio: s.ratio }, vcpus: s.vcpus, seed: e.seed, min_window_s: e.duration_s, fidelity: 'fast', mode: 'open' }, s.engine, s.target_ops_per_s);
  spec.load.warmup_s = EXPERIMENT_WARMUP_S;
  return spec;
}
