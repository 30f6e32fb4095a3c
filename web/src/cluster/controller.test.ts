import { describe, expect, it } from 'vitest';
import { createStepSession } from '@replicant/sim';
import { provider } from '@replicant/sim/cli/engines';
import { ClusterController, cutsFromChoices } from './controller.ts';

describe('cutsFromChoices', () => {
  it('follows cuts, repeats and heals in order', () => {
    expect(cutsFromChoices(['cut 0 1', 'deliver 4', 'cut 1 0', 'cut 0 1'])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(cutsFromChoices(['cut 0 1', 'heal', 'cut 2 0'])).toEqual([[2, 0]]);
  });
});

describe('ClusterController on the real Go engine', () => {
  it('replays recorded choices to any step and reports identical engines', async () => {
    const provide = await provider(['go']);
    const make = () => createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 4 } }, provide);
    const c = new ClusterController(
      [
        { engine: 'go', session: make() },
        { engine: 'go', session: make() },
      ],
      3,
    );
    for (let i = 0; i < 8; i++) c.apply({ kind: 'next' });
    const end = c.snapshot();
    expect(end.comparison?.identical).toBe(true);
    expect(c.load(end.choices, 5)).toBe(end.step);
    expect(c.snapshot().step).toBe(5);
    c.load(end.choices, Number.MAX_SAFE_INTEGER);
    expect(c.snapshot().inspect).toEqual(end.inspect);
  });
  it('names the first difference when two engines disagree', async () => {
    const provide = await provider(['go']);
    const a = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 4 } }, provide);
    const b = createStepSession({ cluster: { engines: ['go', 'go', 'go'], seed: 5 } }, provide); // another seed: other timers
    const c = new ClusterController(
      [
        { engine: 'go', session: a },
        { engine: 'java', session: b },
      ],
      3,
    );
    expect(c.snapshot().comparison).toMatchObject({ identical: false });
    expect(c.snapshot().comparison!.detail).toMatch(/java and go differ at step \d+: n\d emitted different effects/);
  });
});
