// The part of the simulator's worker protocol (sim/src/worker-protocol.ts) the Lab and the
// Race speak: runs and sweeps, progress, errors. Plain data, typed by sim/src/api.ts.
import type { RunResult, RunSpec, SweepResult, SweepSpec } from '../../../sim/src/api.ts';

export type SimRequest = { type: 'run'; id: number; spec: RunSpec } | { type: 'sweep'; id: number; spec: SweepSpec };

export type SimResponse =
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'run.result'; id: number; result: RunResult }
  | { type: 'sweep.result'; id: number; result: SweepResult }
  /** The simulator refused the job (a bad spec) or failed; `cancelled` when it was stopped. */
  | { type: 'error'; id: number; message: string; cancelled: boolean };
