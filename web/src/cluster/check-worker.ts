// The linearizability checker's worker: Porcupine compiled to WebAssembly (checker/), loaded on
// the first request. Messages: {id, history} in; {id, verdict, html} or {id, error} out.
/// <reference lib="webworker" />
import type { Checker, HistoryOp } from '@replicant/checker/lincheck';
import { loadBrowserChecker } from './checker-loader.ts';

let checker: Promise<Checker> | null = null;

self.onmessage = async (e: MessageEvent<{ id: number; history: HistoryOp[] }>) => {
  const { id, history } = e.data;
  try {
    checker ??= loadBrowserChecker();
    const out = (await checker).check(history, { html: true });
    self.postMessage({ id, verdict: out.verdict, html: out.html });
  } catch (err) {
    checker = null;
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
