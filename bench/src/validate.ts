// Checks a results file against the data workspace's schema before anyone relies on it.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR } from './ycsb.ts';

interface SchemaHelpers {
  compileResultsSchema(schemaDir: string): { (data: unknown): boolean; errors?: unknown[] | null };
  describeAjvErrors(file: string, errors: unknown[]): { row: number; field: string; message: string }[];
}

// data/lib is plain JavaScript; load it by URL and state the two functions' shapes here.
const lib = (await import(pathToFileURL(join(BENCH_DIR, '../data/lib/results.mjs')).href)) as SchemaHelpers;
const validate = lib.compileResultsSchema(join(BENCH_DIR, '../data/schema'));

export function validateResults(file: unknown): string[] {
  if (!validate(file)) {
    return lib.describeAjvErrors('results.json', validate.errors ?? []).map((e) => `row ${e.row}: ${e.field}: ${e.message}`);
  }
  const seen = new Set<string>();
  return (file as { rows: { id: string }[] }).rows.filter((r) => (seen.has(r.id) ? true : (seen.add(r.id), false))).map((r) => `duplicate row id ${r.id}`);
}
