// The Race view's settings as the URL carries them (prefix `race.`).
import { choiceField, integerField, type FieldValues } from '../state/fields.ts';
import { MITIGATION_OPTIONS } from '../lab/lab-fields.ts';

export const RACE_FIELDS = {
  step: integerField('Squeeze step', 0, { min: 0, max: 3 }),
  wl: choiceField('Workload', 'A', [
    { value: 'A', label: 'A (update-heavy)' },
    { value: 'B', label: 'B (read-heavy)' },
  ] as const),
  // A GC mitigation per lane with a collector (C++ and Rust have nothing to mitigate).
  gomit: choiceField('Go lane: GC mitigation', 'none', MITIGATION_OPTIONS),
  javamit: choiceField('Java lane: GC mitigation', 'none', MITIGATION_OPTIONS),
};

export type RaceState = FieldValues<typeof RACE_FIELDS>;
