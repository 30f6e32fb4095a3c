import { describe, expect, it } from 'vitest';
import { asAsync } from '../../loader/engine.ts';
import { wasmNodeEngine } from '../../loader/node-loaders.ts';
import { firstDivergence, runSequence, safetyProblems } from './differential.ts';

describe('the differential driver', async () => {
  const engine = asAsync(await wasmNodeEngine('go'));

  it('replays a seed to the same bytes and finds no divergence against itself', async () => {
    const a = await runSequence(engine, { seed: 42, steps: 150 });
    const b = await runSequence(engine, { seed: 42, steps: 150 });
    expect(firstDivergence(42, ['go', 'go'], a, b)).toBeNull();
    expect(a.steps.join('\n')).toContain('view n0'); // periodic inspect views are compared too
  });

  it('reports the first differing step and the final views', async () => {
    const a = await runSequence(engine, { seed: 7, steps: 60 });
    const b = { steps: [...a.steps], finalViews: [...a.finalViews] };
    b.steps[17] = b.steps[17] + '\nn9: {"type":"reply"}';
    expect(firstDivergence(7, ['x', 'y'], a, b)).toMatchObject({ seed: 7, step: 17 });
    const c = { steps: [...a.steps], finalViews: a.finalViews.map((v, i) => (i === 0 ? v + ' ' : v)) };
    expect(firstDivergence(7, ['x', 'y'], a, c)?.step).toBe(a.steps.length);
  });

  it('flags traced violations before any restart, and not after one', () => {
    const violation = 'deliver m3\nn0: {"type":"trace","kind":"violation","index":1,"reason":"command_mismatch"}';
    expect(safetyProblems({ steps: ['create', violation], finalViews: [] })).toHaveLength(1);
    expect(safetyProblems({ steps: ['create', 'restart n1\nn1: restarted', violation], finalViews: [] })).toHaveLength(0);
  });
});
