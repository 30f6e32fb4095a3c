import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { validateData, formatError, paperTextFromEnv, sourceTextsFromEnv, sourceTextSkipped, PAPER_TEXT_ENV, QUOTE_CHECK_SKIPPED, OTHER_SOURCE_TEXTS } from '../validate.mjs';
import { dirs, scratchData, editCsvLine, editFile, writeJson, sampleResults, quotesOnlyPaperText, quotesOnlyText } from './helpers.mjs';

const quotesOnly = quotesOnlyPaperText();
const bladeQuotesOnly = quotesOnlyText('mitigations/blade-values.csv');
const mitmemQuotesOnly = quotesOnlyText('mitigations/mitmem-values.csv');
const fleetQuotesOnly = quotesOnlyText('fleet/fleet-values.csv');
const standIns = { 'blade-gc-avoidance.txt': bladeQuotesOnly, 'mitmem-gc-pause-prediction.txt': mitmemQuotesOnly, 'fleet-durable-rsm.txt': fleetQuotesOnly };
const run = (dataDir, paperFile = quotesOnly, sourceTexts = standIns) => validateData({ dataDir, paperFile, sourceTexts }).map(formatError);
const VALUES = 'paper/paper-values.csv';
const script = path.join(dirs.dataDir, 'validate.mjs');
const envWithout = (extra = {}) => {
  const env = { ...process.env, ...extra };
  for (const name of [PAPER_TEXT_ENV, ...OTHER_SOURCE_TEXTS.map((s) => s.env)]) if (!(name in extra)) delete env[name];
  return env;
};

test('the committed data is valid (quotes checked against the real paper when REPLICANT_PAPER_TEXT names it)', () => {
  const notices = [];
  assert.deepEqual(validateData(dirs, { onNotice: (m) => notices.push(m) }).map(formatError), []);
  for (const n of notices) console.log(`# ${n}`);
  const expected = [
    ...(dirs.paperFile ? [] : [QUOTE_CHECK_SKIPPED]),
    ...OTHER_SOURCE_TEXTS.filter((s) => !dirs.sourceTexts[s.source]).map(sourceTextSkipped),
  ];
  assert.deepEqual(notices, expected);
});

test('the committed data is valid with its quotes checked', () => {
  assert.deepEqual(run(dirs.dataDir), []);
});

test('without the paper text the data still validates, and the skip is said once with the way to enable it', () => {
  const notices = [];
  const errors = validateData({ dataDir: dirs.dataDir, paperFile: null }, { onNotice: (m) => notices.push(m) });
  assert.deepEqual(errors.map(formatError), []);
  assert.equal(notices.length, 4);
  assert.match(notices[0], /quote check skipped.*REPLICANT_PAPER_TEXT/);
  assert.match(notices[1], /quote check of BLADE .*skipped.*REPLICANT_BLADE_TEXT or pass --blade/);
  assert.match(notices[2], /quote check of MITMEM .*skipped.*REPLICANT_MITMEM_TEXT or pass --mitmem/);
  assert.match(notices[3], /quote check of FLEET .*skipped.*REPLICANT_FLEET_TEXT or pass --fleet/);
});

test('FLEET’s quotes are checked against FLEET’s text only, and a changed number is caught', () => {
  const d = scratchData();
  editFile(path.join(d, 'fleet/fleet-values.csv'), (t) => t.replaceAll('while FLEET takes 1175 ms', 'while FLEET takes 1157 ms'));
  const errors = run(d);
  assert.equal(errors.filter((e) => /fleet-values\.csv: row \d+: exact_quote: quote not found in fleet-durable-rsm\.txt: ".*1157 ms"/.test(e)).length, 2, errors.join('\n'));
  const swapped = run(dirs.dataDir, quotesOnly, { ...standIns, 'fleet-durable-rsm.txt': bladeQuotesOnly });
  assert.ok(swapped.some((e) => /fleet-values\.csv: .*quote not found in fleet-durable-rsm\.txt/.test(e)), swapped.join('\n'));
  assert.ok(!swapped.some((e) => /(blade|mitmem)-values\.csv/.test(e)), swapped.join('\n'));
  const missing = run(dirs.dataDir, quotesOnly, { ...standIns, 'fleet-durable-rsm.txt': '/nonexistent/fleet.txt' });
  assert.ok(missing.some((e) => /paper text not found \(given by --fleet or REPLICANT_FLEET_TEXT\)/.test(e)), missing.join('\n'));
});

test('each mitigation paper’s quotes are checked against that paper’s text only', () => {
  const d = scratchData();
  editFile(path.join(d, 'mitigations/blade-values.csv'), (t) => t.replaceAll('99.9th 0.62 0.67 28.81', '99.9th 0.62 0.67 28.18'));
  const errors = run(d);
  assert.equal(errors.filter((e) => /blade-values\.csv: row \d+: exact_quote: quote not found in blade-gc-avoidance\.txt: "99\.9th 0\.62 0\.67 28\.18"/.test(e)).length, 3, errors.join('\n'));
  // The same quotes against the other paper's text are not found: the texts are not mixed up.
  const swapped = run(dirs.dataDir, quotesOnly, { 'blade-gc-avoidance.txt': mitmemQuotesOnly, 'mitmem-gc-pause-prediction.txt': mitmemQuotesOnly });
  assert.ok(swapped.some((e) => /blade-values\.csv: .*quote not found in blade-gc-avoidance\.txt/.test(e)), swapped.join('\n'));
  assert.ok(!swapped.some((e) => /mitmem-values\.csv/.test(e)), swapped.join('\n'));
  // Skipped (null) means no quote error at all, and a named file that is missing is an error.
  assert.deepEqual(run(d, quotesOnly, {}).filter((e) => /exact_quote/.test(e)), []);
  const missing = run(dirs.dataDir, quotesOnly, { ...standIns, 'mitmem-gc-pause-prediction.txt': '/nonexistent/mitmem.txt' });
  assert.ok(missing.some((e) => /paper text not found \(given by --mitmem or REPLICANT_MITMEM_TEXT\)/.test(e)), missing.join('\n'));
});

test('the mitigation texts come only from their variables', () => {
  assert.deepEqual(sourceTextsFromEnv({}), { 'blade-gc-avoidance.txt': null, 'mitmem-gc-pause-prediction.txt': null, 'fleet-durable-rsm.txt': null });
  assert.equal(sourceTextsFromEnv({ REPLICANT_FLEET_TEXT: '/tmp/f.txt' })['fleet-durable-rsm.txt'], '/tmp/f.txt');
  assert.equal(sourceTextsFromEnv({ REPLICANT_BLADE_TEXT: '/tmp/b.txt' })['blade-gc-avoidance.txt'], '/tmp/b.txt');
});

test('the paper text comes only from REPLICANT_PAPER_TEXT, never from a folder outside the repository', () => {
  assert.equal(paperTextFromEnv({}), null);
  assert.equal(paperTextFromEnv({ [PAPER_TEXT_ENV]: '  ' }), null);
  assert.equal(paperTextFromEnv({ [PAPER_TEXT_ENV]: '/tmp/paper.txt' }), '/tmp/paper.txt');
});

test('a paper text that is named but missing is an error that says where it was named', () => {
  const errors = run(dirs.dataDir, '/nonexistent/paper.txt');
  assert.ok(errors.some((e) => /paper text not found \(given by --paper or REPLICANT_PAPER_TEXT\)/.test(e)), errors.join('\n'));
});

test('the command line without the paper text passes and prints one notice line', () => {
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8', env: envWithout() });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.split('\n').filter((l) => /quote check skipped/.test(l)).length, 1, r.stdout);
});

test('the command line with REPLICANT_PAPER_TEXT checks the quotes', () => {
  const good = spawnSync(process.execPath, [script, '--blade', bladeQuotesOnly], { encoding: 'utf8', env: envWithout({ [PAPER_TEXT_ENV]: quotesOnly, REPLICANT_MITMEM_TEXT: mitmemQuotesOnly, REPLICANT_FLEET_TEXT: fleetQuotesOnly }) });
  assert.equal(good.status, 0, good.stderr);
  assert.doesNotMatch(good.stdout, /skipped/);
  assert.match(good.stdout, /every quote occurs in the paper text \(quotes checked: the paper, BLADE, MITMEM, FLEET\)/);
  const d = scratchData();
  editFile(path.join(d, VALUES), (t) => t.replace('reaching 3 Kops/s with 5 GiB of memory', 'reaching 2 Kops/s with 5 GiB of memory'));
  const bad = spawnSync(process.execPath, [script, '--data', d], { encoding: 'utf8', env: envWithout({ [PAPER_TEXT_ENV]: quotesOnly }) });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /quote not found in gc-cost-smr-replicant\.txt: "reaching 2 Kops\/s/);
});

test('a number with its unit glued on is rejected, naming file, row and field', () => {
  const d = scratchData();
  // line 2 = data row 1 (codebase lines, 18926)
  editCsvLine(path.join(d, VALUES), 2, (l) => l.replace(',18926,lines,', ',"18,926",lines,'));
  const errors = run(d);
  assert.ok(errors.some((e) => /paper-values\.csv: row 1: value: "18,926" must be a plain number/.test(e)), errors.join('\n'));
});

test('an unknown language, a bad memory value and an empty required field are rejected', () => {
  const d = scratchData();
  const file = path.join(d, VALUES);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const n = lines.findIndex((l) => l.startsWith('fig6a-java-a-32gib-8vcpu-max-throughput-slo,')) + 1;
  editCsvLine(file, n, (l) => l.replace(',Java,A,32,8,', ',Kotlin,A,lots,8,').replace(',max_throughput_slo,', ',,'));
  const errors = run(d);
  const row = n - 1;
  for (const re of [
    new RegExp(`row ${row}: language: "Kotlin" is not one of the allowed values`),
    new RegExp(`row ${row}: memory_gib: "lots" is not a number`),
    new RegExp(`row ${row}: metric: is required but empty`),
  ]) assert.ok(errors.some((e) => re.test(e)), `${re}\n${errors.join('\n')}`);
});

test('a quote that is not in the paper is rejected', () => {
  const d = scratchData();
  editFile(path.join(d, VALUES), (t) => t.replace('Java drops from 18 Kops/s to 3 Kops/s', 'Java drops from 18 Kops/s to 2 Kops/s')
    .replace('reaching 3 Kops/s with 5 GiB of memory', 'reaching 2 Kops/s with 5 GiB of memory'));
  const errors = run(d);
  assert.ok(errors.some((e) => /exact_quote: quote not found in gc-cost-smr-replicant.txt: "reaching 2 Kops\/s/.test(e)), errors.join('\n'));
});

test('duplicate ids and dangling references are rejected', () => {
  const d = scratchData();
  editCsvLine(path.join(d, VALUES), 3, (l) => l.replace(/^[^,]+/, 'sec1-all-codebase-lines'));
  editFile(path.join(d, 'paper/corrections.csv'), (t) => t.replace('fig7a-cpp-vs-java-a-32gib-throughput-gap-avg', 'fig7a-no-such-row'));
  editFile(path.join(d, 'paper/unavailable-series.csv'), (t) => t.replace('fig6a-java-a-32gib-8vcpu-max-throughput-slo;', 'fig6a-missing;'));
  const errors = run(d);
  assert.ok(errors.some((e) => /paper-values\.csv: row 2: id: "sec1-all-codebase-lines" repeats the value of row 1/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /corrections\.csv: row \d+: id: "fig7a-no-such-row" is not an id in paper-values/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /unavailable-series\.csv: row \d+: related_ids: "fig6a-missing"/.test(e)), errors.join('\n'));
});

test('columns out of order and an undeclared CSV are rejected', () => {
  const d = scratchData();
  editCsvLine(path.join(d, 'prices/ec2-prices-us-east-1.csv'), 1, (l) => l.replace('instance,vcpu', 'vcpu,instance'));
  fs.writeFileSync(path.join(d, 'paper/extra.csv'), 'a,b\n1,2\n');
  const errors = run(d);
  assert.ok(errors.some((e) => /ec2-prices-us-east-1\.csv: \(header\): columns are \[vcpu, instance/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /extra\.csv: \(file\): CSV not described in datapackage\.json/.test(e)), errors.join('\n'));
});

test('a bad date and a negative price are rejected', () => {
  const d = scratchData();
  editCsvLine(path.join(d, 'prices/ec2-prices-us-east-1.csv'), 2, (l) => l.replace(',0.096,us-east-1,2026-11-22,', ',-0.096,us-east-1,2026-13-22,'));
  const errors = run(d);
  assert.ok(errors.some((e) => /row 1: usd_per_hour_on_demand_linux: -0\.096 is below the minimum 0/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /row 1: retrieved_on: "2026-13-22" is not a date/.test(e)), errors.join('\n'));
});

test('a valid simulated results file under data/simulated passes', () => {
  const d = scratchData();
  writeJson(path.join(d, 'simulated/run-1.json'), sampleResults());
  assert.deepEqual(run(d), []);
});

test('a results file with bad fields is rejected, naming file, row and field', () => {
  const d = scratchData();
  const doc = sampleResults();
  doc.rows[0].value = '3.2 Kops/s';
  doc.rows[0].language = 'Kotlin';
  doc.rows.push({ ...sampleResults().rows[0], unit: 'furlongs' });
  writeJson(path.join(d, 'native/deep/run-2.json'), doc);
  const errors = run(d);
  const file = 'data/native/deep/run-2.json'.replace('data/', '');
  assert.ok(errors.some((e) => e.includes(file) && /row 1: value: must be number/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => e.includes(file) && /row 1: language: must be equal to one of the allowed values/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => e.includes(file) && /row 2: unit: must be equal to one of the allowed values/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => e.includes(file) && /row 2: id: ".*" repeats row 1/.test(e)), errors.join('\n'));
});

test('a simulated file without model card version, and malformed JSON, are rejected', () => {
  const d = scratchData();
  const doc = sampleResults();
  delete doc.metadata.model_card_version;
  writeJson(path.join(d, 'simulated/no-card.json'), doc);
  fs.writeFileSync(path.join(d, 'simulated/broken.json'), '{"rows": [');
  const errors = run(d);
  assert.ok(errors.some((e) => /no-card\.json: metadata\.model_card_version: must have required property/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /broken\.json: \(file\): not valid JSON/.test(e)), errors.join('\n'));
});

test('model cards must say where every parameter comes from, and be named after their version', () => {
  const d = scratchData();
  const card = {
    version: '9.9.9',
    description: 'test card',
    parameters: {
      'cpu.cpp.leader_us_per_op': { value: 209, unit: 'us', source: 'derived', note: 'paper: 0.75 x 8 / 28.7k' },
      'cpu.go.leader_us_per_op': { value: 114, unit: 'us', source: 'guessed', note: 'no source' },
      'gc.go.gogc': { value: 100, unit: '%' },
    },
  };
  writeJson(path.join(d, 'models/9.9.9.json'), card);
  writeJson(path.join(d, 'models/wrong-name.json'), { ...card, parameters: { 'a.b': card.parameters['cpu.cpp.leader_us_per_op'] } });
  const errors = run(d);
  assert.ok(errors.some((e) => /9\.9\.9\.json: parameters\.cpu\.go\.leader_us_per_op\.source: must be equal to one of the allowed values/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /9\.9\.9\.json: parameters\.gc\.go\.gogc: .*required property/.test(e) || /gogc.*note/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /wrong-name\.json: version: file name must be "9\.9\.9\.json"/.test(e)), errors.join('\n'));
});

test('a stale paper-results.json is rejected', () => {
  const d = scratchData();
  editFile(path.join(d, VALUES), (t) => t.replace('sec1-all-codebase-lines,text,,1,all,,,,codebase_lines,18926', 'sec1-all-codebase-lines,text,,1,all,,,,codebase_lines,18927'));
  const errors = run(d);
  assert.ok(errors.some((e) => /paper-results\.json: \(file\): stale/.test(e)), errors.join('\n'));
});

test('the command line exits 1 and prints the errors on broken data, 0 on good data', () => {
  const d = scratchData();
  editCsvLine(path.join(d, VALUES), 2, (l) => l.replace(',18926,lines,', ',many,lines,'));
  const bad = spawnSync(process.execPath, [script, '--data', d, '--paper', quotesOnly], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /row 1: value: "many" must be a plain number/);
  const good = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  assert.equal(good.status, 0, good.stderr);
});
