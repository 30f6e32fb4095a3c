// The form's defaults must reproduce the cost model's documented example exactly: run the
// real model natively on both and compare its output byte for byte.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { toCostInputs } from './cost-inputs.ts';
import { defaultState } from '../state/app-state.ts';
import { breakEvenSentence, type EstimateOutput } from './cost-output.ts';

const ROOT = resolve(__dirname, '../../..');

function estimate(inputs: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'cost-'));
  const file = join(dir, 'inputs.json');
  writeFileSync(file, JSON.stringify(inputs));
  return execFileSync('python3', ['-m', 'replicant_cost', 'estimate', '--input', file], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: join(ROOT, 'cost-model/src') },
    encoding: 'utf8',
  });
}

describe('toCostInputs', () => {
  it('turns the default form into the documented paper-ratio-8 example (break-even month 49)', () => {
    const example = JSON.parse(readFileSync(join(ROOT, 'cost-model/examples/paper-ratio-8.json'), 'utf8'));
    const fromForm = estimate(toCostInputs(defaultState().cost));
    expect(fromForm).toBe(estimate(example));
    const out = JSON.parse(fromForm) as EstimateOutput;
    expect(out.break_even.month).toBe(49);
    expect(breakEvenSentence(out)).toContain('catches up in month 49');
  });

  it('writes a capacity override only for the languages given', () => {
    const s = defaultState().cost;
    s.capjava = 20_000;
    expect(toCostInputs(s).capacity.ops_per_s_per_cluster).toEqual({ Java: 20_000 });
    s.growth = 'linear';
    expect(toCostInputs(s).demand.growth).toEqual({ kind: 'linear', ops_per_s_per_month: 5_000 });
  });
});
