// The tight-vs-ample and instance sentences, from the real cost model run natively on the
// form's inputs (the browser runs the same Python in Pyodide).
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultState } from '../state/app-state.ts';
import { toCostInputs, toMemoryInputs } from './cost-inputs.ts';
import { cheapestInstance, languageAtWords, memorySentence, tradeoffSentence, unitPrice, type InstancesOutput, type MemoryOutput } from './cost-options.ts';

const ROOT = resolve(__dirname, '../../..');

function model<T>(command: string, inputs: unknown): T {
  const dir = mkdtempSync(join(tmpdir(), 'cost-'));
  const file = join(dir, 'inputs.json');
  writeFileSync(file, JSON.stringify(inputs));
  const text = execFileSync('python3', ['-m', 'replicant_cost', command, '--input', file], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: join(ROOT, 'cost-model/src') },
    encoding: 'utf8',
  });
  return JSON.parse(text) as T;
}

describe('tight vs ample memory', () => {
  it('answers per language from the paper’s capacities at the form’s defaults (ratio 8 vs 1.25)', () => {
    const out = model<MemoryOutput>('memory', toMemoryInputs(defaultState().cost));
    // 200,000 ops/s: Java 18,000 → 36 instances at ratio 8, 3,000 → 201 at 1.25; 165 × $0.384 × 730 h × 12.
    expect(memorySentence(out, 'Java')).toBe('At ratio 1.25 Java needs 165 more instances than at ratio 8: +$555.0 k a year.');
    expect(memorySentence(out, 'C++')).toBe('At ratio 1.25 C++ needs as many instances as at ratio 8 (21): memory costs it nothing extra.');
    expect(memorySentence(out, 'Go')).toMatch(/^Go cannot meet the SLO at ratio 1\.25/);
    expect(out.languages.Java!.tight.capacity_rows).toEqual(['fig6a-java-a-5gib-8vcpu-max-throughput-slo']);
  });

  it('uses the compared side’s own capacities, and says when one is unknown', () => {
    const c = { ...defaultState().cost, vs: '1.5' as const };
    expect(memorySentence(model<MemoryOutput>('memory', toMemoryInputs(c)), 'Java')).toBe('Java has no known capacity at ratio 1.5, so the two cannot be compared.');
    c.vscapjava = 6_000;
    expect(toMemoryInputs(c).other_memory).toEqual({ memory_to_data_ratio: 1.5, ops_per_s_per_cluster: { Java: 6_000 } });
    expect(memorySentence(model<MemoryOutput>('memory', toMemoryInputs(c)), 'Java')).toBe('At ratio 1.5 Java needs 66 more instances than at ratio 8: +$222.0 k a year.');
  });

  it('keeps absurd demand readable', () => {
    const c = { ...defaultState().cost, ops: 1e9 };
    const s = memorySentence(model<MemoryOutput>('memory', toMemoryInputs(c)), 'Java');
    expect(s).toMatch(/^At ratio 1\.25 Java needs 833,334 more instances than at ratio 8: \+\$2\.80 B a year\.$/);
  });
});

describe('instance type × memory per node', () => {
  it('prices each catalogue instance per vCPU-hour and GiB-hour, and finds the measured ones', () => {
    const out = model<InstancesOutput>('instances', toCostInputs(defaultState().cost));
    const big = out.instances.find((i) => i.name === 'm5.2xlarge')!;
    expect([unitPrice(big.usd_per_vcpu_hour), unitPrice(big.usd_per_gib_hour)]).toEqual(['$0.048', '$0.012']);
    expect(big.retrieved_on).toBe('2026-11-22');
    expect(languageAtWords(big.languages.Java!, big)).toBe('18,000 ops/s per cluster → 36 instances, $121.1 k a year');
    const small = out.instances.find((i) => i.name === 'm5.large')!;
    expect(languageAtWords(small.languages.Java!, small)).toBe('no capacity known at 2 vCPUs, 8 GiB');
    expect(tradeoffSentence(out, 'Java')).toMatch(/^Java: only m5\.2xlarge has a known capacity used whole/);
  });

  it('puts a priced capacity on the instance of its size and compares', () => {
    // A Lab result at 2 vCPUs and ratio 2 (8 GiB): an m5.large used whole.
    const c = { ...defaultState().cost, ratio: '2' as const, vcpus: '2' as const, capjava: 5_000, capcpp: 9_000 };
    const inputs = toCostInputs(c);
    const out = model<InstancesOutput>('instances', inputs);
    expect(cheapestInstance(out, 'Java')).toEqual({ name: 'm5.large', usd_per_year: 100_915.2, instances: 120 });
    expect(tradeoffSentence(out, 'Java')).toBe('Java: cheapest is m5.large (120 instances, $100.9 k a year), against m5.2xlarge $121.1 k.');
  });

  it('never prints an unreadable price', () => {
    expect(unitPrice(0.00012346)).toBe('$0.0001235');
    expect(unitPrice(1e-9)).toBe('under $0.0001');
    expect(unitPrice(0)).toBe('$0');
    expect(unitPrice(4.608)).toBe('$4.608');
    expect(unitPrice(Number.NaN)).toBe('not a price');
    expect(unitPrice(1e20)).toBe('$1.0 × 10²⁰');
  });
});
