// Reads a CSV file into its header and its records (arrays of strings), with a real parser.
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';

export function readCsvText(text) {
  const rows = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true });
  const [header = [], ...records] = rows;
  return { header, records };
}

export function readCsv(file) {
  return readCsvText(fs.readFileSync(file, 'utf8'));
}

// Records as objects keyed by header name; a record's position is its 1-based data row.
export function toObjects(header, records) {
  return records.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}
