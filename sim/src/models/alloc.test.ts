import { describe, expect, it } from 'vitest';
import type { ModelCard } from '../api.ts';
import measuredJson from '@replicant/data/models/measured/0.1.0-measured.20261122.json' with { type: 'json' };
import card100 from '@replicant/data/models/1.0.0.json' with { type: 'json' };
import { opAllocKey, solveOpSplit } from './alloc.ts';
import { annotateMeasuredCpu, applyMeasuredAllocation, MeasuredCardError, WORKLOAD_A, WORKLOAD_B } from './measured-card.ts';

const measured = measuredJson as ModelCard;
const copy = (c: unknown): ModelCard => JSON.parse(JSON.stringify(c)) as ModelCard;

describe('bytes per read and per update op from two measured mixes', () => {
  it('solves A = 0.5 r + 0.5 u, B = 0.95 r + 0.05 u (Go leader: 8987 and 6609 B/op)', () => {
    const s = solveOpSplit(WORKLOAD_A, 8987, WORKLOAD_B, 6609);
    expect(s.clamped).toBeNull();
    expect(s.read_bytes).toBeCloseTo(8987 - (8987 - 6609) / 0.9, 6); // 6344.8
    expect(s.update_bytes).toBeCloseTo(8987 + (8987 - 6609) / 0.9, 6); // 11629.2
    // and the split gives back both measured mixes
    expect(0.5 * s.read_bytes + 0.5 * s.update_bytes).toBeCloseTo(8987, 6);
    expect(0.95 * s.read_bytes + 0.05 * s.update_bytes).toBeCloseTo(6609, 6);
  });

  it('recovers any non-negative split it was given', () => {
    for (const [r, u] of [[0, 100], [100, 0], [1234.5, 9876.5], [500, 500]] as const) {
      const s = solveOpSplit({ read_proportion: 0.5 }, 0.5 * r + 0.5 * u, { read_proportion: 0.95 }, 0.95 * r + 0.05 * u);
      expect(s.read_bytes).toBeCloseTo(r, 6);
      expect(s.update_bytes).toBeCloseTo(u, 6);
      expect(s.clamped).toBeNull();
    }
  });

  it('clamps a negative solution to 0, keeps workload A at its measured mean, and says so', () => {
    // B far below A: reads would have to allocate less than nothing.
    const lowReads = solveOpSplit(WORKLOAD_A, 1000, WORKLOAD_B, 50);
    expect(lowReads.read_bytes).toBe(0);
    expect(lowReads.update_bytes).toBeCloseTo(2000, 9);
    expect(lowReads.clamped).toMatch(/B per read; clamped to 0 .* 50 % read mix at its measured 1000 B\/op/);
    // B above A by more than reads can carry: updates would be negative.
    const lowUpdates = solveOpSplit(WORKLOAD_A, 1000, WORKLOAD_B, 2500);
    expect(lowUpdates.update_bytes).toBe(0);
    expect(lowUpdates.read_bytes).toBeCloseTo(2000, 9);
    expect(lowUpdates.clamped).toMatch(/B per update; clamped to 0/);
  });

  it('refuses mixes that cannot be told apart and impossible inputs', () => {
    expect(() => solveOpSplit(WORKLOAD_A, 1, WORKLOAD_A, 2)).toThrow(/same read proportion/);
    expect(() => solveOpSplit({ read_proportion: 1.5 }, 1, WORKLOAD_B, 2)).toThrow(/\[0, 1\]/);
    expect(() => solveOpSplit(WORKLOAD_A, -1, WORKLOAD_B, 2)).toThrow(/negative/);
    expect(() => solveOpSplit(WORKLOAD_A, Number.NaN, WORKLOAD_B, 2)).toThrow(/finite/);
  });
});

describe('a measured card into the model card', () => {
  it('allocation becomes measured per role and kind; the assumed per-event bytes go', () => {
    const card = copy(card100);
    applyMeasuredAllocation(card, measured);
    for (const e of ['cpp', 'rust', 'go', 'java'] as const) {
      expect(card.parameters[`alloc.${e}.bytes_per_event`]).toBeUndefined();
      expect(card.parameters[`alloc.${e}.bytes_per_message_byte`]).toBeUndefined();
      expect(card.parameters[`alloc.${e}.allocs_per_event`]).toBeDefined();
      for (const role of ['leader', 'follower'] as const) {
        const a = measured.parameters[`${e}.alloc_bytes_per_op.${role}.a`]!.value;
        const b = measured.parameters[`${e}.alloc_bytes_per_op.${role}.b`]!.value;
        const r = card.parameters[opAllocKey(e, role, 'read')]!;
        const u = card.parameters[opAllocKey(e, role, 'update')]!;
        expect(r.source).toBe('measured');
        expect(r.note).toContain('measured card 0.1.0-measured.20261122, commit 933160da147b');
        expect(0.5 * r.value + 0.5 * u.value).toBeCloseTo(a, 0);
        expect(0.95 * r.value + 0.05 * u.value).toBeCloseTo(b, 0);
        expect(u.value).toBeGreaterThan(r.value); // every engine allocates more for an update
      }
    }
    expect(card.parameters['alloc.go.leader_bytes_per_update_op']!.value).toBe(11629.2);
  });

  it('a measured card with a value missing is refused with the key named', () => {
    const broken = copy(measured);
    delete broken.parameters['java.alloc_bytes_per_op.follower.b'];
    expect(() => applyMeasuredAllocation(copy(card100), broken)).toThrow(MeasuredCardError);
    expect(() => applyMeasuredAllocation(copy(card100), broken)).toThrow(/java\.alloc_bytes_per_op\.follower\.b/);
  });

  it("measured CPU goes into the CPU notes as a cross-check, once, with its ratio to the paper's", () => {
    const card = copy(card100);
    const paper = { cpp: 209.1, rust: 66.8, go: 114.1, java: 213.3 };
    annotateMeasuredCpu(card, measured, paper);
    annotateMeasuredCpu(card, measured, paper);
    const note = card.parameters['cpu.go.in_us']!.note;
    expect(note.match(/Cross-check/g)).toHaveLength(1);
    expect(note).toContain('used 96.2 us/op on workload A');
    expect(note).toContain(`${(96.2 / 114.1).toFixed(2)} x the 114.1 us/op`);
    expect(card.parameters['cpu.go.in_us']!.value).toBe(card100.parameters['cpu.go.in_us'].value);
  });
});
