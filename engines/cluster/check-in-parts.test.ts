import type { HistoryOp } from '@replicant/checker/lincheck';
import { checkNative } from '@replicant/checker/node';
import { describe, expect, it } from 'vitest';
import { CHECKER_MAX_OPERATIONS, checkInParts, splitByKeys } from './check-in-parts.ts';

/** One client writing then reading back each of `keys` keys in turn, `rounds` times: linearizable. */
function sequentialHistory(keys: number, rounds: number): HistoryOp[] {
  const ops: HistoryOp[] = [];
  let t = 0;
  for (let r = 0; r < rounds; r++)
    for (let k = 0; k < keys; k++) {
      const value = `v${r}`;
      ops.push({ client: 0, op: 'put', key: `k${k}`, value, call_us: t++, return_us: t++, result: 'ok' });
      ops.push({ client: 0, op: 'get', key: `k${k}`, value, call_us: t++, return_us: t++, result: 'ok' });
    }
  return ops;
}

describe('checkInParts', () => {
  it('splits by whole keys, each part within the bound, every operation once and in order', () => {
    const history = sequentialHistory(7, 5); // 70 operations, 10 per key
    const parts = splitByKeys(history, 25);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(p.ops.length).toBeLessThanOrEqual(25);
      expect(p.indices).toEqual([...p.indices].sort((a, b) => a - b));
      expect(p.ops).toEqual(p.indices.map((i) => history[i]));
    }
    expect(parts.flatMap((p) => p.indices).sort((a, b) => a - b)).toEqual(history.map((_, i) => i));
    const keysOf = parts.map((p) => new Set(p.ops.map((o) => o.key)));
    for (const [i, a] of keysOf.entries()) for (const b of keysOf.slice(i + 1)) for (const k of a) expect(b.has(k)).toBe(false);
    expect(() => splitByKeys(history, 9)).toThrow(/key "k0" has 10 operations/);
  });

  // A 180 s reset run with the peers connected directly (stop 34): a shared key with well over
  // 100,000 operations overflowed the stack of `push(...xs)` while the parts were grouped.
  it('groups a key with 150,000 operations (a spread that large overflowed the stack)', () => {
    const parts = splitByKeys(sequentialHistory(2, 75_000), CHECKER_MAX_OPERATIONS);
    expect(parts.map((p) => p.ops.length)).toEqual([150_000, 150_000]);
  });

  it('finds a stale read in any part and names it by its place in the whole history', () => {
    const history = sequentialHistory(7, 5);
    // the last read of k5 (round 4) returns the value of round 3: not linearizable
    const stale = 2 * (4 * 7 + 5) + 1;
    expect(history[stale]).toMatchObject({ op: 'get', key: 'k5', value: 'v4' });
    history[stale] = { ...history[stale]!, value: 'v3' };
    const v = checkInParts(history, (ops) => checkNative(ops, 30), 25);
    expect(v.verdict).toBe('violation');
    expect(v.violating_keys).toEqual(['k5']);
    expect(v.suspect_operations).toContain(stale);
    expect(v.operations).toBe(history.length);
    expect(v.keys).toBe(7);
  });

  // The 60 s reset run on Rust at load average 17 recorded more than the checker's limit and
  // failed with "history line 200001: more than 200000 operations" (checkNative alone, below)
  it('checks a history longer than the checker takes at once', () => {
    const history = sequentialHistory(1000, 101); // 202,000 operations
    expect(history.length).toBeGreaterThan(CHECKER_MAX_OPERATIONS);
    expect(() => checkNative(history, 30)).toThrow(/more than 200000 operations/);
    const v = checkInParts(history, (ops) => checkNative(ops, 30));
    expect(v.verdict).toBe('linearizable');
    expect(v.operations).toBe(history.length);
  }, 60_000);
});
