import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ModelCard } from '../api.ts';
import { DEFAULT_CARD } from '../models/card.ts';
import { cpuCosts } from '../models/node-model.ts';
import { wireSizes } from '../run/sizes.ts';
import { applyMeasuredOpCpu, modelOpCpu, OpCpuError, solveOpCpuFactors } from './op-cpu.ts';

const measured = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('@replicant/data/models/measured/0.1.0-measured.20261122.json')), 'utf8')) as ModelCard;
const copy = (c: ModelCard): ModelCard => JSON.parse(JSON.stringify(c)) as ModelCard;
const sizes = wireSizes(23, 500);

describe('solveOpCpuFactors', () => {
  const parts = { scaled: { read: 80, update: 100 }, fixed: { read: 40, update: 30 } };

  it('gives the measured read/update ratio and keeps workload A’s mean', () => {
    const s = solveOpCpuFactors(parts, 0.7);
    expect(s.read_us / s.update_us).toBeCloseTo(0.7, 12);
    expect(0.5 * s.read_us + 0.5 * s.update_us).toBeCloseTo(0.5 * 120 + 0.5 * 130, 12);
    expect(s.read_factor * 80 + 40).toBeCloseTo(s.read_us, 12);
    expect(s.update_factor * 100 + 30).toBeCloseTo(s.update_us, 12);
  });

  it('refuses a ratio the unscaled part cannot allow, and a ratio that is not a positive number', () => {
    expect(() => solveOpCpuFactors(parts, 0.1)).toThrow(OpCpuError);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => solveOpCpuFactors(parts, bad)).toThrow(OpCpuError);
  });
});

describe('applyMeasuredOpCpu', () => {
  it("puts the measured ratio into the model's Java leader and follower, workload A unchanged", () => {
    const card = copy(DEFAULT_CARD);
    applyMeasuredOpCpu(card, measured, ['java']);
    const f = cpuCosts(card, 'java').op_factor;
    for (const [role, A, B] of [['leader', 121.7, 101.2], ['follower', 41, 37.6]] as const) {
      const r = (0.5 * B - 0.05 * A) / 0.45;
      const u = (0.95 * A - 0.5 * B) / 0.45;
      const p = modelOpCpu(card, 'java', role, sizes);
      const read = (role === 'leader' ? f.leader_read : f.follower_read) * p.scaled.read + p.fixed.read;
      const update = (role === 'leader' ? f.leader_update : f.follower_update) * p.scaled.update + p.fixed.update;
      // the factors are rounded to 4 decimals in the card
      expect(read / update).toBeCloseTo(r / u, 3);
      expect((read + update) / 2).toBeCloseTo((p.scaled.read + p.fixed.read + p.scaled.update + p.fixed.update) / 2, 1);
      expect(card.parameters[`cpu.java.${role}_read_factor`]!.note).toContain('0.1.0-measured.20261122');
    }
    // the card's other engines are left as they were
    expect(cpuCosts(card, 'go').op_factor.leader_read).toBe(1);
  });

  it("names the engine and role whose measured ratio cannot be carried (Go's leader: 0.40)", () => {
    expect(() => applyMeasuredOpCpu(copy(DEFAULT_CARD), measured, ['go'])).toThrow(/go leader .*A 96\.2, B 59\.4/);
  });

  it('a measured card without the CPU per op is an error naming the key', () => {
    const bare = { ...measured, parameters: {} };
    expect(() => applyMeasuredOpCpu(copy(DEFAULT_CARD), bare, ['java'])).toThrow(/java\.cpu_us_per_op\.leader\.a/);
  });
});
