// Where each process's collector stands in its own cycle when a run starts. The paper's three
// servers were separate processes, started and loaded apart, so their collectors are not in
// step: Go's cycles (card 1.6.0 on, go.independent_phases) and G1's young collections (card
// 1.8.1 on, g1.independent_phases) each start at a seeded point. One draw per node, in node
// order, from the runtime stream: the run (kernel.ts) and the window's dry runs (measurement.ts)
// must place every node alike.
import type { ModelCard } from '../api.ts';
import { Prng } from '../core/prng.ts';
import { STREAM_RUNTIME } from '../core/streams.ts';

const flag = (card: ModelCard, key: string) => (card.parameters[key]?.value ?? 0) > 0;

/** Whether the card gives each G1 process its own young-collection phase. */
export function g1PhasesIndependent(card: ModelCard): boolean {
  return flag(card, 'g1.independent_phases');
}

/** Each node's start phase in [0, 1), or null when the card keeps every collector in step. */
export function runtimeStartPhases(card: ModelCard, seed: number, nodes: number): number[] | null {
  if (!flag(card, 'go.independent_phases') && !g1PhasesIndependent(card)) return null;
  const rng = new Prng(seed, STREAM_RUNTIME);
  return Array.from({ length: nodes }, () => rng.nextDouble());
}
