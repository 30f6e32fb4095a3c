// `npm --workspace @replicant/bench run search-cost [results.json …]`: what a warm-started search
// (bisect.ts, hint_ops_per_s) saves. Replays each system's answers along the memory sizes of
// committed native runs against a server whose p99 meets the SLO exactly up to that answer (a
// clean machine: no noise), once cold and once warm-started from the previous size's answer, with
// the scaled preset's search (≤ 7 probes, 10 %, top = saturation + 10 %). Prints probes per
// setting and the total; every search's answer keeps the same guarantee (bisect.test.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { searchMaxRate, type ProbeOutcome } from './bisect.ts';
import { PRESETS } from './plan.ts';

interface Row { language: string; workload: string; memory_data_ratio: number | null; vcpus: number; metric: string; value: number | string; qualifier?: string }

const files = process.argv.slice(2).length ? process.argv.slice(2) : [
  'data/native/2026-11-22-scaled/workload-a/results.json',
  'data/native/2026-11-22-scaled/workload-b/results.json',
  'data/native/2026-11-22-scaled/workload-b-r2-r1p5/results.json',
];
const scaled = PRESETS.scaled;
const options = { min_ops_per_s: 100, tolerance: scaled.tolerance!, max_probes: scaled.max_probes! };

// system/workload/vcpus → ratio → { answer (ops/s; 50 for "< 0.1 Kops/s"), saturation }
const series = new Map<string, Map<number, { answer: number; sat: number }>>();
for (const f of files) {
  const doc = JSON.parse(readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), f), 'utf8')) as { rows: Row[] };
  for (const r of doc.rows) {
    if (r.memory_data_ratio === null || typeof r.value !== 'number') continue;
    if (r.metric !== 'max_throughput_slo' && r.metric !== 'saturation_throughput') continue;
    const key = `${r.language} ${r.workload} ${r.vcpus} vCPU`;
    const m = series.get(key) ?? new Map();
    const e = m.get(r.memory_data_ratio) ?? { answer: 0, sat: 0 };
    if (r.metric === 'max_throughput_slo') e.answer = r.qualifier === 'upper_bound' ? 50 : r.value * 1000;
    else e.sat = r.value * 1000;
    m.set(r.memory_data_ratio, e);
    series.set(key, m);
  }
}

async function count(limit: number, top: number, hint?: number): Promise<{ probes: number; best: number | null }> {
  let n = 0;
  const probe = async (rate: number): Promise<ProbeOutcome> => {
    n++;
    const met = rate <= limit;
    return { target_ops_per_s: rate, p99_ms: met ? 1 : 1000, achieved_ops_per_s: rate, met };
  };
  const r = await searchMaxRate(probe, { ...options, max_ops_per_s: top, ...(hint ? { hint_ops_per_s: hint } : {}) });
  return { probes: n, best: r.best?.target_ops_per_s ?? null };
}

let cold = 0;
let warm = 0;
let settings = 0;
console.log('setting | answer ops/s | probes cold | probes warm | answer cold / warm');
for (const [key, m] of [...series.entries()].sort()) {
  let prev: number | undefined;
  for (const ratio of [...m.keys()].sort((a, b) => b - a)) {
    const { answer, sat } = m.get(ratio)!;
    const top = Math.max(options.min_ops_per_s * 2, Math.ceil(sat * 1.1));
    const c = await count(answer, top);
    const w = await count(answer, top, prev);
    cold += c.probes;
    warm += w.probes;
    settings++;
    console.log(`${key} ratio ${ratio} | ${answer} | ${c.probes} | ${w.probes} | ${c.best ?? '–'} / ${w.best ?? '–'}`);
    prev = c.best ?? undefined;
  }
}
console.log(`\n${settings} settings: ${cold} probes cold, ${warm} warm (${(cold / settings).toFixed(2)} → ${(warm / settings).toFixed(2)} per setting, ${((1 - warm / cold) * 100).toFixed(0)} % fewer); the saturation probe (one per setting) comes on top of both`);

// The paper's shape (Fig 3: C++ and Rust flat down to 5 GiB), synthetic: each series that met
// the SLO somewhere, its highest answer at ratio 8, 5 % lower at each smaller ratio.
let flatCold = 0;
let flatWarm = 0;
let flatSettings = 0;
for (const m of series.values()) {
  const peak = Math.max(...[...m.values()].map((e) => e.answer));
  const sat = Math.max(...[...m.values()].map((e) => e.sat));
  if (!(peak > options.min_ops_per_s)) continue;
  let prev: number | undefined;
    for (let i = 0; i < 4; i++) {
    const answer = Math.round(peak * 0.95 ** i);
    const top = Math.max(options.min_ops_per_s * 2, Math.ceil(Math.max(sat, answer) * 1.1));
    const c = await count(answer, top);
    const w = await count(answer, top, prev);
    flatCold += c.probes;
    flatWarm += w.probes;
    flatSettings++;
    prev = c.best ?? undefined;
  }
}
console.log(`synthetic flat series (answers 5 % apart, ${flatSettings} settings): ${flatCold} probes cold, ${flatWarm} warm (${((1 - flatWarm / flatCold) * 100).toFixed(0)} % fewer)`);
