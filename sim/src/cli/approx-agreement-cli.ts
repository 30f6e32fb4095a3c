// `npm --workspace @replicant/sim run -s approx-agreement`: the approximate fast mode
// ('fast-approx', run/cycle-repeat.ts) against the plain fast run at every setting of the
// fidelity table (data/fidelity.csv: engine, workload, memory, vCPUs), at the table's answer
// (its max rate at the SLO; 100 ops/s where nothing meets it; an SLO search where the table has
// no rate for the setting) and one search tolerance above it, each with the model's window.
// Prints one line a run and the bounds (run/approx-agreement.ts); exits 1 if any is outside.
// Opt-in: minutes of CPU (the plain runs of Java's full-collection windows are the most).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { csvRows } from '@replicant/data/csv';
import type { EngineName, RunSpec } from '../api.ts';
import { searchSlo } from '../search/slo.ts';
import { fidelityRunSpec, fidelitySearchSpec } from '../fidelity/specs.ts';
import { PAPER_METHOD } from '../run/measurement.ts';
import { APPROX_BOUNDS, compareApprox } from '../run/approx-agreement.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..', '..');
const ENGINE_OF: Record<string, EngineName> = { 'C++': 'cpp', Java: 'java', Go: 'go', Rust: 'rust' };

interface Setting {
  key: string;
  engine: EngineName;
  workload: 'A' | 'B';
  memory_gib: number;
  vcpus: number;
  records: number;
  rate: number | null;
  min_window_s: number;
}

function settings(): { list: Setting[]; skipped: string[] } {
  const rows = csvRows(readFileSync(join(ROOT, 'data/fidelity.csv'), 'utf8'));
  const head = rows[0]!;
  const col = (name: string) => head.indexOf(name);
  const byKey = new Map<string, Setting>();
  const skipped: string[] = [];
  for (const r of rows.slice(1)) {
    const id = r[col('paper_id')]!;
    const engine = ENGINE_OF[r[col('language')]!];
    const mem = Number(r[col('memory_gib')]);
    const vcpus = Number(r[col('vcpus')]);
    if (!engine || !r[col('memory_gib')] || !r[col('vcpus')] || !(mem > 0) || !(vcpus > 0)) {
      skipped.push(id);
      continue;
    }
    const fig4 = id.startsWith('fig4');
    const workload = r[col('workload')] as 'A' | 'B';
    const key = `${engine} ${workload} ${mem} GiB ${vcpus} vCPU${fig4 ? ' (Fig 4: 2 M records, 20 Kops/s, 60 s)' : ''}`;
    const s = byKey.get(key) ?? { key, engine, workload, memory_gib: mem, vcpus, records: fig4 ? 2_000_000 : PAPER_METHOD.records, rate: fig4 ? 20_000 : null, min_window_s: fig4 ? 60 : PAPER_METHOD.min_window_s };
    if (!fig4 && r[col('metric')] === 'max_throughput_slo') {
      const kops = Number(r[col('simulated_value')]);
      s.rate = kops > 0 ? Math.round(kops * 1000) : PAPER_METHOD.min_ops_per_s;
    }
    byKey.set(key, s);
  }
  return { list: [...byKey.values()], skipped };
}

function runSpec(s: Setting, rate: number): RunSpec {
  const spec = fidelityRunSpec(s.engine, s.workload, s.memory_gib, s.vcpus, rate, s.records);
  return { ...spec, load: { ...spec.load, duration_s: Math.max(spec.load.duration_s, s.min_window_s) } };
}

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const { list, skipped } = settings();
const only = process.argv.slice(2);
console.log(`approximate fast mode against plain fast mode, ${list.length} settings of data/fidelity.csv; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log(`bounds: throughput ${pct(APPROX_BOUNDS.throughput_rel)}, p99 ${pct(APPROX_BOUNDS.p99_rel)} and the same verdict at ${APPROX_BOUNDS.slo_p99_us / 1000} ms, CPU and GC share ${APPROX_BOUNDS.cpu_pp} pp (every node)`);
console.log(`rows without one engine, memory and vCPUs (ratios, derived points; their settings are among the others): ${skipped.join(', ')}`);
let failed = 0;
let plainOps = 0;
let simulatedOps = 0;
for (const s of list) {
  if (only.length && !only.some((o) => s.key.startsWith(o))) continue;
  let rate = s.rate;
  if (rate === null) rate = searchSlo(fidelitySearchSpec(s.engine, s.workload, s.memory_gib, s.vcpus), null).max_ops_per_s_at_slo ?? PAPER_METHOD.min_ops_per_s;
  for (const r of [rate, Math.round(rate * (1 + PAPER_METHOD.tolerance))]) {
    const c = compareApprox(s.key, runSpec(s, r));
    plainOps += c.plain.ops;
    simulatedOps += c.approx.simulated_ops;
    if (!c.ok) failed++;
    console.log(
      `${c.ok ? 'ok  ' : 'FAIL'} ${s.key} @ ${r} ops/s, ${c.window_s} s window: throughput ${c.plain.ops_per_s} vs ${c.approx.ops_per_s} (${pct(c.throughput_error)}), p99 ${c.plain.p99_us} vs ${c.approx.p99_us} µs (${pct(c.p99_error)}${c.same_verdict ? '' : ', VERDICT DIFFERS'}), CPU ${c.cpu_error_pp.toFixed(2)} pp, GC ${c.gc_error_pp.toFixed(2)} pp; simulated ${c.approx.simulated_s === null ? 'the whole window (no repeat)' : `${c.approx.simulated_s} s`}, ${c.approx.simulated_ops} of ${c.approx.ops} ops`,
    );
  }
}
console.log(`${failed === 0 ? 'all within the bounds' : `${failed} outside the bounds`}; operations simulated ${simulatedOps} against the plain runs' ${plainOps} (${(plainOps / Math.max(simulatedOps, 1)).toFixed(2)}×); load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
process.exit(failed === 0 ? 0 : 1);
