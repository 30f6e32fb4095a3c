// The Race's lanes (web/src/race): which searches share a worker. Each lane is one engine's SLO
// search at the step's memory; a step's lanes run in two workers at once, so on two free cores
// the user waits for the costlier group, not for all four searches one after another. An engine
// keeps its worker from step to step: its probes remembered there (probe-cache.ts: C++'s and
// Rust's runs the memory does not enter, any probe made again) serve its next step. The groups
// pair a costly lane with a cheap one (Race profile, sim/README.md "Speed": at 32 GiB Go ≈ 3.2
// and Java ≈ 2.0 CPU-s, C++ ≈ 1.0 and Rust ≈ 1.9).
import type { EngineName } from '../api.ts';

export const RACE_LANE_GROUPS: readonly (readonly EngineName[])[] = [
  ['cpp', 'go'],
  ['rust', 'java'],
];

/** The worker (index into RACE_LANE_GROUPS) an engine's lane runs in. */
export function raceWorkerOf(engine: EngineName): number {
  const i = RACE_LANE_GROUPS.findIndex((g) => g.includes(engine));
  if (i < 0) throw new Error(`engine ${engine} has no Race worker`);
  return i;
}
