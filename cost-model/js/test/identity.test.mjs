// The same inputs through native CPython and through Pyodide (in Node, offline) must give
// byte-identical output.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { loadPyodide } from 'pyodide';
import { installCostModel, CostModelInputError, PYTHON_FILES } from '../loader.mjs';
import { readRepoFiles, REPO_ROOT } from '../node-files.mjs';

const COST_MODEL = path.join(REPO_ROOT, 'cost-model');
const EXAMPLES = path.join(COST_MODEL, 'examples');
const indexURL = path.dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));

function native(command, inputText, format) {
  const args = ['-m', 'replicant_cost', command, '--format', format];
  if (inputText !== null) args.push('--input', '-');
  const r = spawnSync('python3', args, {
    input: inputText ?? '',
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: path.join(COST_MODEL, 'src') },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let pyodide;
let model;
before(async () => {
  pyodide = await loadPyodide({ indexURL });
  model = installCostModel(pyodide, readRepoFiles());
});
after(() => model?.close());

test('Pyodide runs Python 3.14 (not the native interpreter)', () => {
  assert.match(pyodide.runPython('import sys; sys.version'), /^3\.14\./);
});

const CASES = [
  ['estimate', 'paper-ratio-8.json', 'json'],
  ['estimate', 'paper-ratio-1.25.json', 'json'],
  ['estimate', 'paper-ratio-8.json', 'csv'],
  ['sensitivity', 'paper-ratio-8.json', 'json'],
  ['sensitivity', 'paper-ratio-1.25.json', 'csv'],
  ['fig14', null, 'json'],
  ['defaults', null, 'json'],
];

for (const [command, example, format] of CASES) {
  test(`${command} ${example ?? '(no input)'} --format ${format}: native and Pyodide agree byte for byte`, () => {
    const text = example ? fs.readFileSync(path.join(EXAMPLES, example), 'utf8') : null;
    const n = native(command, text, format);
    assert.equal(n.status, 0, n.stderr);
    const p = model.run(command, text ?? '', format);
    assert.ok(n.stdout.length > 100);
    assert.equal(p, n.stdout);
  });
}

test('a growth curve with many compounding steps agrees too', () => {
  const inputs = {
    horizon_months: 240,
    demand: { ops_per_s_now: 12345.678, growth: { kind: 'exponential', pct_per_month: 3.3 } },
    cluster: { workload: 'B', memory_gib: 5, nodes_per_cluster: 5 },
    compare: { gc: 'Java', non_gc: 'Rust' },
    pricing: { savings_plan_discount_pct: 27.5, hours_per_month: 730.5 },
    development: { team_size: 3, usd_per_engineer_year: 123456.78, maintenance_growth_pct_per_year: 4.1 },
  };
  const text = JSON.stringify(inputs);
  const n = native('estimate', text, 'json');
  assert.equal(n.status, 0, n.stderr);
  assert.equal(model.run('estimate', inputs), n.stdout);
});

test('bad input gives the same message natively (exit 2) and in Pyodide (CostModelInputError)', () => {
  for (const text of ['{"demand": {"ops_per_s_now": -1}}', '{oops', '{"demand": {"ops_per_s_now": 1}, "languages": ["Kotlin"]}']) {
    const n = native('estimate', text, 'json');
    assert.equal(n.status, 2);
    assert.throws(() => model.run('estimate', text), (e) => e instanceof CostModelInputError && `error: ${e.message}\n` === n.stderr);
  }
});

test('the manifest lists exactly the package files on disk', () => {
  const onDisk = fs
    .readdirSync(path.join(COST_MODEL, 'src', 'replicant_cost'))
    .filter((f) => f.endsWith('.py'))
    .map((f) => `cost-model/src/replicant_cost/${f}`)
    .sort();
  assert.deepEqual([...PYTHON_FILES].sort(), onDisk);
});
