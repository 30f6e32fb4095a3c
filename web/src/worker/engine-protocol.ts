// One protocol for the engine worker, which the Cluster view and the Learn view both talk to:
// the lesson's requests (learn/lesson-protocol.ts) and the cluster's (cluster/cluster-protocol.ts)
// in one envelope. Every request carries an id and gets its loading notes, then exactly one
// answer or one error with that id.
import type { LessonRequest, LessonResponse, LiveState } from '../learn/lesson-protocol.ts';
import type { ClusterRequest, ClusterResponse, ClusterLive, TortureLive, TortureRequest, TortureResponse } from '../cluster/cluster-protocol.ts';

export type EngineRequest = LessonRequest | ClusterRequest | TortureRequest;

export type EngineResponse =
  | Exclude<LessonResponse, { type: 'error' }>
  | ClusterResponse
  | TortureResponse
  /** `live` (a lesson), `cluster` or `torture` (the Cluster view): the state as it is after the failed request */
  | { id: number; type: 'error'; message: string; live: LiveState | null; cluster?: ClusterLive | null; torture?: TortureLive | null };
