// Holds the TypeScript types in results-row.d.mts to data/schema/results.schema.json: the same
// properties, the same required ones (non-optional in TypeScript), the same enums.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

const schema = JSON.parse(fs.readFileSync(new URL('../schema/results.schema.json', import.meta.url), 'utf8'));
const vocabulary = JSON.parse(fs.readFileSync(new URL('../schema/vocabulary.schema.json', import.meta.url), 'utf8'));
const types = fs.readFileSync(new URL('./results-row.d.mts', import.meta.url), 'utf8');

/** Fields of `interface name` (or of an inline object type following `name:`): name -> optional. */
function fieldsOf(name) {
  const start = types.indexOf(`export interface ${name}`);
  assert.ok(start >= 0, `no interface ${name} in results-row.d.mts`);
  const body = types.slice(types.indexOf('{', start) + 1, types.indexOf('\n}', start));
  const fields = new Map();
  for (const m of body.matchAll(/^ {2}(\$?\w+)(\??):/gm)) fields.set(m[1], m[2] === '?');
  return fields;
}

function assertMatches(name, def) {
  const fields = fieldsOf(name);
  assert.deepEqual([...fields.keys()].sort(), Object.keys(def.properties).sort(), `${name}: properties`);
  const required = [...fields].filter(([, optional]) => !optional).map(([k]) => k).sort();
  assert.deepEqual(required, [...(def.required ?? [])].sort(), `${name}: required properties`);
}

const union = (alias) => [...new RegExp(`export type ${alias} = ([^;]+);`).exec(types)[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);

test('ResultRow has the schema row properties, required where the schema requires them', () => assertMatches('ResultRow', schema.$defs.row));
test('ResultsMetadata matches the schema metadata', () => assertMatches('ResultsMetadata', schema.$defs.metadata));
test('Machine matches the schema machine', () => assertMatches('Machine', schema.$defs.metadata.properties.machine));
test('Provenance matches the schema provenance', () => assertMatches('Provenance', schema.$defs.row.properties.provenance));
test('Correction matches the schema correction', () => assertMatches('Correction', schema.$defs.row.properties.correction));
test('ResultsFile matches the schema file', () => assertMatches('ResultsFile', schema));

test('the enums are the schema and vocabulary enums', () => {
  assert.deepEqual(union('Qualifier'), vocabulary.$defs.qualifier.enum);
  assert.deepEqual(union('Workload'), vocabulary.$defs.workload.enum);
  assert.deepEqual(union('SourceKind'), schema.$defs.metadata.properties.source_kind.enum);
  assert.deepEqual(/kind: ([^;]+);/.exec(types.slice(types.indexOf('interface Provenance')))[1].match(/'([^']+)'/g).map((s) => s.slice(1, -1)), schema.$defs.row.properties.provenance.properties.kind.enum);
});
