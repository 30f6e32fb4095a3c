// The simulator inside a Web Worker: the page stays responsive however long a sweep runs.
// Engines are the browser's wasm builds, loaded here before the job starts (the simulator asks
// for them synchronously). Cancelling is the page terminating this worker.
/// <reference lib="webworker" />
import type { EngineName, SyncEngine } from '../../../engines/loader/engine.ts';
import type { RunSpec } from '../../../sim/src/api.ts';
import { loadBrowserEngine } from '../engines.ts';
import { loadRunApi } from './sim-module.ts';
import type { SimRequest, SimResponse } from './protocol.ts';

const post = (m: SimResponse) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(m);

function enginesOf(base: RunSpec, extra: EngineName[] = []): EngineName[] {
  return [...new Set([...base.cluster.engines, ...extra])];
}

self.onmessage = async (e: MessageEvent<SimRequest>) => {
  const { id, job } = e.data;
  try {
    const sim = await loadRunApi();
    const names = job.kind === 'run' ? enginesOf(job.spec) : enginesOf(job.spec.base, job.spec.engines);
    const engines = new Map<EngineName, SyncEngine>();
    for (const n of names) {
      post({ type: 'progress', id, fraction: 0, label: `loading the ${n} engine` });
      engines.set(n, await loadBrowserEngine(n));
    }
    const provide = (n: EngineName) => {
      const en = engines.get(n);
      if (!en) throw new Error(`engine ${n} was not loaded`);
      return en;
    };
    let last = -1;
    const progress = (fraction: number) => {
      // Thousands of calls per second are possible; the page needs a few.
      const pct = Math.floor(fraction * 200);
      if (pct === last) return;
      last = pct;
      post({ type: 'progress', id, fraction, label: job.kind === 'run' ? 'simulating' : 'searching for the highest rate that meets the SLO' });
    };
    const t0 = performance.now();
    const result = job.kind === 'run' ? sim.simulate(job.spec, provide, { progress }) : sim.sweep(job.spec, provide, { progress });
    post({ type: 'done', id, result, wall_ms: Math.round(performance.now() - t0) });
  } catch (err) {
    post({ type: 'error', id, message: err instanceof Error ? err.message : String(err) });
  }
};
