// The checkpoint predicates on hand-made inspect views: each says what it expected and quotes
// what the state holds; a down node never satisfies a predicate about its state.
import { describe, expect, it } from 'vitest';
import { evaluate, type World } from './checkpoints.ts';
import type { NodeView } from './views.ts';
import { paper } from './node/load-dir.ts';
import { percentile, stallLatencies, exampleFromPaper, modelValue } from './model.ts';
import { fillToString } from './template.ts';

function node(id: number, o: Partial<NodeView> = {}): NodeView {
  return {
    id,
    role: 'follower',
    ballot: 257,
    leader: 1,
    last_index: 2,
    last_executed: 2,
    global_last_executed: 1,
    log: [{ index: 2, ballot: 257, state: 'executed', command: { type: 'put', key: 'x', value: '1' } }],
    kv: { size: 1, digest: 'aa', entries: [['x', '1']] },
    prepare: null,
    counters: { violations: 0 },
    ...o,
  };
}

function world(views: (NodeView | null)[], effects = ''): World {
  return { views, effects: () => effects, paper: paper() };
}

describe('checkpoint predicates', () => {
  const w = world([node(0), node(1, { role: 'leader' }), null]);

  it('leader: holds only if the running nodes follow it', () => {
    expect(evaluate({ check: 'leader', node: 1 }, w)).toMatchObject({ ok: true, saw: 'n0: follows n1; n1: leader; n2: down' });
    expect(evaluate({ check: 'leader', node: 1 }, world([node(0, { leader: 2 }), node(1, { role: 'leader' })])).ok).toBe(false);
  });

  it('executed on all fails when a node is down; on majority it holds', () => {
    expect(evaluate({ check: 'executed', index: 2, on: 'all' }, w).ok).toBe(false);
    expect(evaluate({ check: 'executed', index: 2, on: 'majority' }, w).ok).toBe(true);
    expect(evaluate({ check: 'executed', index: 2, on: 'up' }, w).ok).toBe(true);
    expect(evaluate({ check: 'executed', index: 3, on: 'up' }, w)).toMatchObject({ ok: false, saw: 'n0: executed through 2; n1: executed through 2' });
  });

  it('instance: in the log, trimmed below gle, absent above', () => {
    expect(evaluate({ check: 'instance', node: 0, index: 2, is: 'executed' }, w).saw).toBe('n0 index 2: executed (put x 1, ballot 1.1)');
    expect(evaluate({ check: 'instance', node: 0, index: 1, is: 'trimmed' }, w).ok).toBe(true);
    expect(evaluate({ check: 'instance', node: 0, index: 5, is: 'absent' }, w).ok).toBe(true);
    expect(evaluate({ check: 'instance', node: 2, index: 1, is: 'absent' }, w).ok).toBe(false);
  });

  it('kv, same_state, gle, ballot, behind, counter, down', () => {
    expect(evaluate({ check: 'kv', on: [0, 1], key: 'x', value: '1' }, w).ok).toBe(true);
    expect(evaluate({ check: 'kv', on: [0], key: 'y', value: null }, w).ok).toBe(true);
    expect(evaluate({ check: 'same_state', on: 'all' }, w).ok).toBe(false);
    expect(evaluate({ check: 'same_state', on: 'up' }, w).ok).toBe(true);
    expect(evaluate({ check: 'gle', on: 'up', at_least: 1, at_most: 1 }, w).ok).toBe(true);
    expect(evaluate({ check: 'ballot', node: 0, round_at_least: 2 }, w)).toMatchObject({ ok: false, saw: 'n0: ballot 1.1' });
    expect(evaluate({ check: 'ballot', node: 0, led_by: 1 }, w).ok).toBe(true);
    expect(evaluate({ check: 'behind', node: 0, than: 1, by_at_least: 1 }, world([node(0, { last_executed: 1 }), node(1)])).ok).toBe(true);
    expect(evaluate({ check: 'counter', node: 0, name: 'violations', at_least: 1 }, w).ok).toBe(false);
    expect(evaluate({ check: 'down', node: 2 }, w).ok).toBe(true);
  });

  it('violation reads the engines’ trace', () => {
    const line = '{"type":"trace","kind":"violation","index":1,"reason":"command_mismatch"}';
    expect(evaluate({ check: 'violation', present: true }, world([node(0)], `${line}\n`))).toMatchObject({ ok: true, saw: `trace: ${line}` });
    expect(evaluate({ check: 'violation', present: true }, w).ok).toBe(false);
  });

  it('paper and model checks quote their source', () => {
    const r = evaluate({ check: 'paper', id: 'fig4b-java-a-5gib-8vcpu-p99-latency-intended', compare: '>', to: 'fig4b-cpp-a-5gib-8vcpu-p99-latency-intended' }, w);
    expect(r.ok).toBe(true);
    expect(r.saw).toContain('966 ms');
    expect(r.saw).toContain('Java’s 99th percentile latency (966 ms)'.replace('’', "'"));
    expect(evaluate({ check: 'paper', id: 'no-such', compare: '=', to: 1 }, w)).toMatchObject({ ok: false, saw: 'not in data/paper' });
    expect(evaluate({ check: 'model', metric: 'co.closed_p95_ms', compare: '=', to: 'sec4-5-example-p95-latency-closed-loop' }, w).ok).toBe(true);
  });

  it('placeholders read the live state', () => {
    expect(fillToString('{{n1.role}} at {{n1.ballot}}, x={{n0.kv.x}}, {{leader}}, {{n2.role}}', { world: w })).toBe('leader at 1.1, x=1, n1, down');
    expect(fillToString('{{paper:sec5-1-all-slo-p99-latency}}', { world: w })).toBe('20 ms');
  });
});

describe('the coordinated-omission model', () => {
  it('nearest-rank percentiles', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4], 100)).toBe(4);
    expect(() => percentile([], 50)).toThrow();
  });

  it('reproduces the paper’s stated closed-loop p95 and its open-loop lower bound', () => {
    const facts = paper();
    const { closed_ms, open_ms } = stallLatencies(exampleFromPaper(facts));
    expect(closed_ms).toHaveLength(100);
    expect(percentile(closed_ms, 95)).toBe(facts.get('sec4-5-example-p95-latency-closed-loop')!.value);
    expect(percentile(open_ms, 95)).toBeGreaterThanOrEqual(facts.get('sec4-5-example-p95-latency-open-loop')!.value as number);
    expect(modelValue('co.closed_mean_ms', facts)).toBe(11);
  });
});
