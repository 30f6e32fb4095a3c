// `npm --workspace @replicant/sim run -s bench:race-profile`: where a Race step's time goes. For
// each engine and each squeeze level (32, 8, 6, 5 GiB), the lane's SLO search as the Race makes
// it — cold (nothing remembered, no hint: a level visited first) and as the Race reaches it
// (stepping down, warm from the previous level's answer, the session's probes remembered) — probe
// by probe: rate, verdict, how it was decided (plain, sampled, estimated, stopped early,
// remembered) and its CPU seconds. Prints figures; asserts nothing.
//   … bench:race-profile -- --engines go,java --mode race
import { cpus, loadavg } from 'node:os';
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import type { EngineName, SloProbe, SloSearchSpec } from '../src/api.ts';
import { forgetProbes, searchSlo } from '../src/search/slo.ts';
import { measurementSearchSpec, type MeasurementKnobs } from '../src/run/measurement.ts';

const LEVELS = [8, 2, 1.5, 1.25];
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const cpu_s = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function how(p: SloProbe, remembered: string | undefined): string {
  if (remembered) return `remembered (${remembered})`;
  if (p.estimated_from) return `estimated (episodes ${p.estimated_from.episode_s.toFixed(1)} s, sample ${p.estimated_from.steady_s.toFixed(1)} s)`;
  if (p.sampled_s !== undefined) return `sampled ${p.sampled_s.toFixed(1)} s`;
  return p.stopped_early ? 'stopped early' : 'plain';
}

interface LevelProfile {
  probes: { p: SloProbe; cpu_s: number; remembered?: string }[];
  finish_cpu_s: number;
  cpu_s: number;
  wall_s: number;
  answer: number | null;
}

function profileSearch(spec: SloSearchSpec): LevelProfile {
  const probes: LevelProfile['probes'] = [];
  const c0 = cpu_s();
  const t0 = performance.now();
  let last = c0;
  const r = searchSlo(spec, null, {
    probe_done: (p, remembered) => {
      const now = cpu_s();
      probes.push({ p, cpu_s: now - last, remembered });
      last = now;
    },
  });
  const end = cpu_s();
  return { probes, finish_cpu_s: end - last, cpu_s: end - c0, wall_s: (performance.now() - t0) / 1000, answer: r.max_ops_per_s_at_slo };
}

function print(engine: EngineName, gib: number, mode: string, l: LevelProfile): void {
  const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
  console.log(`${engine.padEnd(5)} ${String(gib).padStart(2)} GiB ${mode.padEnd(5)} ${l.answer === null ? '<100' : fmt(l.answer)} ops/s: ${l.probes.length} probes, ${l.cpu_s.toFixed(2)} CPU-s, ${l.wall_s.toFixed(2)} s wall (after the probes ${l.finish_cpu_s.toFixed(2)})`);
  for (const { p, cpu_s, remembered } of l.probes) {
    const ev = p.window_event ? ` ${p.window_event.kind}` : '';
    console.log(`      ${fmt(p.target_ops_per_s).padStart(7)} ${p.met ? 'met   ' : 'missed'} window ${String(p.window_s ?? '').padStart(5)} s${ev}, ${how(p, remembered)}: ${cpu_s.toFixed(2)} CPU-s`);
  }
}

function main(): void {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const engines = (opt('--engines')?.split(',') ?? [...ENGINE_NAMES]) as EngineName[];
  for (const e of engines) if (!ENGINE_NAMES.includes(e)) throw new Error(`unknown engine ${e}; one of ${ENGINE_NAMES.join(', ')}`);
  const mode = opt('--mode') ?? 'both';
  if (!['cold', 'race', 'both'].includes(mode)) throw new Error(`--mode must be cold, race or both: ${mode}`);
  console.log(`machine: ${cpus().length} cores, load average ${load()}; fast mode, workload A, 8 vCPUs, the Race's searches (measurementSearchSpec)`);
  const knobs = (ratio: number): MeasurementKnobs => ({ workload: 'A', memory: { ratio }, vcpus: 8 });
  const totals = new Map<string, number[]>();
  const add = (k: string, i: number, x: number) => {
    const t = totals.get(k) ?? LEVELS.map(() => 0);
    t[i]! += x;
    totals.set(k, t);
  };
  for (const e of engines) {
    if (mode !== 'race') {
      LEVELS.forEach((ratio, i) => {
        forgetProbes();
        const l = profileSearch(measurementSearchSpec(knobs(ratio), e));
        print(e, ratio * 4, 'cold', l);
        add('cold CPU-s', i, l.cpu_s);
      });
    }
    if (mode !== 'cold') {
      forgetProbes();
      let hint: SloSearchSpec['hint'];
      LEVELS.forEach((ratio, i) => {
        const spec = measurementSearchSpec(knobs(ratio), e);
        if (hint) spec.hint = hint;
        const l = profileSearch(spec);
        print(e, ratio * 4, 'race', l);
        add('race CPU-s', i, l.cpu_s);
        hint = l.answer === null ? undefined : { met_ops_per_s: l.answer };
      });
    }
  }
  for (const [k, t] of totals) console.log(`step (${engines.join(' + ')}), ${k}: ${LEVELS.map((r, i) => `${r * 4} GiB ${t[i]!.toFixed(2)}`).join('; ')}`);
  console.log(`load average now ${load()}`);
}

main();
