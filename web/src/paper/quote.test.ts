import { describe, expect, it } from 'vitest';
import { readableQuote } from './quote.ts';

describe('readableQuote', () => {
  it('turns the extraction’s LaTeX leftovers into the characters they stand for', () => {
    expect(readableQuote('drops by only 4% (43% \\rightarrow 39%)')).toBe('drops by only 4% (43% → 39%)');
    expect(readableQuote('C_{++} is $2\\times$ faster')).toBe('C++ is 2× faster');
  });
});
