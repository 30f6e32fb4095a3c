// One Race worker for bench/race-step.ts, as the browser's simulation worker is for the Race:
// its lanes' searches, one after another, at each level it is sent, each warm from the lowest
// answer its lane found at a larger memory (web/src/race/RaceView.tsx). `slo` is the simulator
// (this checkout's or a baseline's) whose searchSlo it calls; its probes are remembered for the
// worker's life, as in a browser session.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { EngineName, SloSearchResult, SloSearchSpec } from '../src/api.ts';

interface Data {
  slo: string;
  measurement: string;
  engines: EngineName[];
}
const data = workerData as Data;
const { searchSlo } = (await import(pathToFileURL(data.slo).href)) as { searchSlo: (s: SloSearchSpec, p: null) => SloSearchResult };
const { measurementSearchSpec } = (await import(pathToFileURL(data.measurement).href)) as typeof import('../src/run/measurement.ts');
const answers = new Map<EngineName, number[]>();

parentPort!.on('message', (m: { ratio: number }) => {
  const out: { engine: EngineName; answer: number | null; probes: number }[] = [];
  for (const engine of data.engines) {
    const spec = measurementSearchSpec({ workload: 'A', memory: { ratio: m.ratio }, vcpus: 8 }, engine);
    const seen = answers.get(engine) ?? [];
    if (seen.length) spec.hint = { met_ops_per_s: Math.min(...seen) };
    const r = searchSlo(spec, null);
    if (r.max_ops_per_s_at_slo !== null) answers.set(engine, [...seen, r.max_ops_per_s_at_slo]);
    out.push({ engine, answer: r.max_ops_per_s_at_slo, probes: r.probes.length });
  }
  parentPort!.postMessage(out);
});
parentPort!.postMessage('ready');
