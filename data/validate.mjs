#!/usr/bin/env node
// Validates everything under data/: each CSV of datapackage.json against its Table Schema,
// each results JSON file against schema/results.schema.json, every quote against the paper
// text, ids unique across the paper files, and paper-results.json up to date.
// Usage: node data/validate.mjs [--data DIR] [--paper FILE] [--blade FILE] [--mitmem FILE] [--fleet FILE].
// Exit 0 when clean, 1 otherwise.
// The paper texts are optional: they are not part of the repository. Give the main paper's path
// with --paper or REPLICANT_PAPER_TEXT, and the other papers' (data/mitigations, data/fleet) with the
// options or variables of OTHER_SOURCE_TEXTS; without one, its quote check is skipped, said once.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCsv } from './lib/csv-file.mjs';
import { toObjects } from './lib/csv.mjs';
import { validateTable, checkForeignKeys, NUMBER } from './lib/table-schema.mjs';
import { quoteChecker } from './lib/quotes.mjs';
import { compileModelCardSchema, compileResultsSchema, describeAjvErrors } from './lib/results.mjs';
import { buildPaperResults } from './lib/paper-results.mjs';

const NOT_RESULTS = new Set(['package.json', 'datapackage.json']);
// reliability/: torture and nemesis reports (docs/reliability.md), not results in the results schema
const SKIP_DIRS = new Set(['node_modules', 'schema', 'models', 'reliability']);

export const PAPER_TEXT_ENV = 'REPLICANT_PAPER_TEXT';
export const QUOTE_CHECK_SKIPPED = `quote check skipped: no paper text given (set ${PAPER_TEXT_ENV} to the paper's text file to check every quote; see data/README.md)`;

// The texts quoted by other resources than the main paper, by the `quote_source` their
// datapackage entry names: where each is given on the command line or in the environment.
export const OTHER_SOURCE_TEXTS = [
  { source: 'blade-gc-avoidance.txt', title: 'BLADE', env: 'REPLICANT_BLADE_TEXT', option: '--blade' },
  { source: 'mitmem-gc-pause-prediction.txt', title: 'MITMEM', env: 'REPLICANT_MITMEM_TEXT', option: '--mitmem' },
  { source: 'fleet-durable-rsm.txt', title: 'FLEET', env: 'REPLICANT_FLEET_TEXT', option: '--fleet' },
];

export function sourceTextSkipped({ source, title, env, option }) {
  return `quote check of ${title} (${source}) skipped: no text given (set ${env} or pass ${option} FILE; see data/README.md)`;
}

// The paper text file named by the environment, or null when none is named.
export function paperTextFromEnv(env = process.env, name = PAPER_TEXT_ENV) {
  const value = (env[name] ?? '').trim();
  return value ? path.resolve(value) : null;
}

// source name -> file (or null) for every entry of OTHER_SOURCE_TEXTS, from the environment.
export function sourceTextsFromEnv(env = process.env) {
  return Object.fromEntries(OTHER_SOURCE_TEXTS.map((s) => [s.source, paperTextFromEnv(env, s.env)]));
}

export function defaultDirs() {
  const dataDir = path.dirname(fileURLToPath(import.meta.url));
  return { dataDir, paperFile: paperTextFromEnv(), sourceTexts: sourceTextsFromEnv() };
}

// Files under dir, sorted, skipping node_modules and hidden folders (and schema/ if asked).
function walk(dir, skip = new Set(['node_modules'])) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.has(entry.name) && !entry.name.startsWith('.')) out.push(...walk(full, skip));
    } else out.push(full);
  }
  return out;
}

// Every .json under dataDir except package files, schemas and model cards is a results file.
export function findResultsFiles(dir) {
  return walk(dir, SKIP_DIRS).filter((f) => f.endsWith('.json') && !NOT_RESULTS.has(path.basename(f)));
}

function checkPackageRules({ file, resource, rows, records, header, quoteCheckers }) {
  const errors = [];
  const rules = resource['x-replicant'];
  if (!rules) return errors;
  const hasQuote = quoteCheckers.get(rules.quote_source);
  const valueCol = header.indexOf(rules.numeric_value_field);
  rows.forEach((row, i) => {
    const unit = row[rules.unit_field];
    const raw = records[i][valueCol] ?? '';
    if (unit && !rules.non_numeric_units.includes(unit) && !NUMBER.test(raw)) {
      errors.push({ file, row: i + 1, field: rules.numeric_value_field, message: `"${raw}" must be a plain number because the unit is "${unit}"` });
    }
    const quote = row[rules.quote_field];
    if (quote && hasQuote && !hasQuote(quote)) {
      errors.push({ file, row: i + 1, field: rules.quote_field, message: `quote not found in ${rules.quote_source}: "${quote}"` });
    }
  });
  return errors;
}

// A quote checker for one source text, or null (with a notice, or an error for a named file
// that is missing).
function loadChecker(file, { skipped, givenBy }, errors, onNotice) {
  if (!file) {
    onNotice(skipped);
    return null;
  }
  if (fs.existsSync(file)) return quoteChecker(fs.readFileSync(file, 'utf8'));
  errors.push({ file, row: 0, field: '(file)', message: `paper text not found (given by ${givenBy}): quotes cannot be checked` });
  return null;
}

// paperFile: the paper's text, or null to skip the quote check (onNotice then hears why, once).
// sourceTexts: { [quote_source]: file or null } for OTHER_SOURCE_TEXTS; a missing entry is null.
export function validateData({ dataDir, paperFile, sourceTexts = {} } = defaultDirs(), { onNotice = () => {} } = {}) {
  const errors = [];
  const rel = (f) => path.relative(path.dirname(dataDir), f) || f;
  const pkg = JSON.parse(fs.readFileSync(path.join(dataDir, 'datapackage.json'), 'utf8'));
  const hasQuote = loadChecker(paperFile, { skipped: QUOTE_CHECK_SKIPPED, givenBy: `--paper or ${PAPER_TEXT_ENV}` }, errors, onNotice);
  const quoteCheckers = new Map([['gc-cost-smr-replicant.txt', hasQuote]]);
  for (const s of OTHER_SOURCE_TEXTS) {
    const checker = loadChecker(sourceTexts[s.source] ?? null, { skipped: sourceTextSkipped(s), givenBy: `${s.option} or ${s.env}` }, errors, onNotice);
    quoteCheckers.set(s.source, checker);
  }

  // 1. CSV files against their Table Schemas.
  const tables = new Map();
  const listed = new Set();
  const parsed = [];
  for (const resource of pkg.resources) {
    const file = path.join(dataDir, resource.path);
    listed.add(path.resolve(file));
    if (!fs.existsSync(file)) {
      errors.push({ file: rel(file), row: 0, field: '(file)', message: 'listed in datapackage.json but missing' });
      continue;
    }
    const { header, records } = readCsv(file);
    const res = validateTable({ file: rel(file), schema: resource.schema, header, records });
    errors.push(...res.errors);
    errors.push(...checkPackageRules({ file: rel(file), resource, rows: res.rows, records, header, quoteCheckers }));
    tables.set(resource.name, res.rows);
    parsed.push({ resource, file, rows: res.rows });
  }
  for (const { resource, file, rows } of parsed) {
    errors.push(...checkForeignKeys({ file: rel(file), schema: resource.schema, rows, tables }));
  }
  for (const csvFile of walk(dataDir).filter((f) => f.endsWith('.csv'))) {
    if (!listed.has(path.resolve(csvFile))) errors.push({ file: rel(csvFile), row: 0, field: '(file)', message: 'CSV not described in datapackage.json' });
  }

  // 2. ids unique across the paper files; related ids must exist.
  const owner = new Map();
  for (const name of ['paper-values', 'unavailable-series']) {
    (tables.get(name) ?? []).forEach((row, i) => {
      if (!row.id) return;
      if (owner.has(row.id) && owner.get(row.id).name !== name) {
        errors.push({ file: name, row: i + 1, field: 'id', message: `"${row.id}" is also an id in ${owner.get(row.id).name}` });
      } else owner.set(row.id, { name, row: i + 1 });
    });
  }
  (tables.get('unavailable-series') ?? []).forEach((row, i) => {
    for (const id of (row.related_ids ?? '').split(';').filter(Boolean)) {
      if (owner.get(id)?.name !== 'paper-values') {
        errors.push({ file: 'data/paper/unavailable-series.csv', row: i + 1, field: 'related_ids', message: `"${id}" is not an id in paper-values.csv` });
      }
    }
  });

  // 3. Results files against the results schema.
  const validate = compileResultsSchema(path.join(dataDir, 'schema'));
  for (const file of findResultsFiles(dataDir)) {
    let doc;
    try {
      doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      errors.push({ file: rel(file), row: 0, field: '(file)', message: `not valid JSON: ${e.message}` });
      continue;
    }
    if (!validate(doc)) errors.push(...describeAjvErrors(rel(file), validate.errors));
    const ids = new Map();
    (Array.isArray(doc.rows) ? doc.rows : []).forEach((row, i) => {
      if (ids.has(row?.id)) errors.push({ file: rel(file), row: i + 1, field: 'id', message: `"${row.id}" repeats row ${ids.get(row.id)}` });
      else ids.set(row?.id, i + 1);
      const quote = row?.provenance?.exact_quote;
      if (quote && hasQuote && !hasQuote(quote)) errors.push({ file: rel(file), row: i + 1, field: 'provenance.exact_quote', message: `quote not found in the paper text: "${quote}"` });
    });
  }

  // 3b. Model cards (data/models/<version>.json) against their schema; the name is the version.
  const modelsDir = path.join(dataDir, 'models');
  if (fs.existsSync(modelsDir)) {
    const validateCard = compileModelCardSchema(path.join(dataDir, 'schema'));
    for (const file of walk(modelsDir).filter((f) => f.endsWith('.json'))) {
      let card;
      try {
        card = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (e) {
        errors.push({ file: rel(file), row: 0, field: '(file)', message: `not valid JSON: ${e.message}` });
        continue;
      }
      if (!validateCard(card)) errors.push(...describeAjvErrors(rel(file), validateCard.errors));
      else if (path.basename(file) !== `${card.version}.json`) {
        errors.push({ file: rel(file), row: 0, field: 'version', message: `file name must be "${card.version}.json"` });
      }
    }
  }

  // 4. The generated paper dataset matches its CSV sources.
  const generated = path.join(dataDir, 'paper', 'paper-results.json');
  const sources = ['paper-values.csv', 'corrections.csv'].map((f) => path.join(dataDir, 'paper', f));
  if (sources.every((f) => fs.existsSync(f))) {
    const expected = buildPaperResults(...sources.map((f) => fs.readFileSync(f, 'utf8')));
    const actual = fs.existsSync(generated) ? fs.readFileSync(generated, 'utf8') : '';
    if (actual !== expected) errors.push({ file: rel(generated), row: 0, field: '(file)', message: 'stale: run `npm --workspace @replicant/data run generate`' });
  }
  return errors;
}

export function formatError(e) {
  return `${e.file}${e.row ? `: row ${e.row}` : ''}: ${e.field}: ${e.message}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dirs = defaultDirs();
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i += 2) {
    const other = OTHER_SOURCE_TEXTS.find((s) => s.option === args[i]);
    if (args[i] === '--data') dirs.dataDir = path.resolve(args[i + 1]);
    else if (args[i] === '--paper') dirs.paperFile = path.resolve(args[i + 1]);
    else if (other && args[i + 1]) dirs.sourceTexts = { ...dirs.sourceTexts, [other.source]: path.resolve(args[i + 1]) };
    else {
      console.error(`unknown argument ${args[i]}; usage: validate.mjs [--data DIR] [--paper FILE] [--blade FILE] [--mitmem FILE] [--fleet FILE]`);
      process.exit(2);
    }
  }
  const errors = validateData(dirs, { onNotice: (m) => console.log(`data: ${m}`) });
  for (const e of errors) console.error(formatError(e));
  if (errors.length) {
    console.error(`${errors.length} error(s)`);
    process.exit(1);
  }
  const checked = [dirs.paperFile && 'the paper', ...OTHER_SOURCE_TEXTS.filter((s) => dirs.sourceTexts?.[s.source]).map((s) => s.title)].filter(Boolean);
  console.log(`data: all CSV files and results files are valid${dirs.paperFile ? ', and every quote occurs in the paper text' : ''}${checked.length && !(checked.length === 1 && dirs.paperFile) ? ` (quotes checked: ${checked.join(', ')})` : ''}`);
}
