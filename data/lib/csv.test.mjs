import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CsvError, csvObjects, csvRows, readCsvText } from './csv.mjs';

test('reads quoted commas, doubled quotes and line breaks inside quotes', () => {
  assert.deepEqual(csvObjects('a,b\r\n"x, y","say ""hi""\nthere"\n1,\n'), [
    { a: 'x, y', b: 'say "hi"\nthere' },
    { a: '1', b: '' },
  ]);
});

test('skips empty lines and a byte-order mark, and counts lines past them and past quoted breaks', () => {
  const t = readCsvText('\uFEFFa,b\n\n"1\n2",3\n\n4,5\n');
  assert.deepEqual(t.header, ['a', 'b']);
  assert.deepEqual(t.records, [['1\n2', '3'], ['4', '5']]);
  assert.deepEqual(t.lines, [3, 6]);
});

test('csvRows gives the header first, and nothing for an empty text', () => {
  assert.deepEqual(csvRows('h\nv\n'), [['h'], ['v']]);
  assert.deepEqual(csvRows(''), []);
});

test('a record with the wrong number of fields names the file and its line', () => {
  assert.throws(() => csvObjects('a,b\n1,2\n\n"x\ny",2,3\n', 'prices.csv'), (e) => {
    assert.ok(e instanceof CsvError);
    assert.equal(e.message, 'prices.csv, line 4: 3 fields; the header has 2');
    assert.equal(e.line, 4);
    return true;
  });
});

test('a quoted field left open is refused at the line it opens on', () => {
  assert.throws(() => csvRows('a\n1\n"open\nmore', 'f.csv'), /^CsvError: f\.csv, line 3: unbalanced quotes/);
});

test('a stray quote inside an unquoted field is refused at its line', () => {
  assert.throws(() => readCsvText('a,b\nx"y,2\n3,4\n', 'f.csv'), /f\.csv, line 2: unbalanced quotes/);
});
