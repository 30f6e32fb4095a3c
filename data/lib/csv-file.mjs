// Node-only: a CSV file through the shared reader, named in errors by the path given.
import fs from 'node:fs';
import { readCsvText } from './csv.mjs';

export function readCsv(file) {
  return readCsvText(fs.readFileSync(file, 'utf8'), file);
}
