// The cost model's Python package running in Pyodide, inside a Web Worker so the page stays
// responsive while Python starts (a few seconds) and computes.
/// <reference lib="webworker" />
import { ALL_FILES, CostModelInputError, installCostModel, type CostModel } from '@replicant/cost-model';
import type { CostRequest, CostResponse } from './cost-protocol.ts';
import { repoFiles } from './repo-files.ts';
import type { PyodideLike } from '@replicant/cost-model';

// The package's files and the data it reads, bundled as text into this worker's chunk.
const RAW = import.meta.glob(['@replicant/cost-model/src/replicant_cost/*.py', '@replicant/data/paper/paper-results.json', '@replicant/data/prices/*.csv'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

let model: CostModel | null = null;

const post = (m: CostResponse) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(m);

async function start(id: number, indexURL: string): Promise<void> {
  const t0 = performance.now();
  const { loadPyodide } = (await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)) as {
    loadPyodide: (o: { indexURL: string }) => Promise<PyodideLike>;
  };
  const pyodide = await loadPyodide({ indexURL });
  model = installCostModel(pyodide, repoFiles(RAW, ALL_FILES));
  post({ type: 'ready', id, startup_ms: Math.round(performance.now() - t0), python: String(pyodide.runPython('import sys; sys.version.split()[0]')) });
}

self.onmessage = async (e: MessageEvent<CostRequest>) => {
  const req = e.data;
  try {
    if (req.type === 'init') {
      if (!model) await start(req.id, req.pyodideIndexUrl);
      return;
    }
    if (!model) throw new Error('the cost model has not started');
    const t0 = performance.now();
    const text = model.run(req.command, req.inputs, req.format);
    post({ type: 'output', id: req.id, text, run_ms: Math.round(performance.now() - t0) });
  } catch (err) {
    if (err instanceof CostModelInputError) post({ type: 'input-error', id: req.id, message: err.message });
    else post({ type: 'failure', id: req.id, message: err instanceof Error ? err.message : String(err) });
  }
};
