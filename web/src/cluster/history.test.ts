import { describe, expect, it } from 'vitest';
import type { TraceEntry } from '@replicant/sim/api';
import { historyFromTrace } from './history.ts';

const client = (step: number, t: number, rid: number, line: string, effects = ''): TraceEntry => ({
  step, t_us: t, node: 0, event: JSON.stringify({ type: 'client', client_id: 1, request_id: rid, line }), effects, notes: [],
});
const reply = (rid: number, result: string, value?: string) =>
  JSON.stringify({ type: 'reply', client_id: 1, request_id: rid, result, ...(value !== undefined ? { value } : {}) }) + '\n';
const step = (n: number, t: number, effects: string): TraceEntry => ({ step: n, t_us: t, node: 0, event: '{"type":"timer","timer":"commit"}', effects, notes: [] });

describe('historyFromTrace', () => {
  it('makes one operation per command, from arrival to reply', () => {
    const h = historyFromTrace([client(1, 10.5, 1, 'put k v 1'), step(2, 20.2, reply(1, 'ok', '')), client(3, 30, 2, 'get k'), step(4, 40, reply(2, 'ok', 'v 1'))]);
    expect(h.ops).toEqual([
      { client: 1, op: 'put', key: 'k', value: 'v 1', call_us: 10, return_us: 21, result: 'ok' },
      { client: 2, op: 'get', key: 'k', call_us: 30, return_us: 40, result: 'ok', value: 'v 1' },
    ]);
    expect(h.steps).toEqual([1, 3]);
  });
  it('leaves out commands turned away on arrival, and marks later give-ups and silence unknown', () => {
    const h = historyFromTrace([
      client(1, 1, 1, 'put k a', reply(1, 'leader_is', undefined)),
      client(2, 2, 2, 'put k b'),
      step(3, 3, reply(2, 'retry')),
      client(4, 4, 3, 'del k'),
      client(5, 5, 4, 'bogus'),
    ]);
    expect(h.rejected).toBe(2);
    expect(h.ops.map((o) => [o.value ?? o.op, o.result, o.return_us])).toEqual([['b', 'unknown', undefined], ['del', 'unknown', undefined]]);
  });
});
