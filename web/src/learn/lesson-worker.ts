// The lesson worker: the wasm engines and the lesson's run live here, off the page's main
// thread (lesson-host.ts does the work; lesson-protocol.ts is what crosses). Requests are
// handled one at a time, in the order they came.
/// <reference lib="webworker" />
import { loadBrowserEngine } from '../engines.ts';
import { loadSim } from '../simulation/sim-module.ts';
import { LessonHost } from './lesson-host.ts';
import type { LessonRequest, LessonResponse } from './lesson-protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const host = new LessonHost(loadBrowserEngine, loadSim);
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (e: MessageEvent<LessonRequest>) => {
  const m = e.data;
  queue = queue.then(() => host.handle(m, (r: LessonResponse) => scope.postMessage(r)));
};
