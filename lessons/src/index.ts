// @replicant/lessons: the lesson format, its validator, the checkpoint predicates and the
// scenario runner. The lesson folders themselves are published as `@replicant/lessons/files/*`.
export type * from './format.ts';
export { validateLesson, loadLessons, formatError, type LessonFiles } from './validate.ts';
export { evaluate, type CheckResult, type World } from './checkpoints.ts';
export { LessonRun, type ExerciseStatus } from './runner.ts';
export { applyLessonAction, differences, ActionError } from './actions.ts';
export { fill, fillToString, type Segment } from './template.ts';
export { paperIndex, formatFact, type PaperFact, type PaperIndex } from './paper.ts';
export { modelValue, percentile, stallLatencies, MODEL_METRICS } from './model.ts';
export { catalogueToJson, catalogueFromJson, type Catalogue, type CatalogueJson } from './catalogue.ts';
