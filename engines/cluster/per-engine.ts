// Which cluster mixes a per-engine property is asserted on. Some checks judge what one engine
// does on its own (its resident memory, its leader keeping its place under load): a mix of one
// engine makes that engine leader and followers both, and the mixed clusters would repeat the
// same check on the same engines at a cost of minutes in `npm test`. Those checks run on the
// one-engine mixes only (Go's is the default mix, in engines-unit; C++, Rust and Java in
// cluster-mixed); what crosses engines (replication, catch-up, failover, restarts) is still
// asserted on every mix. REPLICANT_PER_ENGINE_EVERY_MIX=1 runs them on every mix (the opt-in
// long forms, `cluster:soak` and `cluster:resets`, set it).
import type { EngineName } from '../loader/engine.ts';

export function runsPerEngineCheck(engines: readonly EngineName[], env: NodeJS.ProcessEnv = process.env): boolean {
  return new Set(engines).size === 1 || env.REPLICANT_PER_ENGINE_EVERY_MIX === '1';
}
