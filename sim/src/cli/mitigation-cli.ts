// The simulator's side of BLADE's Table 7 (docs/fidelity.md, "BLADE: GC mitigation"): Java at
// 5 GiB and Go at 6 GiB (the paper's tight ratios of its 4 GiB dataset), workload A, 8 vCPUs,
// seed 1, each run with BLADE, with the collector off, with it on and no mitigation, MITMEM and
// both; p99 / p99.9 / p99.99 in Table 7's layout, BLADE's own etcd row under each table, and how
// far BLADE's p99.9 is from the GC-off run. Prints markdown; all values are simulated.
//   npm --workspace @replicant/sim run mitigation [-- --rate 2000,8000 --fidelity fast|exact]
//     [--runs blade,off,on,mitmem,both]   (a subset of the rows: when a model change moves only
//     some of them, e.g. BLADE's, the others keep their bytes and need no re-run)
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bladeTable7, parseMitigationValues } from '@replicant/data/mitigations';
import type { EngineName, LatencySummary, MitigationSpec, RunResult } from '../api.ts';
import { fidelityRunSpec } from '../fidelity/specs.ts';
import { simulate } from '../run/simulate.ts';
import { MITIGATION_MODEL_VERSION, emptyStats } from '../models/mitigation.ts';
import { provider as engineProvider } from './engines.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const rates = arg('rate', '2000').split(',').map(Number);
const fidelity = arg('fidelity', 'fast');
if (rates.some((r) => !Number.isInteger(r) || r < 1) || (fidelity !== 'fast' && fidelity !== 'exact')) {
  process.stderr.write('usage: mitigation-cli [--rate OPS[,OPS…]] [--fidelity fast|exact]\n');
  process.exit(2);
}

/** The five runs of one row group: Table 7's three columns first, then MITMEM alone and both. */
const ALL_RUNS: { key: string; label: string; mitigation: MitigationSpec }[] = [
  { key: 'blade', label: 'BLADE', mitigation: { mode: 'blade' } },
  { key: 'off', label: 'GC off', mitigation: { mode: 'none', collector: 'off' } },
  { key: 'on', label: 'GC on (no mitigation)', mitigation: { mode: 'none' } },
  { key: 'mitmem', label: 'MITMEM alone', mitigation: { mode: 'mitmem' } },
  { key: 'both', label: 'BLADE + MITMEM', mitigation: { mode: 'both' } },
];
const runKeys = arg('runs', ALL_RUNS.map((r) => r.key).join(',')).split(',');
const unknownRun = runKeys.find((k) => !ALL_RUNS.some((r) => r.key === k));
if (unknownRun !== undefined) {
  process.stderr.write(`mitigation-cli: --runs takes blade, off, on, mitmem, both (got "${unknownRun}")\n`);
  process.exit(2);
}
const RUNS = ALL_RUNS.filter((r) => runKeys.includes(r.key));

const POINTS: { engine: EngineName; gib: number }[] = [
  { engine: 'java', gib: 5 },
  { engine: 'go', gib: 6 },
];

/** A percentile from a run's spectrum (the first step at or past it), in µs. */
function at_us(s: LatencySummary, p: number): number {
  const hit = s.spectrum.find(([q]) => (q > 1 ? q : q * 100) >= p);
  return hit ? hit[1] : s.max_us;
}
const ms = (us: number) => (us / 1000 >= 100 ? (us / 1000).toFixed(0) : (us / 1000).toPrecision(3));
const provider = fidelity === 'exact' ? await engineProvider(POINTS.map((p) => p.engine)) : null;

const table7 = bladeTable7(parseMitigationValues(readFileSync(join(ROOT, 'data/mitigations/blade-values.csv'), 'utf8'), 'data/mitigations/blade-values.csv'));
const t7 = (p: string) => table7.find((r) => r.percentile === p)!.cells.map((c) => c.printed).join(' / ');

let card = '';
const t0 = performance.now();
const out: string[] = [];
for (const { engine, gib } of POINTS) {
  for (const rate of rates) {
    out.push(`\n**${engine === 'java' ? 'Java' : 'Go'}, ${gib} GiB (ratio ${(gib / 4).toFixed(2)}), workload A, 8 vCPUs, ${rate.toLocaleString('en-US')} ops/s offered, ${fidelity} mode**\n`);
    out.push('| run | p99 (ms) | p99.9 (ms) | p99.99 (ms) | achieved ops/s | handoffs | max collecting at once | forced | busy replies (served elsewhere / sent back) |');
    out.push('|---|---:|---:|---:|---:|---:|---:|---:|---|');
    const byLabel = new Map<string, RunResult>();
    for (const { label, mitigation } of RUNS) {
      const r = simulate({ ...fidelityRunSpec(engine, 'A', gib, 8, rate), fidelity: fidelity as 'fast' | 'exact', mitigation }, provider);
      card = r.model_card_version;
      byLabel.set(label, r);
      const m = r.mitigation ?? emptyStats('none');
      const a = r.latency.all;
      out.push(
        `| ${label} | ${ms(at_us(a, 99))} | ${ms(at_us(a, 99.9))} | ${ms(at_us(a, 99.99))} | ${Math.round(r.achieved_ops_per_s)} | ${m.handoffs} | ${m.max_collecting_at_once} | ${m.forced_collections} | ${m.busy_replies} (${m.busy_retries_served_elsewhere} / ${m.busy_retries_redirected_back}) |`,
      );
    }
    out.push(`| BLADE's Table 7, etcd (BLADE / GC-Off / GC-On) | ${t7('p99')} | ${t7('p99.9')} | ${t7('p99.99')} | 100 offered | | | | |`);
    const bladeRun = byLabel.get('BLADE');
    const offRun = byLabel.get('GC off');
    const onRun = byLabel.get('GC on (no mitigation)');
    if (bladeRun && offRun && onRun) {
      const blade = at_us(bladeRun.latency.all, 99.9);
      const off = at_us(offRun.latency.all, 99.9);
      const on = at_us(onRun.latency.all, 99.9);
      out.push(`\np99.9: BLADE / GC off = ${(blade / off).toFixed(2)}; GC on / GC off = ${(on / off).toFixed(2)} (Table 7: ${(0.62 / 0.67).toFixed(2)} and ${(28.81 / 0.67).toFixed(1)})`);
    }
  }
}
const s = ((performance.now() - t0) / 1000).toFixed(0);
process.stdout.write(
  `All values simulated (model card ${card}, mitigation model ${MITIGATION_MODEL_VERSION}, seed 1); ${s} s wall, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}.\n` +
    out.join('\n') +
    '\n',
);
