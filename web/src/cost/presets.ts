// The Cost view's presets. A preset sets only what its label names (the paper's memory:data
// ratio); demand, growth, horizon and every other input stay as the user left them.
import type { CostState } from './cost-fields.ts';

export interface CostPreset {
  label: string;
  ratio: CostState['ratio'];
}

export const PRESETS: CostPreset[] = [
  { label: 'Paper, ratio 8 (32 GiB)', ratio: '8' },
  { label: 'Paper, ratio 1.25 (5 GiB)', ratio: '1.25' },
];

export function applyPreset(cost: CostState, preset: CostPreset): CostState {
  return { ...cost, ratio: preset.ratio };
}
