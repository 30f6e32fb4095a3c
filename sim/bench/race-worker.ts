// One Race worker for bench/race-step.ts, as the browser's simulation worker is for the Race:
// its lanes' searches, one after another, each warm from the lowest answer its lane met at the
// levels already searched, all of them larger memory sizes (a session goes down the squeeze;
// raceHint, web/src/race/RaceView.tsx). Sent `{ ratio }` it searches its
// lanes at that level and answers with them (a Race that searches a level when it is shown);
// sent `{ ratios }` it searches level after level, answering each lane as it ends with the time
// it ended (a Race whose workers go on down the squeeze while the user looks at a level,
// nextRaceSearch). `slo` is the simulator (this checkout's or a baseline's) whose searchSlo it
// calls; its probes are remembered for the worker's life, as in a browser session.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { EngineName, SloSearchResult, SloSearchSpec } from '../src/api.ts';
import { raceHint } from '../src/search/race-lanes.ts';

interface Data {
  slo: string;
  measurement: string;
  engines: EngineName[];
}
const data = workerData as Data;
const { searchSlo } = (await import(pathToFileURL(data.slo).href)) as { searchSlo: (s: SloSearchSpec, p: null) => SloSearchResult };
const { measurementSearchSpec } = (await import(pathToFileURL(data.measurement).href)) as typeof import('../src/run/measurement.ts');
const answers = new Map<EngineName, number[]>();

/** This thread's own CPU seconds (Linux: /proc/thread-self/stat, utime + stime in 10 ms ticks),
 * or null where that is not readable. Node 20 has no per-thread CPU clock, and the process's
 * counts every worker. */
function threadCpu_s(): number | null {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

type LaneAnswer = { engine: EngineName; answer: number | null; probes: number; thread_cpu_s: number | null };

function searchLane(engine: EngineName, ratio: number): LaneAnswer {
  const spec = measurementSearchSpec({ workload: 'A', memory: { ratio }, vcpus: 8 }, engine);
  const seen = answers.get(engine) ?? [];
  const hint = raceHint(seen);
  if (hint) spec.hint = hint;
  const c0 = threadCpu_s();
  const r = searchSlo(spec, null);
  const c1 = threadCpu_s();
  if (r.max_ops_per_s_at_slo !== null) answers.set(engine, [...seen, r.max_ops_per_s_at_slo]);
  return { engine, answer: r.max_ops_per_s_at_slo, probes: r.probes.length, thread_cpu_s: c0 === null || c1 === null ? null : c1 - c0 };
}

parentPort!.on('message', (m: { ratio: number } | { ratios: number[] }) => {
  if ('ratios' in m) {
    // (each lane is timed where it arrives, on the bench's main thread, as the page learns of it)
    for (const [level, ratio] of m.ratios.entries()) for (const engine of data.engines) parentPort!.postMessage({ level, ...searchLane(engine, ratio) });
    parentPort!.postMessage('chain done');
    return;
  }
  parentPort!.postMessage(data.engines.map((engine) => searchLane(engine, m.ratio)));
});
parentPort!.postMessage('ready');
