// The Race's lanes (web/src/race): which searches share a worker, in what order a worker makes
// them, and where each starts. Each lane is one engine's SLO search at a squeeze level's memory.
//
// Workers: as many as the machine has cores, up to one per lane (raceLaneGroups). An engine keeps
// its worker from level to level: its probes remembered there (probe-cache.ts: C++'s and Rust's
// runs the memory does not enter, any probe made again) serve its next level. With fewer workers
// than lanes a costly lane is paired with a cheap one (Race profile, sim/README.md "Speed": at
// 32 GiB Go ≈ 3.2 and Java ≈ 2.0 CPU-s, C++ ≈ 1.0 and Rust ≈ 1.2–1.9).
//
// Order (nextRaceSearch): the workers search their lanes at the level shown and, once every lane
// is found there, go on down the squeeze while the user looks at it. The searches they make ahead
// are the ones a press of → would start — the same specs, each warm from the lane's own answers
// at the larger memory sizes (raceHint) — so a level reached later is the same result, found
// earlier.
import type { EngineName, SloSearchSpec } from '../api.ts';

/** Lane groups by number of workers: one worker searches all four lanes; two pair a costly lane
 * (Go, Java) with a cheap one; three give Go and Java a worker each; four, a worker a lane. */
const GROUPS_BY_WORKERS: readonly (readonly (readonly EngineName[])[])[] = [
  [['cpp', 'rust', 'go', 'java']],
  [
    ['cpp', 'go'],
    ['rust', 'java'],
  ],
  [['go'], ['java'], ['cpp', 'rust']],
  [['cpp'], ['rust'], ['go'], ['java']],
];

/** The Race's lane groups for a machine with `cores` logical cores
 * (`navigator.hardwareConcurrency`, `os.availableParallelism()`): a worker a core, at most one a
 * lane; a missing or nonsensical count gives two, the Race's grouping before it was counted. */
export function raceLaneGroups(cores: number | undefined): readonly (readonly EngineName[])[] {
  const n = cores !== undefined && Number.isFinite(cores) && cores >= 1 ? Math.min(GROUPS_BY_WORKERS.length, Math.floor(cores)) : 2;
  return GROUPS_BY_WORKERS[n - 1]!;
}

/** The worker (index into `groups`) an engine's lane runs in. */
export function raceWorkerOf(groups: readonly (readonly EngineName[])[], engine: EngineName): number {
  const i = groups.findIndex((g) => g.includes(engine));
  if (i < 0) throw new Error(`engine ${engine} has no Race worker`);
  return i;
}

/** A search for a Race worker to make: a lane at a squeeze level (an index into the squeeze). */
export interface RaceSearch {
  engine: EngineName;
  level: number;
}

/**
 * The search a Race worker makes next: the first of its lanes not yet searched at the level shown
 * (`lanesAt(level)`: the worker's lanes in the order it searches them there), then level by level
 * down the squeeze — but a level below the one shown only once every lane (`allLanes`, every
 * worker's) is searched at the levels above it. A search ahead shares the machine with the
 * searches the user waits for: where cores are busy (other programs; on Linux a page's workers
 * share one scheduling group) it would slow the level shown, so a worker that finishes its lanes
 * first waits for the others. Null: nothing to search now (all done, or waiting so). Levels above
 * the one shown are searched only when shown. `searched` counts a failed search too.
 */
export function nextRaceSearch(
  lanesAt: (level: number) => readonly EngineName[],
  shown: number,
  levels: number,
  searched: (engine: EngineName, level: number) => boolean,
  allLanes: readonly EngineName[],
): RaceSearch | null {
  for (let level = Math.max(0, shown); level < levels; level++) {
    for (const engine of lanesAt(level)) if (!searched(engine, level)) return { engine, level };
    if (allLanes.some((e) => !searched(e, level))) return null;
  }
  return null;
}

/** Where a lane's search starts: warm from the lowest rate the lane met at the larger memory sizes
 * already searched (`answers_ops_per_s`: the sweep's warm start, whose previous point is the
 * larger memory), or cold (undefined) when it met none there. So a level's search depends only on
 * the levels above it, whichever order they were shown in: 32 GiB is always cold, as the Lab
 * sweep's first point. */
export function raceHint(answers_ops_per_s: readonly (number | null | undefined)[]): SloSearchSpec['hint'] | undefined {
  const met = answers_ops_per_s.filter((a): a is number => typeof a === 'number');
  return met.length ? { met_ops_per_s: Math.min(...met) } : undefined;
}
