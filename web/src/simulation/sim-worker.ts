// The simulation worker: the simulator's own worker entry (sim/src/worker.ts) with the
// browser's engine loaders injected. A build without it answers every request with an error
// that says so.
/// <reference lib="webworker" />
import { loadBrowserEngine } from '../engines.ts';
import type { SimRequest, SimResponse } from './protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const ENTRY = Object.values(import.meta.glob('../../../sim/src/worker.ts'))[0];

type StartSimWorker = (scope: unknown, loadEngine: typeof loadBrowserEngine) => void;

if (ENTRY) {
  // Requests that arrive while the entry loads wait in the queue and are replayed to it.
  const early: MessageEvent[] = [];
  const hold = (e: MessageEvent) => early.push(e);
  scope.addEventListener('message', hold);
  void ENTRY().then((m) => {
    (m as { startSimWorker: StartSimWorker }).startSimWorker(scope, loadBrowserEngine);
    scope.removeEventListener('message', hold);
    for (const e of early) scope.dispatchEvent(new MessageEvent('message', { data: e.data }));
  });
} else {
  scope.addEventListener('message', (e: MessageEvent<SimRequest>) => {
    const reply: SimResponse = { type: 'error', id: e.data.id, message: 'the simulator’s runs are not part of this build yet', cancelled: false };
    scope.postMessage(reply);
  });
}
