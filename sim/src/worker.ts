// The simulator inside a Web Worker. The host page's worker script calls startSimWorker with a
// function that loads an engine by name (the web lab's loaders) — the simulator never loads
// engines itself and imports nothing Node-only.
import type { EngineName, StepSession } from './api.ts';
import type { SyncEngine } from '@replicant/engines/loader/engine';
import { createStepSession } from './step/session.ts';
import { CancelledError, simulate } from './run/simulate.ts';
import { searchSlo, sweep } from './search/slo.ts';
import type { StepSnapshot, WorkerRequest, WorkerResponse } from './worker-protocol.ts';

interface WorkerScope {
  postMessage(message: WorkerResponse): void;
  addEventListener(type: 'message', listener: (e: { data: WorkerRequest }) => void): void;
}

export type EngineLoader = (name: EngineName) => Promise<SyncEngine>;

export function startSimWorker(scope: WorkerScope, loadEngine: EngineLoader): void {
  const engines = new Map<EngineName, SyncEngine>();
  const sessions = new Map<number, StepSession>();
  let nextSession = 1;

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

  function snapshot(id: number, s: StepSession, traceFrom: number): StepSnapshot {
    const nodes: string[] = [];
    for (let i = 0; ; i++) {
      try {
        nodes.push(s.inspect(i));
      } catch {
        break;
      }
    }
    return { session: id, time_us: s.time_us, steps_taken: s.steps_taken, pending: s.pending(), nodes, trace: s.trace().slice(traceFrom), choices: s.choices() };
  }

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
      case 'step.create': {
        const s = createStepSession(req.spec, await provider(req.spec.cluster.engines));
        const sid = nextSession++;
        sessions.set(sid, s);
        scope.postMessage({ type: 'step.result', id: req.id, value: sid, snapshot: snapshot(sid, s, 0) });
        return;
      }
      case 'step.call': {
        const s = sessions.get(req.session);
        if (!s) throw new Error(`no step session ${req.session}`);
        const before = s.trace().length;
        const fn = (s as unknown as Record<string, (...a: unknown[]) => unknown>)[req.method];
        if (typeof fn !== 'function') throw new Error(`unknown step method ${req.method}`);
        const value = fn.apply(s, req.args ?? []);
        const from = req.method === 'rewind' || req.method === 'replay' ? 0 : before;
        scope.postMessage({ type: 'step.result', id: req.id, value: value ?? null, snapshot: snapshot(req.session, s, from) });
        return;
      }
      case 'step.close':
        sessions.delete(req.session);
        scope.postMessage({ type: 'step.result', id: req.id, value: null, snapshot: { session: req.session, time_us: 0, steps_taken: 0, pending: [], nodes: [], trace: [], choices: [] } });
        return;
      default:
        // A request this worker does not know gets an answer, never silence: a sender waiting
        // for one would otherwise wait forever.
        throw new Error(`unknown request type ${JSON.stringify((req as { type?: unknown }).type)}`);
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
