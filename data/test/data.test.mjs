import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { readCsv } from '../lib/csv-file.mjs';
import { toObjects } from '../lib/csv.mjs';
import { normaliseForQuote, quoteChecker } from '../lib/quotes.mjs';
import { dirs } from './helpers.mjs';

const load = (rel) => {
  const { header, records } = readCsv(path.join(dirs.dataDir, rel));
  return toObjects(header, records);
};
const values = new Map(load('paper/paper-values.csv').map((r) => [r.id, r]));
const num = (id) => {
  assert.ok(values.has(id), `no row ${id}`);
  return Number(values.get(id).value);
};
const json = (rel) => JSON.parse(fs.readFileSync(path.join(dirs.dataDir, rel), 'utf8'));

test('datapackage enums and the results vocabulary list the same values', () => {
  const vocab = json('schema/vocabulary.schema.json').$defs;
  const fields = new Map(json('datapackage.json').resources[0].schema.fields.map((f) => [f.name, f]));
  for (const name of ['language', 'workload', 'metric', 'unit']) {
    assert.deepEqual(fields.get(name).constraints.enum, vocab[name].enum, name);
  }
  assert.deepEqual(json('datapackage.json').resources[0]['x-replicant'].non_numeric_units, vocab.non_numeric_unit.enum);
});

// Every CSV file below data/ (as it is on disk, not a list kept by hand that a new file can pass
// unnoticed), and no resource whose file is missing.
function csvFilesUnder(dir, rel = '') {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : csvFilesUnder(dir, r);
    return e.name.endsWith('.csv') ? [r] : [];
  });
}

test('every CSV under data/ is a resource of the data package', () => {
  const listed = json('datapackage.json').resources.map((r) => r.path).sort();
  const onDisk = csvFilesUnder(dirs.dataDir).sort();
  assert.ok(onDisk.includes('paper/paper-values.csv') && onDisk.length >= 14, `the walk found the data files: ${onDisk}`);
  assert.deepEqual(listed, onDisk);
});

test('the quote check forgives extraction artefacts but not changed words', () => {
  const has = quoteChecker('so C_{++} achieves 1.7 \\times higher throughput; [Fig](#p)[ure 6](#p) (a) shows that');
  assert.ok(has('C++ achieves 1.7× higher throughput'));
  assert.ok(has('Figure 6 (a) shows'));
  assert.ok(has('c++achieves   1.7 ×'));
  assert.ok(!has('C++ achieves 1.6× higher throughput'));
  assert.ok(!has(''));
  assert.equal(normaliseForQuote(' A  b\nC '), 'abc');
});

test('the stated ratios follow from the stated throughputs (and the slips are where corrections.csv says)', () => {
  const r1 = (x) => Math.round(x * 10) / 10;
  const r2 = (x) => Math.round(x * 100) / 100;
  const cpp = num('fig6a-cpp-a-32gib-8vcpu-max-throughput-slo');
  const java = num('fig6a-java-a-32gib-8vcpu-max-throughput-slo');
  assert.equal(r1(cpp / java), num('abstract-cpp-vs-java-a-32gib-8vcpu-throughput-ratio'));
  assert.notEqual(r1(cpp / java), num('sec5-2-cpp-vs-java-a-32gib-8vcpu-throughput-ratio')); // the 1.7 slip
  assert.equal(r1(cpp / num('fig6a-java-a-5gib-8vcpu-max-throughput-slo')), num('abstract-cpp-vs-java-a-5gib-8vcpu-throughput-ratio'));
  assert.equal(Math.round(100 * (1 - java / cpp)), num('fig6-cpp-vs-java-a-32gib-8vcpu-throughput-deficit'));
  assert.notEqual(Math.round(100 * (1 - java / cpp)), num('fig6-cpp-vs-java-a-32gib-8vcpu-throughput-deficit-restated'));
  const rust = num('fig9a-rust-a-32gib-8vcpu-max-throughput-slo');
  const go = num('fig9a-go-a-32gib-8vcpu-max-throughput-slo');
  assert.equal(r1(rust / go), num('sec5-4-rust-vs-go-a-32gib-8vcpu-throughput-ratio'));
  assert.equal(Math.round(100 * (1 - go / rust)), num('fig9-rust-vs-go-a-32gib-8vcpu-throughput-deficit'));
  assert.equal(r2(num('fig8a-cpp-b-32gib-8vcpu-max-throughput-slo') / num('fig8a-java-b-32gib-8vcpu-max-throughput-slo')), num('sec5-3-cpp-vs-java-b-32gib-8vcpu-throughput-ratio'));
  // 73.5 / 55 = 1.336: the paper prints 1.33 (truncated), corrections.csv records 1.34
  const rustGoB = num('fig11a-rust-b-32gib-8vcpu-max-throughput-slo') / num('fig11a-go-b-32gib-8vcpu-max-throughput-slo');
  assert.equal(Math.trunc(100 * rustGoB) / 100, num('sec5-5-rust-vs-go-b-32gib-8vcpu-throughput-ratio'));
  assert.equal(r2(rustGoB), 1.34);
  assert.equal(Math.round(100 * (num('fig3b-go-a-32gib-8vcpu-peak-throughput-avg-latency') / num('fig3a-go-a-32gib-8vcpu-peak-throughput-avg-latency') - 1)), num('fig3b-go-a-32gib-8vcpu-throughput-gain'));
  assert.equal(num('sec5-2-all-5gib-8vcpu-memory-to-data-ratio'), 5 / num('sec5-1-all-raw-dataset-size'));
});

test('each correction is backed by arithmetic on the stated values', () => {
  const corr = new Map(load('paper/corrections.csv').map((r) => [r.id, r]));
  const fixed = (id) => Number(corr.get(id).corrected_value);
  const pct = (metal, virt) => (100 * (num(metal) - num(virt))) / num(metal);
  for (const lang of ['go', 'rust']) {
    const id = `table1-${lang}-a-32gib-8vcpu-virtualization-throughput-decrease`;
    const real = pct(`table1-${lang}-a-32gib-8vcpu-max-throughput-slo-m5-metal`, `table1-${lang}-a-32gib-8vcpu-max-throughput-slo-m5-2xlarge`);
    assert.ok(Math.abs(real / 100 - num(id)) < 0.0005, `${id}: printed value is the fraction`);
    assert.ok(Math.abs(real - fixed(id)) < 0.05, `${id}: corrected percent`);
  }
  for (const lang of ['cpp', 'java']) {
    const real = pct(`table1-${lang}-a-32gib-8vcpu-max-throughput-slo-m5-metal`, `table1-${lang}-a-32gib-8vcpu-max-throughput-slo-m5-2xlarge`);
    assert.equal(Math.round(real), num(`table1-${lang}-a-32gib-8vcpu-virtualization-throughput-decrease`));
  }
  assert.equal(fixed('fig7a-cpp-vs-java-a-32gib-throughput-gap-avg'), num('fig7a-cpp-vs-java-a-32gib-throughput-gap-avg') / 1000);
  assert.equal(
    num('fig6b-java-a-8gib-8vcpu-vcpu-utilization-leader') - num('fig6b-java-a-6gib-8vcpu-vcpu-utilization-leader'),
    fixed('fig6b-java-a-8vcpu-vcpu-utilization-drop-8to6gib'),
  );
  assert.equal(
    num('fig6b-java-a-6gib-8vcpu-vcpu-utilization-leader') - num('fig6b-java-a-5gib-8vcpu-vcpu-utilization-leader'),
    fixed('fig6b-java-a-8vcpu-vcpu-utilization-drop-6to5gib'),
  );
  const rust = num('fig9a-rust-a-32gib-8vcpu-max-throughput-slo') / (num('fig9b-rust-a-32gib-8vcpu-vcpu-utilization-leader') / 100);
  assert.equal(Math.round(rust), fixed('sec5-4-rust-a-32gib-8vcpu-throughput-per-utilization'));
});

test('paper-results.json is up to date with its CSV sources (generator --check)', () => {
  const r = spawnSync(process.execPath, [path.join(dirs.dataDir, 'paper/generate-results.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const doc = json('paper/paper-results.json');
  assert.equal(doc.rows.length, values.size);
  assert.equal(doc.rows.filter((r) => r.correction).length, load('paper/corrections.csv').length);
});
