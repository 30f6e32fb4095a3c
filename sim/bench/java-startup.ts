// `npm --workspace @replicant/sim run -s bench:java-startup -- DIR`: where Java's exact run in
// bench:sim (1,000 engine keys loaded, then 5,000 ops/s for 2 s, start-up inside it) spends
// its time, on this checkout's Java loader against the one in DIR (an engines/loader folder,
// e.g. sim/.bench-baseline/<commit>/engines/loader as `bench:sim --baseline` extracts it), both
// on this checkout's replicant-java.js, interleaved in one process: the nodes and their start
// (one key, 1 ms), the same with the load of 1,000 keys, and the bench's whole run; wall and
// CPU milliseconds of this process, three rounds. DIR is relative to where npm was started.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunSpec } from '../src/api.ts';
import { simulate } from '../src/run/simulate.ts';
import { artefacts } from '@replicant/engines/loader/node-loaders';
import { javaJsEngine } from '@replicant/engines/loader/java-wasm';

const dir = process.argv[2];
if (!dir) throw new Error('usage: bench:java-startup -- DIR (the baseline engines/loader folder)');
const source = readFileSync(artefacts.java.js, 'utf8');
const baseline = (await import(pathToFileURL(join(resolve(process.env.INIT_CWD ?? process.cwd(), dir), 'java-wasm.ts')).href)) as { javaJsEngine: typeof javaJsEngine };
const engines = { baseline: baseline.javaJsEngine(source), this: javaJsEngine(source) };
type Side = keyof typeof engines;

const spec = (target: number, duration_s: number, engine_record_count: number): RunSpec => ({
  cluster: { engines: ['java', 'java', 'java'], seed: 1 },
  resources: { vcpus: 8, memory_gib: 32 },
  workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000, engine_record_count },
  load: { mode: 'open', target_ops_per_s: target, duration_s, warmup_s: 0 },
  fidelity: 'exact',
});

function timed(f: () => void): string {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const c = process.cpuUsage(c0);
  return `${(performance.now() - t0).toFixed(0)} ms wall, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU`;
}

console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const side of Object.keys(engines) as Side[]) simulate(spec(1000, 0.2, 1000), () => engines[side]); // as bench:sim warms
for (let round = 0; round < 3; round++) {
  for (const side of (round % 2 ? ['this', 'baseline'] : ['baseline', 'this']) as Side[]) {
    const provide = () => engines[side];
    const start = timed(() => simulate(spec(5000, 0.001, 1), provide));
    const loaded = timed(() => simulate(spec(5000, 0.001, 1000), provide));
    const run = timed(() => simulate(spec(5000, 2, 1000), provide));
    console.log(`${side.padEnd(8)} | nodes and start: ${start} | with 1,000 keys loaded: ${loaded} | the bench's run: ${run}`);
  }
}
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
