// The messages between the web lab (main thread) and the simulator's Web Worker. Plain data
// only. Long runs report progress; results come back whole.
//
// Cancelling: a synchronous run cannot read messages while it runs, so a request may carry a
// SharedArrayBuffer flag (cross-origin isolated pages): set Int32Array(flag)[0] = 1 and the run
// stops at its next check with an error whose `cancelled` is true. Without it, terminate the
// worker and start a new one.
import type { PendingItem, RunResult, RunSpec, SloSearchResult, SloSearchSpec, StepSessionSpec, SweepResult, SweepSpec, TraceEntry } from './api.ts';

export type StepMethod =
  | 'next' | 'deliver' | 'drop' | 'duplicate' | 'fire' | 'client' | 'crash' | 'restart' | 'cut' | 'heal'
  | 'run_until' | 'run_until_quiet' | 'inspect' | 'rewind' | 'replay';

export type WorkerRequest =
  | { type: 'run'; id: number; spec: RunSpec; cancel_flag?: SharedArrayBuffer }
  | { type: 'search'; id: number; spec: SloSearchSpec; cancel_flag?: SharedArrayBuffer }
  | { type: 'sweep'; id: number; spec: SweepSpec; cancel_flag?: SharedArrayBuffer }
  | { type: 'step.create'; id: number; spec: StepSessionSpec }
  | { type: 'step.call'; id: number; session: number; method: StepMethod; args: unknown[] }
  | { type: 'step.close'; id: number; session: number };

/** After every step-session call: the session as the UI draws it. */
export interface StepSnapshot {
  session: number;
  time_us: number;
  steps_taken: number;
  pending: PendingItem[];
  /** inspect() of every node ('null' when down). */
  nodes: string[];
  /** Trace entries added by this call. */
  trace: TraceEntry[];
  choices: string[];
}

export type WorkerResponse =
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'run.result'; id: number; result: RunResult }
  | { type: 'search.result'; id: number; result: SloSearchResult }
  | { type: 'sweep.result'; id: number; result: SweepResult }
  | { type: 'step.result'; id: number; value: unknown; snapshot: StepSnapshot }
  | { type: 'error'; id: number; message: string; cancelled: boolean };
