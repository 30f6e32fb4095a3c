// The Learn view's settings as the URL carries them (prefix `learn.`): which lesson, which
// step, which engine plays it. Lesson 0 means "where you stopped" (or lesson 1). A lesson starts
// on C++ unless the student picks another: its wasm build is the smallest and starts at once,
// where Go's runtime takes the page's main thread for most of a second before the first event
// (npm run bench:web, views learn and learn-go).
import { ENGINE_OPTIONS, choiceField, integerField, type FieldValues } from '../state/fields.ts';

export const LEARN_FIELDS = {
  lesson: integerField('Lesson', 0, { min: 0, max: 99 }),
  step: integerField('Step', 1, { min: 1, max: 200 }),
  engine: choiceField('Engine', 'cpp', [...ENGINE_OPTIONS, { value: 'all', label: 'all four' }] as const),
};

export type LearnState = FieldValues<typeof LEARN_FIELDS>;
