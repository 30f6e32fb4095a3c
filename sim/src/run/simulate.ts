// A load run: a cluster (real engines in exact mode, the protocol model in fast mode) under
// YCSB-style load, in virtual time, with the network, CPU and runtime (GC / allocator) models.
// Every random draw comes from a seeded stream; nothing reads the wall clock. This composes the
// run: the spec resolved against the model card, the kernel (kernel.ts: the event queue, its
// loop and the routing of effects), the mitigation sandbox (mitigation-sandbox.ts) and the
// result (run-result.ts).
import type { EngineProvider, RunResult, RunSpec } from '../api.ts';
import { DEFAULT_CARD, validateCard } from '../models/card.ts';
import { resolveSpec } from './spec.ts';
import { Simulation } from './kernel.ts';
import type { RunHooks } from './hooks.ts';

export type { EngineProvider };
export { CancelledError, type RunHooks } from './hooks.ts';

export function simulate(specIn: RunSpec, provide: EngineProvider | null, hooks: RunHooks = {}): RunResult {
  const card = validateCard(specIn.model_card ?? DEFAULT_CARD);
  const spec = resolveSpec(specIn, card);
  if (spec.fidelity === 'exact' && !provide) throw new Error('exact fidelity needs engines (an engine provider)');
  return new Simulation(spec, card, provide, hooks).run();
}
