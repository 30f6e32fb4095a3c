// Compiles the results schema (JSON Schema 2020-12, with the shared vocabulary) using Ajv.
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export function compileResultsSchema(schemaDir) {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  const load = (name) => JSON.parse(fs.readFileSync(path.join(schemaDir, name), 'utf8'));
  ajv.addSchema(load('vocabulary.schema.json'));
  return ajv.compile(load('results.schema.json'));
}

// Turns Ajv errors into { file, row, field, message } with the row index and field name.
export function describeAjvErrors(file, errors) {
  return errors.map((e) => {
    const parts = e.instancePath.split('/').slice(1);
    let row = 0;
    let field = parts.join('.') || '(file)';
    if (parts[0] === 'rows' && parts.length >= 2) {
      row = Number(parts[1]) + 1;
      field = parts.slice(2).join('.') || '(row)';
    }
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'enum') message += ` (${e.params.allowedValues.join(', ')})`;
    if (e.keyword === 'additionalProperties') message += `: "${e.params.additionalProperty}"`;
    if (e.keyword === 'required') field = field === '(row)' || field === '(file)' ? e.params.missingProperty : `${field}.${e.params.missingProperty}`;
    return { file, row, field, message };
  });
}

// Compiles the model-card schema (data/models/<version>.json, read by the simulator).
export function compileModelCardSchema(schemaDir) {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  return ajv.compile(JSON.parse(fs.readFileSync(path.join(schemaDir, 'model-card.schema.json'), 'utf8')));
}
