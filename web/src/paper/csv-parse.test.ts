import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv-parse.ts';
import { toCsv } from '../charts/csv.ts';

describe('parseCsv', () => {
  it('reads quoted commas, doubled quotes and line breaks', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi""\nthere"\n1,\n')).toEqual([
      { a: 'x, y', b: 'say "hi"\nthere' },
      { a: '1', b: '' },
    ]);
  });
  it('reads back what toCsv writes', () => {
    const rows = [['q"uote', 'com,ma', 'plain'], ['', 'line\r\nbreak', '3']];
    const back = parseCsv(toCsv(['a', 'b', 'c'], rows));
    expect(back.map((r) => [r.a, r.b, r.c])).toEqual(rows);
  });
  it('names the row that has the wrong number of fields', () => {
    expect(() => parseCsv('a,b\n1,2\n3\n')).toThrow('CSV row 3 has 1 fields; the header has 2');
  });
  it('refuses a file that ends inside quotes', () => {
    expect(() => parseCsv('a\n"open')).toThrow('ends inside a quoted field');
  });
});
