// The page's side of the cost worker: starts it on first use, matches answers to requests.
import type { CostCommand, CostFormat, CostRequest, CostResponse } from './cost-protocol.ts';

export class CostInputError extends Error {}

export type CostStatus = { state: 'idle' } | { state: 'starting' } | { state: 'ready'; startup_ms: number; python: string } | { state: 'failed'; message: string };

type Pending = { resolve: (r: CostResponse) => void };
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export class CostClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private ready: Promise<void> | null = null;

  constructor(private readonly onStatus: (s: CostStatus) => void) {}

  private send(req: WithoutId<CostRequest>): Promise<CostResponse> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve });
      this.worker!.postMessage({ ...req, id } as CostRequest);
    });
  }

  /** Starts Pyodide once; later calls wait for the same start. */
  start(): Promise<void> {
    if (this.ready) return this.ready;
    this.onStatus({ state: 'starting' });
    this.worker = new Worker(new URL('./cost-worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e: MessageEvent<CostResponse>) => {
      const p = this.pending.get(e.data.id);
      this.pending.delete(e.data.id);
      p?.resolve(e.data);
    };
    this.worker.onerror = (e) => {
      const message = e.message || 'the cost worker could not load';
      this.onStatus({ state: 'failed', message });
      for (const p of this.pending.values()) p.resolve({ type: 'failure', id: 0, message });
      this.pending.clear();
    };
    const indexUrl = new URL('pyodide/', document.baseURI).href;
    this.ready = this.send({ type: 'init', pyodideIndexUrl: indexUrl }).then((r) => {
      if (r.type === 'ready') {
        this.onStatus({ state: 'ready', startup_ms: r.startup_ms, python: r.python });
        return;
      }
      const message = r.type === 'failure' || r.type === 'input-error' ? r.message : 'unexpected answer';
      this.onStatus({ state: 'failed', message });
      throw new Error(message);
    });
    return this.ready;
  }

  /** Runs a command; bad inputs reject with CostInputError carrying the model's message. */
  async run(command: CostCommand, inputs: unknown, format: CostFormat = 'json'): Promise<string> {
    await this.start();
    const r = await this.send({ type: 'run', command, inputs: JSON.stringify(inputs), format });
    if (r.type === 'output') return r.text;
    if (r.type === 'input-error') throw new CostInputError(r.message);
    throw new Error(r.type === 'failure' ? r.message : 'unexpected answer from the cost worker');
  }

  close(): void {
    this.worker?.terminate();
    this.worker = null;
    this.ready = null;
  }
}
