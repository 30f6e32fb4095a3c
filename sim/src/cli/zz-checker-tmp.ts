import { simulate } from '../run/simulate.ts';
import { provider } from './engines.ts';
const spec = (mode: any, over: any = {}) => ({
  cluster: { engines: ['java', 'java', 'java'], seed: 1 },
  workload: { name: 'A', read_proportion: 0.5, record_count: 100_000 },
  resources: { vcpus: 2, memory_gib: 0.12 },
  load: { mode: 'open', target_ops_per_s: 1500, client_threads: 4, duration_s: 3, warmup_s: 0.5 },
  fidelity: 'fast', mitigation: { mode }, ...over });
const engines = await provider(['java']);
const t0 = Date.now();
const r = simulate(spec(process.argv[2] ?? 'blade', { fidelity: 'exact' }) as any, engines);
console.log('exact', process.argv[2], (r.latency.all.p99_us/1000).toFixed(2), (r.latency.all.p999_us/1000).toFixed(2), JSON.stringify(r.mitigation), r.achieved_ops_per_s.toFixed(0), r.leader_changes.length, (Date.now()-t0)/1000, 's');
