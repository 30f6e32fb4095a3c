// The page's side of the lesson worker: one promise per request, resolved with the live state
// after it (or rejected with the worker's error, which carries the state as it then is).
import type { LessonRequest, LessonResponse, LiveState } from './lesson-protocol.ts';
import type { ExperimentSettings } from '@replicant/lessons/src/experiment';

type Body<R> = R extends { id: number } ? Omit<R, 'id'> : never;
export type LessonRequestBody = Body<LessonRequest>;

export class LessonRequestError extends Error {
  constructor(
    message: string,
    readonly live: LiveState | null,
  ) {
    super(message);
  }
}

export interface Answer {
  live: LiveState;
  runs?: ExperimentSettings[];
  cost?: Record<string, string>;
}

interface Waiting {
  resolve: (r: Answer) => void;
  reject: (e: LessonRequestError) => void;
  onLoading?: (what: string) => void;
}

export class LessonClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  constructor() {
    this.worker = new Worker(new URL('./lesson-worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e: MessageEvent<LessonResponse>) => {
      const m = e.data;
      const w = this.waiting.get(m.id);
      if (!w) return;
      if (m.type === 'loading') return w.onLoading?.(m.what);
      this.waiting.delete(m.id);
      if (m.type === 'state') w.resolve({ live: m.live, ...(m.runs ? { runs: m.runs } : {}), ...(m.cost ? { cost: m.cost } : {}) });
      else w.reject(new LessonRequestError(m.message, m.live));
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      const why = new LessonRequestError(e.message || 'the lesson worker failed to load', null);
      for (const w of this.waiting.values()) w.reject(why);
      this.waiting.clear();
    };
  }

  request(body: LessonRequestBody, onLoading?: (what: string) => void): Promise<Answer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, onLoading });
      this.worker.postMessage({ ...body, id } as LessonRequest);
    });
  }

  close(): void {
    this.worker.terminate();
    const why = new LessonRequestError('closed', null);
    for (const w of this.waiting.values()) w.reject(why);
    this.waiting.clear();
  }
}
