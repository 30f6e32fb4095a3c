// Messages between the Lab / Race views and the simulation worker. Plain data (structured
// clone), typed by the simulator's contract (sim/src/api.ts).
import type { RunResult, RunSpec, SweepResult, SweepSpec } from '../../../sim/src/api.ts';

export type SimJob = { kind: 'run'; spec: RunSpec } | { kind: 'sweep'; spec: SweepSpec };

export type SimRequest = { type: 'start'; id: number; job: SimJob };

export type SimResponse =
  | { type: 'progress'; id: number; fraction: number; label: string }
  | { type: 'done'; id: number; result: RunResult | SweepResult; wall_ms: number }
  /** The simulator refused the job (bad spec) or failed: the message says which. */
  | { type: 'error'; id: number; message: string };
