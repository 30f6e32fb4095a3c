import { describe, expect, it } from 'vitest';
import * as streams from './streams.ts';

const named: [string, number][] = Object.entries(streams).flatMap(([name, v]) => (typeof v === 'number' ? [[name, v] as [string, number]] : []));

describe('PRNG stream numbers', () => {
  it('gives every purpose its own stream', () => {
    const byNumber = new Map<number, string[]>();
    for (const [name, n] of named) byNumber.set(n, [...(byNumber.get(n) ?? []), name]);
    expect([...byNumber.values()].filter((names) => names.length > 1)).toEqual([]);
  });

  it('keeps the torture clients\' streams clear of every named stream', () => {
    const numbers = new Set<number>(named.map(([, n]) => n));
    for (let c = 0; c <= 16; c++) expect(numbers.has(streams.clientOpsStream(c))).toBe(false);
    expect(streams.clientOpsStream(3)).not.toBe(streams.clientOpsStream(4));
  });
});
