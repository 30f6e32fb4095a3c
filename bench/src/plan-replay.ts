// `npm --workspace @replicant/bench run plan-replay -- OUT_DIR [--engine go,cpp,rust,java]
// [--workload a] [--ratio 8,2,1.5,1.25] [--repetitions 3] [--early-stop]`: how long the rest of a stopped run
// will take. Builds the run's plan (the scaled preset, as `npm run bench` would), keeps the settings
// whose details are in OUT_DIR/details (as a resumed run does, their answers seeding warm starts), and
// replays every other setting's search against a recorded response curve (recorded-curve.ts: its
// own, else the same system's at the nearest ratio, else at the same ratio of another repetition)
// — warm-started as the harness does (warm-start.ts) and cold. Time per setting: its system's
// start-up before the first probe and the seconds per probe, both measured in those
// files, times (saturation probe + search probes); plus each system's footprint runs once per
// invocation. An estimate on noise-free curves, not a measurement: a real probe near the limit
// can meet or miss either way. --early-stop adds what stopping missed probes early
// (early-stop.ts) would save: each finished setting's clean missed search probes, decided where
// their whole-window histogram says if the operations over the SLO came evenly, and the missed
// probes of the settings left at the median of those savings.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { searchMaxRate } from './bisect.ts';
import { buildPlan, resolveOptions, type Setting } from './plan.ts';
import { curveProbe, readRecordedCurve, type RecordedCurve } from './recorded-curve.ts';
import { WarmStarts } from './warm-start.ts';
import { earlyStopSavingS, type RecordedProbe } from './early-stop-replay.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { engine: { type: 'string' }, workload: { type: 'string' }, ratio: { type: 'string' }, repetitions: { type: 'string' }, 'slo-ms': { type: 'string' }, 'early-stop': { type: 'boolean' } },
});
if (positionals.length !== 1) {
  process.stderr.write('usage: plan-replay OUT_DIR [--engine go,cpp,rust,java] [--workload a] [--ratio 8,2,1.5,1.25] [--repetitions 3] [--slo-ms 50] [--early-stop]\n');
  process.exit(2);
}
const dir = join(resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!), 'details');
const o = resolveOptions({ preset: 'scaled', engine: values.engine ?? 'go,cpp,rust,java', workload: values.workload ?? 'a', ratio: values.ratio ?? '8,2,1.5,1.25', repetitions: values.repetitions ?? '3' });
const slo_ms = Number(values['slo-ms'] ?? 50);
const plan = buildPlan(o);

interface Timing { start_s: number[]; probe_s: number[] }
const curves = new Map<string, RecordedCurve>();
const timing = new Map<string, Timing>();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
for (const f of readdirSync(dir).filter((x) => x.endsWith('.jsonl'))) {
  const c = readRecordedCurve(join(dir, f));
  curves.set(c.setting, c);
  const lines = readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const head = lines.find((l) => l.type === 'setting');
  const starts: number[] = lines.filter((l) => l.type === 'probe').map((l) => l.started_at_s);
  const t = timing.get(head.setting.system) ?? { start_s: [], probe_s: [] };
  t.start_s.push(starts[0]! - Date.parse(head.started_at) / 1000);
  for (let i = 1; i < starts.length; i++) t.probe_s.push(starts[i]! - starts[i - 1]!);
  timing.set(head.setting.system, t);
}
const allProbeS = median([...timing.values()].flatMap((t) => t.probe_s));

/** The curve a planned setting is replayed on. */
function curveFor(s: Setting): { curve: RecordedCurve; own: boolean } | null {
  const own = curves.get(s.id);
  if (own) return { curve: own, own: true };
  const same = [...curves.values()].filter((c) => c.setting.startsWith(`${s.system}-${s.workload}-`) && c.setting.includes(`-${s.vcpus}vcpu-`));
  const ratioOf = (c: RecordedCurve) => Number(/-r([\dp]+)-/.exec(c.setting)?.[1]?.replace('p', '.'));
  const pick = same.sort((a, b) => Math.abs(ratioOf(a) - (s.ratio ?? 0)) - Math.abs(ratioOf(b) - (s.ratio ?? 0)))[0];
  return pick ? { curve: pick, own: false } : null;
}

// What stopping missed probes early would have saved in the finished settings (seconds each).
const savedS: number[] = [];
let missedFinished = 0;
if (values['early-stop']) {
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.jsonl'))) {
    for (const p of readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RecordedProbe)) {
      if (p.type !== 'probe' || p.kind !== 'search' || p.met || p.disturbed) continue;
      missedFinished++;
      savedS.push(earlyStopSavingS(p, o, slo_ms));
    }
  }
}
let missedLeft = 0;

const warm = new WarmStarts();
let done = 0;
let left = 0;
let warmProbes = 0;
let coldProbes = 0;
let warmS = 0;
let coldS = 0;
const systemsLeft = new Set<string>();
const lines: string[] = [];
for (const s of plan) {
  const finished = existsSync(join(dir, `${s.id}.jsonl`)) ? curves.get(s.id) : undefined;
  if (finished) {
    done++;
    warm.remember(s, { best: finished.answer_ops_per_s === null ? null : { target_ops_per_s: finished.answer_ops_per_s }, stopped_by: null, errors: [] });
    continue;
  }
  const c = curveFor(s);
  if (!c) throw new Error(`${s.id}: no recorded curve of ${s.system} in ${dir}`);
  left++;
  systemsLeft.add(s.system);
  const hint = warm.hintFor(s);
  const count = async (h?: number) => {
    const asked: number[] = [];
    const probe = curveProbe(c.curve, slo_ms, asked);
    let missed = 0;
    const r = await searchMaxRate(async (rate) => {
      const p = await probe(rate);
      if (!p.met) missed++;
      return p;
    }, { min_ops_per_s: o.min_rate, max_ops_per_s: c.curve.top_ops_per_s, tolerance: o.tolerance, max_probes: o.max_probes, ...(h ? { hint_ops_per_s: h } : {}) });
    return { r, n: asked.length, missed };
  };
  const w = await count(hint);
  missedLeft += w.missed;
  const cold = await count();
  warm.remember(s, { best: w.r.best, stopped_by: w.r.stopped_by, errors: [] });
  const t = timing.get(s.system);
  const start = t ? median(t.start_s) : median([...timing.values()].flatMap((x) => x.start_s));
  const probeS = t ? median(t.probe_s) : allProbeS;
  warmProbes += w.n;
  coldProbes += cold.n;
  warmS += start + (1 + w.n) * probeS;
  coldS += start + (1 + cold.n) * probeS;
  lines.push(`| ${s.id} | ${c.own ? 'its own' : c.curve.setting} | ${hint ?? '– (cold)'} | ${w.n} | ${cold.n} | ${w.r.best?.target_ops_per_s ?? '–'} / ${cold.r.best?.target_ops_per_s ?? '–'} |`);
}
// footprint runs: once per system per invocation (cli.ts), about what chunk 1's took
const footprintS = 66 * systemsLeft.size;
console.log('| setting left | curve replayed | warm start at (ops/s) | search probes, warm | cold | answer warm / cold (ops/s) |');
console.log('|---|---|---|---:|---:|---|');
for (const l of lines) console.log(l);
console.log(`\n${done} of ${plan.length} settings finished in ${dir}; ${left} left.`);
console.log(`Search probes left: ${warmProbes} warm-started, ${coldProbes} cold (${((1 - warmProbes / coldProbes) * 100).toFixed(0)} % fewer), plus one saturation probe per setting.`);
console.log(`Seconds per probe ${allProbeS.toFixed(1)} (median over the finished settings' probes); start-up before the first probe per system: ${[...timing.entries()].map(([k, t]) => `${k} ${median(t.start_s).toFixed(0)} s`).join(', ')}; footprint runs ${footprintS} s.`);
console.log(`Estimated time left: ${((warmS + footprintS) / 60).toFixed(0)} min warm-started, ${((coldS + footprintS) / 60).toFixed(0)} min cold.`);
if (values['early-stop']) {
  const window = o.warmup_s + o.duration_s;
  const total = savedS.reduce((a, b) => a + b, 0);
  const mid = savedS.length ? median(savedS) : 0;
  console.log(`\nWith --early-stop: ${missedFinished} clean missed search probes in the finished settings would have saved ${total.toFixed(0)} s (median ${mid.toFixed(1)} s of each ${window} s probe window; ${savedS.filter((x) => x === 0).length} never decided early), estimated as if their operations over the ${slo_ms} ms SLO came evenly.`);
  console.log(`The settings left: ${missedLeft} missed search probes in the warm-started replay, about ${((missedLeft * mid) / 60).toFixed(1)} min saved at that median (of ${((warmS + footprintS) / 60).toFixed(0)} min).`);
}
