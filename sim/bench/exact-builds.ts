// `npm --workspace @replicant/sim run -s bench:exact-builds -- --baseline-dist DIR`: exact mode's
// simulated client operations per CPU-second and per wall-second of this process, Java and Go,
// on two builds of the engines in one process, interleaved run by run (baseline, this, …), with
// this/baseline ratios pair by pair and the load average. Prints figures; asserts nothing but
// that both builds give the same run (the same seed must give the same result).
//
// `bench.ts --baseline REF` swaps the simulator and the loaders but drives this checkout's engine
// builds, so it cannot see a change inside an engine core; this bench swaps the builds instead.
// DIR holds a second build in this checkout's layout (DIR/engines/java-wasm/dist/…), e.g.
//   git archive main engines/java-wasm engines/go-wasm | tar -x -C DIR
//   bash DIR/engines/java-wasm/build.sh && bash DIR/engines/go-wasm/build.sh
// Options: --engines go,java  --target 15000 (ops/s)  --duration-s 4  --repeats 3
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { SyncEngine } from '@replicant/engines/loader/engine';
import { goEngine } from '@replicant/engines/loader/go-wasm';
import { javaJsEngine } from '@replicant/engines/loader/java-wasm';
import { artefacts } from '@replicant/engines/loader/node-loaders';
import type { RunSpec } from '../src/api.ts';
import { simulate } from '../src/run/simulate.ts';

type BuildEngine = 'go' | 'java';

const { values } = parseArgs({
  options: {
    'baseline-dist': { type: 'string' },
    engines: { type: 'string', default: 'go,java' },
    target: { type: 'string', default: '15000' },
    'duration-s': { type: 'string', default: '4' },
    repeats: { type: 'string', default: '3' },
  },
});
if (!values['baseline-dist']) throw new Error('--baseline-dist DIR is required (a second build, see the header)');
const baselineDir = values['baseline-dist'];
const engines = values.engines!.split(',') as BuildEngine[];
for (const e of engines) if (e !== 'go' && e !== 'java') throw new Error(`exact-builds measures go and java, not ${e}`);
const target_ops_per_s = Number(values.target);
const duration_s = Number(values['duration-s']);
const repeats = Number(values.repeats);

/** This checkout's artefact path of an engine, moved under root. */
function underRoot(root: string | null, path: string): string {
  if (root === null) return path;
  const at = path.lastIndexOf('/engines/');
  return join(root, path.slice(at + 1));
}

await import(pathToFileURL(artefacts.go.wasmExec).href);
const Go = (globalThis as unknown as { Go: never }).Go;

function load(e: BuildEngine, root: string | null): SyncEngine {
  if (e === 'java') return javaJsEngine(readFileSync(underRoot(root, artefacts.java.js), 'utf8'));
  return goEngine(new WebAssembly.Module(readFileSync(underRoot(root, artefacts.go.wasm))), Go, 'wasm-node');
}

function spec(e: BuildEngine): RunSpec {
  return {
    cluster: { engines: [e, e, e], seed: 1 },
    resources: { vcpus: 8, memory_gib: 32 },
    workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000, engine_record_count: 1000 },
    load: { mode: 'open', target_ops_per_s, duration_s, warmup_s: 0 },
    fidelity: 'exact',
  };
}

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const spread = (xs: number[], f: (x: number) => string = fmt) => `${f(median(xs))} [${f(Math.min(...xs))}–${f(Math.max(...xs))}]`;

console.log(`exact mode, ${target_ops_per_s} ops/s for ${duration_s} s, 3 nodes; baseline build ${baselineDir}; ${repeats} interleaved pairs; load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const e of engines) {
  const sides = [
    { label: 'baseline', engine: load(e, baselineDir), cpu: [] as number[], wall: [] as number[], result: '' },
    { label: 'this', engine: load(e, null), cpu: [] as number[], wall: [] as number[], result: '' },
  ];
  for (let r = 0; r < repeats; r++) {
    for (const side of sides) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const result = simulate(spec(e), () => side.engine);
      const wall_s = (performance.now() - t0) / 1000;
      const c = process.cpuUsage(c0);
      const ops = target_ops_per_s * duration_s;
      side.cpu.push(ops / ((c.user + c.system) / 1e6));
      side.wall.push(ops / wall_s);
      // what the run served and how fast (not the engines' own allocation figures, which differ by build)
      const summary = JSON.stringify([result.achieved_ops_per_s, result.latency, result.leader_changes, result.leader_at_end]);
      if (side.result && side.result !== summary) throw new Error(`${e} ${side.label}: repeat ${r} gave another run`);
      side.result = summary;
    }
  }
  const [base, mine] = sides as [(typeof sides)[0], (typeof sides)[0]];
  const same = base.result === mine.result ? 'same run on both builds' : 'THE BUILDS GIVE DIFFERENT RUNS';
  const ratio = mine.cpu.map((x, i) => x / base.cpu[i]!);
  const ratioWall = mine.wall.map((x, i) => x / base.wall[i]!);
  console.log(
    `${e.padEnd(5)} this: ${spread(mine.cpu)}/CPU-s, ${spread(mine.wall)}/wall-s | baseline: ${spread(base.cpu)}/CPU-s, ${spread(base.wall)}/wall-s | ` +
      `this/baseline ${spread(ratio, (x) => x.toFixed(2))} CPU, ${spread(ratioWall, (x) => x.toFixed(2))} wall | ${same}`,
  );
}
console.log(`load average now ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
