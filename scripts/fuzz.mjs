// npm run fuzz -- --engine go|cpp|rust|java|all (--inputs N | --seconds S) [--report FILE]
// Runs each engine's fuzz.sh (its language's standard fuzzer on the client-line parser, the
// peer-frame decoder and, where the server has one, the write-ahead log reader) and prints the
// figures per target: inputs, seconds, exec/s, coverage where the fuzzer reports it, crashes.
// --report writes them as JSON (data/reliability/fuzz-<engine>.json for the committed runs); each
// target carries the command, date, load and wall time of its own run, so a --target run updates
// its target in an existing report and keeps the others (the long runs go target by target).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGoFuzzLog, parseLibFuzzerLog } from './fuzz-logs.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENGINES = ['go', 'cpp', 'rust', 'java'];
const FUZZERS = { go: 'go test -fuzz', cpp: 'libFuzzer (clang-14, ASan + UBSan)', rust: 'libFuzzer via libfuzzer-sys, stable rustc, SanitizerCoverage (no ASan)', java: 'Jazzer 0.24.0 (Maven Central)' };
const USAGE = `usage: npm run fuzz -- --engine go|cpp|rust|java|all[,…] (--inputs N | --seconds S) [--target NAME] [--report FILE]
  --inputs N    run each target for N inputs (libFuzzer -runs=N, go test -fuzztime=Nx)
  --seconds S   run each target for S seconds instead
  --target NAME one target only (as the engine's fuzz.sh names it)
  --report FILE write the figures as JSON (one engine: that file; several: FILE gets -<engine> before .json);
                an existing report keeps its other targets
  --read-logs DIR  run nothing: read the logs a run left in DIR (one engine; for a run that was stopped)
Exit status: 0 no crash, 1 a target crashed or failed, 2 bad input.`;

function fail(msg) {
  process.stderr.write(msg + '\n');
  process.exit(2);
}

const args = process.argv.slice(2);
const opt = new Map();
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--help' || a === '-h') fail(USAGE);
  if (!a.startsWith('--') || args[i + 1] === undefined) fail(`bad argument "${a}"\n${USAGE}`);
  opt.set(a.slice(2), args[++i]);
}
for (const k of opt.keys()) if (!['engine', 'inputs', 'seconds', 'target', 'report', 'read-logs'].includes(k)) fail(`unknown option --${k}\n${USAGE}`);
const engines = (opt.get('engine') ?? 'all').split(',').flatMap((e) => (e === 'all' ? ENGINES : [e]));
for (const e of engines) if (!ENGINES.includes(e)) fail(`unknown engine "${e}"\n${USAGE}`);
if (opt.has('inputs') === opt.has('seconds')) fail(`give --inputs N or --seconds S\n${USAGE}`);
const [unit, value] = opt.has('inputs') ? ['inputs', opt.get('inputs')] : ['seconds', opt.get('seconds')];
if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1e10) fail(`--${unit} needs a positive integer: ${value}`);
const fromStart = (p) => resolve(process.env.INIT_CWD ?? process.cwd(), p);

let failed = false;
for (const engine of engines) {
  const readOnly = opt.has('read-logs');
  const logs = readOnly ? fromStart(opt.get('read-logs')) : mkdtempSync(join(tmpdir(), `fuzz-${engine}-`));
  const load_before = loadavg()[0];
  const t0 = Date.now();
  const cmd = ['bash', join(ROOT, 'engines', `${engine}-wasm`, 'fuzz.sh'), `--${unit}`, value, '--logs', logs];
  if (opt.has('target')) cmd.push('--target', opt.get('target'));
  process.stderr.write(`==> fuzz ${engine}: ${value} ${unit} per target\n`);
  const run = readOnly ? { status: null, signal: 'stopped before the end' } : spawnSync(cmd[0], cmd.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] });
  const wall_s = (Date.now() - t0) / 1000;
  const targets = readdirSync(logs).filter((f) => f.endsWith('.log')).sort().map((f) => {
    const text = readFileSync(join(logs, f), 'utf8');
    const figures = engine === 'go' ? parseGoFuzzLog(text) : parseLibFuzzerLog(text);
    return { target: f.replace(/\.log$/, ''), ...figures };
  });
  if ((!readOnly && run.status !== 0) || targets.some((t) => t.crashes > 0) || targets.length === 0) failed = true;
  for (const t of targets) {
    const cov = t.coverage === null ? '' : `, coverage ${t.coverage} edges (${t.features} features)`;
    console.log(`${engine} ${t.target}: ${t.inputs.toLocaleString('en')} inputs in ${t.seconds ?? '?'} s (${t.exec_per_s ?? '?'} exec/s)${cov}, corpus ${t.corpus ?? '?'}, ${t.crashes} crash(es)`);
    for (const l of t.crash_lines.slice(0, 5)) console.log(`  ${l}`);
  }
  if (!readOnly && run.status !== 0 && targets.every((t) => t.crashes === 0)) console.log(`${engine}: fuzz.sh exited ${run.status ?? run.signal} (see above)`);
  if (opt.has('report')) {
    let file = fromStart(opt.get('report'));
    if (engines.length > 1) file = file.replace(/(\.json)?$/, `-${engine}.json`);
    const run_of = (t) => ({
      command: `npm run fuzz -- --engine ${engine} --${unit} ${value}${opt.has('target') || readOnly ? ` --target ${t.target}` : ''}` +
        (readOnly ? ' (figures read from the fuzzer\'s log with --read-logs)' : ''), date: readOnly ? null : new Date(t0).toISOString(), wall_s: readOnly ? null : wall_s, load_average_at_start: readOnly ? null : load_before,
      ...(readOnly ? { log_written: statSync(join(logs, `${t.target}.log`)).mtime.toISOString() } : {}),
      exit_status: run.status,
      // a stopped run (read from its logs) that got short of an --inputs budget
      stopped_early: unit === 'inputs' ? t.inputs < Number(value) : readOnly,
    });
    const fresh = targets.map(({ crash_lines, ...t }) => ({ ...t, crash_lines: crash_lines.slice(0, 10), ...run_of(t) }));
    let kept = [];
    if (existsSync(file)) {
      const old = JSON.parse(readFileSync(file, 'utf8'));
      // reports from before per-target runs carry their run's fields once, at the top
      const top = { command: old.command, date: old.date, wall_s: old.wall_s, load_average_at_start: old.load_average_at_start, exit_status: old.exit_status };
      const budget = Number(/--inputs (\d+)/.exec(old.command ?? '')?.[1] ?? NaN);
      kept = (old.targets ?? []).filter((t) => !fresh.some((f) => f.target === t.target))
        .map((t) => ('command' in t ? t : { ...t, ...top, stopped_early: old.stopped_early === true && !(t.inputs >= budget) }));
    }
    const all = [...kept, ...fresh].sort((a, b) => a.target.localeCompare(b.target));
    const report = { engine, fuzzer: FUZZERS[engine], targets: all };
    writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
    process.stderr.write(`wrote ${file}\n`);
  }
}
process.exit(failed ? 1 : 0);
