// `npm run torture`: seeded fault schedules (VOPR-style) against the real engines in the
// simulator's virtual time, every history checked by Porcupine (the checker's wasm build).
// A failing seed is shrunk and printed with the command that replays it byte for byte.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ENGINE_NAMES, isEngineName, type EngineName } from '@replicant/engines/loader/catalogue';
import { formatHistory } from '@replicant/checker/lincheck';
import { loadChecker } from '@replicant/checker/node';
import { provider } from './engines.ts';
import { describeFault, drawScenario, FAULT_KINDS, type DrawOptions, type Scenario } from '../torture/scenario.ts';
import { shrink, tortureScenario, type CheckHistory, type SeedResult } from '../torture/torture.ts';
import { describe, fmtMs } from '../torture/judge.ts';
import { labReplayUrl, replayCommand as replayCommandOf, seedScenario, type ReplaySpec } from '../torture/replay-spec.ts';
import { noteSlowCheck, type SlowCheck } from '../torture/slow-checks.ts';

const USAGE = `usage: npm run torture -- [options]
  --engine E[,E…]     go | cpp | rust | java (every node that engine) | all (each node's engine drawn);
                      several: each runs its own seeds (default all)
  --seeds N           seeds per engine choice (default 100)
  --from S            first seed (default 1)
  --durability D      crashes are real restarts of the process: none (an empty core: expected to
                      lose acknowledged writes) or log (the cores persist, the run is their disk,
                      a crashed node restarts from the batches written before the crash);
                      without it a crashed node keeps its state (an idealised durable node)
  --amnesia           the same as --durability none
  --check-quorum      the cores' check-quorum on (the native servers' default; off is the paper's protocol)
  --repair N          the cores' steady-state repair, N entries per heartbeat (native servers: 256;
                      default 0, the paper's protocol)
  --election N        the cores' bounded elections: promises in chunks of N, N replayed at once
                      (native servers: 256; default 0, the paper's protocol)
  --log-bound N       the cores' log bound: the leader trims to last_executed − N without every
                      peer's answer (needs --repair and --election; native servers: 16384;
                      default 0, the paper's protocol)
  --checkpoints       the cores take checkpoints: each seed draws snapshot_every in 4..32 (its own
                      stream: the rest of the seed's draw is unchanged) and a node's disk is
                      compacted at each checkpoint, as the servers do (needs --durability log,
                      --repair and --election; native servers: 4096)
  --mitigation blade  the cores run BLADE: every GC-like pause is announced (gc_pending) and
                      starts when the core says collect (a leader hands off first); default none
  --no-shrink         print failures without shrinking them
  --replay SEED       run one seed and print everything (scenario, faults, history, digest)
  --keep-faults I,J   with --replay: only these of the seed's faults (as a shrunk failure prints)
  --ops N             with --replay: at most N operations per client
  --trace             with --replay: also print every core step
  --history FILE      with --replay: write the history (checker/ history format)
  --html FILE         with --replay: write Porcupine's visualisation
  --report FILE       write a JSON summary of the run (per engine choice: seeds, failures, figures)
  --known FILE        seeds known to stall (liveness only, reported to the engines' owners): listed
                      there per engine choice, they are printed as KNOWN and do not fail the run;
                      a safety problem on any seed always fails
Exit status: 0 no failure, 1 a seed failed, 2 bad input.`;

class UsageError extends Error {}

interface Args {
  engines: (EngineName | 'all')[];
  seeds: number;
  from: number;
  amnesia: boolean;
  durability: 'none' | 'log' | null;
  checkQuorum: boolean;
  repair: number;
  election: number;
  logBound: number;
  checkpoints: boolean;
  mitigation: 'blade' | null;
  shrink: boolean;
  replay: number | null;
  keepFaults: number[] | null;
  ops: number | null;
  trace: boolean;
  history: string | null;
  html: string | null;
  report: string | null;
  known: string | null;
}

/** Paths are read from where npm was started (npm runs the workspace script in sim/). */
function fromStart(path: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

function parseArgs(argv: string[]): Args {
  const a: Args = { engines: ['all'], seeds: 100, from: 1, amnesia: false, durability: null, checkQuorum: false, repair: 0, election: 0, logBound: 0, checkpoints: false, mitigation: null, shrink: true, replay: null, keepFaults: null, ops: null, trace: false, history: null, html: null, report: null, known: null };
  const int = (name: string, v: string | undefined, min: number, max: number) => {
    const n = Number(v);
    if (v === undefined || !/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${name} needs an integer in [${min}, ${max}]: ${v ?? '(missing)'}`);
    return n;
  };
  const value = (name: string, v: string | undefined) => {
    if (v === undefined || v.startsWith('--')) throw new UsageError(`--${name} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    switch (arg) {
      case '--engine': {
        const list = value('engine', argv[++i]).split(',');
        for (const e of list) if (e !== 'all' && !isEngineName(e)) throw new UsageError(`unknown engine "${e}" (go, cpp, rust, java or all)`);
        a.engines = list as Args['engines'];
        break;
      }
      case '--seeds': a.seeds = int('seeds', argv[++i], 1, 10_000_000); break;
      case '--from': a.from = int('from', argv[++i], 0, 2 ** 40); break;
      case '--amnesia': a.amnesia = true; break;
      case '--durability': {
        const d = value('durability', argv[++i]);
        if (d !== 'none' && d !== 'log') throw new UsageError(`--durability must be none or log, not "${d}"`);
        a.durability = d;
        break;
      }
      case '--check-quorum': a.checkQuorum = true; break;
      case '--repair': a.repair = int('repair', argv[++i], 0, 1_000_000); break;
      case '--election': a.election = int('election', argv[++i], 0, 4096); break;
      case '--log-bound': a.logBound = int('log-bound', argv[++i], 0, 1_000_000); break;
      case '--checkpoints': a.checkpoints = true; break;
      case '--mitigation': {
        const m = value('mitigation', argv[++i]);
        if (m !== 'blade' && m !== 'none') throw new UsageError(`--mitigation must be blade or none, not "${m}"`);
        a.mitigation = m === 'blade' ? 'blade' : null;
        break;
      }
      case '--no-shrink': a.shrink = false; break;
      case '--replay': a.replay = int('replay', argv[++i], 0, 2 ** 40); break;
      case '--keep-faults': {
        const v = argv[++i];
        if (v === undefined) throw new UsageError('--keep-faults needs a list (may be empty: "")');
        a.keepFaults = v === '' ? [] : v.split(',').map((x) => int('keep-faults', x, 0, 1000));
        break;
      }
      case '--ops': a.ops = int('ops', argv[++i], 1, 1_000_000); break;
      case '--trace': a.trace = true; break;
      case '--history': a.history = fromStart(value('history', argv[++i])); break;
      case '--html': a.html = fromStart(value('html', argv[++i])); break;
      case '--report': a.report = fromStart(value('report', argv[++i])); break;
      case '--known': a.known = fromStart(value('known', argv[++i])); break;
      case '--help': case '-h': throw new UsageError(USAGE);
      default: throw new UsageError(`unknown option "${arg}"\n${USAGE}`);
    }
  }
  if (a.replay === null && (a.keepFaults || a.ops || a.trace || a.history || a.html))
    throw new UsageError('--keep-faults, --ops, --trace, --history and --html go with --replay');
  if (a.replay !== null && a.engines.length !== 1) throw new UsageError('--replay needs one --engine choice');
  if (a.logBound && (!a.repair || !a.election)) throw new UsageError('--log-bound needs --repair and --election');
  if (a.checkpoints && (!a.repair || !a.election || a.durability !== 'log')) throw new UsageError('--checkpoints needs --durability log, --repair and --election');
  if (a.amnesia && a.durability === 'log') throw new UsageError('--amnesia is --durability none: not with --durability log');
  return a;
}

function drawOptions(args: Args, engine: EngineName | 'all'): DrawOptions {
  const o: DrawOptions = { engine, amnesia: args.amnesia, checkQuorum: args.checkQuorum, repairBatch: args.repair, electionBatch: args.election, logBound: args.logBound };
  if (args.durability) o.durability = args.durability;
  if (args.checkpoints) o.checkpoints = true;
  if (args.mitigation) o.mitigation = args.mitigation;
  return o;
}

/** ", amnesia, check-quorum, …": the options a run was drawn with, for its printed lines */
function modeLabel(args: Args): string {
  return (args.amnesia ? ', amnesia' : '') + (args.durability ? `, durability ${args.durability}` : '') + (args.checkQuorum ? ', check-quorum' : '') +
    (args.repair ? `, repair ${args.repair}` : '') + (args.election ? `, election ${args.election}` : '') + (args.logBound ? `, log bound ${args.logBound}` : '') + (args.checkpoints ? ', checkpoints' : '') + (args.mitigation ? `, ${args.mitigation}` : '');
}

function summary(s: Scenario): string {
  return `cluster ${s.engines.join(',')}; ${s.clients} clients; keys ${s.keys.join(',')}; ${s.ops_per_client} ops/client; fault window ${fmtMs(s.fault_window_us)}; ${s.faults.length} fault(s)${s.snapshot_every ? `; checkpoint every ${s.snapshot_every}` : ''}`;
}

/** The run as the lab's address and the replay command name it (sim/src/torture/replay-spec.ts). */
function specOf(engine: EngineName | 'all', seed: number, options: DrawOptions, keep?: number[], ops?: number): ReplaySpec {
  const r: ReplaySpec = { engine, seed, keep_faults: keep ?? null, ops: ops ?? null, amnesia: options.amnesia === true, durability: options.durability ?? null, check_quorum: options.checkQuorum === true, repair: options.repairBatch ?? 0, election: options.electionBatch ?? 0, checkpoints: options.checkpoints === true };
  if (options.logBound) r.log_bound = options.logBound;
  if (options.mitigation) r.mitigation = options.mitigation;
  return r;
}

/** The command that replays the run (the same options as the lab's address). */
function replayCommand(engine: EngineName | 'all', seed: number, options: DrawOptions, keep?: number[], ops?: number): string {
  return replayCommandOf(specOf(engine, seed, options, keep, ops));
}

/** The Cluster view's address that opens the same run (npm start serves the lab there). */
function labUrl(engine: EngineName | 'all', seed: number, options: DrawOptions, keep?: number[], ops?: number): string {
  return labReplayUrl(specOf(engine, seed, options, keep, ops));
}

function printFailure(out: (s: string) => void, engine: string, r: SeedResult) {
  out(`FAIL seed ${r.scenario.seed} (--engine ${engine}): ${summary(r.scenario)}`);
  for (const p of r.judgement.problems) out(`  ${p}`);
}

/** {"<engine choice>[+amnesia]": [seed, …], …} plus free-form fields starting with "_" */
function readKnown(path: string): Record<string, number[]> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`--known ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new UsageError(`--known ${path}: not a JSON object`);
  const out: Record<string, number[]> = {};
  for (const [k, v] of Object.entries(data)) {
    if (k.startsWith('_')) continue;
    if (!Array.isArray(v) || !v.every((x) => Number.isSafeInteger(x) && x >= 0)) throw new UsageError(`--known ${path}: "${k}" must list seeds`);
    out[k] = v as number[];
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const checker = await loadChecker();
  const check: CheckHistory = (h) => checker.check(h).verdict;
  const needed = new Set<EngineName>();
  for (const e of args.engines) for (const n of e === 'all' ? ENGINE_NAMES : [e]) needed.add(n);
  const provide = await provider([...needed]);
  const out = (s: string) => process.stdout.write(s + '\n');

  if (args.replay !== null) {
    const engine = args.engines[0]!;
    const options = drawOptions(args, engine);
    const scenario = seedScenario(args.replay, options, args.keepFaults, args.ops);
    const r = tortureScenario(scenario, provide, check, args.trace);
    out(`seed ${scenario.seed} (--engine ${engine}${modeLabel(args)}): ${summary(scenario)}`);
    for (const f of scenario.faults) out(`  fault ${describeFault(f)}`);
    out(`history (${r.run.history.length} operations):`);
    r.run.history.forEach((op, i) => out(`  #${i} ${describe(op)}`));
    out('final state:');
    for (const nd of r.run.nodes)
      out(`  n${nd.node} ${nd.role} ballot ${nd.ballot >> 8}.${nd.ballot & 0xff} last_index ${nd.last_index} last_executed ${nd.last_executed} kv ${JSON.stringify(nd.kv)} log [${nd.log.length > 400 ? nd.log.slice(0, 300) + ' … ' + nd.log.slice(-80) : nd.log}]`);
    out(`served again ${r.run.recovered_after_us === null ? 'never' : fmtMs(r.run.recovered_after_us)} after the faults ended; ${r.run.steps} core steps; virtual end ${fmtMs(r.run.end_us)}`);
    out(`porcupine: ${JSON.stringify(r.verdict)}`);
    if (args.trace) for (const line of r.run.trace ?? []) out(`  | ${line.replace(/\n/g, '\n  | ')}`);
    out(`digest ${r.run.digest}`);
    out(`in the lab (npm start): ${labUrl(engine, scenario.seed, options, args.keepFaults ?? undefined, args.ops ?? undefined)}`);
    if (args.history) writeFileSync(args.history, formatHistory(r.run.history));
    if (args.html) writeFileSync(args.html, checker.check(r.run.history, { html: true }).html ?? '');
    if (r.judgement.ok) out('PASS');
    else for (const p of r.judgement.problems) out(`FAIL ${p}`);
    return r.judgement.ok ? 0 : 1;
  }

  const known = args.known ? readKnown(args.known) : {};
  const report: Record<string, unknown>[] = [];
  let failed = false;
  const t0 = Date.now();
  for (const engine of args.engines) {
    const options = drawOptions(args, engine);
    const tally = {
      engine, seeds: 0, failures: 0, failing_seeds: [] as number[], known_stalls: [] as number[], safety_failures: 0, liveness_failures: 0, lost_writes: 0, operations: 0, unknown_outcomes: 0, steps: 0,
      faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<string, number>, cluster_sizes: { 3: 0, 5: 0 } as Record<number, number>,
      recovery_us_max: 0, recovery_us_sum: 0, wall_s: 0,
      // where a seed's time goes: running the engines in virtual time vs Porcupine on the history
      run_s: 0, check_s: 0,
      // the seeds whose histories took Porcupine longest, slowest first: a slow chunk names its seed
      slowest_checks: [] as SlowCheck[],
    };
    const te = Date.now();
    const cpu0 = process.cpuUsage();
    for (let seed = args.from; seed < args.from + args.seeds; seed++) {
      const scenario = drawScenario(seed, options);
      const checkedBefore_s = tally.check_s;
      const r = tortureScenario(scenario, provide, check, false, tally);
      noteSlowCheck(tally.slowest_checks, { seed, check_s: tally.check_s - checkedBefore_s, operations: r.run.history.length, unknown_writes: r.verdict.unknown_writes });
      tally.seeds++;
      tally.operations += r.run.history.length;
      tally.unknown_outcomes += r.run.history.filter((o) => o.result === 'unknown').length;
      tally.steps += r.run.steps;
      tally.cluster_sizes[scenario.engines.length]!++;
      for (const f of scenario.faults) tally.faults[f.kind]!++;
      if (r.run.recovered_after_us !== null) {
        tally.recovery_us_max = Math.max(tally.recovery_us_max, r.run.recovered_after_us);
        tally.recovery_us_sum += r.run.recovered_after_us;
      }
      const knownHere = known[engine + (args.amnesia ? '+amnesia' : '') + (args.durability ? `+durability-${args.durability}` : '') + (args.checkQuorum ? '+check-quorum' : '') + (args.repair ? '+repair' : '') + (args.election ? '+election' : '') + (args.logBound ? '+log-bound' : '')] ?? [];
      if (!r.judgement.ok && r.judgement.safe && knownHere.includes(seed)) {
        tally.known_stalls.push(seed);
        out(`KNOWN seed ${seed} (--engine ${engine}): ${r.judgement.problems.join('; ')} (listed in ${args.known})`);
      } else if (r.judgement.ok && knownHere.includes(seed)) {
        out(`note: seed ${seed} (--engine ${engine}) is listed in ${args.known} but passes now`);
      }
      if (!r.judgement.ok && !(r.judgement.safe && knownHere.includes(seed))) {
        failed = true;
        if (!r.judgement.safe) tally.safety_failures++;
        if (!r.judgement.live) tally.liveness_failures++;
        tally.failures++;
        tally.failing_seeds.push(seed);
        tally.lost_writes += r.judgement.lost_writes;
        printFailure(out, engine, r);
        if (args.shrink) {
          const s = shrink(r, options, provide, check);
          const full = drawScenario(seed, options);
          out(`  shrunk in ${s.attempts} runs to ${s.keep_faults.length} of ${full.faults.length} fault(s), ${s.ops_per_client} op(s) per client, ${s.result.run.steps} core steps:`);
          for (const i of s.keep_faults) out(`    fault #${i} ${describeFault(full.faults[i]!)}`);
          for (const p of s.result.judgement.problems) out(`    ${p}`);
          out(`  replay: ${replayCommand(engine, seed, options, s.keep_faults, s.ops_per_client)}`);
          out(`  in the lab (npm start): ${labUrl(engine, seed, options, s.keep_faults, s.ops_per_client)}`);
        } else {
          out(`  replay: ${replayCommand(engine, seed, options)}`);
          out(`  in the lab (npm start): ${labUrl(engine, seed, options)}`);
        }
      }
      if ((seed - args.from + 1) % 50 === 0) process.stderr.write(`  ${engine}: ${seed - args.from + 1}/${args.seeds} seeds, ${tally.failures} failing\n`);
    }
    tally.wall_s = (Date.now() - te) / 1000;
    const cpu = process.cpuUsage(cpu0);
    // CPU seconds of this process: on a shared machine the figure that says what a seed costs
    const cpu_s = (cpu.user + cpu.system) / 1e6;
    const meanRec = tally.seeds ? tally.recovery_us_sum / tally.seeds : 0;
    out(`${engine}: ${tally.seeds} seeds (${args.from}..${args.from + args.seeds - 1}${modeLabel(args)}), ${tally.failures} failing (${tally.safety_failures} safety, ${tally.liveness_failures} liveness), ${tally.known_stalls.length} known stalls, ${tally.lost_writes} lost acknowledged writes; ` +
      `${tally.operations} operations (${tally.unknown_outcomes} unknown outcomes), ${tally.steps} core steps; ` +
      `served again after the faults within ${fmtMs(tally.recovery_us_max)} at most (mean ${fmtMs(meanRec)}); ${tally.wall_s.toFixed(1)} s ` +
      `(engines ${tally.run_s.toFixed(1)} s, Porcupine ${tally.check_s.toFixed(1)} s; ${cpu_s.toFixed(1)} CPU s, ${(tally.seeds / Math.max(cpu_s, 1e-3)).toFixed(2)} seeds per CPU s)` +
      (tally.slowest_checks[0] ? `; slowest in Porcupine: seed ${tally.slowest_checks[0].seed} (${tally.slowest_checks[0].check_s.toFixed(2)} s, ${tally.slowest_checks[0].operations} operations, ${tally.slowest_checks[0].unknown_writes} unknown writes)` : ''));
    const { recovery_us_sum, ...rest } = tally;
    report.push({ ...rest, cpu_s: Number(cpu_s.toFixed(2)), recovery_us_mean: Math.round(meanRec), amnesia: args.amnesia, durability: args.durability ?? 'crashes keep state', check_quorum: args.checkQuorum, repair_batch: args.repair, election_batch: args.election, log_bound: args.logBound, checkpoints: args.checkpoints, mitigation: args.mitigation ?? 'none', from: args.from });
  }
  if (args.report) writeFileSync(args.report, JSON.stringify({ command: `npm run torture -- ${argv.join(' ')}`, wall_s: (Date.now() - t0) / 1000, results: report }, null, 2) + '\n');
  return failed ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(err.message + '\n');
      process.exit(2);
    }
    process.stderr.write(`torture: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
