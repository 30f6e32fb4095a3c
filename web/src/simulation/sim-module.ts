// The simulator (sim/, its contract in sim/src/api.ts) is found at build time: when its entry
// module is in the checkout, the views load it on demand; when it is not, they say so rather
// than pretend. Engines are always injected (the browser's wasm builds).
import type { EngineName, SyncEngine } from '../../../engines/loader/engine.ts';
import type { StepSession, StepSessionSpec } from '../../../sim/src/api.ts';

export type EngineProvider = (name: EngineName) => SyncEngine;

/** The parts of sim/src/index.ts the views use; each is checked when the module loads. */
export interface SimModule {
  createStepSession(spec: StepSessionSpec, provide: EngineProvider): StepSession & { replay?(choices: string[]): void };
}

const ENTRY = import.meta.glob('../../../sim/src/index.ts');
const loadEntry = Object.values(ENTRY)[0];

export const SIM_IN_BUILD = loadEntry !== undefined;

let cached: Promise<SimModule> | null = null;

export function loadSim(): Promise<SimModule> {
  if (!loadEntry) return Promise.reject(new Error('the simulator (sim/) is not part of this build yet'));
  cached ??= loadEntry().then((m) => {
    const mod = m as Partial<SimModule>;
    if (typeof mod.createStepSession !== 'function') throw new Error('this build’s simulator has no step sessions (createStepSession)');
    return mod as SimModule;
  });
  return cached;
}

/** True when this build has the simulator's worker entry (runs, searches, sweeps). */
export const SIM_RUNS_IN_BUILD = Object.keys(import.meta.glob('../../../sim/src/worker.ts')).length > 0;
