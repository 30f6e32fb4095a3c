// `npm --workspace @replicant/sim run -s bench:batch -- [ENGINES] [OPS_PER_S]`: exact mode with
// the batch step (RunHooks.batch_steps: a node's next events in one call to its engine,
// run/node-queue.ts) against one event a call, interleaved in one process (six pairs), for
// each engine with the batch step (default cpp,rust; 5,000 ops/s for 2 s after a 0.5 s
// warm-up, 3 nodes, 8 vCPUs, workload A). Prints the batch calls and the events in them, the
// CPU seconds of this process per run (median) and the one-by-one/batched ratio of each pair
// (above 1: batching is faster), with the load average.
import { loadavg } from 'node:os';
import type { EngineName, RunSpec } from '../src/api.ts';
import { provider } from '../src/cli/engines.ts';
import { simulate } from '../src/run/simulate.ts';
import { countingBatches } from '../src/run/batch-count.ts';

const engines = (process.argv[2] ?? 'cpp,rust').split(',') as EngineName[];
const rate = Number(process.argv[3] ?? 5000);
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function cpu_s(f: () => void): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

console.log(`load average ${load()}; ${rate} ops/s for 2 s, exact`);
for (const e of engines) {
  const base = await provider([e]);
  const counted = { calls: 0, events: 0 };
  const spec: RunSpec = { cluster: { engines: [e, e, e], seed: 7 }, resources: { vcpus: 8, memory_gib: 32 }, workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000 }, load: { mode: 'open', target_ops_per_s: rate, duration_s: 2, warmup_s: 0.5 }, fidelity: 'exact' };
  simulate(spec, countingBatches(base, counted), { batch_steps: true });
  if (counted.calls === 0) {
    console.log(`${e}: no batch step`);
    continue;
  }
  const batched: number[] = [];
  const single: number[] = [];
  for (let i = 0; i < 6; i++) {
    const order = i % 2 ? [true, false] : [false, true];
    for (const on of order) (on ? batched : single).push(cpu_s(() => simulate(spec, base, on ? { batch_steps: true } : {})));
  }
  const ratios = single.map((s, i) => s / batched[i]!).sort((a, b) => a - b);
  console.log(`${e.padEnd(5)} ${counted.calls} batch calls, ${counted.events} events in them (${(counted.events / counted.calls).toFixed(2)} a call) | CPU-s a run: batched ${median(batched).toFixed(3)}, one by one ${median(single).toFixed(3)} | one-by-one/batched per pair: ${ratios.map((r) => r.toFixed(2)).join(' ')}`);
}
console.log(`load average ${load()}`);
