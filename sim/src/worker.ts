// The simulator inside a Web Worker. The host page's worker script calls startSimWorker with a
// function that loads an engine by name (the web lab's loaders) — the simulator never loads
// engines itself and imports nothing Node-only.
import type { EngineName } from './api.ts';
import type { SyncEngine } from '@replicant/engines/loader/engine';
import { CancelledError, simulate } from './run/simulate.ts';
import { searchSlo, sweep } from './search/slo.ts';
import type { WorkerRequest, WorkerResponse } from './worker-protocol.ts';

interface WorkerScope {
  postMessage(message: WorkerResponse): void;
  addEventListener(type: 'message', listener: (e: { data: WorkerRequest }) => void): void;
}

export type EngineLoader = (name: EngineName) => Promise<SyncEngine>;

export function startSimWorker(scope: WorkerScope, loadEngine: EngineLoader): void {
  const engines = new Map<EngineName, SyncEngine>();

  async function provider(names: readonly EngineName[]) {
    for (const n of new Set(names)) if (!engines.has(n)) engines.set(n, await loadEngine(n));
    return (name: EngineName) => {
      const e = engines.get(name);
      if (!e) throw new Error(`engine ${name} is not loaded`);
      return e;
    };
  }

  const hooks = (id: number, flag?: SharedArrayBuffer) => {
    const view = flag ? new Int32Array(flag) : null;
    let last = -1;
    return {
      progress: (f: number) => {
        const pct = Math.floor(f * 100);
        if (pct !== last) {
          last = pct;
          scope.postMessage({ type: 'progress', id, fraction: f });
        }
      },
      cancelled: () => (view ? Atomics.load(view, 0) === 1 : false),
    };
  };

  async function handle(req: WorkerRequest): Promise<void> {
    switch (req.type) {
      case 'run': {
        const p = req.spec.fidelity === 'exact' ? await provider(req.spec.cluster.engines) : null;
        const t0 = performance.now();
        const result = simulate(req.spec, p, hooks(req.id, req.cancel_flag));
        result.wall_ms = Math.round(performance.now() - t0); // outside the deterministic payload
        scope.postMessage({ type: 'run.result', id: req.id, result });
        return;
      }
      case 'search': {
        const p = req.spec.base.fidelity === 'exact' ? await provider(req.spec.base.cluster.engines) : null;
        scope.postMessage({ type: 'search.result', id: req.id, result: searchSlo(req.spec, p, hooks(req.id, req.cancel_flag)) });
        return;
      }
      case 'sweep': {
        const p = req.spec.base.fidelity === 'exact' ? await provider(req.spec.engines) : null;
        scope.postMessage({ type: 'sweep.result', id: req.id, result: sweep(req.spec, p, hooks(req.id, req.cancel_flag)) });
        return;
      }
    }
  }

  // One request at a time, in order.
  let chain = Promise.resolve();
  scope.addEventListener('message', (e) => {
    const req = e.data;
    chain = chain.then(() =>
      handle(req).catch((err: unknown) => {
        scope.postMessage({ type: 'error', id: req.id, message: err instanceof Error ? err.message : String(err), cancelled: err instanceof CancelledError });
      }),
    );
  });
}
