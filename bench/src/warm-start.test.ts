import { describe, expect, it } from 'vitest';
import { buildPlan, resolveOptions } from './plan.ts';
import { repetitionKey, WarmStarts } from './warm-start.ts';

const o = resolveOptions({ preset: 'scaled', engine: 'go,cpp', workload: 'a', ratio: '8,2', repetitions: '2' });
const plan = buildPlan(o);
const at = (id: string) => plan.find((s) => s.id === id)!;
const clean = (rate: number) => ({ best: { target_ops_per_s: rate }, stopped_by: null, errors: [] });

describe('where a search starts', () => {
  it('runs the first setting of a system cold, the next memory size from its answer, a repetition from its own earlier answer', () => {
    const w = new WarmStarts();
    expect(w.hintFor(at('go-a-r8-8vcpu-rep1'))).toBeUndefined();
    w.remember(at('go-a-r8-8vcpu-rep1'), clean(18_321));
    expect(w.hintFor(at('go-a-r2-8vcpu-rep1'))).toBe(18_321);
    expect(w.sourceOf(at('go-a-r2-8vcpu-rep1'))).toBe('previous memory size');
    expect(w.hintFor(at('cpp-a-r8-8vcpu-rep1'))).toBeUndefined();
    w.remember(at('go-a-r2-8vcpu-rep1'), clean(16_489));
    // repetition 2 at ratio 8 had no hint before; now it starts at repetition 1's ratio-8 answer,
    // and its ratio 2 at repetition 1's ratio-2 answer, not at its own ratio 8's
    expect(w.hintFor(at('go-a-r8-8vcpu-rep2'))).toBe(18_321);
    w.remember(at('go-a-r8-8vcpu-rep2'), clean(18_500));
    expect(w.hintFor(at('go-a-r2-8vcpu-rep2'))).toBe(16_489);
    expect(w.sourceOf(at('go-a-r2-8vcpu-rep2'))).toBe('previous repetition');
  });

  it('carries no answer a disturbed probe stopped or an error spoiled, and forgets the one it replaced', () => {
    const w = new WarmStarts();
    w.remember(at('go-a-r8-8vcpu-rep1'), clean(18_321));
    w.remember(at('go-a-r2-8vcpu-rep1'), { best: { target_ops_per_s: 900 }, stopped_by: { target_ops_per_s: 1_200 }, errors: [] });
    expect(w.hintFor(at('go-a-r2-8vcpu-rep2'))).toBeUndefined();
    expect(w.sourceOf(at('go-a-r2-8vcpu-rep2'))).toBeNull();
    w.remember(at('go-a-r8-8vcpu-rep2'), { best: { target_ops_per_s: 18_000 }, stopped_by: null, errors: ['restarted the cluster'] });
    expect(w.hintFor(at('go-a-r2-8vcpu-rep2'))).toBeUndefined();
  });

  it('tells settings apart by everything but the repetition', () => {
    expect(repetitionKey(at('go-a-r8-8vcpu-rep1'))).toBe(repetitionKey(at('go-a-r8-8vcpu-rep2')));
    expect(repetitionKey(at('go-a-r8-8vcpu-rep1'))).not.toBe(repetitionKey(at('go-a-r2-8vcpu-rep1')));
    expect(repetitionKey(at('go-a-r8-8vcpu-rep1'))).not.toBe(repetitionKey(at('cpp-a-r8-8vcpu-rep1')));
  });
});
