// Asks a worker host (ClusterHost, TortureHost) one request at a time, numbering them, and returns
// the one answer each gets besides its loading notices: how the hosts' tests talk to them without
// a Worker in between.
import type { EngineResponse } from '../worker/engine-protocol.ts';

type Handle<R> = (request: R, reply: (answer: EngineResponse) => void) => Promise<void>;

export function oneAnswerAsker<R>(handle: Handle<R>): (body: Record<string, unknown>) => Promise<EngineResponse> {
  let id = 0;
  return async (body) => {
    const out: EngineResponse[] = [];
    // structuredClone: what a postMessage would deliver, so no answer shares state with the host.
    await handle({ ...body, id: ++id } as R, (r) => out.push(structuredClone(r)));
    const answers = out.filter((r) => r.type !== 'loading');
    if (answers.length !== 1) throw new Error(`expected one answer, got ${answers.length}: ${JSON.stringify(answers).slice(0, 400)}`);
    return answers[0]!;
  };
}
