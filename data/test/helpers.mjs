import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultDirs } from '../validate.mjs';
import { readCsv } from '../lib/csv-file.mjs';
import { toObjects } from '../lib/csv.mjs';

// paperFile is the real paper text when REPLICANT_PAPER_TEXT names it, else null.
export const dirs = defaultDirs();

// A stand-in paper text that holds every committed quote and nothing else, so the quote
// check itself is tested on every machine, with or without the real paper.
export function quotesOnlyPaperText(dataDir = dirs.dataDir) {
  return quotesOnlyText('paper/paper-values.csv', dataDir);
}

// The same stand-in for another quoted CSV (e.g. mitigations/blade-values.csv).
export function quotesOnlyText(relCsv, dataDir = dirs.dataDir) {
  const { header, records } = readCsv(path.join(dataDir, relCsv));
  const quotes = toObjects(header, records).map((r) => r.exact_quote).filter(Boolean);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'replicant-paper-')), 'paper.txt');
  fs.writeFileSync(file, quotes.join('\n\n'));
  process.on('exit', () => fs.rmSync(path.dirname(file), { recursive: true, force: true }));
  return file;
}

// A scratch copy of data/ that a test may break; removed when the process exits.
export function scratchData() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'replicant-data-'));
  fs.cpSync(dirs.dataDir, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function editFile(file, edit) {
  fs.writeFileSync(file, edit(fs.readFileSync(file, 'utf8')));
}

// Replace one line (1-based, header = line 1) of a CSV file.
export function editCsvLine(file, lineNo, edit) {
  editFile(file, (text) => {
    const lines = text.split('\n');
    lines[lineNo - 1] = edit(lines[lineNo - 1]);
    return lines.join('\n');
  });
}

export function writeJson(file, doc) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
}

export function sampleResults(overrides = {}) {
  return {
    schema_version: '1.0.0',
    metadata: {
      source_kind: 'simulated',
      title: 'test run',
      machine: { description: 'test machine' },
      date: '2026-11-22',
      git_commit: 'abcdef1',
      model_card_version: '0.1.0',
      seed: 42,
      engines: { pyodide: '314.0.7' },
      command: 'node sim.mjs --seed 42',
      ...overrides.metadata,
    },
    rows: overrides.rows ?? [
      {
        id: 'sim-java-a-5gib-8vcpu-max-throughput-slo',
        figure_or_table: '',
        language: 'Java',
        workload: 'A',
        memory_gib: 5,
        vcpus: 8,
        metric: 'max_throughput_slo',
        value: 3.2,
        unit: 'Kops/s',
        clients: 64,
        qualifier: 'exact',
        provenance: { kind: 'simulation' },
      },
    ],
  };
}
