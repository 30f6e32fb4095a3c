// One step session per chosen engine, all on the same cluster: what the Cluster view's host and
// the lesson host both build before a ClusterController drives them in lock step.
import { languageOf, type EngineName } from '@replicant/engines/loader/catalogue';
import type { SyncEngine } from '@replicant/engines/loader/engine';
import type { ClusterSpec } from '@replicant/sim/api';
import type { EngineSession } from './controller.ts';

export type SimModule = typeof import('@replicant/sim/step/session');

/**
 * Loads the simulator and every engine at once (naming through `loading` what is awaited), then
 * makes a session per engine of a cluster of `nodes` nodes of it; `cluster` is the rest of the
 * spec (seed, durability), the same for every engine.
 */
export async function openEngineSessions(
  engines: readonly EngineName[],
  nodes: number,
  cluster: Omit<ClusterSpec, 'engines'>,
  load: { engine: (name: EngineName) => Promise<SyncEngine>; sim: () => Promise<SimModule> },
  loading: (what: string) => void,
): Promise<EngineSession[]> {
  // Everything is fetched and compiled at once (the engines' wasm is the long pole); the
  // loading notes name what is still awaited, in order.
  const simLoad = load.sim();
  const engineLoads = engines.map((e) => [e, load.engine(e)] as const);
  // Awaited below; a failure is reported there, by the first that is awaited.
  for (const p of [simLoad, ...engineLoads.map(([, p]) => p)]) p.catch(() => {});
  loading('the simulator');
  const sim = await simLoad;
  const loaded = new Map<EngineName, SyncEngine>();
  for (const [e, engine] of engineLoads) {
    loading(`the ${languageOf(e)} engine (WebAssembly)`);
    loaded.set(e, await engine);
  }
  return engines.map((e) => ({
    engine: e,
    session: sim.createStepSession({ cluster: { engines: Array<EngineName>(nodes).fill(e), ...cluster } }, (name) => loaded.get(name)!),
  }));
}
