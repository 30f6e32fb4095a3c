// The page's side of the simulation worker: one job at a time, progress as it comes, and a
// cancel that stops the job at once (the worker is terminated and a fresh one started).
import type { RunResult, RunSpec, SloSearchResult, SloSearchSpec, SweepResult, SweepSpec } from '@replicant/sim/api';
import type { SimRequest, SimResponse } from './protocol.ts';

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

export interface Progress {
  fraction: number;
  label: string;
}

export class SimRunner {
  private worker: Worker | null = null;
  private nextId = 1;
  private current: { id: number; reject: (e: Error) => void } | null = null;

  private ensure(): Worker {
    this.worker ??= new Worker(new URL('./sim-worker.ts', import.meta.url), { type: 'module' });
    return this.worker;
  }

  private start<T>(job: Omit<SimRequest, 'id'>, onProgress: (p: Progress) => void): Promise<{ result: T; wall_ms: number }> {
    this.cancel();
    const worker = this.ensure();
    const id = this.nextId++;
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      this.current = { id, reject };
      worker.onmessage = (e: MessageEvent<SimResponse>) => {
        const m = e.data;
        if (m.id !== id) return;
        if (m.type === 'progress') onProgress({ fraction: m.fraction, label: job.type === 'run' ? 'simulating' : 'searching for the highest rate that meets the SLO' });
        else if (m.type === 'error') {
          this.current = null;
          reject(m.cancelled ? new CancelledError() : new Error(m.message));
        } else if (m.type === 'run.result' || m.type === 'search.result' || m.type === 'sweep.result') {
          this.current = null;
          resolve({ result: m.result as T, wall_ms: Math.round(performance.now() - t0) });
        }
      };
      worker.onerror = (e) => {
        this.current = null;
        this.worker = null;
        reject(new Error(e.message || 'the simulation worker failed to load'));
      };
      worker.postMessage({ ...job, id } as SimRequest);
    });
  }

  run(spec: RunSpec, onProgress: (p: Progress) => void) {
    return this.start<RunResult>({ type: 'run', spec }, onProgress);
  }

  search(spec: SloSearchSpec, onProgress: (p: Progress) => void) {
    return this.start<SloSearchResult>({ type: 'search', spec }, onProgress);
  }

  sweep(spec: SweepSpec, onProgress: (p: Progress) => void) {
    return this.start<SweepResult>({ type: 'sweep', spec }, onProgress);
  }

  /** Stops the job in progress (if any) at once. */
  cancel(): void {
    if (!this.current) return;
    this.worker?.terminate();
    this.worker = null;
    const { reject } = this.current;
    this.current = null;
    reject(new CancelledError());
  }

  close(): void {
    this.cancel();
    this.worker?.terminate();
    this.worker = null;
  }
}
