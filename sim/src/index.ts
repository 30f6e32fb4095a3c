// The simulator's entry points for any host (browser worker, Node CLI, tests). Engines are
// always injected: see api.ts, EngineProvider.
export * from './api.ts';
export { createStepSession, StepError, type EngineProvider } from './step/session.ts';
