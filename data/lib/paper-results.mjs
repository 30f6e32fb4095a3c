// Builds data/paper/paper-results.json (the paper's values in the results schema) from
// paper-values.csv and corrections.csv. Pure: same CSV text in, same JSON text out.
import crypto from 'node:crypto';
import { readCsvText, toObjects } from './csv.mjs';

export const PAPER_VALUES = 'data/paper/paper-values.csv';
export const CORRECTIONS = 'data/paper/corrections.csv';
const NON_NUMERIC_UNITS = new Set(['text', 'version']);
const QUALIFIER = /^qualifier=(approx|lower_bound|upper_bound|implied)(?:;\s*)?/;

const sha256 = (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');
const orNull = (s) => (s === '' ? null : s);
const numOrNull = (s) => (s === '' ? null : Number(s));

function clients(s) {
  if (s === '') return null;
  return /^\d+$/.test(s) ? Number(s) : s;
}

function correctionFor(c) {
  if (!c) return undefined;
  return {
    kind: c.kind,
    corrected_value: numOrNull(c.corrected_value),
    corrected_unit: orNull(c.corrected_unit),
    reasoning: c.reasoning,
  };
}

export function buildPaperResults(valuesText, correctionsText) {
  const v = readCsvText(valuesText, 'data/paper/paper-values.csv');
  const c = readCsvText(correctionsText, 'data/paper/corrections.csv');
  const corrections = new Map(toObjects(c.header, c.records).map((r) => [r.id, r]));
  const rows = toObjects(v.header, v.records).map((r, i) => {
    const m = QUALIFIER.exec(r.note);
    const note = m ? r.note.slice(m[0].length) : r.note;
    const row = {
      id: r.id,
      figure_or_table: r.figure_or_table,
      panel: orNull(r.panel),
      section: orNull(r.section),
      language: r.language,
      workload: orNull(r.workload),
      memory_gib: numOrNull(r.memory_gib),
      vcpus: numOrNull(r.vcpus),
      metric: r.metric,
      value: NON_NUMERIC_UNITS.has(r.unit) ? r.value : Number(r.value),
      unit: r.unit,
      instance_type: orNull(r.instance_type),
      clients: clients(r.clients),
      note: orNull(note),
      qualifier: m ? m[1] : 'exact',
    };
    const corr = correctionFor(corrections.get(r.id));
    if (corr) row.correction = corr;
    row.provenance = { kind: 'paper_text', source_file: PAPER_VALUES, source_row: i + 1, exact_quote: r.exact_quote };
    return row;
  });
  const doc = {
    $schema: '../schema/results.schema.json',
    schema_version: '1.0.0',
    metadata: {
      source_kind: 'paper',
      title: 'Numbers stated in the text of the paper',
      description: 'Every value the text states, as printed; corrections give the corrected reading where arithmetic settles it. Figure series the text does not state are listed in unavailable-series.csv, not here.',
      citation: 'Z. Liang, V. Jabrayilov, A. Charapko, A. Aghayev. The Cost of Garbage Collection for State Machine Replication. arXiv:2405.11182v1, 2024.',
      machine: {
        description: 'AWS: three m5.2xlarge servers (one Replicant replica each) and one m5.2xlarge YCSB client, per the paper §4.3; m5.metal for Table 1',
        cpu_model: 'Intel Xeon Platinum 8259CL @ 2.50GHz',
        vcpus: 8,
        memory_gib: 32,
        instance_type: 'm5.2xlarge',
      },
      date: '2024-05-18',
      git_commit: null,
      engines: { clang: '14.0.6', openjdk: '19.0.1', go: '1.19.1', rust: '1.64.0' },
      command: 'npm --workspace @replicant/data run generate',
      inputs_sha256: { [PAPER_VALUES]: sha256(valuesText), [CORRECTIONS]: sha256(correctionsText) },
    },
    rows,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
