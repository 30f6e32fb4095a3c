import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ModelCard } from '../api.ts';
import { DEFAULT_CARD, validateCard } from '../models/card.ts';
import { differingNonStorageParameters } from '../fidelity/candidate-section.ts';
import { leaderBytesPerOp, paperLeaderUsPerOp } from './fit.ts';
import { LATENCY_RATIO_ID, TABLE1_METAL_ID, calibratedOnTable1, metalCard } from './table1.ts';

const card = (v: string): ModelCard => validateCard(JSON.parse(readFileSync(fileURLToPath(new URL(`../../../data/models/${v}.json`, import.meta.url)), 'utf8')));

describe("Table 1's m5.metal row as a calibration point (candidate card 1.11.0)", () => {
  it('m5.metal is the card with no gRPC hand-off and nothing else changed; the card passed in is left alone', () => {
    const vm = card('1.11.0');
    const metal = metalCard(vm);
    expect(differingNonStorageParameters(vm.parameters, metal.parameters)).toEqual(['cpu.cpp.handoff_mean_us', 'cpu.java.handoff_mean_us']);
    expect(metal.parameters['cpu.cpp.handoff_mean_us']!.value).toBe(0);
    expect(vm.parameters['cpu.cpp.handoff_mean_us']!.value).toBeGreaterThan(0);
    // the TCP builds have no hand-off on either machine
    expect(metal.parameters['cpu.rust.handoff_mean_us']!.value).toBe(0);
    expect(metal.version).toBe('1.11.0-m5.metal');
  });

  it('only a card whose step was fitted there has the row (the default card has not)', () => {
    expect(calibratedOnTable1(DEFAULT_CARD)).toBe(false);
    expect(calibratedOnTable1(card('1.11.0'))).toBe(true);
  });

  it('card 1.11.0 is 1.7.1 with the gRPC builds\' step, hand-off and message CPU re-derived, and nothing else', () => {
    expect(differingNonStorageParameters(card('1.7.1').parameters, card('1.11.0').parameters)).toEqual([
      'cpu.cpp.handoff_mean_us',
      'cpu.cpp.in_us',
      'cpu.cpp.out_us',
      'cpu.cpp.per_kib_us',
      'cpu.cpp.step_us',
      'cpu.java.handoff_mean_us',
      'cpu.java.in_us',
      'cpu.java.out_us',
      'cpu.java.per_kib_us',
      'cpu.java.step_us',
    ]);
  });

  it("card 1.11.0 still spends Fig 6(b)'s leader CPU per operation, with Java's step and hand-off taken from C++'s, and each note names the row it was fitted on", () => {
    const c = card('1.11.0');
    const v = (k: string) => c.parameters[k]!.value;
    const bytes = leaderBytesPerOp();
    for (const e of ['cpp', 'java'] as const) {
      const alloc = (3 * v(`alloc.${e}.allocs_per_event`) * (c.parameters[`alloc.${e}.ns_per_allocation`]?.value ?? 0)) / 1000;
      const spent = alloc + 3 * v(`cpu.${e}.step_us`) + 3 * v(`cpu.${e}.in_us`) + 3 * v(`cpu.${e}.out_us`) + (v(`cpu.${e}.per_kib_us`) * bytes) / 1024;
      expect(spent).toBeCloseTo(paperLeaderUsPerOp()[e], 2);
    }
    expect(v('cpu.java.step_us')).toBe(v('cpu.cpp.step_us'));
    expect(v('cpu.java.handoff_mean_us')).toBe(v('cpu.cpp.handoff_mean_us'));
    expect(v('cpu.cpp.step_us')).toBeLessThan(card('1.7.1').parameters['cpu.cpp.step_us']!.value);
    expect(c.parameters['cpu.cpp.step_us']!.note).toContain(TABLE1_METAL_ID);
    expect(c.parameters['cpu.java.step_us']!.note).toContain(`fitted on ${TABLE1_METAL_ID}`);
    for (const e of ['cpp', 'java']) expect(c.parameters[`cpu.${e}.handoff_mean_us`]!.note).toContain(LATENCY_RATIO_ID);
  });
});
