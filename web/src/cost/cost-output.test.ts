import { describe, expect, it } from 'vitest';
import { countText, usd } from './cost-output.ts';

describe('usd: readable whatever the inputs', () => {
  it('uses k, M, B, T and then powers of ten, never an exponent glued to M', () => {
    expect(usd(950)).toBe('$950');
    expect(usd(12_300)).toBe('$12.3 k');
    expect(usd(4_560_000)).toBe('$4.56 M');
    expect(usd(7.891e9)).toBe('$7.89 B');
    expect(usd(1.234e12)).toBe('$1.23 T');
    expect(usd(1.2e188)).toBe('$1.2 × 10¹⁸⁸');
    expect(usd(-555_000)).toBe('−$555.0 k');
  });
  it('is short for every magnitude (a table cell never widens the page)', () => {
    for (let e = 0; e <= 308; e += 7) expect(usd(1.23456 * 10 ** e).length, String(e)).toBeLessThanOrEqual(16);
    expect(usd(Infinity)).toBe('beyond $10³⁰⁸');
    expect(usd(Number.NaN)).toBe('not a number');
  });
});

describe('countText', () => {
  it('writes counts with separators, and huge ones as powers of ten', () => {
    expect(countText(166_668)).toBe('166,668');
    expect(countText(2.1687363600423308e185)).toBe('2.2 × 10¹⁸⁵');
    expect(countText(9.999999999999999e181)).toBe('1.0 × 10¹⁸²');
  });
});
