// The simulator's step sessions, loaded with the Cluster view (their own chunk). Engines are
// always injected: the browser's wasm builds.
import type { EngineName, SyncEngine } from '@replicant/engines/loader/engine';

export type EngineProvider = (name: EngineName) => SyncEngine;

export async function loadSim() {
  return import('@replicant/sim');
}
