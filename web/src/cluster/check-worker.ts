// The linearizability checker's worker: Porcupine compiled to WebAssembly (checker/), loaded on
// the first request. Messages: {id, history} in; {id, verdict, html} or {id, error} out.
/// <reference lib="webworker" />
import { createChecker, type Checker, type GoConstructor, type HistoryOp } from '@replicant/checker/lincheck';

const WASM = import.meta.glob('@replicant/checker/dist/lincheck.wasm', { query: '?url', import: 'default' }) as Record<string, () => Promise<string>>;
const GLUE = import.meta.glob('@replicant/checker/dist/wasm_exec.js');

let checker: Promise<Checker> | null = null;

async function load(): Promise<Checker> {
  const wasm = Object.values(WASM)[0];
  const glue = Object.values(GLUE)[0];
  if (!wasm || !glue) throw new Error('the checker is not part of this build (run npm run build)');
  const [url] = await Promise.all([wasm(), glue()]); // wasm_exec.js installs globalThis.Go
  const module = await WebAssembly.compileStreaming(fetch(url));
  return createChecker(module, (globalThis as unknown as { Go: GoConstructor }).Go);
}

self.onmessage = async (e: MessageEvent<{ id: number; history: HistoryOp[] }>) => {
  const { id, history } = e.data;
  try {
    checker ??= load();
    const out = (await checker).check(history, { html: true });
    self.postMessage({ id, verdict: out.verdict, html: out.html });
  } catch (err) {
    checker = null;
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
