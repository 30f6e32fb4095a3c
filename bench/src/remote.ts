// `npm run bench -- --hosts inventory.yml …`: the paper's set-up on separate hosts (three
// servers, one client), driven through Ansible (bench/ansible). The controller — this process —
// keeps the plan and the bisection; every cluster start, YCSB run and stop is a playbook run
// against the inventory, and what the hosts produced (HdrHistogram logs, YCSB output, node and
// GC logs, OOM kills, memory peaks) is fetched back and read exactly as a local run reads it.
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { searchMaxRate } from './bisect.ts';
import { latencyStats, longestIntervalSeconds, mergeWindow, readLogs, windowSeconds } from './hdr.ts';
import type { DisturbedAttempt, NodeReport, ProbeDetail, SettingResult } from './measure.ts';
import type { BenchOptions, Setting } from './plan.ts';
import { memoryPlan, type SystemName } from './systems.ts';
import { BENCH_DIR, failedOperations, parseBindingCounters, parseYcsbSummary, ycsbArgv } from './ycsb.ts';

export const ANSIBLE_DIR = join(BENCH_DIR, 'ansible');
const PLAYBOOK = join(ANSIBLE_DIR, '.venv/bin/ansible-playbook');
const INVENTORY_CMD = join(ANSIBLE_DIR, '.venv/bin/ansible-inventory');
const PEER_PORT = 7100;
const CLIENT_PORT = 7200;

/** The servers' and the client's addresses, as Ansible reads the inventory. */
export interface Hosts {
  inventory: string;
  servers: { name: string; address: string }[];
  client: { name: string; address: string };
}

/** Reads `ansible-inventory --list` output: the servers group (3 hosts) and one client host. */
export function hostsFromInventoryList(inventory: string, listJson: string): Hosts {
  const list = JSON.parse(listJson) as { _meta?: { hostvars?: Record<string, { ansible_host?: string }> } } & Record<string, { hosts?: string[] }>;
  const vars = list._meta?.hostvars ?? {};
  const address = (h: string) => vars[h]?.ansible_host ?? h;
  const servers = list.servers?.hosts ?? [];
  const clients = list.client?.hosts ?? [];
  if (servers.length < 3) throw new Error(`${inventory}: the "servers" group needs at least 3 hosts, has ${servers.length}`);
  if (clients.length !== 1) throw new Error(`${inventory}: the "client" group needs exactly 1 host, has ${clients.length}`);
  return { inventory, servers: servers.map((name) => ({ name, address: address(name) })), client: { name: clients[0]!, address: address(clients[0]!) } };
}

export function checkAnsible(): void {
  if (!existsSync(PLAYBOOK)) throw new Error('ansible-core is not installed: run `bash scripts/setup.sh` (it installs ansible-core into bench/ansible/.venv)');
}

export function readHosts(inventory: string): Hosts {
  checkAnsible();
  const text = execFileSync(INVENTORY_CMD, ['-i', inventory, '--list'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return hostsFromInventoryList(inventory, text);
}

/**
 * Runs one playbook with its variables; resolves when it succeeded, rejects with the log's tail
 * otherwise. The variables go to a file of their own outside the output folder, removed when the
 * playbook ends: only the log stays beside the results (a .json there would be read as a results
 * file by data/validate.mjs when the output is under data/). The log's first line names them.
 */
export function playbook(hosts: Hosts, name: string, vars: Record<string, unknown>, logPath: string): Promise<void> {
  const varsDir = mkdtempSync(join(tmpdir(), 'replicant-playbook-vars-'));
  const varsPath = join(varsDir, 'vars.json');
  writeFileSync(varsPath, JSON.stringify(vars, null, 2));
  const log = createWriteStream(logPath);
  log.write(`# ansible-playbook ${name} -e ${JSON.stringify(vars)}\n`);
  const removeVars = () => rmSync(varsDir, { recursive: true, force: true });
  return new Promise<void>((ok, fail) => {
    const child = spawn(PLAYBOOK, ['-i', hosts.inventory, join(ANSIBLE_DIR, name), '-e', `@${varsPath}`], {
      cwd: ANSIBLE_DIR,
      // Pipelining: one SSH round trip per task instead of several (modules are piped, not copied).
      env: { ...process.env, ANSIBLE_NOCOLOR: '1', ANSIBLE_HOST_KEY_CHECKING: 'False', ANSIBLE_FORKS: '8', ANSIBLE_RETRY_FILES_ENABLED: 'False', ANSIBLE_PIPELINING: 'True' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    const keep = (d: Buffer) => {
      log.write(d);
      tail = (tail + d.toString()).slice(-3000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (e) => (log.end(), fail(e)));
    child.on('close', (code) => {
      log.end();
      if (code === 0) ok();
      else fail(new Error(`ansible-playbook ${name} exited with ${code} (log ${logPath}):\n${tail}`));
    });
  }).finally(removeVars);
}

/** The argv after YCSB's classpath, with the client host's paths as placeholders the playbook fills in. */
function remoteYcsbArgs(argv: string[]): string[] {
  return argv.slice(argv.indexOf('site.ycsb.Client'));
}

function serverFiles(system: SystemName): string[] {
  const dist = join(BENCH_DIR, '..', 'engines', `${system}-wasm`, 'dist');
  const files = system === 'java' ? ['replicant-server', 'replicant-java.jar'] : ['replicant-server'];
  for (const f of files) if (!existsSync(join(dist, f))) throw new Error(`${join(dist, f)} is missing: run npm run build`);
  return files.map((f) => join(dist, f));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One setting on the hosts: deploy (once per engine), start with limits, load, saturation probe,
 * bisection, stop and collect. Interference on remote hosts is not measured (their /proc is not
 * read), which the rows say.
 */
export async function measureRemoteSetting(hosts: Hosts, s: Setting, o: BenchOptions, dir: string, progress: (m: string) => void, deployed: Set<string>): Promise<SettingResult> {
  if (s.system === 'etcd') throw new Error('etcd on separate hosts is not supported yet');
  mkdirSync(dir, { recursive: true });
  const errors: string[] = [];
  const result: SettingResult = {
    setting: s, started_at: new Date().toISOString(), memory_how: '', load: { seconds: 0, ops_per_s: 0, ok: false }, saturation_ops_per_s: 0,
    search: { best: null, ceiling_reached: false, stopped_by: null }, best: null, floor: null, stopped_by: null, probes: [], nodes: [],
    loadgen_cores: null, leader_changes: [], restarts: 0, slo_ms: o.slo_ms, errors,
  };
  const common = { engine: s.system, setting_id: s.id };
  if (!deployed.has(s.system)) {
    progress(`deploying the ${s.system} server and YCSB to ${hosts.servers.length + 1} hosts`);
    // YCSB's ~40 jars as one archive: one transfer instead of one per file. It is rebuilt from
    // bench/ycsb, so it goes to a scratch folder, not beside the results.
    const archiveDir = mkdtempSync(join(tmpdir(), 'replicant-ycsb-archive-'));
    try {
      const archive = join(archiveDir, 'ycsb.tar.gz');
      execFileSync('tar', ['czf', archive, '-C', join(BENCH_DIR, 'ycsb'), 'target/lib', 'target/replicant-ycsb.jar', 'workloads']);
      await playbook(hosts, 'deploy.yml', { engine: s.system, server_files: serverFiles(s.system), ycsb_archive: archive }, join(dir, 'deploy.log'));
    } finally {
      rmSync(archiveDir, { recursive: true, force: true });
    }
    deployed.add(s.system);
  }
  const limit = s.memory_bytes > 0 ? s.memory_bytes : undefined;
  // The node's GC log goes to its own folder on its host (relative to the node's working directory).
  const plan = memoryPlan(s.system, limit, 'gc.log');
  result.memory_how = plan.how;
  const properties = { 'replicant.hosts': hosts.servers.map((h) => `${h.address}:${CLIENT_PORT}`).join(',') };
  const workload = `@YCSB_DIR@/workloads/${s.workload === 'b' ? 'workloadb' : 'workloada'}`;
  let index = 0;
  const ycsb = async (name: string, args: string[], timeout_s: number) => {
    const fetchDir = join(dir, name);
    mkdirSync(fetchDir, { recursive: true });
    await playbook(hosts, 'ycsb.yml', { ycsb_args: args, run_name: `${s.id}-${name}`, fetch_dir: fetchDir, timeout_s }, join(dir, `${name}.ansible.log`));
    const read = (f: string) => (existsSync(join(fetchDir, f)) ? readFileSync(join(fetchDir, f), 'utf8') : '');
    return { fetchDir, stdout: read('ycsb.out'), stderr: read('ycsb.err'), code: Number(read('ycsb.exit').trim() || 'NaN') };
  };
  const probe = async (kind: ProbeDetail['kind'], target: number | undefined): Promise<ProbeDetail> => {
    const name = `probe-${String(index++).padStart(2, '0')}`;
    const argv = ycsbArgv({
      phase: 'run', db: 'lab.replicant.ycsb.ReplicantClient', workloadFile: workload, records: s.records, threads: o.threads,
      ...(target !== undefined ? { target_ops_per_s: target } : {}), max_execution_s: o.warmup_s + o.duration_s, hdrDir: '@RUN_DIR@', properties,
    });
    const started = Date.now() / 1000;
    const run = await ycsb(name, remoteYcsbArgs(argv), o.warmup_s + o.duration_s + 120);
    const summary = parseYcsbSummary(run.stdout);
    const ops = ['READ', 'UPDATE', 'INSERT', 'READ-MODIFY-WRITE'];
    const intendedLogs = readLogs(run.fetchDir, ops.map((op) => `Intended-${op}`));
    const failed = ops.reduce((n, op) => n + failedOperations(summary, op), 0);
    const failedInWindow = Math.round((failed * o.duration_s) / (o.warmup_s + o.duration_s));
    const intended = latencyStats(mergeWindow(intendedLogs, o.warmup_s), failedInWindow);
    const uncorrected = latencyStats(mergeWindow(readLogs(run.fetchDir, ops), o.warmup_s), failedInWindow);
    const perOp = (op: string) => {
      const h = mergeWindow(readLogs(run.fetchDir, [`Intended-${op}`]), o.warmup_s);
      return h.totalCount ? h.getValueAtPercentile(99) : 0;
    };
    const window_s = windowSeconds(intendedLogs, o.warmup_s) || o.duration_s;
    const achieved = (intended.count + failedInWindow) / window_s;
    const p99_ms = Number.isFinite(intended.p99_us) ? intended.p99_us / 1000 : null;
    const reasons: string[] = [];
    if (run.code !== 0) reasons.push(`YCSB exited with ${run.code}`);
    if (p99_ms === null) reasons.push(intended.count === 0 ? 'no operation completed' : 'more than 1 % of operations failed');
    const met = kind === 'search' && reasons.length === 0 && p99_ms !== null && p99_ms <= o.slo_ms;
    if (target !== undefined && achieved < 0.9 * target) reasons.push(`delivered ${Math.round(achieved)} of ${target} ops/s`);
    progress(`${name}: target ${target ?? 'closed loop'} → p99 ${p99_ms === null ? '∞' : p99_ms.toFixed(1)} ms, ${Math.round(achieved)} ops/s${met ? ' MET' : ''}`);
    const discarded: DisturbedAttempt[] = [];
    // As locally: operations completed but the interval log stalled, so the window is empty.
    const completed = ops.reduce((n, op) => n + (summary[op]?.['Return=OK'] ?? 0), 0);
    const longest = longestIntervalSeconds(intendedLogs);
    const stalled = intended.count === 0 && completed > 0 && longest > 2;
    const disturbed_reasons = stalled ? [`YCSB completed ${completed} operations but its 1-second interval log stalled (one interval of ${longest.toFixed(1)} s), leaving nothing in the measured window`] : [];
    return {
      kind, background_cores: 0, quiet_waited_s: 0, target_ops_per_s: target ?? Math.round(achieved), p99_ms, achieved_ops_per_s: Math.round(achieved), met,
      ...(reasons.length ? { reason: reasons.join('; ') } : {}), disturbed: stalled, interference_before: null, interference: null, disturbed_reasons, discarded,
      started_at_s: started, window_s, intended, uncorrected, read_p99_intended_us: perOp('READ'), update_p99_intended_us: perOp('UPDATE'), usage: null, leader: null,
      binding: parseBindingCounters(run.stderr), ycsb_exit: run.code, ycsb_overall_ops_per_s: Math.round(summary.OVERALL?.['Throughput(ops/sec)'] ?? 0), hdr_dir: run.fetchDir,
    };
  };
  try {
    progress('starting the cluster on the server hosts');
    await playbook(hosts, 'start.yml', {
      ...common, peer_port: PEER_PORT, client_port: CLIENT_PORT, commit_interval_ms: 150, limit_bytes: plan.cgroup_limit_bytes ?? 0,
      cpu_quota_cores: s.cpu_quota_cores ?? 0, node_env: Object.entries(plan.env).map(([k, v]) => `${k}=${v}`),
    }, join(dir, 'start.log'));
    progress(`loading ${s.records} records from the client host`);
    const t0 = Date.now();
    for (let attempt = 1; attempt <= 2 && !result.load.ok; attempt++) {
      if (attempt > 1) await sleep(1000);
      const load = await ycsb(`load-${attempt}`, remoteYcsbArgs(ycsbArgv({ phase: 'load', db: 'lab.replicant.ycsb.ReplicantClient', workloadFile: workload, records: s.records, threads: o.threads, properties })), 60 + s.records / 200);
      const summary = parseYcsbSummary(load.stdout);
      result.load = { seconds: (Date.now() - t0) / 1000, ops_per_s: summary.OVERALL?.['Throughput(ops/sec)'] ?? 0, ok: load.code === 0 && (summary.INSERT?.['Return=OK'] ?? 0) === s.records };
    }
    if (!result.load.ok) errors.push('load phase did not insert every record');
    const sat = await probe('saturation', undefined);
    result.probes.push(sat);
    // A stalled interval log leaves the window empty; YCSB's whole-run figure is then the top.
    result.saturation_ops_per_s = sat.achieved_ops_per_s || sat.ycsb_overall_ops_per_s;
    if (!sat.achieved_ops_per_s) errors.push(`saturation from YCSB's whole-run throughput (${sat.ycsb_overall_ops_per_s} ops/s): ${sat.disturbed_reasons.join('; ') || 'nothing in the measured window'}`);
    const max = o.max_rate || Math.max(o.min_rate * 2, Math.ceil(result.saturation_ops_per_s * 1.1));
    const search = await searchMaxRate(async (rate) => {
      const p = await probe('search', rate);
      result.probes.push(p);
      return p;
    }, { min_ops_per_s: o.min_rate, max_ops_per_s: max, tolerance: o.tolerance, max_probes: o.max_probes });
    result.search = { best: search.best, ceiling_reached: search.ceiling_reached, stopped_by: null };
    const searchProbes = result.probes.filter((p) => p.kind === 'search');
    result.best = search.best ? searchProbes.find((p) => p === search.best) ?? null : null;
    result.floor = search.best ? null : searchProbes.find((p) => p.target_ops_per_s === o.min_rate) ?? null;
  } catch (err) {
    errors.push(String(err instanceof Error ? err.message : err));
  } finally {
    progress('stopping the cluster and collecting its logs');
    const collect = join(dir, 'nodes');
    await playbook(hosts, 'stop.yml', { ...common, collect_dir: collect }, join(dir, 'stop.log')).catch((e) => errors.push(`stop: ${(e as Error).message}`));
    result.nodes = hosts.servers.map((h, id) => collectedNodeReport(join(collect, h.name), id));
  }
  return result;
}

/**
 * What stop.yml brought back of one node (stop-node.sh's files): its memory peak, OOM kills,
 * and whether its process was already gone when the cluster was stopped. Missing files read as
 * nothing seen (0, not exited).
 */
export function collectedNodeReport(nodeDir: string, id: number): NodeReport {
  const read = (f: string) => (existsSync(join(nodeDir, f)) ? readFileSync(join(nodeDir, f), 'utf8').trim() : '');
  return {
    id, role: 'unknown', cpu_cores: 0, cpu_utilization: 0, cpu_timeline: [], memory_peak_bytes: Number(read('memory_peak_bytes') || 0), rss_peak_bytes: null,
    oom_kills: Number(read('oom_kills') || 0), exited: read('node_exited') === '1', gc: null, gc_events: [],
  };
}

/** Keeps the histograms of the probe a row reports next to the results, as a local run does. */
export function keepRemoteHistograms(r: SettingResult, dest: string): void {
  const shown = r.best ?? r.floor;
  if (!shown) return;
  mkdirSync(dest, { recursive: true });
  for (const f of readdirSync(shown.hdr_dir)) if (f.endsWith('.hdr')) copyFileSync(join(shown.hdr_dir, f), join(dest, f));
}

export function resolveInventory(path: string, from: string): string {
  const p = resolve(from, path);
  if (!existsSync(p)) throw new Error(`--hosts: no inventory at ${p}`);
  return p;
}
