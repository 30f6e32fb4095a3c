// Cost checkpoints and placeholders read the cost model's answer (its `estimate` output); the
// validator keeps them to steps that show the Cost view.
import { describe, expect, it } from 'vitest';
import { evaluate, type World } from './checkpoints.ts';
import { readEstimate, type EstimateLike } from './cost.ts';
import { fillToString } from './template.ts';
import { paper, readLessonFolders } from './node/load-dir.ts';
import { validateLesson } from './validate.ts';

// Shaped as the model prints it (cost-model/README.md); the numbers are only this test's.
const estimate = (month: number | null): EstimateLike => ({
  break_even: { gc: 'Java', non_gc: 'C++', month, horizon_months: 60 },
  languages: { 'C++': { feasible: true, capacity_ops_per_s_per_cluster: 30000 }, Java: { feasible: true, capacity_ops_per_s_per_cluster: 17000 }, Go: { feasible: false } },
  model: { name: 'replicant_cost', version: '9.9' },
});
const world = (month: number | null, ratio = 8): World => ({ views: [], effects: () => '', paper: paper(), cost: readEstimate({ cluster: { workload: 'A', memory_to_data_ratio: ratio, vcpus: 8 } }, estimate(month)) });

describe('cost checkpoints', () => {
  it('compare a language’s capacity with another’s from the same answer, quoting it', () => {
    const r = evaluate({ check: 'cost', metric: 'capacity_ops_per_s_per_cluster', language: 'Java', compare: '<', to: 'cost:capacity_ops_per_s_per_cluster:C++' }, world(49));
    expect(r.ok).toBe(true);
    expect(r.saw).toBe('cost model replicant_cost 9.9; workload A, memory:data 8, 8 vCPUs, C++ vs Java: 17,000 ops/s per cluster');
    expect(evaluate({ check: 'cost', metric: 'capacity_ops_per_s_per_cluster', language: 'Go', compare: '>', to: 0 }, world(49)).ok).toBe(false);
  });

  it('a break-even month must be within reach; none counts as never; a setting must match', () => {
    const within = { check: 'cost', metric: 'break_even_month', compare: '<=', to: 12 } as const;
    expect(evaluate(within, world(1)).ok).toBe(true);
    expect(evaluate(within, world(49)).ok).toBe(false);
    expect(evaluate(within, world(null)).saw).toMatch(/never within 60 months/);
    expect(evaluate(within, world(null)).ok).toBe(false);
    expect(evaluate({ ...within, ratio: 1.25 }, world(1, 8)).ok).toBe(false);
    expect(evaluate({ ...within, ratio: 1.25 }, world(1, 1.25)).ok).toBe(true);
  });

  it('before the model answers, nothing holds and the check says why', () => {
    const r = evaluate({ check: 'cost', metric: 'break_even_month', compare: '<=', to: 60 }, { views: [], effects: () => '', paper: paper(), cost: null });
    expect(r).toMatchObject({ ok: false, saw: 'the cost model has not answered yet (the Cost view computes it)' });
  });

  it('placeholders read the answer: a month as a number, a capacity in words', () => {
    expect(fillToString('{{cost:break_even_month}}', { world: world(7) })).toBe('7');
    expect(fillToString('{{cost:capacity_ops_per_s_per_cluster:C++}}', { world: world(7) })).toBe('30,000 ops/s per cluster');
    expect(fillToString('{{cost:break_even_month}}', { world: { ...world(7), cost: null } })).toBe('(the cost model is computing)');
  });
});

describe('the validator on cost steps', () => {
  const lesson = readLessonFolders().find((f) => f.folder === '14-what-it-costs')!;
  it('accepts lesson 14', () => {
    expect(validateLesson(lesson, paper()).errors).toEqual([]);
  });
  it('refuses a cost check on a step that does not show the Cost view, and a cost action outside "show me"', () => {
    const s = JSON.parse(lesson.scenario!);
    s.steps[0].checkpoints.push({ check: 'cost', metric: 'break_even_month', compare: '<=', to: 60 });
    s.steps[0].actions = [{ do: 'cost', settings: { 'cost.ratio': '2' } }];
    const messages = validateLesson({ ...lesson, scenario: JSON.stringify(s, null, 2) }, paper()).errors.map((e) => e.message);
    expect(messages).toContain('this step reads the cost model, but does not show the Cost view (its "panel" view is paper)');
    expect(messages).toContain('a "cost" action belongs in an exercise\'s show_me (the student sets the Cost view)');
  });
});
