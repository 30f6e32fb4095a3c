// Node-side engine loading for the simulator's CLI, tests and benchmarks (not for the browser:
// the web lab injects its own engines). Loads each engine's wasm build once and caches it.
import { ENGINE_NAMES, type EngineName, type SyncEngine } from '@replicant/engines/loader/engine';
import * as loaders from '@replicant/engines/loader/node-loaders';

const cache = new Map<EngineName, SyncEngine>();

export async function loadEngine(name: EngineName): Promise<SyncEngine> {
  let e = cache.get(name);
  if (!e) {
    e = await loaders.wasmNodeEngine(name);
    cache.set(name, e);
  }
  return e;
}

/** Engines whose wasm build loads in Node on this checkout (built and registered). */
export async function availableEngines(): Promise<EngineName[]> {
  const out: EngineName[] = [];
  for (const name of ENGINE_NAMES) {
    try {
      await loadEngine(name);
      out.push(name);
    } catch {
      // not built or not registered on this checkout
    }
  }
  return out;
}

export async function provider(names: readonly EngineName[]): Promise<(name: EngineName) => SyncEngine> {
  for (const n of names) await loadEngine(n);
  return (name) => {
    const e = cache.get(name);
    if (!e) throw new Error(`engine ${name} was not loaded`);
    return e;
  };
}
