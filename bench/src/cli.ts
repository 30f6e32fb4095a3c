// npm run bench -- --engine go|cpp|rust|java|etcd|all --workload a|b --records N
//   (--mem-gib G,… | --ratio R,…) --vcpus V,… --slo-ms 20 --threads 64 --duration-s S
//   --warmup-s S [--preset smoke|scaled|paper] [--out DIR] [--dry-run]
// npm run bench -- calibrate [--engine …] [--rate OPS] [--duration-s S]
// See docs/benchmarks.md for the method and what differs from the paper's AWS set-up.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { removeAll, sweepStale } from './cgroup.ts';
import { gitCommit, machineInfo, toolVersions } from './machine.ts';
import { FOOTPRINT_RUNS, measureFootprintOverRuns, measureSetting, type Footprint, type SettingResult } from './measure.ts';
import { buildPlan, describePlan, estimateSeconds, footprintApplies, resolveOptions, UsageError, withFootprint, type BenchOptions } from './plan.ts';
import { WarmStarts } from './warm-start.ts';
import { ProgressDisplay } from './progress.ts';
import { combineRepetitions, detailsLines, resultsFile, settingRows, type ResultRow, type ResultsFile } from './results.ts';
import { summarize } from './summary.ts';
import { detailsDirOf, rederive } from './rederive.ts';
import { finishedEarlier } from './resume.ts';
import { ETCD_BINARY } from './systems.ts';
import { BENCH_DIR, checkYcsbBuilt } from './ycsb.ts';
import { validateResults } from './validate.ts';
import { runCalibration } from './calibrate.ts';
import { keepRemoteHistograms, measureRemoteSetting, readHosts, resolveInventory, type Hosts } from './remote.ts';

const REPO = resolve(BENCH_DIR, '..');
/** npm runs workspace scripts inside bench/; paths on the command line mean the caller's cwd. */
const CALLER_CWD = process.env.INIT_CWD ?? process.cwd();
const fromCaller = (p: string) => resolve(CALLER_CWD, p);

const FLAGS = {
  engine: { type: 'string' },
  workload: { type: 'string' },
  'workload-file': { type: 'string' },
  records: { type: 'string' },
  'mem-gib': { type: 'string' },
  ratio: { type: 'string' },
  vcpus: { type: 'string' },
  'cores-per-vcpu': { type: 'string' },
  'loadgen-cpus': { type: 'string' },
  'node-cpus': { type: 'string' },
  'slo-ms': { type: 'string' },
  'quiet-cores': { type: 'string' },
  'quiet-wait-s': { type: 'string' },
  'disturbed-cores': { type: 'string' },
  'disturbed-steal': { type: 'string' },
  'disturbed-retries': { type: 'string' },
  'cpu-shares': { type: 'string' },
  'disturbed-wait-us': { type: 'string' },
  'memory-baseline': { type: 'string' },
  threads: { type: 'string' },
  'duration-s': { type: 'string' },
  'warmup-s': { type: 'string' },
  'min-rate': { type: 'string' },
  'max-rate': { type: 'string' },
  tolerance: { type: 'string' },
  'max-probes': { type: 'string' },
  repetitions: { type: 'string' },
  nodes: { type: 'string' },
  preset: { type: 'string' },
  out: { type: 'string' },
  only: { type: 'string' },
  hosts: { type: 'string' },
  rate: { type: 'string' },
  'keep-scratch': { type: 'boolean' },
  durability: { type: 'string' },
  fsync: { type: 'string' },
  'cold-search': { type: 'boolean' },
  'early-stop': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  mitigation: { type: 'string' },
  help: { type: 'boolean' },
} as const;

const USAGE = `usage: npm run bench -- --engine go|cpp|rust|java|etcd|all[,…] --workload a|b[,…] --records N
         (--mem-gib G[,…] | --ratio R[,…]) --vcpus V[,…] --slo-ms 20|auto --threads 64
         --duration-s S --warmup-s S [--preset smoke|scaled|paper] [--out DIR] [--dry-run]
         [--min-rate N] [--max-rate N] [--tolerance F] [--max-probes N] [--repetitions N]
         [--node-cpus LIST] [--loadgen-cpus LIST] [--cores-per-vcpu F] [--nodes N]
         [--quiet-cores F] [--quiet-wait-s S] [--memory-baseline auto|none] [--workload-file F]
         [--disturbed-cores F] [--disturbed-steal F] [--disturbed-retries N]
         [--cpu-shares N]   (the groups' CFS weight, default 262144; 1024 = compete as an equal)
         [--disturbed-wait-us US]   (with cpu.shares > 1024: the run-queue wait that makes a probe disturbed)
         [--hosts INVENTORY.yml]   (on separate hosts through Ansible: groups servers (3) and client (1))
         [--keep-scratch] [--durability none|log[,…]] [--fsync always|interval|never[,…]]
         [--mitigation none|blade|mitmem|both]   (Go and Java servers only)
         [--early-stop]   (a search probe ends once its window's p99 is over the SLO for certain)
       npm run bench -- calibrate [--engine …] [--rate OPS] [--duration-s S] [--out FILE]
       npm run bench -- summarize RESULTS.json…
       npm run bench -- rederive RESULTS.json…   (rows derived again from details/ beside it, in place)
       npm run bench -- rederive RESULTS.json --only ID,… --out PART.json   (only those settings' details, into a new file)
Presets: smoke (all systems, a few minutes), scaled (this 2-core machine, the paper's ratios),
paper (the paper's full size, for bigger machines). Flags override the preset.`;

function installCleanup(progress: { log(m: string): void } | null): void {
  let cleaning = false;
  const cleanup = (why: string, code: number) => {
    if (cleaning) return;
    cleaning = true;
    const problems = removeAll();
    (progress ?? console).log(`\n${why}: removed the benchmark's cgroups and processes${problems.length ? ` (problems: ${problems.join('; ')})` : ''}`);
    process.exit(code);
  };
  process.on('SIGINT', () => cleanup('interrupted', 130));
  process.on('SIGTERM', () => cleanup('terminated', 143));
  process.on('uncaughtException', (e) => {
    console.error(e);
    cleanup('failed', 1);
  });
}

function timestamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
}

/** The options a results file was measured with, from the command its metadata records. */
function optionsOfCommand(command: string | undefined): BenchOptions {
  const args = (command ?? '').replace(/^npm run bench --\s*/, '').split(/\s+/).filter(Boolean);
  if (!command || args.some((a) => /['"]/.test(a))) throw new UsageError(`cannot read the options of the recorded command ${JSON.stringify(command)}`);
  const { values } = parseArgs({ args, options: FLAGS, allowPositionals: false, strict: true });
  return resolveOptions(values as Record<string, string | boolean | undefined>);
}

export function commandLine(argv: string[]): string {
  return ['npm run bench --', ...argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`))].join(' ');
}

async function bench(o: BenchOptions, argv: string[]): Promise<number> {
  const settings = buildPlan(o);
  const out = o.out_dir ? fromCaller(o.out_dir) : join(BENCH_DIR, 'runs', `${timestamp()}-${o.preset}`);
  // an earlier run of this command into --out: its finished settings are kept, not measured again
  const finished = finishedEarlier(out, settings, commandLine(argv));
  console.log(describePlan(o, settings.filter((s) => !finished.has(s.id))));
  if (finished.size) console.log(`  resuming ${relative(CALLER_CWD, out)}: ${finished.size} of ${settings.length} setting(s) finished there earlier are kept, not measured again (remove a details/<id>.jsonl to measure it again)`);
  if (o.dry_run) return 0;
  checkYcsbBuilt();
  let hosts: Hosts | null = null;
  if (o.hosts) {
    o.hosts = resolveInventory(o.hosts, CALLER_CWD);
    hosts = readHosts(o.hosts);
    console.log(`hosts: servers ${hosts.servers.map((h) => `${h.name} (${h.address})`).join(', ')}; client ${hosts.client.name} (${hosts.client.address})`);
  }
  const deployed = new Set<string>();
  const stale = sweepStale();
  if (stale.length) console.log(`removed ${stale.length} stale cgroup(s) of an earlier run`);
  if (o.workload_file) o.workload_file = fromCaller(o.workload_file);
  const scratch = join(BENCH_DIR, 'runs', `scratch-${process.pid}`);
  mkdirSync(out, { recursive: true });
  const progress = new ProgressDisplay(settings.length, estimateSeconds(o, settings.filter((s) => !finished.has(s.id))));
  installCleanup(progress);

  const { commit, dirty } = gitCommit(REPO);
  const rows: ResultRow[] = [];
  const results: SettingResult[] = [];
  const footprints = new Map<string, Footprint | null>();
  const writeResults = (finished: number) => {
    const machine = machineInfo();
    const file = resultsFile(
      {
        source_kind: 'native',
        title: `Replicant native benchmark${hosts ? ' on separate hosts' : ''}, preset ${o.preset} (${o.systems.join(', ')})`,
        description:
          'Max throughput at intended p99 <= SLO found by bisecting YCSB -target (the paper\'s §5.1 method) ' +
          (hosts
            ? `on separate hosts through Ansible: servers ${hosts.servers.map((h) => `${h.name} ${h.address}`).join(', ')}, YCSB on ${hosts.client.name} ${hosts.client.address}; the controller's machine is described below.`
            : `on a scaled set-up: 3 nodes and YCSB on one ${machine.vcpus}-core machine shared with other developers, so absolute figures are far below the paper's AWS ones; compare systems within one file.`) +
          (dirty ? ' The working tree had uncommitted changes when this ran.' : '') +
          // A long plan stopped early (Ctrl-C, a deadline) still leaves what it measured.
          (finished < settings.length ? ` Partial: ${finished} of ${settings.length} planned settings had finished when this file was written; the run was stopped or is still going.` : ''),
        machine,
        date: new Date().toISOString().slice(0, 10),
        git_commit: commit,
        engines: toolVersions(ETCD_BINARY),
        command: commandLine(argv),
      },
      combineRepetitions(rows),
    );
    writeFileSync(join(out, 'results.json'), JSON.stringify(file, null, 2) + '\n');
    return file;
  };
  // the next repetition of a setting, else the next memory size of its system, starts its search
  // at its answer (only from a clean one)
  const warm = new WarmStarts();
  const remember = (s: (typeof settings)[number], r: SettingResult) => warm.remember(s, r);
  for (const [i, s] of settings.entries()) {
    progress.setting(i, s.id);
    const earlier = finished.get(s.id);
    if (earlier) {
      results.push(earlier);
      remember(s, earlier);
      rows.push(...settingRows(earlier, o, relative(REPO, join(out, 'details', `${s.id}.jsonl`))));
      progress.log(`${s.id}: finished in an earlier run of this command, kept`);
      continue;
    }
    if (footprintApplies(s, o)) {
      if (!footprints.has(s.system)) {
        // On hosts too it is measured here, on the controller, with the same server binaries the
        // deploy ships: what a runtime holds besides its data is the runtime's, not the host's.
        progress.step(i, `measuring the fixed memory footprint${hosts ? ' (on this controller)' : ''}`);
        try {
          const f = await measureFootprintOverRuns(s, o, scratch, FOOTPRINT_RUNS, 3, (run, attempt, err) =>
            progress.log(`${s.system}: could not measure the fixed footprint (run ${run} of ${FOOTPRINT_RUNS}), attempt ${attempt} of 3 (${err.message})${attempt === 3 ? '; this run is left out' : ''}`));
          footprints.set(s.system, f);
          progress.log(`${s.system}: fixed footprint ${(f.bytes / 2 ** 20).toFixed(0)} MiB per node (${f.how}; nodes ${f.per_node_bytes.map((b) => (b / 2 ** 20).toFixed(0)).join('/')} MiB)`);
        } catch {
          progress.log(`${s.system}: no footprint run succeeded; limits are ratio × data only, and the rows say so`);
          footprints.set(s.system, null);
        }
      }
      Object.assign(s, withFootprint(s, footprints.get(s.system)?.bytes ?? 0));
    }
    let r: SettingResult;
    if (hosts) {
      r = await measureRemoteSetting(hosts, s, o, join(out, 'hosts', s.id), (m) => progress.step(i, m), deployed);
      keepRemoteHistograms(r, join(out, 'hdr', s.id));
    } else {
      const hint = o.warm_start ? warm.hintFor(s) : undefined;
      if (hint !== undefined) progress.log(`${s.id}: search warm-started at ${hint} ops/s, the ${warm.sourceOf(s)}'s answer`);
      r = await measureSetting(s, o, scratch, join(out, 'hdr'), (m) => progress.step(i, m), hint);
    }
    results.push(r);
    remember(s, r);
    const detailsRel = relative(REPO, join(out, 'details', `${s.id}.jsonl`));
    mkdirSync(join(out, 'details'), { recursive: true });
    writeFileSync(join(REPO, detailsRel), detailsLines(r));
    rows.push(...settingRows(r, o, detailsRel));
    const b = r.best;
    progress.log(
      `${s.id}: ${r.stopped_by && !b ? 'DISTURBED — no rate decided' : b ? `max ${b.target_ops_per_s} ops/s at SLO (intended p99 ${b.p99_ms?.toFixed(1)} ms, uncorrected ${(b.uncorrected.p99_us / 1000).toFixed(1)} ms)${r.search.ceiling_reached ? ' — ceiling reached' : ''}${r.stopped_by ? ` — a lower bound: the probe at ${r.stopped_by.target_ops_per_s} ops/s was disturbed` : ''}` : r.floor ? `SLO missed even at ${r.floor.target_ops_per_s} ops/s (p99 ${r.floor.p99_ms?.toFixed(1) ?? '∞'} ms)` : 'no result'}` +
        `; saturation ${r.saturation_ops_per_s} ops/s; leader CPU ${((r.nodes.find((n) => n.role === 'leader')?.cpu_utilization ?? 0) * 100).toFixed(0)} %` +
        (r.errors.length ? `; errors: ${r.errors.join(' | ')}` : ''),
    );
    if (i + 1 < settings.length) writeResults(results.length);
  }
  const file = writeResults(results.length);
  const problems = validateResults(file);
  // Scratch (cluster logs, every probe's histograms) stays when asked for or when a setting failed.
  const failed = results.filter((r) => r.errors.length);
  if (process.argv.includes('--keep-scratch') || failed.length) {
    progress.log(`scratch kept at ${relative(CALLER_CWD, scratch)}${failed.length ? ` (${failed.length} setting(s) had errors)` : ''}`);
  } else rmSync(scratch, { recursive: true, force: true });
  progress.log(`wrote ${relative(CALLER_CWD, join(out, 'results.json'))} (${file.rows.length} rows, ${results.length} settings × repetitions)`);
  progress.log(summarize(file));
  if (problems.length) {
    progress.log(`results file does not match data/schema/results.schema.json:\n  ${problems.join('\n  ')}`);
    return 1;
  }
  progress.log('results file is valid against data/schema/results.schema.json');
  return results.some((r) => r.errors.length && !r.best && !r.floor) ? 1 : 0;
}

/** `rederive RESULTS.json --only ID,… --out PART.json`: a part of a run as its own results file;
 * the run's own file is never rewritten with a part of its rows. */
function rederivePart(files: string[], only: string, out: string | undefined): number {
  if (files.length !== 1) throw new UsageError('rederive --only takes one results.json file');
  if (!out) throw new UsageError('rederive --only needs --out PART.json (a new file; the run\'s own stays whole)');
  const ids = only.split(',').map((x) => x.trim()).filter(Boolean);
  if (!ids.length) throw new UsageError('--only needs details ids, e.g. go-a-r8-8vcpu-rep2');
  const path = fromCaller(files[0]!);
  const target = fromCaller(out);
  if (target === path) throw new UsageError('--out must not be the run\'s own results file');
  const before = JSON.parse(readFileSync(path, 'utf8')) as ResultsFile;
  const part = rederive(before, optionsOfCommand(before.metadata.command), detailsDirOf(path), REPO, ids);
  const problems = validateResults(part);
  if (problems.length) throw new Error(`${out}: the rows derived do not match the schema:\n  ${problems.join('\n  ')}`);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, JSON.stringify(part, null, 2) + '\n');
  console.log(`${out}: ${ids.length} settings of ${files[0]}, ${part.rows.length} rows\n${summarize(part)}\n`);
  return 0;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true });
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  try {
    if (parsed.positionals[0] === 'summarize') {
      const files = parsed.positionals.slice(1);
      if (!files.length) throw new UsageError('summarize needs one or more results.json files');
      for (const f of files) console.log(summarize(JSON.parse(readFileSync(fromCaller(f), 'utf8')) as ResultsFile) + '\n');
      return 0;
    }
    if (parsed.positionals[0] === 'rederive') {
      const files = parsed.positionals.slice(1);
      if (!files.length) throw new UsageError('rederive needs one or more results.json files');
      if (parsed.values.only !== undefined) return rederivePart(files, parsed.values.only, parsed.values.out);
      for (const f of files) {
        const path = fromCaller(f);
        const before = JSON.parse(readFileSync(path, 'utf8')) as ResultsFile;
        const after = rederive(before, optionsOfCommand(before.metadata.command), detailsDirOf(path), REPO);
        const problems = validateResults(after);
        if (problems.length) throw new Error(`${f}: the rows derived again do not match the schema:\n  ${problems.join('\n  ')}`);
        writeFileSync(path, JSON.stringify(after, null, 2) + '\n');
        console.log(`${f}: ${before.rows.length} rows → ${after.rows.length}\n${summarize(after)}\n`);
      }
      return 0;
    }
    if (parsed.positionals[0] === 'calibrate') {
      installCleanup(null);
      return await runCalibration(parsed.values as Record<string, string | boolean | undefined>, commandLine(argv));
    }
    if (parsed.positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[0])}`);
    if (parsed.values.only !== undefined) throw new UsageError('--only belongs to rederive');
    return await bench(resolveOptions(parsed.values as Record<string, string | boolean | undefined>), argv);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`${e.message}\n${USAGE}`);
      return 2;
    }
    console.error(`bench: ${(e as Error).message}`);
    removeAll();
    return 1;
  }
}

process.exitCode = await main();
removeAll();
