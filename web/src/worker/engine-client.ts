// The page's side of the engine worker: one promise per request, resolved with its answer (or
// rejected with the worker's error, which carries the state as it then is).
import type { EngineRequest, EngineResponse } from './engine-protocol.ts';

type Body<R> = R extends { id: number } ? Omit<R, 'id'> : never;
export type EngineRequestBody = Body<EngineRequest>;
export type EngineAnswer = Exclude<EngineResponse, { type: 'loading' } | { type: 'error' }>;
type ErrorResponse = Extract<EngineResponse, { type: 'error' }>;

export class EngineRequestError extends Error {
  constructor(
    message: string,
    readonly response: ErrorResponse | null,
  ) {
    super(message);
  }
}

interface Waiting {
  resolve: (r: EngineAnswer) => void;
  reject: (e: EngineRequestError) => void;
  onLoading?: (what: string) => void;
}

export class EngineClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  constructor() {
    this.worker = new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e: MessageEvent<EngineResponse>) => {
      const m = e.data;
      const w = this.waiting.get(m.id);
      if (!w) return;
      if (m.type === 'loading') return w.onLoading?.(m.what);
      this.waiting.delete(m.id);
      if (m.type === 'error') w.reject(new EngineRequestError(m.message, m));
      else w.resolve(m);
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      const why = new EngineRequestError(e.message || 'the engine worker failed to load', null);
      for (const w of this.waiting.values()) w.reject(why);
      this.waiting.clear();
    };
  }

  request(body: EngineRequestBody, onLoading?: (what: string) => void): Promise<EngineAnswer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, onLoading });
      this.worker.postMessage({ ...body, id } as EngineRequest);
    });
  }

  close(): void {
    this.worker.terminate();
    const why = new EngineRequestError('closed', null);
    for (const w of this.waiting.values()) w.reject(why);
    this.waiting.clear();
  }
}
