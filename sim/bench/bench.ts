// `npm run bench:sim`: simulated client operations per wall-clock second, per engine, in exact
// and fast mode, in Node and in headless Chromium (a Web Worker), and the wall time of a 4-level
// memory sweep with SLO search per engine (fast mode). Prints figures; asserts nothing.
// Targets (issues 4, 10): exact ≥ 50 000 ops/s for C++ and Rust; fast ≥ 2 000 000 ops/s; the
// Lab's 4-level memory sweep with the paper's (model-derived) windows ≤ 10 s per engine; a Race
// step ≤ 1 s. Wall and CPU seconds are both printed: the machine is shared, and CPU seconds say
// what the code costs. The machine's load is printed with the figures.
import { loadavg, cpus } from 'node:os';
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import type { EngineName, RunSpec, SloSearchSpec } from '../src/api.ts';
import { simulate } from '../src/run/simulate.ts';
import { searchSlo, sweepPointSearchSpec } from '../src/search/slo.ts';
import { measurementSweepSpec, type MeasurementKnobs } from '../src/run/measurement.ts';
import { availableEngines, provider } from '../src/node/engines.ts';
import { ChromiumSim } from './chromium.ts';

const ALL = ENGINE_NAMES;

function spec(e: EngineName, fidelity: 'exact' | 'fast', target: number, duration_s: number): RunSpec {
  return {
    cluster: { engines: [e, e, e], seed: 1 },
    resources: { vcpus: 8, memory_gib: 32 },
    workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000, engine_record_count: 1000 },
    load: { mode: 'open', target_ops_per_s: target, duration_s, warmup_s: 0 },
    fidelity,
  };
}

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const skipBrowser = args.includes('--no-browser');
  const engines = await availableEngines();
  const provide = await provider(engines);
  console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}; engines with a wasm build: ${engines.join(', ') || 'none'}`);
  const EXACT = { target: 5000, duration_s: 2 };
  const FASTRUN = { target: 30_000, duration_s: 20 };
  console.log(`\nsimulated client ops per wall-second (exact: ${EXACT.target} ops/s for ${EXACT.duration_s} s; fast: ${FASTRUN.target} ops/s for ${FASTRUN.duration_s} s; 3 nodes, 8 vCPUs, workload A)`);
  const rows: string[] = [];
  for (const e of ALL) {
    const line: string[] = [e.padEnd(5)];
    if (engines.includes(e)) {
      const t0 = performance.now();
      const r = simulate(spec(e, 'exact', EXACT.target, EXACT.duration_s), provide);
      const s = (performance.now() - t0) / 1000;
      line.push(`node exact ${fmt(r.latency.all.count / s)}`);
    } else line.push('node exact n/a (no wasm build in this checkout)');
    simulate(spec(e, 'fast', 2000, 1), null); // warm the JIT
    const t0 = performance.now();
    const r = simulate(spec(e, 'fast', FASTRUN.target, FASTRUN.duration_s), null);
    const s = (performance.now() - t0) / 1000;
    line.push(`node fast ${fmt(r.latency.all.count / s)}`);
    rows.push(line.join(' | '));
    console.log(rows.at(-1));
  }
  if (!skipBrowser) {
    const sim = await ChromiumSim.start();
    try {
      for (const e of ALL) {
        const line: string[] = [e.padEnd(5)];
        if (engines.includes(e)) {
          const res = await sim.request({ type: 'run', id: 1, spec: spec(e, 'exact', EXACT.target, EXACT.duration_s) });
          line.push(res.type === 'run.result' ? `chromium exact ${fmt(res.result.latency.all.count / (res.result.wall_ms! / 1000))}` : `chromium exact failed: ${JSON.stringify(res).slice(0, 100)}`);
        } else line.push('chromium exact n/a');
        const res = await sim.request({ type: 'run', id: 2, spec: spec(e, 'fast', FASTRUN.target, FASTRUN.duration_s) });
        line.push(res.type === 'run.result' ? `chromium fast ${fmt(res.result.latency.all.count / (res.result.wall_ms! / 1000))}` : 'chromium fast failed');
        console.log(line.join(' | '));
      }
    } finally {
      await sim.close();
    }
  }
  // The Lab's default memory sweep, exactly as the Lab builds it (run/measurement.ts: windows
  // derived from the model), point by point with the sweep's warm start, so the same figures
  // give the Race's step: the four engines' searches at one memory, warm from the step before.
  const levels = [8, 2, 1.5, 1.25];
  const knobs: MeasurementKnobs = { workload: 'A', memory: { ratio: 8 }, vcpus: 8 };
  console.log(`\nThe Lab's default memory sweep (ratios ${levels.join(', ')} = 32, 8, 6, 5 GiB; SLO search, model-derived windows, fast mode), per engine; wall and CPU seconds:`);
  const perLevel = levels.map(() => ({ wall: 0, cpu: 0 }));
  for (const e of ALL) {
    const spec = measurementSweepSpec(knobs, [e], { memory: levels.map((ratio) => ({ ratio })) });
    let hint: SloSearchSpec['hint'];
    let wall = 0;
    let cpu = 0;
    const cells: string[] = [];
    levels.forEach((ratio, i) => {
      const search = sweepPointSearchSpec(spec, e, { ratio }, 8);
      if (hint) search.hint = hint;
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const r = searchSlo(search, null);
      const w = (performance.now() - t0) / 1000;
      const c = process.cpuUsage(c0);
      const cs = (c.user + c.system) / 1e6;
      wall += w;
      cpu += cs;
      perLevel[i]!.wall += w;
      perLevel[i]!.cpu += cs;
      hint = r.max_ops_per_s_at_slo === null ? undefined : { met_ops_per_s: r.max_ops_per_s_at_slo };
      cells.push(`${ratio * 4} GiB ${r.max_ops_per_s_at_slo === null ? '<100' : fmt(r.max_ops_per_s_at_slo)} (${r.probes.length} probes, ${w.toFixed(1)} s)`);
    });
    console.log(`${e.padEnd(5)} ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU (target ≤ 10 s): ${cells.join(', ')}`);
  }
  console.log(`Race step (four engines' searches at one memory, warm from the previous step): ${levels.map((r, i) => `${r * 4} GiB ${perLevel[i]!.wall.toFixed(1)} s wall / ${perLevel[i]!.cpu.toFixed(1)} s CPU`).join('; ')} (target ≤ 1 s)`);
  console.log(`load average now ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
