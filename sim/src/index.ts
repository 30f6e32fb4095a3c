// The simulator's entry points for any host (browser worker, Node CLI, tests). Engines are
// always injected (api.ts, EngineProvider); the Web Worker entry is worker.ts.
export * from './api.ts';
export { createStepSession, StepError } from './step/session.ts';
export { simulate, CancelledError, type RunHooks } from './run/simulate.ts';
export { searchSlo, sweep, leaderUtilization } from './search/slo.ts';
export { SpecError } from './run/spec.ts';
export { DEFAULT_CARD, validateCard } from './models/card.ts';
