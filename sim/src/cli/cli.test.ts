import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// The data workspace's own results-schema check (Ajv, 2020-12).
import { compileResultsSchema } from '@replicant/data/lib/results.mjs';
import { DEFAULT_CARD } from '../models/card.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, 'cli.ts');
const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { encoding: 'utf8', cwd: join(HERE, '..', '..') });

describe('sim CLI', () => {
  it('a small sweep writes a results file the data validator accepts', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sim-cli-')), 'results.json');
    const r = run(['sweep', '--engine', 'rust,java', '--workload', 'b', '--mem-gib', '32,5', '--duration-s', '1', '--warmup-s', '0.2', '--min-ops', '1000', '--max-ops', '100000', '--tolerance', '0.3', '--seed', '2', '--out', out, '--date', '2026-11-22']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/rust 32 GiB 8 vCPU: max \d/);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    const validate = compileResultsSchema(join(HERE, '..', '..', '..', 'data', 'schema'));
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.metadata).toMatchObject({ source_kind: 'simulated', model_card_version: DEFAULT_CARD.version, seed: 2, date: '2026-11-22' });
    expect(doc.rows.some((row: { metric: string; language: string }) => row.metric === 'max_throughput_slo' && row.language === 'Java')).toBe(true);
  });

  it('bad input: a clear message and exit status 2', () => {
    for (const args of [['fly'], ['run', '--target', 'abc'], ['run'], ['sweep', '--engine', 'cobol'], ['sweep', '--vcpus', '1.5'], ['search', '--mem-gib', '4', '--ratio', '2'], ['search', '--bogus', '1'], ['run', '--target', '100', '--fidelity', 'fast', '--duration-s', '-1']]) {
      const r = run(args);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/^sim: |usage:/m);
    }
  });
});
