// The engine worker: the wasm engines, their step sessions, a lesson's run and the Cluster view's
// controller live here, off the page's main thread. No UI code: the hosts compute, the pages
// draw. Requests are handled one at a time, in the order they came.
/// <reference lib="webworker" />
import { loadBrowserEngine } from '../engines.ts';
import { loadSim } from '../simulation/sim-module.ts';
import { LessonHost } from '../learn/lesson-host.ts';
import { ClusterHost } from '../cluster/cluster-host.ts';
import type { TortureHost } from '../cluster/torture-host.ts';
import { loadBrowserChecker } from '../cluster/checker-loader.ts';
import type { EngineRequest, EngineResponse } from './engine-protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const lessons = new LessonHost(loadBrowserEngine, loadSim);
const cluster = new ClusterHost(loadBrowserEngine, loadSim);
// The torture modules (and Porcupine) load with the first replay: a lesson never needs them.
let torture: Promise<TortureHost> | null = null;
const tortureHost = () => (torture ??= import('../cluster/torture-host.ts').then(({ TortureHost }) => new TortureHost(loadBrowserEngine, loadBrowserChecker)));
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (e: MessageEvent<EngineRequest>) => {
  const m = e.data;
  const reply = (r: EngineResponse) => scope.postMessage(r);
  queue = queue.then(async () => {
    if (m.type === 'cluster-torture' || m.type === 'cluster-torture-goto') return (await tortureHost()).handle(m, reply);
    if (m.type.startsWith('cluster-')) return cluster.handle(m as Parameters<ClusterHost['handle']>[0], reply);
    return lessons.handle(m as Parameters<LessonHost['handle']>[0], reply);
  });
};
