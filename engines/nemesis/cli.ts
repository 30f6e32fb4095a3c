// npm run nemesis -- --engine go|cpp|rust|java|all [--runs N] [--duration-s S] [--faults kill,pause[,restart][,partition][,cut]]
//                    [--durability log|none] [--script durable]
//                    [--scenario restart-promise]
// Real 3-node clusters on loopback (in network namespaces with partition or cut) under kill -9,
// SIGSTOP/SIGCONT, partitions and one-way cuts, every history checked by
// Porcupine. "all": the four engines alone, then two mixed clusters.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { formatHistory } from '@replicant/checker/lincheck';
import { checkNative, loadChecker } from '@replicant/checker/node';
import { ENGINE_NAMES, type EngineName } from '../loader/engine.ts';
import { DURABLE_SCRIPT, NETWORK_FAULTS, runNemesis, type NemesisFault } from './nemesis.ts';
import { netnsUnavailable } from './netns.ts';
import { runRestartPromise } from './restart-promise.ts';

const USAGE = `usage: npm run nemesis -- [options]
  --engine E[,E…]   go | cpp | rust | java | all (each alone, then go,cpp,rust and cpp,rust,java) | a mix a+b+c
  --runs N          runs per cluster (default 1)
  --duration-s S    length of each run (default 6; the last --tail-s are fault-free)
  --tail-s S        fault-free end (default 2)
  --faults LIST     kill, pause, restart, partition, cut (default kill,pause; restart brings a
                    killed server back: in durability none EMPTY, and is expected to lose writes;
                    in log from its disk; partition cuts a node off both ways, cut loses one
                    node's packets to another, each for 0.2-1.2 s: every node then runs in a
                    network namespace of its own, removed at the end, on Ctrl-C and SIGTERM;
                    needs root and iproute2)
  --durability D    none (default: the paper's design) or log (a write-ahead log per node)
  --script durable  instead of random faults: kill -9 a follower, restart it; kill -9 the leader,
                    restart it; kill -9 a follower, wipe its disk, restart it (state transfer);
                    kill -9 all three at once and restart them;
                    every step waits on the cluster's state (the test cluster/durable.test.ts)
  --scenario restart-promise
                    instead: a candidate with a short log campaigns while a durable node restarts,
                    its prepare reaching that node the moment its peer port accepts (durability log;
                    engines/nemesis/restart-promise.ts); the servers of REPLICANT_SERVER_<ENGINE>
  --clients N       concurrent clients (default 3)
  --seed S          first run's seed (default 1): the schedule's shape, not its timing
  --out DIR         write each run's history (checker/ format), the servers' logs and Porcupine's HTML for failures
  --report FILE     JSON summary
Exit status: 0 every run safe and live, 1 a run failed, 2 bad input.`;

function fail(msg: string): never {
  process.stderr.write(msg + '\n');
  process.exit(2);
}

const argv = process.argv.slice(2);
const opt = new Map<string, string>();
for (let i = 0; i < argv.length; i++) {
  const a = argv[i]!;
  if (a === '--help' || a === '-h') fail(USAGE);
  if (!a.startsWith('--') || argv[i + 1] === undefined) fail(`bad argument "${a}"\n${USAGE}`);
  opt.set(a.slice(2), argv[++i]!);
}
const known = ['engine', 'runs', 'duration-s', 'tail-s', 'faults', 'clients', 'seed', 'out', 'report', 'durability', 'script', 'scenario'];
for (const k of opt.keys()) if (!known.includes(k)) fail(`unknown option --${k}\n${USAGE}`);
const num = (name: string, dflt: number, min: number, max: number) => {
  const v = opt.get(name);
  if (v === undefined) return dflt;
  const x = Number(v);
  if (!Number.isFinite(x) || x < min || x > max) fail(`--${name} must be a number in [${min}, ${max}]: ${v}`);
  return x;
};
const clusters: EngineName[][] = [];
for (const e of (opt.get('engine') ?? 'all').split(',')) {
  if (e === 'all') {
    for (const name of ENGINE_NAMES) clusters.push([name, name, name]);
    clusters.push(['go', 'cpp', 'rust'], ['cpp', 'rust', 'java']);
  } else if (e.includes('+')) {
    const mix = e.split('+');
    if (mix.length !== 3 || !mix.every((m) => (ENGINE_NAMES as readonly string[]).includes(m))) fail(`a mix names three engines: ${e}`);
    clusters.push(mix as EngineName[]);
  } else if ((ENGINE_NAMES as readonly string[]).includes(e)) clusters.push([e, e, e] as EngineName[]);
  else fail(`unknown engine "${e}"\n${USAGE}`);
}
const faults = (opt.get('faults') ?? 'kill,pause').split(',') as NemesisFault[];
for (const f of faults) if (!['kill', 'pause', 'restart', ...NETWORK_FAULTS].includes(f)) fail(`unknown fault "${f}" (kill, pause, restart, ${NETWORK_FAULTS.join(', ')})`);
const noNetns = faults.some((f) => NETWORK_FAULTS.includes(f)) ? netnsUnavailable() : null;
if (noNetns) fail(`--faults ${faults.join(',')}: ${noNetns}`);
if (faults.includes('restart') && !faults.includes('kill')) fail('restart needs kill');
const runs = Math.floor(num('runs', 1, 1, 100_000));
const durability = opt.get('durability') ?? 'none';
if (durability !== 'none' && durability !== 'log') fail(`--durability must be none or log, not "${durability}"`);
const scriptName = opt.get('script');
if (scriptName !== undefined && scriptName !== 'durable') fail(`--script must be durable, not "${scriptName}"`);
const script = scriptName ? DURABLE_SCRIPT : undefined;
const duration = num('duration-s', 6, 1, 3600) * 1000;
const tail = num('tail-s', 2, 0.5, 600) * 1000;
if (tail >= duration) fail('--tail-s must be shorter than --duration-s');
const clients = Math.floor(num('clients', 3, 1, 64));
let seed = Math.floor(num('seed', 1, 0, 2 ** 31));
// paths from where npm was started (npm runs this in the engines workspace)
const fromStart = (p: string) => resolve(process.env.INIT_CWD ?? process.cwd(), p);
const outDir = opt.has('out') ? fromStart(opt.get('out')!) : undefined;
if (outDir) mkdirSync(outDir, { recursive: true });

const checker = await loadChecker();
const scenario = opt.get('scenario');
if (scenario !== undefined && scenario !== 'restart-promise') fail(`--scenario must be restart-promise, not "${scenario}"`);
if (scenario) {
  const results: Record<string, unknown>[] = [];
  let violations = 0;
  const started = Date.now();
  for (const engines of clusters) {
    for (let r = 0; r < runs; r++) {
      const tag = `restart-promise-${engines.join('-')}-${r + 1}`;
      const logDir = outDir ? join(outDir, `${tag}-logs`) : undefined;
      if (logDir) mkdirSync(logDir, { recursive: true });
      const res = await runRestartPromise({
        engines, clients, keys: ['k0', 'k1', 'k2'], acks_between: 60, wait_timeout_ms: 120_000, log_dir: logDir,
        check: (h) => checkNative(h, 120), log: (l) => process.stderr.write(l + '\n'),
      });
      if (res.verdict.verdict === 'violation') violations++;
      process.stdout.write(`${engines.join(',')} run ${r + 1}: Porcupine ${res.verdict.verdict}; ${res.acknowledged} acknowledged, ${res.unknown} unknown; ` +
        `${res.acknowledged_after} acknowledged after the restart; released ${res.released_ms ?? 'never'} ms after the spawn` +
        `${res.problems.length ? '; ' + res.problems.join('; ') : ''}\n`);
      if (outDir) writeFileSync(join(outDir, `${tag}.jsonl`), formatHistory(res.history));
      const { history, ...rest } = res;
      results.push({ ...rest, operations: history.length, started_utc: new Date().toISOString() });
    }
  }
  process.stdout.write(`${results.length} runs, ${violations} not linearizable, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  if (opt.get('report')) writeFileSync(fromStart(opt.get('report')!), JSON.stringify({ command: `npm run nemesis -- ${argv.join(' ')}`, scenario, load_average_1m_end: loadavg()[0], servers: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('REPLICANT_SERVER_'))), runs: results }, null, 2) + '\n');
  process.exit(violations ? 1 : 0);
}
const summary: Record<string, unknown>[] = [];
let failed = 0;
const t0 = Date.now();
for (const engines of clusters) {
  for (let r = 0; r < runs; r++, seed++) {
    const logDir = outDir ? join(outDir, `nemesis-${engines.join('-')}-${seed}-logs`) : undefined;
    if (logDir) mkdirSync(logDir, { recursive: true });
    const res = await runNemesis({
      engines, seed, log_dir: logDir, duration_ms: duration, tail_ms: tail, clients, keys: ['k0', 'k1', 'k2'], faults,
      commit_interval_ms: 50, request_timeout_ms: 1000,
      durability: durability as 'none' | 'log', script, acks_between: 30, wait_timeout_ms: 40_000,
      // long native histories: the native checker, on every core, with a time limit
      check: (h) => checkNative(h, 120),
      log: (l) => process.stderr.write(l + '\n'),
    });
    const kills = res.faults.filter((f) => f.kind === 'kill');
    const leaderKills = kills.filter((f) => f.was_leader);
    const line = `${engines.join(',')} seed ${seed}: ${res.problems.length ? 'FAIL' : 'ok'}; serving ${res.startup_ms} ms after the start${res.all_up_ms > res.startup_ms + 50 ? `, every node up after ${res.all_up_ms} ms` : ''}; ${res.acknowledged} acknowledged, ${res.unknown} unknown; ` +
      `Porcupine ${res.verdict.verdict}; ${res.lost_writes.length} lost writes; faults ${res.faults.map((f) => f.kind + (f.was_leader ? '(leader)' : '')).join(' ') || 'none'}; ` +
      `served again after leader kills in ${leaderKills.map((f) => (f.served_again_ms === null ? 'never' : f.served_again_ms + ' ms')).join(', ') || '–'}; ` +
      `after the last fault in ${res.served_after_faults_ms ?? 'never'} ms; ` +
      (res.faults.some((f) => f.ready_ms !== undefined) ? `restarted nodes up after ${res.faults.filter((f) => f.ready_ms !== undefined).map((f) => (f.ready_ms === null ? 'never' : f.ready_ms + ' ms')).join(', ')}; ` : '') +
      `leader kills (first ack ms, ops/s before → 3–4 s after, leader engines, verdict against the same engine's rate): ${res.leader_kills.map((k) => `${k.first_ack_ms ?? 'never'}, ${k.pre_rate_per_s.toFixed(0)} → ${k.post_rate_per_s === null ? 'ended' : k.post_rate_per_s.toFixed(0)}, ${k.killed_engine} → ${k.new_leader_engine ?? '?'}, ${k.rate_ok === null ? `not judged: ${k.rate_not_judged}` : `${k.rate_ok ? 'back' : 'MISSED'} (${k.baseline_per_s!.toFixed(0)} ops/s, ${k.baseline})`}`).join('; ') || '–'}` + (res.unclean_exits.length ? `; SIGTERM: ${res.unclean_exits.join(', ')}` : '');
    process.stdout.write(line + '\n');
    for (const p of res.problems) process.stdout.write(`  ${p}\n`);
    for (const p of res.recovery_misses) process.stdout.write(`  ${p}\n`);
    if (res.problems.length) failed++;
    if (outDir) {
      const base = join(outDir, `nemesis-${engines.join('-')}-${seed}`);
      writeFileSync(base + '.jsonl', formatHistory(res.history));
      // Porcupine's page for a decided violation of a small history only: building it repeats the
      // search in the single-threaded wasm build, without a time limit
      if (res.verdict.verdict === 'violation' && res.history.length <= 2_000) writeFileSync(base + '.html', checker.check(res.history, { html: true }).html ?? '');
    }
    const { history, ...rest } = res;
    summary.push({ ...rest, operations: history.length });
  }
}
process.stdout.write(`${summary.length} runs, ${failed} failing, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
// restart_readiness: the schedule waits for a restarted node to come up before the next fault
// (reports without it are from before that rule; scripts/long-runs-report.mjs sums them apart);
// start_readiness: the run starts once every node has written a status line (all_up_ms)
if (opt.get('report')) writeFileSync(fromStart(opt.get('report')!), JSON.stringify({ command: `npm run nemesis -- ${argv.join(' ')}`, restart_readiness: true, start_readiness: true, runs: summary }, null, 2) + '\n');
process.exit(failed ? 1 : 0);
