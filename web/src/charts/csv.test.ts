import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.ts';

describe('toCsv', () => {
  it('quotes only what needs quoting and ends every line with CRLF', () => {
    expect(toCsv(['a', 'b', 'c'], [['x,y', 'say "hi"', 3], [null, 1.5, 'two\nlines']])).toBe(
      'a,b,c\r\n"x,y","say ""hi""",3\r\n,1.5,"two\nlines"\r\n',
    );
  });
  it('writes non-finite numbers as empty cells', () => {
    expect(toCsv(['v'], [[NaN], [Infinity]])).toBe('v\r\n\r\n\r\n');
  });
  it('refuses ragged rows', () => {
    expect(() => toCsv(['a', 'b'], [['1']])).toThrow('CSV row 1 has 1 cells; the header has 2');
  });
});
