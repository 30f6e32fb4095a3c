import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckerError, formatHistory, type HistoryOp } from './lincheck.ts';
import { CHECKER_DIST, checkNative, loadChecker } from './node.ts';

const testdata = join(CHECKER_DIST, '..', 'testdata');

describe('the wasm checker (Porcupine)', () => {
  it('accepts every ok-* history and rejects every bad-* one, like the native package', async () => {
    const checker = await loadChecker();
    const files = readdirSync(testdata).filter((f) => f.endsWith('.jsonl'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) {
      const { verdict } = checker.check(readFileSync(join(testdata, f), 'utf8'));
      expect([f, verdict.verdict]).toEqual([f, f.startsWith('ok-') ? 'linearizable' : 'violation']);
    }
  });

  it('checks operations given as objects and names the suspects', async () => {
    const checker = await loadChecker();
    const ops: HistoryOp[] = [
      { client: 0, op: 'put', key: 'k', value: 'a', call_us: 0, return_us: 10, result: 'ok' },
      { client: 0, op: 'put', key: 'k', value: 'b', call_us: 20, return_us: 30, result: 'ok' },
      { client: 1, op: 'get', key: 'k', value: 'a', call_us: 40, return_us: 50, result: 'ok' },
      { client: 2, op: 'put', key: 'j', value: 'x', call_us: 0, result: 'unknown' },
    ];
    const out = checker.check(ops, { html: true });
    expect(out.verdict.verdict).toBe('violation');
    expect(out.verdict.violating_keys).toEqual(['k']);
    expect(out.verdict.suspect_operations.length).toBeGreaterThan(0);
    expect(out.verdict.unknown_writes).toBe(1);
    expect(out.html).toContain('<html');
    ops.pop();
    ops[2]!.value = 'b';
    expect(checker.check(ops).verdict.verdict).toBe('linearizable');
  });

  it('gives a clear error for a bad history and keeps working', async () => {
    const checker = await loadChecker();
    expect(() => checker.check('{"client":0}\n')).toThrow(CheckerError);
    expect(() => checker.check('{"client":0}\n')).toThrow(/line 1: missing field/);
    expect(checker.check('').verdict.verdict).toBe('linearizable');
  });

  it('the native CLI gives the same verdicts', () => {
    for (const f of readdirSync(testdata).filter((x) => x.endsWith('.jsonl'))) {
      const text = readFileSync(join(testdata, f), 'utf8');
      const ops = text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as HistoryOp);
      expect([f, checkNative(ops).verdict]).toEqual([f, f.startsWith('ok-') ? 'linearizable' : 'violation']);
    }
  });

  it('formats a history canonically', () => {
    expect(formatHistory([{ client: 3, op: 'get', key: 'a"b', call_us: 1, result: 'unknown' }])).toBe(
      '{"client":3,"op":"get","key":"a\\"b","call_us":1,"result":"unknown"}\n',
    );
  });
});
