// The Learn view's side of the engine worker (web/src/worker/): one promise per lesson request,
// resolved with the live state after it (or rejected with the worker's error, which carries the
// state as it then is).
import type { LessonRequest, LiveState } from './lesson-protocol.ts';
import type { ExperimentSettings } from '@replicant/lessons/src/experiment';
import { EngineClient, EngineRequestError } from '../worker/engine-client.ts';

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

export class LessonClient {
  private readonly engines = new EngineClient();

  async request(body: LessonRequestBody, onLoading?: (what: string) => void): Promise<Answer> {
    try {
      const m = await this.engines.request(body, onLoading);
      if (m.type !== 'state') throw new LessonRequestError(`the engine worker answered a lesson request with ${m.type}`, null);
      return { live: m.live, ...(m.runs ? { runs: m.runs } : {}), ...(m.cost ? { cost: m.cost } : {}) };
    } catch (e) {
      if (e instanceof EngineRequestError) throw new LessonRequestError(e.message, e.response?.live ?? null);
      throw e;
    }
  }

  close(): void {
    this.engines.close();
  }
}
