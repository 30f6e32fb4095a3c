// `npm run bench:sim`: simulated client operations per wall-clock second, per engine, in exact
// and fast mode, in Node and in headless Chromium (a Web Worker), and the wall time of a 4-level
// memory sweep with SLO search per engine (fast mode). Prints figures; asserts nothing.
// Targets (issues 4, 10): fast ≥ 2 000 000 ops/s; exact ≥ 50 000 ops/s for C++ and Rust, ≥ 15 000
// for Go and Java; the Lab's 4-level memory sweep with the paper's (model-derived) windows ≤ 10 s
// per engine; a Race step ≤ 1 s.
//
// The machine is shared and noisy, so every Node figure is taken `--repeats` times (median
// [min–max]) both per wall-second and per CPU-second of this process (what the code costs,
// whatever else runs), with the load average before and after. `--baseline REF` measures a
// second simulator in the same process — sim/src as it is at git REF, extracted beside this
// one — interleaved run by run with this one (A B A B …), and prints this/baseline ratios taken
// pair by pair, so a drift in the machine's speed moves both sides of each ratio.
//   npm run bench:sim -- --no-browser --repeats 5 --baseline 1169073
// Other options: --engines cpp,rust (default all), --skip exact,fast,approx,chromium,sweep,race,race-cold,
// --cold-repeats N (the Race's cold levels, default --repeats).
//
// The Race (bench/race-step.ts): sessions stepping 32 → 5 GiB with the lanes in the Race's
// workers (this checkout: a worker a core up to one a lane, sim/src/search/race-lanes.ts; a
// baseline: as its own Race ran them, one worker before race10, two fixed ones before race38),
// interleaved session by session, each step's wall time (what the user waits, stepping on as soon
// as a step is shown) and CPU seconds; then each level cold (a fresh session sent that level
// alone). A side whose Race searches the levels below the one shown while the user looks at it
// (race38: nextRaceSearch) also prints what a user waits who looks at each level for
// RACE_DWELL_S first. The busiest worker's own CPU seconds (its thread's) are what the user waits
// on as many free cores as the side has workers, whatever the load now.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { availableParallelism, loadavg, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ENGINE_NAMES } from '@replicant/engines/loader/catalogue';
import type { SyncEngine } from '@replicant/engines/loader/engine';
import type { EngineName, EngineProvider, Fidelity, RunResult, RunSpec, SloSearchResult, SloSearchSpec } from '../src/api.ts';
import { simulate } from '../src/run/simulate.ts';
import { searchSlo, sweepPointSearchSpec } from '../src/search/slo.ts';
import { measurementSweepSpec, type MeasurementKnobs } from '../src/run/measurement.ts';
import { availableEngines, provider } from '../src/cli/engines.ts';
import { ChromiumSim } from './chromium.ts';
import { raceLaneGroups } from '../src/search/race-lanes.ts';
import { RACE_LEVELS, raceSession, waitsAfterDwell, type StepFigures } from './race-step.ts';

/** How long the Race's user looks at a level before pressing on, for the waits printed beside
 * the step-on-at-once ones (a presenter saying a sentence about it). */
const RACE_DWELL_S = 3;

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..', '..');

/** The two entry points a bench side needs (this checkout's, or a baseline's). */
interface SimSide {
  label: string;
  simulate: (spec: RunSpec, provide: EngineProvider | null) => RunResult;
  searchSlo: (spec: SloSearchSpec, provide: EngineProvider | null) => SloSearchResult;
  /** the side's own engine loaders (engines/loader at its commit), for exact runs */
  provide?: EngineProvider;
  /** the side's sim/src directory */
  src: string;
  /** how the side's Race runs its lanes: the engines of each worker */
  raceGroups: readonly (readonly EngineName[])[];
  /** whether the side's Race searches the levels below the one shown while the user looks at it */
  racePrefetch: boolean;
}

function spec(e: EngineName, fidelity: Fidelity, target: number, duration_s: number): RunSpec {
  return {
    cluster: { engines: [e, e, e], seed: 1 },
    resources: { vcpus: 8, memory_gib: 32 },
    workload: { name: 'A', read_proportion: 0.5, record_count: 7_500_000, engine_record_count: 1000 },
    load: { mode: 'open', target_ops_per_s: target, duration_s, warmup_s: 0 },
    fidelity,
  };
}

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** median [min–max] */
function spread(xs: number[], f: (x: number) => string = fmt): string {
  return xs.length === 1 ? f(xs[0]!) : `${f(median(xs))} [${f(Math.min(...xs))}–${f(Math.max(...xs))}]`;
}

function timed<T>(f: () => T): { value: T; wall_s: number; cpu_s: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = f();
  const wall_s = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { value, wall_s, cpu_s: (c.user + c.system) / 1e6 };
}

/** sim/src and engines/loader at a git commit, extracted under sim/.bench-baseline/ (ignored
 * by git) so that it resolves the same workspace packages as this checkout. The baseline's
 * loaders drive this checkout's engine builds (its dist/ folders are linked in), so an exact
 * run compares the two ways across the wasm boundary on the same modules. */
async function baselineSide(ref: string, engines: readonly EngineName[]): Promise<SimSide> {
  const sha = execFileSync('git', ['rev-parse', '--short=12', `${ref}^{commit}`], { cwd: REPO, encoding: 'utf8' }).trim();
  const dir = join(REPO, 'sim', '.bench-baseline', sha);
  const extract = (path: string) => {
    if (existsSync(join(dir, path))) return;
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', sha, path], { cwd: REPO, maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  };
  extract('sim/src');
  extract('engines/loader');
  const run = await import(pathToFileURL(join(dir, 'sim', 'src', 'run', 'simulate.ts')).href);
  const slo = await import(pathToFileURL(join(dir, 'sim', 'src', 'search', 'slo.ts')).href);
  const loaders = (await import(pathToFileURL(join(dir, 'engines', 'loader', 'node-loaders.ts')).href)) as {
    wasmNodeEngine(name: EngineName): Promise<SyncEngine>;
    artefacts: Record<EngineName, { wasm: string }>;
  };
  const loaded = new Map<EngineName, SyncEngine>();
  for (const e of engines) {
    const dist = dirname(loaders.artefacts[e].wasm);
    if (!existsSync(dist)) {
      mkdirSync(dirname(dist), { recursive: true });
      symlinkSync(join(REPO, dist.slice(dir.length + 1)), dist);
    }
    loaded.set(e, await loaders.wasmNodeEngine(e));
  }
  const provide = (name: EngineName): SyncEngine => {
    const e = loaded.get(name);
    if (!e) throw new Error(`engine ${name} was not loaded by the baseline's loaders`);
    return e;
  };
  const src = join(dir, 'sim', 'src');
  // Before race10 the Race searched its lanes one after another in one worker; before race38 in two
  // fixed workers, a level when it was shown.
  type Lanes = { RACE_LANE_GROUPS?: EngineName[][]; raceLaneGroups?: (cores: number) => EngineName[][]; nextRaceSearch?: unknown };
  const lanesModule: Lanes = existsSync(join(src, 'search', 'race-lanes.ts')) ? await import(pathToFileURL(join(src, 'search', 'race-lanes.ts')).href) : {};
  const lanes = lanesModule.raceLaneGroups?.(availableParallelism()) ?? lanesModule.RACE_LANE_GROUPS ?? [[...ENGINE_NAMES]];
  return { label: `baseline ${sha}`, simulate: run.simulate, searchSlo: slo.searchSlo, provide, src, raceGroups: lanes, racePrefetch: lanesModule.nextRaceSearch !== undefined };
}

interface Sample {
  ops_per_wall_s: number;
  ops_per_cpu_s: number;
}

/** Runs each side `repeats` times, interleaved; returns each side's samples. */
function interleave(sides: SimSide[], repeats: number, one: (side: SimSide) => Sample): Sample[][] {
  const out: Sample[][] = sides.map(() => []);
  for (let r = 0; r < repeats; r++) sides.forEach((s, i) => out[i]!.push(one(s)));
  return out;
}

function describe(sides: SimSide[], samples: Sample[][], ratioLabel = 'this/baseline'): string {
  const parts = samples.map((xs, i) => `${sides[i]!.label}: ${spread(xs.map((x) => x.ops_per_wall_s))}/wall-s, ${spread(xs.map((x) => x.ops_per_cpu_s))}/CPU-s`);
  if (samples.length === 2) {
    const ratios = (k: keyof Sample) => samples[0]!.map((a, j) => a[k] / samples[1]![j]![k]);
    parts.push(`ratio ${ratioLabel} ${spread(ratios('ops_per_wall_s'), (x) => x.toFixed(2))} wall, ${spread(ratios('ops_per_cpu_s'), (x) => x.toFixed(2))} CPU`);
  }
  return parts.join(' | ');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const skip = new Set((opt('--skip') ?? '').split(',').filter(Boolean));
  if (args.includes('--no-browser')) skip.add('chromium');
  const repeats = Number(opt('--repeats') ?? 3);
  if (!Number.isInteger(repeats) || repeats < 1 || repeats > 100) throw new Error(`--repeats must be an integer in [1, 100]: ${opt('--repeats')}`);
  const only = opt('--engines')?.split(',') as EngineName[] | undefined;
  for (const e of only ?? []) if (!ENGINE_NAMES.includes(e)) throw new Error(`unknown engine ${e}; one of ${ENGINE_NAMES.join(', ')}`);
  const ALL = only ?? [...ENGINE_NAMES];
  const ref = opt('--baseline');
  const engines = await availableEngines();
  const provide = await provider(engines);
  const sides: SimSide[] = [{ label: 'this', simulate, searchSlo, src: join(HERE, '..', 'src'), raceGroups: raceLaneGroups(availableParallelism()), racePrefetch: true }];
  if (ref) sides.push(await baselineSide(ref, engines));

  console.log(`machine: ${cpus().length} cores, load average ${load()}; engines with a wasm build: ${engines.join(', ') || 'none'}; ${repeats} repeats${ref ? `, interleaved with ${sides[1]!.label}` : ''}; figures are median [min–max]`);
  const EXACT = { target: 5000, duration_s: 2 };
  const FASTRUN = { target: 30_000, duration_s: 20 };
  const APPROX_LONG = { target: 20_000, duration_s: 40 };
  console.log(`\nsimulated client ops per second (exact: ${EXACT.target} ops/s for ${EXACT.duration_s} s; fast: ${FASTRUN.target} ops/s for ${FASTRUN.duration_s} s; 3 nodes, 8 vCPUs, workload A)`);
  const sample = (run: () => RunResult): Sample => {
    const t = timed(run);
    const ops = t.value.latency.all.count;
    return { ops_per_wall_s: ops / t.wall_s, ops_per_cpu_s: ops / t.cpu_s };
  };
  for (const e of ALL) {
    if (!skip.has('exact')) {
      if (engines.includes(e)) {
        for (const s of sides) s.simulate(spec(e, 'exact', 1000, 0.2), s.provide ?? provide); // warm the JIT and the wasm tiers
        const xs = interleave(sides, repeats, (s) => sample(() => s.simulate(spec(e, 'exact', EXACT.target, EXACT.duration_s), s.provide ?? provide)));
        console.log(`${e.padEnd(5)} node exact | ${describe(sides, xs)}`);
      } else console.log(`${e.padEnd(5)} node exact n/a (no wasm build in this checkout)`);
    }
    if (!skip.has('fast')) {
      for (const s of sides) s.simulate(spec(e, 'fast', 2000, 1), null);
      const xs = interleave(sides, repeats, (s) => sample(() => s.simulate(spec(e, 'fast', FASTRUN.target, FASTRUN.duration_s), null)));
      console.log(`${e.padEnd(5)} node fast  | ${describe(sides, xs)}`);
    }
    if (!skip.has('approx')) {
      // The approximate fast mode (run/cycle-repeat.ts) beside plain fast mode, this checkout's,
      // interleaved: the bench's own run, and a longer one below every engine's capacity, where
      // a window holds cycles to repeat. Its ops are the window's (latency.all.count), of which
      // the repeats are counted, not simulated: the share simulated is printed.
      const pair: SimSide[] = [
        { ...sides[0]!, label: 'fast-approx', simulate: (sp, p) => simulate({ ...sp, fidelity: 'fast-approx' }, p) },
        { ...sides[0]!, label: 'fast' },
      ];
      for (const run of [FASTRUN, APPROX_LONG]) {
        let simulatedShare = 1;
        const xs = interleave(pair, repeats, (s) =>
          sample(() => {
            const r = s.simulate(spec(e, 'fast', run.target, run.duration_s), null);
            if (r.approximation) simulatedShare = r.approximation.simulated_ops / r.latency.all.count;
            return r;
          }),
        );
        console.log(`${e.padEnd(5)} node approx ${run.target} ops/s ${run.duration_s} s | ${describe(pair, xs, 'approx/plain')} | simulated ${(simulatedShare * 100).toFixed(0)} % of the window's ops`);
      }
    }
  }
  if (!skip.has('chromium')) {
    const sim = await ChromiumSim.start();
    try {
      for (const e of ALL) {
        const line: string[] = [e.padEnd(5)];
        if (engines.includes(e) && !skip.has('exact')) {
          const res = await sim.request({ type: 'run', id: 1, spec: spec(e, 'exact', EXACT.target, EXACT.duration_s) });
          line.push(res.type === 'run.result' ? `chromium exact ${fmt(res.result.latency.all.count / (res.result.wall_ms! / 1000))}` : `chromium exact failed: ${JSON.stringify(res).slice(0, 100)}`);
        } else line.push('chromium exact n/a');
        if (!skip.has('fast')) {
          const walls: number[] = [];
          for (let r = 0; r < repeats; r++) {
            const res = await sim.request({ type: 'run', id: 2, spec: spec(e, 'fast', FASTRUN.target, FASTRUN.duration_s) });
            if (res.type === 'run.result') walls.push(res.result.latency.all.count / (res.result.wall_ms! / 1000));
          }
          line.push(walls.length ? `chromium fast ${spread(walls)}/wall-s` : 'chromium fast failed');
          if (!skip.has('approx')) {
            const approx: string[] = [];
            for (const run of [FASTRUN, APPROX_LONG]) {
              const res = await sim.request({ type: 'run', id: 3, spec: spec(e, 'fast-approx', run.target, run.duration_s) });
              approx.push(res.type === 'run.result' ? `${run.target}/${run.duration_s} s ${fmt(res.result.latency.all.count / (res.result.wall_ms! / 1000))}` : 'failed');
            }
            line.push(`chromium fast-approx ${approx.join(', ')} /wall-s`);
          }
        }
        console.log(line.join(' | '));
      }
    } finally {
      await sim.close();
    }
  }
  const coldRepeats = Number(opt('--cold-repeats') ?? repeats);
  if (!Number.isInteger(coldRepeats) || coldRepeats < 1 || coldRepeats > 100) throw new Error(`--cold-repeats must be an integer in [1, 100]: ${opt('--cold-repeats')}`);
  if (!skip.has('race')) await race(sides, repeats, ALL, skip.has('race-cold') ? 0 : coldRepeats);
  if (skip.has('sweep')) {
    console.log(`load average now ${load()}`);
    return;
  }
  // The Lab's default memory sweep, exactly as the Lab builds it (run/measurement.ts: windows
  // derived from the model), point by point with the sweep's warm start, so the same figures
  // give the Race's step: the four engines' searches at one memory, warm from the step before.
  // Once per side (a sweep is long), the sides interleaved engine by engine.
  const levels = [8, 2, 1.5, 1.25];
  const knobs: MeasurementKnobs = { workload: 'A', memory: { ratio: 8 }, vcpus: 8 };
  console.log(`\nThe Lab's default memory sweep (ratios ${levels.join(', ')} = 32, 8, 6, 5 GiB; SLO search, model-derived windows, fast mode), per engine; wall and CPU seconds:`);
  const perLevel = sides.map(() => levels.map(() => ({ wall: 0, cpu: 0 })));
  for (const e of ALL) {
    const sweepSpec = measurementSweepSpec(knobs, [e], { memory: levels.map((ratio) => ({ ratio })) });
    const totals: number[] = [];
    sides.forEach((side, si) => {
      let hint: SloSearchSpec['hint'];
      let wall = 0;
      let cpu = 0;
      const cells: string[] = [];
      levels.forEach((ratio, i) => {
        const search = sweepPointSearchSpec(sweepSpec, e, { ratio }, 8);
        if (hint) search.hint = hint;
        const t = timed(() => side.searchSlo(search, null));
        const r = t.value;
        wall += t.wall_s;
        cpu += t.cpu_s;
        perLevel[si]![i]!.wall += t.wall_s;
        perLevel[si]![i]!.cpu += t.cpu_s;
        hint = r.max_ops_per_s_at_slo === null ? undefined : { met_ops_per_s: r.max_ops_per_s_at_slo };
        cells.push(`${ratio * 4} GiB ${r.max_ops_per_s_at_slo === null ? '<100' : fmt(r.max_ops_per_s_at_slo)} (${r.probes.length} probes, ${t.wall_s.toFixed(1)} s)`);
      });
      totals.push(cpu);
      console.log(`${e.padEnd(5)} ${side.label}: ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU (target ≤ 10 s): ${cells.join(', ')}`);
    });
    if (totals.length === 2) console.log(`${e.padEnd(5)} sweep CPU seconds, this/baseline: ${(totals[0]! / totals[1]!).toFixed(2)}`);
  }
  sides.forEach((side, si) => {
    console.log(`Race step, ${side.label} (four engines' searches at one memory, warm from the previous step): ${levels.map((r, i) => `${r * 4} GiB ${perLevel[si]![i]!.wall.toFixed(1)} s wall / ${perLevel[si]![i]!.cpu.toFixed(1)} s CPU`).join('; ')} (target ≤ 1 s)`);
  });
  console.log(`load average now ${load()}`);
}

/** The Race's step per level, as the user meets it and cold, each side's lanes in its own
 * workers; ratios this/baseline pair by pair. */
async function race(sides: SimSide[], repeats: number, engines: readonly EngineName[], coldRepeats: number): Promise<void> {
  const groupsOf = (side: SimSide) => side.raceGroups.map((g) => g.filter((e) => engines.includes(e))).filter((g) => g.length > 0);
  const gib = (ratio: number) => `${ratio * 4} GiB`;
  // (in the catalogue's order, whatever the workers' order)
  const answers = (f: StepFigures) =>
    [...f.answers]
      .sort((a, b) => ENGINE_NAMES.indexOf(a.engine) - ENGINE_NAMES.indexOf(b.engine))
      .map((a) => `${a.engine} ${a.answer === null ? '<100' : fmt(a.answer)} (${a.probes})`)
      .join(', ');
  const report = (title: string, runs: StepFigures[][][]) => {
    console.log(title);
    RACE_LEVELS.forEach((ratio, i) => {
      const parts = sides.map((side, si) => {
        const xs = runs[si]!.map((session) => session[i]!);
        const busiest = xs.every((x) => x.busiest_worker_cpu_s !== null) ? `, busiest worker ${spread(xs.map((x) => x.busiest_worker_cpu_s!), (x) => x.toFixed(2))} CPU-s` : '';
        return `${side.label}: ${spread(xs.map((x) => x.wall_s), (x) => x.toFixed(2))} s wall, ${spread(xs.map((x) => x.cpu_s), (x) => x.toFixed(2))} CPU-s${busiest} — ${answers(xs[0]!)}`;
      });
      if (sides.length === 2) {
        const ratios = (k: 'wall_s' | 'cpu_s') => runs[0]!.map((session, j) => session[i]![k] / runs[1]![j]![i]![k]);
        const same = runs[0]!.every((session, j) => answers(session[i]!).replace(/ \(\d+\)/g, '') === answers(runs[1]![j]![i]!).replace(/ \(\d+\)/g, ''));
        const waits = runs.every((side) => side.every((session) => session[i]!.busiest_worker_cpu_s !== null))
          ? `, ${spread(runs[0]!.map((session, j) => session[i]!.busiest_worker_cpu_s! / runs[1]![j]![i]!.busiest_worker_cpu_s!), (x) => x.toFixed(2))} busiest worker`
          : '';
        parts.push(`this/baseline ${spread(ratios('wall_s'), (x) => x.toFixed(2))} wall, ${spread(ratios('cpu_s'), (x) => x.toFixed(2))} CPU${waits}; answers ${same ? 'the same' : 'DIFFER'}`);
      }
      console.log(`  ${gib(ratio).padEnd(6)} ${parts.join(' | ')}`);
    });
  };
  console.log(`\nThe Race's step (fast mode, workload A, 8 vCPUs; lanes ${sides.map((s) => `${s.label}: ${groupsOf(s).map((g) => `[${g.join(' ')}]`).join(' ')}`).join('; ')}; target ≤ 1 s), load average ${load()}`);
  const sessions: StepFigures[][][] = sides.map(() => []);
  for (let r = 0; r < repeats; r++) for (const [si, side] of sides.entries()) sessions[si]!.push(await raceSession(side.src, groupsOf(side)));
  report(`As the user meets it (a session stepping down, each step warm from the one before; what the user waits stepping on at once), load average ${load()}:`, sessions);
  // A Race that searches ahead: what a user waits who looks at each level RACE_DWELL_S first (its
  // next level's searches began as the level was shown); a Race that searches a level when it is
  // shown makes them wait its wall time whatever they do.
  if (sides.some((s) => s.racePrefetch)) {
    const waits = sides.map((side, si) => sessions[si]!.map((session) => (side.racePrefetch ? waitsAfterDwell(session, RACE_DWELL_S) : session.map((x) => x.wall_s))));
    console.log(`Looking at each level ${RACE_DWELL_S} s before pressing on, the wait per step (s):`);
    RACE_LEVELS.forEach((ratio, i) => {
      const parts = sides.map((side, si) => `${side.label}: ${spread(waits[si]!.map((w) => w[i]!), (x) => x.toFixed(2))}`);
      console.log(`  ${gib(ratio).padEnd(6)} ${parts.join(' | ')}`);
    });
  }
  if (coldRepeats === 0) return;
  const colds: StepFigures[][][] = sides.map(() => []);
  for (let r = 0; r < coldRepeats; r++)
    for (const [si, side] of sides.entries()) {
      const one: StepFigures[] = [];
      for (const ratio of RACE_LEVELS) one.push(...(await raceSession(side.src, groupsOf(side), [ratio])));
      colds[si]!.push(one);
    }
  report(`Cold (each level visited first: a fresh session, nothing remembered, no hint), load average ${load()}:`, colds);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
