// Writes data/paper/paper-results.json from paper-values.csv and corrections.csv.
// Usage: node data/paper/generate-results.mjs [--check]   (--check: exit 1 if the file is stale)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPaperResults } from '../lib/paper-results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, 'paper-results.json');
const text = buildPaperResults(
  fs.readFileSync(path.join(here, 'paper-values.csv'), 'utf8'),
  fs.readFileSync(path.join(here, 'corrections.csv'), 'utf8'),
);
if (process.argv.includes('--check')) {
  const current = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
  if (current !== text) {
    console.error('data/paper/paper-results.json is stale: run `npm --workspace @replicant/data run generate`');
    process.exit(1);
  }
  console.log('data/paper/paper-results.json is up to date');
} else {
  fs.writeFileSync(out, text);
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
}
