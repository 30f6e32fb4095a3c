// The messages between the web lab (main thread) and the simulator's Web Worker. Plain data
// only. Long runs report progress; results come back whole. (The Cluster and Learn views' step
// sessions do not pass through here: they run on the main thread, web/src/simulation/sim-module.ts.)
//
// Cancelling: a synchronous run cannot read messages while it runs, so a request may carry a
// SharedArrayBuffer flag (cross-origin isolated pages): set Int32Array(flag)[0] = 1 and the run
// stops at its next check with an error whose `cancelled` is true. Without it, terminate the
// worker and start a new one.
import type { RunResult, RunSpec, SloSearchResult, SloSearchSpec, SweepResult, SweepSpec } from './api.ts';

export type WorkerRequest =
  | { type: 'run'; id: number; spec: RunSpec; cancel_flag?: SharedArrayBuffer }
  | { type: 'search'; id: number; spec: SloSearchSpec; cancel_flag?: SharedArrayBuffer }
  | { type: 'sweep'; id: number; spec: SweepSpec; cancel_flag?: SharedArrayBuffer };

export type WorkerResponse =
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'run.result'; id: number; result: RunResult }
  | { type: 'search.result'; id: number; result: SloSearchResult }
  | { type: 'sweep.result'; id: number; result: SweepResult }
  | { type: 'error'; id: number; message: string; cancelled: boolean };
