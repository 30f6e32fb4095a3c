// The Race's step as the user meets it (web/src/race/RaceView.tsx): a session stepping down
// 32 → 8 → 6 → 5 GiB, each step's lanes searched in the session's workers (worker_threads here,
// Web Workers there), each worker's lanes one after another, warm from the lane's previous
// answer, its probes remembered for the session. A step's wall time is what the user waits when
// they step on as soon as the previous step is shown; its CPU seconds are the whole process's.
// A cold step is a fresh session sent that level alone (a level visited first: nothing
// remembered, no hint).
//
// A Race whose workers go on down the squeeze while the user looks at a level (race-lanes.ts,
// nextRaceSearch) is measured by raceChainSession: each worker is sent every level at once, and
// each lane's end is timed; since those searches are the ones a press of → would start, in the
// same order whenever the user presses (never before a level is shown), what a user waits at each
// level follows from the ends for any time they spend looking at a level before pressing on
// (waitsAfterDwell).
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { EngineName } from '../src/api.ts';

export const RACE_LEVELS = [8, 2, 1.5, 1.25];

export interface StepFigures {
  /** What the user waits for the step when stepping on as soon as the previous step is shown. */
  wall_s: number;
  /** The process's CPU seconds during the step; null in a chain session, whose levels overlap in
   * time. */
  process_cpu_s: number | null;
  /** The CPU seconds of the step's searches, each lane's own worker thread's during its search
   * (V8's helper threads not counted), null where a thread's CPU cannot be read. */
  cpu_s: number | null;
  /** When every lane of the step had ended, seconds from the session's start (chain sessions). */
  done_at_s?: number;
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
      const all = byWorker.flat();
      out.push({ wall_s: (performance.now() - t0) / 1000, process_cpu_s: cpu_s() - c0, cpu_s: lanesCpu_s(all), busiest_worker_cpu_s: busiest, answers: all });
    }
    return out;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

function lanesCpu_s(lanes: readonly LaneAnswer[]): number | null {
  return lanes.some((l) => l.thread_cpu_s === null) ? null : lanes.reduce((sum, l) => sum + l.thread_cpu_s!, 0);
}

/** One session of a Race whose workers search level after level without waiting for the user
 * (race-lanes.ts, nextRaceSearch): every lane's end timed; each step's `wall_s` is the wait of a
 * user who presses on the moment the previous step is shown (waitsAfterDwell with 0). */
export async function raceChainSession(src: string, groups: readonly (readonly EngineName[])[], ratios: readonly number[] = RACE_LEVELS): Promise<StepFigures[]> {
  const workers = await Promise.all(groups.map((g) => start(src, g)));
  try {
    const t0 = performance.now();
    const ends = await Promise.all(
      workers.map(
        (w) =>
          new Promise<(LaneAnswer & { level: number; ended_ms: number })[]>((resolve, reject) => {
            const got: (LaneAnswer & { level: number; ended_ms: number })[] = [];
            w.once('error', reject);
            w.on('message', (m) => (m === 'chain done' ? resolve(got) : got.push({ ...m, ended_ms: performance.now() })));
            w.postMessage({ ratios });
          }),
      ),
    );
    const steps = ratios.map((_, level) => {
      const lanes = ends.map((byWorker) => byWorker.filter((l) => l.level === level));
      const perWorker = lanes.map((ls) => (ls.some((l) => l.thread_cpu_s === null) ? null : ls.reduce((sum, l) => sum + l.thread_cpu_s!, 0)));
      const all = lanes.flat();
      return {
        wall_s: 0,
        process_cpu_s: null,
        cpu_s: lanesCpu_s(all),
        done_at_s: (Math.max(...all.map((l) => l.ended_ms)) - t0) / 1000,
        busiest_worker_cpu_s: perWorker.some((c) => c === null) ? null : Math.max(...(perWorker as number[])),
        answers: all.map(({ engine, answer, probes, thread_cpu_s }) => ({ engine, answer, probes, thread_cpu_s })),
      };
    });
    return waitsAfterDwell(steps, 0).map((wait_s, i) => ({ ...steps[i]!, wall_s: wait_s }));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** What a user waits at each step of a chain session who looks at every step for `dwell_s`
 * seconds once it is shown and then presses on; the first step is waited for from the start. */
export function waitsAfterDwell(steps: readonly Pick<StepFigures, 'done_at_s'>[], dwell_s: number): number[] {
  let pressed = 0;
  return steps.map((s) => {
    const done = s.done_at_s ?? 0;
    const wait = Math.max(0, done - pressed);
    pressed = Math.max(pressed, done) + dwell_s;
    return wait;
  });
}
