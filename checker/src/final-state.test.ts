import { describe, expect, it } from 'vitest';
import { lostAcknowledgedWrites } from './final-state.ts';
import type { HistoryOp } from './lincheck.ts';

const put = (value: string, call: number, ret?: number): HistoryOp =>
  ret === undefined ? { client: 0, op: 'put', key: 'k', value, call_us: call, result: 'unknown' } : { client: 0, op: 'put', key: 'k', value, call_us: call, return_us: ret, result: 'ok' };

describe('lost acknowledged writes', () => {
  it('flags an acknowledged put that began after the final value was written', () => {
    const h = [put('a', 0, 10), put('b', 20, 30)];
    expect(lostAcknowledgedWrites(h, new Map([['k', 'a']])).map((l) => l.op)).toEqual([1]);
    expect(lostAcknowledgedWrites(h, new Map([['k', 'b']]))).toEqual([]);
  });
  it('accepts overlapping writes and unknown outcomes', () => {
    expect(lostAcknowledgedWrites([put('a', 0, 25), put('b', 20, 30)], new Map([['k', 'a']]))).toEqual([]);
    expect(lostAcknowledgedWrites([put('a', 0), put('b', 20, 30)], new Map([['k', 'a']]))).toEqual([]);
  });
  it('an absent key: lost unless a delete may have come last', () => {
    expect(lostAcknowledgedWrites([put('a', 0, 10)], new Map([['k', undefined]])).length).toBe(1);
    const del: HistoryOp = { client: 1, op: 'del', key: 'k', call_us: 5, return_us: 40, result: 'ok' };
    expect(lostAcknowledgedWrites([put('a', 0, 10), del], new Map([['k', undefined]]))).toEqual([]);
  });
  it('a value nobody wrote', () => {
    expect(lostAcknowledgedWrites([put('a', 0, 10)], new Map([['k', 'zz']]))[0]!.op).toBe(-1);
  });
});
