// The one CSV reader of the repository (data/, web, sim, bench), built on d3-dsv so that the same
// code runs in Node and in the browser. d3-dsv is lenient about stray quotes, so each record's
// raw lines are checked for balanced quotes: a bad file is refused with its name and line, never
// read into shifted columns.
import { csvParseRows } from 'd3-dsv';

export class CsvError extends Error {
  constructor(source, line, message) {
    super(`${source}, line ${line}: ${message}`);
    this.name = 'CsvError';
    this.source = source;
    this.line = line;
  }
}

const countOf = (s, ch) => s.split(ch).length - 1;

/**
 * Header and records (arrays of strings) of a CSV text, with the 1-based line each record starts
 * on. Empty lines are skipped; a record may have more or fewer cells than the header (the
 * validator reports those per row; csvObjects refuses them).
 */
export function readCsvText(text, source = 'CSV') {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const rawLines = body.split('\n');
  const rows = [];
  const lines = [];
  let line = 1;
  for (const cells of csvParseRows(body)) {
    const span = 1 + cells.reduce((n, c) => n + countOf(c, '\n'), 0);
    const raw = rawLines.slice(line - 1, line - 1 + span).join('\n');
    if (countOf(raw, '"') % 2 === 1) {
      throw new CsvError(source, line, 'unbalanced quotes (a quoted field is not closed, or a quote stands inside an unquoted field)');
    }
    if (!(cells.length === 1 && cells[0] === '')) {
      rows.push(cells);
      lines.push(line);
    }
    line += span;
  }
  const [header = [], ...records] = rows;
  return { header, records, lines: lines.slice(1) };
}

/** Every row of a CSV text, the header first. */
export function csvRows(text, source = 'CSV') {
  const { header, records } = readCsvText(text, source);
  return header.length ? [header, ...records] : [];
}

/** Records as objects keyed by header name, for records that may be short (missing cells are ''). */
export function toObjects(header, records) {
  return records.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}

/** Records as objects keyed by header name; a record with a different number of cells is refused. */
export function csvObjects(text, source = 'CSV') {
  const { header, records, lines } = readCsvText(text, source);
  records.forEach((cells, i) => {
    if (cells.length !== header.length) {
      throw new CsvError(source, lines[i], `${cells.length} fields; the header has ${header.length}`);
    }
  });
  return toObjects(header, records);
}
