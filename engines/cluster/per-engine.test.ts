import { describe, expect, it } from 'vitest';
import { runsPerEngineCheck } from './per-engine.ts';

describe('runsPerEngineCheck', () => {
  it('runs a per-engine check on a one-engine mix, and on a mixed one only when asked', () => {
    expect(runsPerEngineCheck(['java', 'java', 'java'], {})).toBe(true);
    expect(runsPerEngineCheck(['go'], {})).toBe(true);
    expect(runsPerEngineCheck(['go', 'cpp', 'rust'], {})).toBe(false);
    expect(runsPerEngineCheck(['cpp', 'cpp', 'rust'], {})).toBe(false);
    expect(runsPerEngineCheck(['go', 'cpp', 'rust'], { REPLICANT_PER_ENGINE_EVERY_MIX: '1' })).toBe(true);
    expect(runsPerEngineCheck(['go', 'cpp', 'rust'], { REPLICANT_PER_ENGINE_EVERY_MIX: '0' })).toBe(false);
  });
});
