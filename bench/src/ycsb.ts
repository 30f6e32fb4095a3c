// Runs YCSB (site.ycsb.Client from Maven Central, with our bindings from bench/ycsb) and reads
// what it prints. Building the command line and parsing the output are pure functions.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const YCSB_DIR = join(BENCH_DIR, 'ycsb');
export const YCSB_CLASSPATH = `${join(YCSB_DIR, 'target/lib')}/*:${join(YCSB_DIR, 'target/replicant-ycsb.jar')}`;

export type Phase = 'load' | 'run';

export interface YcsbSpec {
  phase: Phase;
  /** Binding class (lab.replicant.ycsb.ReplicantClient or lab.replicant.ycsb.EtcdClient). */
  db: string;
  workloadFile: string;
  records: number;
  threads: number;
  /** Open-loop rate, ops/s; none: as fast as the threads go (closed loop). */
  target_ops_per_s?: number;
  /** Run phase: seconds until YCSB stops (warm-up + measured window). */
  max_execution_s?: number;
  /** Folder for the HdrHistogram interval logs (run phase). */
  hdrDir?: string;
  /** Binding properties (replicant.hosts, etcd.endpoints, …). */
  properties: Record<string, string>;
  /** JVM options for the load generator itself. */
  jvmOptions?: string[];
}

/** The java command line for one YCSB invocation. */
export function ycsbArgv(spec: YcsbSpec): string[] {
  const props: Record<string, string> = {
    recordcount: String(spec.records),
    // Always both: the intended latency is what the SLO is judged on (§4.5); the uncorrected
    // numbers are kept to show the difference.
    measurementtype: 'hdrhistogram',
    'measurement.interval': 'both',
    'hdrhistogram.percentiles': '50,95,99,99.9',
    'status.interval': '1',
    ...spec.properties,
  };
  if (spec.phase === 'run') {
    if (!spec.max_execution_s || !spec.hdrDir) throw new Error('a run phase needs max_execution_s and hdrDir');
    const rate = spec.target_ops_per_s ?? 1_000_000;
    // Enough operations never to finish early; maxexecutiontime ends the run.
    props.operationcount = String(Math.ceil(rate * spec.max_execution_s * 2) + 1000);
    props.maxexecutiontime = String(spec.max_execution_s);
    props['hdrhistogram.fileoutput'] = 'true';
    props['hdrhistogram.output.path'] = spec.hdrDir.endsWith('/') ? spec.hdrDir : spec.hdrDir + '/';
  } else {
    props.operationcount = String(spec.records);
  }
  const argv = ['java', ...(spec.jvmOptions ?? []), '-cp', YCSB_CLASSPATH, 'site.ycsb.Client', spec.phase === 'load' ? '-load' : '-t'];
  argv.push('-db', spec.db, '-P', spec.workloadFile, '-threads', String(spec.threads), '-s');
  if (spec.target_ops_per_s !== undefined) argv.push('-target', String(Math.round(spec.target_ops_per_s)));
  for (const [k, v] of Object.entries(props).sort(([a], [b]) => a.localeCompare(b))) argv.push('-p', `${k}=${v}`);
  return argv;
}

/** `[SECTION], Metric, value` lines of YCSB's summary, by section then metric. */
export type YcsbSummary = Record<string, Record<string, number>>;

export function parseYcsbSummary(stdout: string): YcsbSummary {
  const out: YcsbSummary = {};
  for (const line of stdout.split('\n')) {
    const m = /^\[([^\]]+)\], ([^,]+), (-?[\d.]+(?:E-?\d+)?)$/.exec(line.trim());
    if (!m) continue;
    (out[m[1]!] ??= {})[m[2]!] = Number(m[3]);
  }
  return out;
}

/** Failed operations per measurement: YCSB reports them as [READ-FAILED] etc. and as Return= lines. */
export function failedOperations(summary: YcsbSummary, op: string): number {
  let failed = summary[`${op}-FAILED`]?.Operations ?? 0;
  if (failed === 0) {
    for (const [metric, v] of Object.entries(summary[op] ?? {})) {
      if (metric.startsWith('Return=') && metric !== 'Return=OK' && metric !== 'Return=NOT_FOUND') failed += v;
    }
  }
  return failed;
}

/** The binding's counters line (ReplicantClient prints it at clean-up). */
export function parseBindingCounters(stderr: string): { redirects: number; retries: number; reconnects: number } | null {
  const m = /\[replicant-binding\] redirects=(\d+) retries=(\d+) reconnects=(\d+)/.exec(stderr);
  return m ? { redirects: Number(m[1]), retries: Number(m[2]), reconnects: Number(m[3]) } : null;
}

export function checkYcsbBuilt(): void {
  if (!existsSync(join(YCSB_DIR, 'target/replicant-ycsb.jar'))) {
    throw new Error('bench/ycsb is not built: run `mvn -q -B -f bench/ycsb/pom.xml package -DskipTests` (npm run build does it)');
  }
}

export interface YcsbRun {
  code: number | null;
  stdout: string;
  stderr: string;
  summary: YcsbSummary;
}

/** Runs YCSB to the end (or kills it after `timeout_s`); output also goes to logPath. */
export function runYcsb(argv: string[], logPath: string, timeout_s: number, onChild?: (pid: number) => void): Promise<YcsbRun> {
  mkdirSync(dirname(logPath), { recursive: true });
  const log = createWriteStream(logPath);
  log.write(`$ ${argv.join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid) onChild?.(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => ((stdout += d), log.write(d)));
    child.stderr.on('data', (d: Buffer) => {
      // Keep the tail of stderr only: YCSB's status lines run long.
      stderr = (stderr + d.toString()).slice(-200_000);
      log.write(d);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout_s * 1000);
    child.on('error', (e) => (clearTimeout(timer), log.end(), reject(e)));
    child.on('close', (code) => {
      clearTimeout(timer);
      log.end();
      resolve({ code, stdout, stderr, summary: parseYcsbSummary(stdout) });
    });
  });
}
