// Validates CSV records against a Frictionless Table Schema: header order, field types,
// the constraints required / unique / enum / pattern / minimum / maximum, primary keys and
// foreign keys. Errors name the file, the 1-based data row and the field.

export const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^-?\d+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

// cast(field, text) -> { value } or { error }
export function castCell(field, text) {
  switch (field.type ?? 'string') {
    case 'string':
    case 'any':
      return { value: text };
    case 'number':
      return NUMBER.test(text) ? { value: Number(text) } : { error: `"${text}" is not a number` };
    case 'integer':
      return INTEGER.test(text) ? { value: Number(text) } : { error: `"${text}" is not an integer` };
    case 'boolean':
      if (text === 'true') return { value: true };
      if (text === 'false') return { value: false };
      return { error: `"${text}" is not true or false` };
    case 'date': {
      const d = new Date(`${text}T00:00:00Z`);
      return DATE.test(text) && !Number.isNaN(d.getTime()) && d.toISOString().startsWith(text)
        ? { value: text }
        : { error: `"${text}" is not a date (YYYY-MM-DD)` };
    }
    default:
      return { error: `field type "${field.type}" is not supported by this validator` };
  }
}

function checkConstraints(field, value) {
  const c = field.constraints ?? {};
  const problems = [];
  if (c.enum && !c.enum.includes(value)) problems.push(`"${value}" is not one of the allowed values (${c.enum.join(', ')})`);
  if (c.pattern && !new RegExp(`^(?:${c.pattern})$`, 'u').test(String(value))) problems.push(`"${value}" does not match the pattern ${c.pattern}`);
  if (c.minimum !== undefined && value < c.minimum) problems.push(`${value} is below the minimum ${c.minimum}`);
  if (c.maximum !== undefined && value > c.maximum) problems.push(`${value} is above the maximum ${c.maximum}`);
  if (c.minLength !== undefined && String(value).length < c.minLength) problems.push(`"${value}" is shorter than ${c.minLength}`);
  return problems;
}

// Returns { errors, rows } where rows are objects of cast values (null for missing).
export function validateTable({ file, schema, header, records }) {
  const errors = [];
  const err = (row, field, message) => errors.push({ file, row, field, message });
  const names = schema.fields.map((f) => f.name);
  if (header.join(',') !== names.join(',')) {
    err(0, '(header)', `columns are [${header.join(', ')}] but the schema expects [${names.join(', ')}] in this order`);
    return { errors, rows: [] };
  }
  const missing = new Set(schema.missingValues ?? ['']);
  const seen = new Map(schema.fields.map((f) => [f.name, new Map()]));
  const rows = [];
  records.forEach((cells, i) => {
    const rowNo = i + 1;
    if (cells.length !== names.length) err(rowNo, '(row)', `has ${cells.length} cells, expected ${names.length}`);
    const row = {};
    schema.fields.forEach((field, j) => {
      const text = cells[j] ?? '';
      if (missing.has(text)) {
        row[field.name] = null;
        if (field.constraints?.required) err(rowNo, field.name, 'is required but empty');
        return;
      }
      const cast = castCell(field, text);
      if (cast.error) return err(rowNo, field.name, cast.error);
      row[field.name] = cast.value;
      for (const p of checkConstraints(field, cast.value)) err(rowNo, field.name, p);
      if (field.constraints?.unique) {
        const prev = seen.get(field.name).get(cast.value);
        if (prev) err(rowNo, field.name, `"${text}" repeats the value of row ${prev}`);
        else seen.get(field.name).set(cast.value, rowNo);
      }
    });
    rows.push(row);
  });
  const pk = schema.primaryKey ?? [];
  if (pk.length > 1) {
    const keys = new Map();
    rows.forEach((row, i) => {
      const key = JSON.stringify(pk.map((k) => row[k]));
      if (keys.has(key)) err(i + 1, pk.join('+'), `primary key repeats row ${keys.get(key)}`);
      else keys.set(key, i + 1);
    });
  }
  return { errors, rows };
}

// Foreign keys within one data package: tables maps resource name -> cast rows.
export function checkForeignKeys({ file, schema, rows, tables }) {
  const errors = [];
  for (const fk of schema.foreignKeys ?? []) {
    const target = tables.get(fk.reference.resource);
    if (!target) {
      errors.push({ file, row: 0, field: fk.fields.join('+'), message: `references unknown resource ${fk.reference.resource}` });
      continue;
    }
    const keys = new Set(target.map((r) => JSON.stringify(fk.reference.fields.map((f) => r[f]))));
    rows.forEach((row, i) => {
      const values = fk.fields.map((f) => row[f]);
      if (values.every((v) => v === null)) return;
      if (!keys.has(JSON.stringify(values))) {
        errors.push({ file, row: i + 1, field: fk.fields.join('+'), message: `"${values.join(',')}" is not an id in ${fk.reference.resource}` });
      }
    });
  }
  return errors;
}
