// One Race worker for bench/race-step.ts, as the browser's simulation worker is for the Race:
// its lanes' searches, one after another, at each level it is sent, each warm from the lowest
// answer its lane found at a larger memory (raceHint, web/src/race/RaceView.tsx). `slo` is the simulator
// (this checkout's or a baseline's) whose searchSlo it calls; its probes are remembered for the
// worker's life, as in a browser session.
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

parentPort!.on('message', (m: { ratio: number }) => {
  const out: { engine: EngineName; answer: number | null; probes: number; thread_cpu_s: number | null }[] = [];
  for (const engine of data.engines) {
    const spec = measurementSearchSpec({ workload: 'A', memory: { ratio: m.ratio }, vcpus: 8 }, engine);
    const seen = answers.get(engine) ?? [];
    const hint = raceHint(seen);
    if (hint) spec.hint = hint;
    const c0 = threadCpu_s();
    const r = searchSlo(spec, null);
    const c1 = threadCpu_s();
    if (r.max_ops_per_s_at_slo !== null) answers.set(engine, [...seen, r.max_ops_per_s_at_slo]);
    out.push({ engine, answer: r.max_ops_per_s_at_slo, probes: r.probes.length, thread_cpu_s: c0 === null || c1 === null ? null : c1 - c0 });
  }
  parentPort!.postMessage(out);
});
parentPort!.postMessage('ready');
