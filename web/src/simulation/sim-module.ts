// The simulator's step sessions, loaded with the Cluster and Learn views (their own chunk).
// Only the step-session module: the runs, SLO searches and their histogram library live in
// the simulation worker, so a page that steps a cluster does not parse them. Engines are
// always injected: the browser's wasm builds.
import type { EngineName, SyncEngine } from '@replicant/engines/loader/engine';

export type EngineProvider = (name: EngineName) => SyncEngine;

export async function loadSim() {
  return import('@replicant/sim/step/session');
}
