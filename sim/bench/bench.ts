// `npm run bench:sim`: simulated client operations per wall-clock second, per engine, in exact
// and fast mode, in Node and in headless Chromium (a Web Worker), and the wall time of a 4-level
// memory sweep with SLO search per engine (fast mode). Prints figures; asserts nothing.
// Targets (issue 4): exact ≥ 50 000 ops/s for C++ and Rust; fast ≥ 2 000 000 ops/s; a 4-level
// sweep ≤ 10 s per engine in fast mode. The machine's load is printed with the figures.
import { loadavg, cpus } from 'node:os';
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import type { EngineName, RunSpec } from '../src/api.ts';
import { simulate } from '../src/run/simulate.ts';
import { sweep } from '../src/search/slo.ts';
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
  console.log('\n4-level memory sweep (32, 8, 6, 5 GiB) with SLO search, fast mode, 10 s windows + 2 s warm-up, 2 % tolerance:');
  for (const e of ALL) {
    const t0 = performance.now();
    const r = sweep({ base: { ...spec(e, 'fast', 1, 10), load: { mode: 'open', target_ops_per_s: 1, duration_s: 10, warmup_s: 2 } }, slo_p99_ms: 20, engines: [e], memory_gib: [32, 8, 6, 5], tolerance: 0.02 }, null);
    const s = (performance.now() - t0) / 1000;
    console.log(`${e.padEnd(5)} ${s.toFixed(1)} s wall: ${r.points.map((p) => `${p.memory_gib} GiB ${p.result.max_ops_per_s_at_slo === null ? '<100' : fmt(p.result.max_ops_per_s_at_slo)}`).join(', ')} ops/s`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
