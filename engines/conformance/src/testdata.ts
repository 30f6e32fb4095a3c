// Where the shared transcripts live, and which of them a run picks.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TESTDATA = join(dirname(fileURLToPath(import.meta.url)), '../testdata');

export function transcriptFiles(filter?: RegExp): string[] {
  return readdirSync(TESTDATA)
    .filter((f) => f.endsWith('.txt') && (!filter || filter.test(f)))
    .sort();
}
