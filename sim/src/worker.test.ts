import { describe, expect, it } from 'vitest';
import { startSimWorker } from './worker.ts';
import { loadEngine } from './cli/engines.ts';
import type { WorkerRequest, WorkerResponse } from './worker-protocol.ts';

// The worker's scope without a Worker: messages in through the listener, answers collected.
function fakeScope() {
  const answers: WorkerResponse[] = [];
  let listener: ((e: { data: WorkerRequest }) => void) | null = null;
  const scope = {
    postMessage: (m: WorkerResponse) => answers.push(m),
    addEventListener: (_type: 'message', l: (e: { data: WorkerRequest }) => void) => { listener = l; },
  };
  const send = (req: unknown) => listener!({ data: req as WorkerRequest });
  const answered = async (n: number) => {
    for (let i = 0; i < 1000 && answers.length < n; i++) await new Promise((r) => setTimeout(r, 0));
    return answers;
  };
  return { scope, send, answered };
}

describe('the simulator worker', () => {
  it('answers an unknown request with an error naming its type, and goes on serving', async () => {
    const { scope, send, answered } = fakeScope();
    startSimWorker(scope as never, loadEngine);
    send({ type: 'no.such.request', id: 7 });
    send({ type: 'step.create', id: 8, spec: { cluster: { engines: ['rust', 'rust', 'rust'], seed: 1 } } });
    const got = await answered(2);
    expect(got[0]).toMatchObject({ type: 'error', id: 7, cancelled: false });
    expect((got[0] as { message: string }).message).toContain('"no.such.request"');
    // The step session messages are served: the sim-chromium determinism check drives them.
    expect(got[1]).toMatchObject({ type: 'step.result', id: 8, value: 1 });
  });
});
