// The Race's step as the user meets it (web/src/race/RaceView.tsx): a session stepping down
// 32 → 8 → 6 → 5 GiB, each step's lanes searched in the session's workers (worker_threads here,
// Web Workers there), each worker's lanes one after another, warm from the lane's previous
// answer, its probes remembered for the session. A step's wall time is what the user waits when
// they step on as soon as the previous step is shown; its CPU seconds are the whole process's.
// A cold step is a fresh session sent that level alone (a level visited first: nothing
// remembered, no hint).
//
// A Race that searches ahead (race38, race-lanes.ts nextRaceSearch) starts a level's searches the
// moment every lane of the level before is found, not when the user presses on; so a session's
// steps, each sent when the one before has ended, are its searches as they run, and what a user
// waits follows from how long they look at each level first (waitsAfterDwell).
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { EngineName } from '../src/api.ts';

export const RACE_LEVELS = [8, 2, 1.5, 1.25];

export interface StepFigures {
  wall_s: number;
  cpu_s: number;
  /** The CPU seconds of the step's busiest worker thread (its lanes' searches), null where a
   * thread's CPU cannot be read: what the user waits on as many free cores as workers. */
  busiest_worker_cpu_s: number | null;
  /** Each lane's answer, probes and own CPU seconds (its worker thread's, during its search). */
  answers: { engine: EngineName; answer: number | null; probes: number; thread_cpu_s: number | null }[];
}

type LaneAnswer = StepFigures['answers'][number];

const cpu_s = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function start(src: string, engines: readonly EngineName[]): Promise<Worker> {
  const w = new Worker(new URL('./race-worker.mjs', import.meta.url), {
    workerData: { slo: join(src, 'search', 'slo.ts'), measurement: join(src, 'run', 'measurement.ts'), engines },
  });
  return new Promise((resolve, reject) => {
    w.once('error', reject);
    w.once('message', (m) => (m === 'ready' ? resolve(w) : reject(new Error(`race worker: ${String(m)}`))));
  });
}

function level(w: Worker, ratio: number): Promise<LaneAnswer[]> {
  return new Promise((resolve, reject) => {
    w.once('error', reject);
    w.once('message', resolve);
    w.postMessage({ ratio });
  });
}

/** One session of the Race with `src`'s simulator (a sim/src directory) and these worker groups,
 * through `ratios`: each step's figures. The workers' start-up is not timed. */
export async function raceSession(src: string, groups: readonly (readonly EngineName[])[], ratios: readonly number[] = RACE_LEVELS): Promise<StepFigures[]> {
  const workers = await Promise.all(groups.map((g) => start(src, g)));
  try {
    const out: StepFigures[] = [];
    for (const ratio of ratios) {
      const c0 = cpu_s();
      const t0 = performance.now();
      const byWorker = await Promise.all(workers.map((w) => level(w, ratio)));
      const perWorker = byWorker.map((lanes) => (lanes.some((l) => l.thread_cpu_s === null) ? null : lanes.reduce((sum, l) => sum + l.thread_cpu_s!, 0)));
      const busiest = perWorker.some((c) => c === null) ? null : Math.max(...(perWorker as number[]));
      out.push({ wall_s: (performance.now() - t0) / 1000, cpu_s: cpu_s() - c0, busiest_worker_cpu_s: busiest, answers: byWorker.flat() });
    }
    return out;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** What a user waits at each step of a session in a Race that searches ahead, who looks at every
 * step for `dwell_s` seconds once it is shown and then presses on: the first step in full, each
 * next one its wall time less the look (its searches began when the step before was shown). */
export function waitsAfterDwell(steps: readonly Pick<StepFigures, 'wall_s'>[], dwell_s: number): number[] {
  return steps.map((s, i) => (i === 0 ? s.wall_s : Math.max(0, s.wall_s - dwell_s)));
}
