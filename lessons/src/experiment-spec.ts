// An experiment's settings as the simulator's run specification, through the simulator's one
// spec builder (the paper's method: 3 nodes, YCSB A, 64 client threads, an open loop), with a
// short window so a student's run takes seconds: fast fidelity, one second of warm-up. A run
// with a GC mitigation comes with its pair: the same run with the collector off (BLADE's GC-Off
// set-up), the ideal the mitigation is measured against.
import type { RunSpec } from '@replicant/sim/api';
import { baseRunSpec } from '@replicant/sim/run/measurement';
import type { Experiment, ExperimentSettings } from './experiment.ts';

export const EXPERIMENT_WARMUP_S = 1;

export function experimentSpec(e: Experiment, s: ExperimentSettings): RunSpec {
  const spec = baseRunSpec({ workload: 'A', memory: { ratio: s.ratio }, vcpus: s.vcpus, seed: e.seed, min_window_s: e.duration_s, fidelity: 'fast', mode: 'open' }, s.engine, s.target_ops_per_s);
  spec.load.warmup_s = EXPERIMENT_WARMUP_S;
  if (s.mitigation !== 'none') spec.mitigation = { mode: s.mitigation };
  return spec;
}

/** The run, and with a mitigation its GC-off pair (readRun's `gcOff`). */
export function experimentSpecs(e: Experiment, s: ExperimentSettings): { run: RunSpec; gc_off: RunSpec | null } {
  const run = experimentSpec(e, s);
  if (s.mitigation === 'none') return { run, gc_off: null };
  return { run, gc_off: { ...experimentSpec(e, { ...s, mitigation: 'none' }), mitigation: { mode: 'none', collector: 'off' } } };
}
