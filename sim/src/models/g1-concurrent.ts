// What G1's concurrent threads may take of a machine's cores under HotSpot's defaults, and when
// its concurrent marking can first start: the two things the paper's account of Fig 7 rests on
// (§5.2: Java needs idle cores for continuous GC, so it falls from 18 to 7 Kops/s at 4 vCPUs).
// Pure arithmetic over the thread ergonomics of g1.ts and a card's heap figures; the simulation
// does not call it: docs/fidelity.md's vCPU section and its tests do.
import { g1GcThreads } from './g1.ts';

/** The share of the vCPUs each kind of G1 concurrent thread holds while it runs: ConcGCThreads
 * marks, G1ConcRefinementThreads (ParallelGCThreads by default in JDK 19) refine dirty cards. */
export function g1ConcurrentCoreShares(vcpus: number): { marking: number; refinement: number } {
  if (!(vcpus >= 1) || !Number.isInteger(vcpus)) throw new Error(`vcpus must be a whole number of at least 1, not ${vcpus}`);
  const t = g1GcThreads(vcpus);
  return { marking: t.concurrent / vcpus, refinement: t.parallel / vcpus };
}

/** Bytes of old garbage per second: each update promotes its new value (the map refers to it)
 * and leaves the value it replaced in the old generation. */
export function oldGarbageBytesPerS(ops_per_s: number, update_fraction: number, value_bytes: number): number {
  return ops_per_s * update_fraction * value_bytes;
}

/** Seconds until an old generation holding `old_bytes` reaches the initiating occupancy
 * (InitiatingHeapOccupancyPercent of the heap; adaptive IHOP starts there and moves only after
 * completed marking cycles), growing by `garbage_bytes_per_s`; 0 when it is there already,
 * Infinity when it does not grow. */
export function secondsToInitiatingOccupancy(heap_bytes: number, ihop_fraction: number, old_bytes: number, garbage_bytes_per_s: number): number {
  const room = ihop_fraction * heap_bytes - old_bytes;
  if (room <= 0) return 0;
  return garbage_bytes_per_s > 0 ? room / garbage_bytes_per_s : Infinity;
}
