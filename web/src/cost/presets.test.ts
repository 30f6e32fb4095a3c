import { describe, expect, it } from 'vitest';
import { applyPreset, PRESETS } from './presets.ts';
import { COST_FIELDS, type CostState } from './cost-fields.ts';

const defaults = Object.fromEntries(Object.entries(COST_FIELDS).map(([k, f]) => [k, f.default])) as CostState;

describe('Cost presets', () => {
  it('change only what they name: growth, horizon and demand stay', () => {
    const mine: CostState = { ...defaults, ops: 5_000_000, growth: 'linear', linear: 20_000, horizon: 120, pct: 2 };
    for (const p of PRESETS) {
      const after = applyPreset(mine, p);
      expect(after).toEqual({ ...mine, ratio: p.ratio });
    }
  });
});
