// Checks a results file against the data workspace's schema before anyone relies on it.
import { join } from 'node:path';
import { compileResultsSchema, describeAjvErrors } from '../../data/lib/results.mjs';
import { BENCH_DIR } from './ycsb.ts';

const validate = compileResultsSchema(join(BENCH_DIR, '../data/schema'));

export function validateResults(file: unknown): string[] {
  if (validate(file)) {
    const rows = (file as { rows: { id: string }[] }).rows;
    const seen = new Set<string>();
    const dupes = rows.filter((r) => (seen.has(r.id) ? true : (seen.add(r.id), false))).map((r) => `duplicate row id ${r.id}`);
    return dupes;
  }
  return describeAjvErrors('results.json', validate.errors ?? []).map((e: { row: number; field: string; message: string }) => `row ${e.row}: ${e.field}: ${e.message}`);
}
