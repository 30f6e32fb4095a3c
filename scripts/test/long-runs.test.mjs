// Tests of the long runs' chunking (scripts/long-runs.sh): committed chunks of another size are
// passed over exactly, so no seed is run twice and none is left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'long-runs.sh');

function commitChunk(dir, from, seeds) {
  const report = { command: 'committed before this test', wall_s: 0, results: [{ engine: 'rust', seeds, from }] };
  writeFileSync(path.join(dir, `torture-log-rust-${from}.json`), JSON.stringify(report));
}

test('a larger chunk size goes on after committed chunks of 40 seeds and stops before the next committed one', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'long-runs-'));
  try {
    commitChunk(dir, 1, 40);
    commitChunk(dir, 41, 40);
    commitChunk(dir, 91, 10);
    const r = spawnSync('bash', [script, 'torture'], {
      encoding: 'utf8',
      env: {
        ...process.env,
        REPLICANT_LONG_OUT: dir,
        REPLICANT_TORTURE_DURABILITY: 'log',
        REPLICANT_TORTURE_CHOICES: 'rust',
        REPLICANT_TORTURE_SEEDS: '100',
        REPLICANT_TORTURE_CHUNK: '200',
      },
    });
    assert.equal(r.status, 0, r.stderr);
    const reports = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    assert.deepEqual(reports, ['torture-log-rust-1.json', 'torture-log-rust-41.json', 'torture-log-rust-81.json', 'torture-log-rust-91.json']);
    const ran = JSON.parse(readFileSync(path.join(dir, 'torture-log-rust-81.json'), 'utf8')).results[0];
    assert.equal(ran.from, 81);
    assert.equal(ran.seeds, 10, 'seeds 81..90 only: 91..100 are committed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a chunk size that is no whole number is refused with its value', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'long-runs-'));
  try {
    const r = spawnSync('bash', [script, 'torture'], {
      encoding: 'utf8',
      env: { ...process.env, REPLICANT_TORTURE_CHUNK: '2e2', REPLICANT_LONG_OUT: dir },
    });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /REPLICANT_TORTURE_CHUNK must be a positive whole number of seeds, not '2e2'/);
    assert.deepEqual(readdirSync(dir), [], 'nothing was run');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
