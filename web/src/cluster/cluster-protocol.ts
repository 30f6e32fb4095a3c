// The messages between the Cluster view and the engine worker (web/src/worker/engine-worker.ts),
// which owns the wasm engines and their step sessions (cluster-host.ts does the work). The page
// only draws what comes back, so loading and stepping the engines never holds its main thread.
// Every request gets exactly one answer with its id (the shared envelope: engine-protocol.ts).
import type { EngineName } from '@replicant/engines/loader/catalogue';
import type { Explained } from './explain.ts';
import type { Action, Snapshot } from './controller.ts';
import type { SessionHistory } from './history.ts';
import type { InspectView } from './inspect.ts';
import type { HistoryOp, Verdict } from '@replicant/checker/lincheck';
import type { FaultKind } from '@replicant/sim/torture/scenario';

export type Durability = 'none' | 'log';

export interface ClusterSetup {
  engines: EngineName[];
  nodes: number;
  seed: number;
  durability: Durability;
  /** recorded choices to replay (from the URL) and the step to show; 0: the last one */
  choices: string[];
  step: number;
}

export type ClusterRequest =
  /** Builds one step session per engine (loading them as needed) and replays the choices. */
  | ({ id: number; type: 'cluster-open' } & ClusterSetup)
  | { id: number; type: 'cluster-act'; action: Action }
  /** Rewinds or redoes along the recorded timeline: to a step, or by a number of steps. */
  | { id: number; type: 'cluster-goto'; step: number }
  | { id: number; type: 'cluster-goto-by'; delta: number }
  /** The client history of the run so far, for the linearizability check. */
  | { id: number; type: 'cluster-history' };

/** The trace entries the page shows, explained (the newest; the whole trace stays in the worker). */
export const TRACE_TAIL = 300;

export type ClusterSnapshot = Omit<Snapshot, 'trace'> & {
  /** the last TRACE_TAIL trace entries in words, oldest first */
  explained: Explained[];
  /** the trace's length (explained[i] is entry trace_length - explained.length + i) */
  trace_length: number;
};

export interface ClusterLive {
  snapshot: ClusterSnapshot;
  /** every recorded choice and the step they reach (beyond `snapshot.step` when rewound) */
  timeline: { choices: string[]; steps: number };
  /** the URL's choices could not be replayed: why (the cluster then starts from the beginning) */
  replay_error?: string;
}

export type ClusterResponse =
  | { id: number; type: 'cluster-state'; state: ClusterLive }
  | { id: number; type: 'cluster-history'; history: SessionHistory; step: number };

/** A torture run the CLI printed (its lab address), replayed in the worker and played step by step. */
export type TortureRequest =
  /** `spec`: the run as sim/src/torture/replay-spec.ts writes it ("go:12;keep=0,3;ops=4") */
  | { id: number; type: 'cluster-torture'; spec: string }
  /** the nodes at core step `step` (1 … total_steps) */
  | { id: number; type: 'cluster-torture-goto'; step: number };

export interface TortureFrame {
  step: number;
  time_us: number;
  inspect: string[];
  views: (InspectView | null)[];
  /** the run's log up to this step, in words, oldest first (fault starts and ends as notes) */
  explained: Explained[];
  /** the faults in force at this moment, in words */
  active_faults: string[];
}

/** What a seed drew besides its faults (sim/src/torture/scenario.ts). */
export interface TortureDraw {
  clients: number;
  keys: string[];
  ops_per_client: number;
  /** every fault starts and ends in [0, fault_window_us) */
  fault_window_us: number;
  /** the fault-free time after the window, in which the cluster must serve again */
  tail_us: number;
}

export interface TortureFault {
  /** its place in the seed's list (what a shrunk run's keep=I,J names) */
  index: number;
  kind: FaultKind;
  at_us: number;
  /** in words, with its time span */
  text: string;
}

export interface TortureLive {
  spec: string;
  seed: number;
  engines: EngineName[];
  draw: TortureDraw;
  /** the run's faults in the order they start */
  faults: TortureFault[];
  history: HistoryOp[];
  /** Porcupine's verdict on the history (suspect_operations index into it) */
  verdict: Verdict;
  /** the CLI's judgement: linearizable, no lost acknowledged write, no divergence, served again */
  ok: boolean;
  problems: string[];
  total_steps: number;
  digest: string;
  frame: TortureFrame;
}

export type TortureResponse = { id: number; type: 'torture-state'; torture: TortureLive };
