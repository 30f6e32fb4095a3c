// What playing a lesson needs, without the validator: the web lab validates the lessons at
// build time (src/catalogue.ts), so its bundle leaves out the JSON-schema library.
export type * from './format.ts';
export { evaluate, type CheckResult, type World } from './checkpoints.ts';
export { LessonRun, type ExerciseStatus } from './runner.ts';
export { applyLessonAction, differences, ActionError } from './actions.ts';
export { fill, fillToString, type Segment, type FillContext } from './template.ts';
export { paperIndex, formatFact, type PaperFact, type PaperIndex } from './paper.ts';
export { modelValue, percentile, stallLatencies, MODEL_METRICS } from './model.ts';
export { catalogueFromJson, type Catalogue, type CatalogueJson } from './catalogue.ts';
