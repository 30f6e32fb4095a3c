// The part of the simulator's worker protocol (sim/src/worker-protocol.ts) the Lab and the
// Race speak: runs, SLO searches and sweeps, their progress and errors.
import type { WorkerRequest, WorkerResponse } from '@replicant/sim/worker-protocol';

export type SimRequest = Extract<WorkerRequest, { type: 'run' | 'search' | 'sweep' }>;
export type SimResponse = WorkerResponse;
