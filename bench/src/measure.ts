// Measures one setting: start a cluster with each node in its own cgroup, load the records,
// find the saturation rate, bisect the target rate for the SLO, and collect per-node CPU,
// memory, GC activity and leader changes. Cleans up its processes and cgroups whatever happens.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Cgroup } from './cgroup.ts';
import { searchMaxRate, type ProbeOutcome } from './bisect.ts';
import { parseGoGctrace, parseJvmGcLog, summarizeGc, type GcEvent, type GcSummary } from './gclog.ts';
import { latencyStats, longestIntervalSeconds, mergeWindow, readLogs, windowSeconds, type LatencyStats } from './hdr.ts';
import type { EarlyStopEvidence } from './early-stop.ts';
import { watchForEarlyStop } from './early-stop-watch.ts';
import { cpuCount, judgeByWait, type BenchOptions, type Setting } from './plan.ts';
import { classify, describeInterference, interferenceBetween, readThreadSchedstats, takeSnapshot, type Interference, type SchedStat, type Snapshot } from './interference.ts';
import { Sampler, rssBytes, usageInWindow, type WindowUsage } from './sampler.ts';
import { MemoryWatch, type MemoryWatchSummary } from './memory-watch.ts';
import { memoryPlan, readGcLog, startSystem, type RunningSystem } from './systems.ts';
import { BENCH_DIR, failedOperations, parseBindingCounters, runYcsb, ycsbArgv, type YcsbRun } from './ycsb.ts';

export interface Progress {
  (message: string): void;
}

/** One run of a probe that was thrown away because other tenants disturbed it. */
export interface DisturbedAttempt {
  p99_ms: number | null;
  achieved_ops_per_s: number;
  met: boolean;
  interference: Interference;
  reasons: string[];
}

export interface ProbeDetail extends ProbeOutcome {
  kind: 'saturation' | 'search' | 'slo-calibration';
  /** Cores other tenants used just before the probe, and how long we waited for them to drop. */
  background_cores: number;
  quiet_waited_s: number;
  /** The machine just before the probe, and during its measured window. */
  interference_before: Interference | null;
  interference: Interference | null;
  /** Evidence when the probe is disturbed: the thresholds crossed. */
  disturbed_reasons: string[];
  /** Earlier runs of this probe, discarded as disturbed (bounded by --disturbed-retries). */
  discarded: DisturbedAttempt[];
  started_at_s: number;
  window_s: number;
  intended: LatencyStats;
  uncorrected: LatencyStats;
  read_p99_intended_us: number;
  update_p99_intended_us: number;
  usage: WindowUsage | null;
  leader: number | null;
  binding: ReturnType<typeof parseBindingCounters>;
  ycsb_exit: number | null;
  /** YCSB's own throughput over its whole run, warm-up included (its summary's OVERALL line). */
  ycsb_overall_ops_per_s: number;
  hdr_dir: string;
  /** Set when --early-stop ended the probe before its window did: the counts that decided it. */
  early_stop?: EarlyStopEvidence;
}

export interface NodeReport {
  id: number;
  role: 'leader' | 'follower' | 'unknown';
  cpu_cores: number;
  /** Share of the cores this node could use (its quota, or its cpuset), 0..1. */
  cpu_utilization: number;
  cpu_timeline: [number, number][];
  memory_peak_bytes: number;
  rss_peak_bytes: number | null;
  oom_kills: number;
  /** On hosts: the node's process was gone when the cluster was stopped (nothing restarts it there). */
  exited?: boolean;
  gc: GcSummary | null;
  gc_events: GcEvent[];
}

export interface SettingResult {
  setting: Setting;
  started_at: string;
  memory_how: string;
  load: { seconds: number; ops_per_s: number; ok: boolean };
  saturation_ops_per_s: number;
  search: { best: ProbeOutcome | null; ceiling_reached: boolean; stopped_by: ProbeOutcome | null; hint_ops_per_s?: number };
  best: ProbeDetail | null;
  /** The lowest rate probed when even it missed the SLO: the paper's "cannot meet it at 100 ops/s". */
  floor: ProbeDetail | null;
  /** The disturbed miss that ended the search, if one did (see SearchResult.stopped_by). */
  stopped_by: ProbeDetail | null;
  probes: ProbeDetail[];
  nodes: NodeReport[];
  loadgen_cores: number | null;
  leader_changes: { t_s: number; leader: number | null }[];
  restarts: number;
  /** The SLO this setting was judged against, and how it was derived when --slo-ms auto. */
  slo_ms: number;
  slo_derived?: { mean_ms: number; slo_ms: number };
  errors: string[];
}

const WORKLOAD_FILES = { a: join(BENCH_DIR, 'ycsb/workloads/workloada'), b: join(BENCH_DIR, 'ycsb/workloads/workloadb') };
/** Workload A with every operation an update (bench/ycsb/workloads/footprint): footprint runs. */
export const FOOTPRINT_WORKLOAD_FILE = join(BENCH_DIR, 'ycsb/workloads/footprint');

function workloadFile(s: Setting): string {
  return s.workload === 'custom' ? s.workload_file! : WORKLOAD_FILES[s.workload];
}

/** Keeps the cluster, its cgroups and the samplers of one setting together. */
class Testbed {
  system: RunningSystem | null = null;
  groups: Cgroup[] = [];
  loadgen: Cgroup;
  restarts = 0;
  leaderChanges: { t_s: number; leader: number | null }[] = [];
  private leaderTimer: NodeJS.Timeout | null = null;
  memoryHow = '';
  /** YCSB properties added to every probe's (a footprint run names the leader to ask first). */
  ycsbExtra: Record<string, string> = {};

  constructor(readonly setting: Setting, readonly o: BenchOptions, readonly dir: string) {
    this.loadgen = Cgroup.create(`loadgen-${setting.repetition}`, { cpus: o.loadgen_cpus, cpu_shares: o.cpu_shares });
  }

  async start(): Promise<void> {
    const s = this.setting;
    const logDir = join(this.dir, `cluster-${this.restarts}`);
    mkdirSync(logDir, { recursive: true });
    const limit = s.memory_bytes > 0 ? s.memory_bytes : undefined; // 0: unconstrained (footprint runs)
    const plans = Array.from({ length: this.o.nodes }, (_, id) => memoryPlan(s.system, limit, join(logDir, `gc-node-${id}.log`)));
    this.memoryHow = plans[0]!.how;
    this.groups = plans.map((p, id) =>
      Cgroup.create(`node${id}-${this.restarts}`, {
        cpus: this.o.node_cpus,
        cpu_shares: this.o.cpu_shares,
        ...(p.cgroup_limit_bytes !== undefined ? { memory_bytes: p.cgroup_limit_bytes } : {}),
        ...(s.cpu_quota_cores !== null ? { cpu_quota_cores: s.cpu_quota_cores } : {}),
      }),
    );
    this.system = await startSystem({
      system: s.system,
      nodes: this.o.nodes,
      logDir,
      env: (id) => plans[id]!.env,
      // the mitigation is a server flag; etcd, C++ and Rust never get one (plan.ts refuses)
      wrap: (id, argv) => this.groups[id]!.wrap(this.o.mitigation === 'none' ? argv : [...argv, '--mitigation', this.o.mitigation]),
      durability: s.durability,
      fsync: s.fsync,
    });
    const deadline = Date.now() + 30_000;
    let leader: number | null = null;
    while (Date.now() < deadline && (leader = await this.system.leader()) === null) await sleep(200);
    if (leader === null) throw new Error(`${s.system}: no leader within 30 s of start (logs in ${logDir})`);
    this.noteLeader(leader);
    this.leaderTimer = setInterval(() => void this.pollLeader(), 1000);
  }

  private noteLeader(leader: number | null) {
    const last = this.leaderChanges[this.leaderChanges.length - 1];
    if (!last || last.leader !== leader) this.leaderChanges.push({ t_s: Date.now() / 1000, leader });
  }

  private async pollLeader() {
    if (!this.system) return;
    try {
      this.noteLeader(await this.system.leader());
    } catch {
      this.noteLeader(null);
    }
  }

  currentLeader(): number | null {
    return this.leaderChanges[this.leaderChanges.length - 1]?.leader ?? null;
  }

  healthy(): boolean {
    return !!this.system && Array.from({ length: this.o.nodes }, (_, id) => this.system!.alive(id)).every(Boolean);
  }

  oomKills(): number[] {
    return this.groups.map((g) => {
      try {
        return g.oomKills();
      } catch {
        return 0;
      }
    });
  }

  async stopCluster(): Promise<void> {
    if (this.leaderTimer) clearInterval(this.leaderTimer);
    this.leaderTimer = null;
    await this.system?.stop();
    this.system = null;
    for (const g of this.groups) g.remove();
    this.groups = [];
  }

  async close(): Promise<void> {
    await this.stopCluster();
    this.loadgen.remove();
  }
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

async function loadRecords(bed: Testbed, progress: Progress): Promise<SettingResult['load']> {
  const s = bed.setting;
  const argv = ycsbArgv({
    phase: 'load',
    db: bed.system!.ycsbDb,
    workloadFile: workloadFile(s),
    records: s.records,
    threads: bed.o.threads,
    properties: { ...bed.system!.ycsbProperties(), ...bed.ycsbExtra },
  });
  const t0 = Date.now();
  let last: YcsbRun | null = null;
  // Puts are idempotent, so a load that lost some inserts (a node busy electing a leader
  // under a cold JIT, say) is simply run once more.
  for (let attempt = 1; attempt <= 2; attempt++) {
    progress(`loading ${s.records} records${attempt > 1 ? ' (again: some inserts failed)' : ''}`);
    last = await runYcsb(bed.loadgen.wrap(argv), join(bed.dir, `load-${bed.restarts}-${attempt}.log`), 60 + s.records / 200);
    if (last.code === 0 && (last.summary.INSERT?.['Return=OK'] ?? 0) === s.records) break;
  }
  const seconds = (Date.now() - t0) / 1000;
  const inserted = last!.summary.INSERT?.['Return=OK'] ?? 0;
  return { seconds, ops_per_s: last!.summary.OVERALL?.['Throughput(ops/sec)'] ?? 0, ok: last!.code === 0 && inserted === s.records };
}

function ourPids(bed: Testbed): number[] {
  const pids: number[] = [];
  for (const g of bed.groups.concat(bed.loadgen)) {
    try {
      pids.push(...g.pids());
    } catch {
      // a group being removed
    }
  }
  return pids;
}

/** Our cgroups' CPU and processes, for telling the benchmark apart from other tenants. */
function ourSnapshot(bed: Testbed): Snapshot {
  const groups = bed.groups.concat(bed.loadgen);
  let ns = 0;
  const pids: number[] = [];
  for (const g of groups) {
    try {
      ns += g.cpuUsageNs();
      pids.push(...g.pids());
    } catch {
      // a group being removed
    }
  }
  return takeSnapshot(ns, pids);
}

/** What other tenants do over the next `window_ms`. */
async function measureInterference(bed: Testbed, window_ms: number): Promise<Interference> {
  const a = ourSnapshot(bed);
  await sleep(window_ms);
  return interferenceBetween(a, ourSnapshot(bed));
}

/** Waits until other tenants leave the machine mostly to us, or the wait budget is spent. */
async function waitForQuiet(bed: Testbed): Promise<{ background_cores: number; waited_s: number; before: Interference }> {
  const t0 = Date.now();
  let before = await measureInterference(bed, 1000);
  // Under large cpu.shares others' CPU is no reason to wait: they yield to the benchmark.
  if (judgeByWait(bed.o)) return { background_cores: Number(before.other_cores.toFixed(2)), waited_s: Number(((Date.now() - t0) / 1000).toFixed(1)), before };
  while (before.other_cores > bed.o.quiet_cores && Date.now() - t0 < bed.o.quiet_wait_s * 1000) before = await measureInterference(bed, 2000);
  return { background_cores: Number(before.other_cores.toFixed(2)), waited_s: Number(((Date.now() - t0) / 1000).toFixed(1)), before };
}

/**
 * A probe, repeated (at most --disturbed-retries times) while other tenants disturb its measured
 * window beyond the thresholds. The last run is returned, marked disturbed if it still was,
 * with the discarded runs and their evidence.
 */
async function probe(bed: Testbed, kind: ProbeDetail['kind'], target: number | undefined, index: number, progress?: Progress): Promise<ProbeDetail> {
  const discarded: DisturbedAttempt[] = [];
  for (;;) {
    const p = await probeOnce(bed, kind, target, index);
    p.discarded = discarded;
    if (!p.disturbed || discarded.length >= bed.o.disturbed_retries) return p;
    discarded.push({ p99_ms: p.p99_ms, achieved_ops_per_s: p.achieved_ops_per_s, met: p.met, interference: p.interference!, reasons: p.disturbed_reasons });
    progress?.(`probe ${index} disturbed (${p.disturbed_reasons.join('; ')}); repeating (${discarded.length}/${bed.o.disturbed_retries})`);
  }
}

async function probeOnce(bed: Testbed, kind: ProbeDetail['kind'], target: number | undefined, index: number): Promise<ProbeDetail> {
  const s = bed.setting;
  const o = bed.o;
  const quiet = await waitForQuiet(bed);
  const hdrDir = join(bed.dir, `probe-${String(index).padStart(2, '0')}`);
  rmSync(hdrDir, { recursive: true, force: true });
  mkdirSync(hdrDir, { recursive: true });
  const argv = ycsbArgv({
    phase: 'run',
    db: bed.system!.ycsbDb,
    workloadFile: workloadFile(s),
    records: s.records,
    threads: o.threads,
    ...(target !== undefined ? { target_ops_per_s: target } : {}),
    max_execution_s: o.warmup_s + o.duration_s,
    hdrDir,
    properties: { ...bed.system!.ycsbProperties(), ...bed.ycsbExtra },
  });
  const sampler = new Sampler([...bed.groups, bed.loadgen], () => Array.from({ length: o.nodes }, (_, id) => bed.system!.pid(id)));
  const started = Date.now() / 1000;
  // Interference over the measured window: a snapshot when the warm-up ends, one at the end.
  let windowStart: Snapshot | null = null;
  const first = ourSnapshot(bed);
  // The load generator's threads are gone when YCSB exits, taking their schedstat with them:
  // keep the last reading of every thread, taken each second while the window runs.
  const lastThreads = new Map<number, SchedStat>();
  const keepThreads = () => {
    for (const [tid, st] of readThreadSchedstats(ourPids(bed))) lastThreads.set(tid, st);
  };
  let threadTimer: NodeJS.Timeout | null = null;
  const warmupTimer = setTimeout(() => {
    windowStart = ourSnapshot(bed);
    threadTimer = setInterval(keepThreads, 1000);
  }, o.warmup_s * 1000);
  const ops = ['READ', 'UPDATE', 'INSERT', 'READ-MODIFY-WRITE'];
  const watch = kind === 'search' && o.early_stop && target !== undefined
    ? watchForEarlyStop(hdrDir, ops.map((op) => `Intended-${op}`), { target_ops_per_s: target, warmup_s: o.warmup_s, duration_s: o.duration_s, slo_ms: o.slo_ms, threads: o.threads })
    : null;
  sampler.start();
  let run: YcsbRun;
  let early: EarlyStopEvidence | null = null;
  try {
    run = await runYcsb(bed.loadgen.wrap(argv), join(hdrDir, 'ycsb.log'), o.warmup_s + o.duration_s + 120, watch?.attach);
  } finally {
    early = watch?.stop() ?? null;
    sampler.stop();
    clearTimeout(warmupTimer);
    if (threadTimer) clearInterval(threadTimer);
  }
  let interference: Interference | null = null;
  try {
    const end = ourSnapshot(bed);
    for (const [tid, st] of end.our_threads ?? []) lastThreads.set(tid, st);
    end.our_threads = lastThreads;
    interference = interferenceBetween(windowStart ?? first, end);
  } catch {
    interference = null;
  }

  const intendedLogs = readLogs(hdrDir, ops.map((op) => `Intended-${op}`));
  const uncorrectedLogs = readLogs(hdrDir, ops);
  const intendedH = mergeWindow(intendedLogs, o.warmup_s);
  const uncorrectedH = mergeWindow(uncorrectedLogs, o.warmup_s);
  const failed = ops.reduce((n, op) => n + failedOperations(run.summary, op), 0);
  // Failures are spread over the whole run; count the measured window's share of them.
  const windowShare = o.duration_s / (o.warmup_s + o.duration_s);
  const failedInWindow = Math.round(failed * windowShare);
  const intended = latencyStats(intendedH, failedInWindow);
  const uncorrected = latencyStats(uncorrectedH, failedInWindow);
  const perOp = (op: string) => {
    const h = mergeWindow(readLogs(hdrDir, [`Intended-${op}`]), o.warmup_s);
    return h.totalCount ? h.getValueAtPercentile(99) : 0;
  };
  // The window the histograms really cover (YCSB starts its clock before its threads run).
  const window_s = windowSeconds(intendedLogs, o.warmup_s) || o.duration_s;
  const achieved = (intended.count + failedInWindow) / window_s;
  let usage: WindowUsage | null = null;
  try {
    usage = usageInWindow(sampler.samples, started + o.warmup_s, Date.now() / 1000);
  } catch {
    usage = null;
  }
  const p99_ms = Number.isFinite(intended.p99_us) ? intended.p99_us / 1000 : null;
  const crashed = !bed.healthy();
  // A node that died (an OOM kill) failed on its own, whatever else ran meanwhile.
  const verdict = interference && !crashed ? classify(interference, { other_cores: o.disturbed_cores, steal_share: o.disturbed_steal, wait_per_slice_us: o.disturbed_wait_us, judge_by: judgeByWait(o) ? 'wait' : 'others' }) : { disturbed: false, reasons: [] };
  // Operations completed but none falls in the window: the load generator's interval writer
  // was starved of CPU (one interval over the whole run). Not the system's failure.
  const completed = ops.reduce((n, op) => n + (run.summary[op]?.['Return=OK'] ?? 0), 0);
  const longest = longestIntervalSeconds(intendedLogs);
  if (!crashed && intended.count === 0 && completed > 0 && longest > 2) {
    verdict.disturbed = true;
    verdict.reasons.push(`YCSB completed ${completed} operations but its 1-second interval log stalled (one interval of ${longest.toFixed(1)} s), leaving nothing in the measured window`);
  }
  const reasons: string[] = [];
  if (early) reasons.push(`stopped early at ${early.decided_at_s} s: ${early.over_slo} of the window's operations over the ${early.slo_ms} ms SLO, more than 1 % of the ${early.window_bound} it can hold (${early.in_window} so far)`);
  else if (run.code !== 0) reasons.push(`YCSB exited with ${run.code}`);
  if (crashed) reasons.push(`a node exited (OOM kills per node: ${bed.oomKills().join('/')})`);
  if (p99_ms === null) reasons.push(intended.count === 0 ? 'no operation completed' : 'more than 1 % of operations failed');
  // A rate YCSB could not deliver already shows in the intended latency, so it is only noted.
  const met = kind === 'search' && reasons.length === 0 && p99_ms !== null && p99_ms <= o.slo_ms;
  if (target !== undefined && achieved < 0.9 * target) reasons.push(`delivered ${Math.round(achieved)} of ${target} ops/s`);
  return {
    kind,
    background_cores: quiet.background_cores,
    quiet_waited_s: quiet.waited_s,
    target_ops_per_s: target ?? Math.round(achieved),
    p99_ms,
    achieved_ops_per_s: Math.round(achieved),
    met,
    ...(reasons.length ? { reason: reasons.join('; ') } : {}),
    disturbed: verdict.disturbed,
    interference_before: quiet.before,
    interference,
    disturbed_reasons: verdict.reasons,
    discarded: [],
    started_at_s: started,
    window_s,
    intended,
    uncorrected,
    read_p99_intended_us: perOp('READ'),
    update_p99_intended_us: perOp('UPDATE'),
    usage,
    leader: bed.currentLeader(),
    binding: parseBindingCounters(run.stderr),
    ycsb_exit: run.code,
    ycsb_overall_ops_per_s: Math.round(run.summary.OVERALL?.['Throughput(ops/sec)'] ?? 0),
    hdr_dir: hdrDir,
    ...(early ? { early_stop: early } : {}),
  };
}

function nodeReports(bed: Testbed, best: ProbeDetail | null): NodeReport[] {
  const o = bed.o;
  const s = bed.setting;
  const available = s.cpu_quota_cores ?? cpuCount(o.node_cpus);
  return Array.from({ length: o.nodes }, (_, id) => {
    const usage = best?.usage;
    const cores = usage?.cores[id] ?? 0;
    let gc: GcSummary | null = null;
    let events: GcEvent[] = [];
    if (bed.system && best && s.system !== 'cpp' && s.system !== 'rust') {
      const text = readGcLog(bed.system, id);
      events = s.system === 'java' ? parseJvmGcLog(text) : parseGoGctrace(text);
      const from = best.started_at_s + o.warmup_s - bed.system.startedAt(id);
      gc = summarizeGc(events, from, from + best.window_s);
      events = events.filter((e) => e.t_s >= from && e.t_s < from + best.window_s).map((e) => ({ ...e, t_s: Number((e.t_s - from).toFixed(3)) }));
    }
    return {
      id,
      role: best?.leader === null || best?.leader === undefined ? 'unknown' : best.leader === id ? 'leader' : 'follower',
      cpu_cores: cores,
      cpu_utilization: cores / available,
      cpu_timeline: usage?.timeline[id] ?? [],
      memory_peak_bytes: usage?.memory_peak_bytes[id] ?? 0,
      rss_peak_bytes: usage?.rss_peak_bytes[id] ?? null,
      oom_kills: bed.oomKills()[id] ?? 0,
      gc,
      gc_events: events,
    };
  });
}

/** Copies the best probe's HdrHistogram logs next to the result file. */
function keepHistograms(best: ProbeDetail, dest: string): void {
  mkdirSync(dest, { recursive: true });
  for (const name of ['Intended-READ', 'Intended-UPDATE', 'READ', 'UPDATE', 'Intended-INSERT', 'INSERT']) {
    const f = join(best.hdr_dir, `${name}.hdr`);
    if (existsSync(f)) copyFileSync(f, join(dest, `${name}.hdr`));
  }
}

/** `hint_ops_per_s`: the rate that decided the same setting's previous repetition, else the
 * previous memory size of the same system, workload, vCPUs, mode and repetition (a warm start,
 * bisect.ts, warm-start.ts); undefined for a cold search. */
export async function measureSetting(setting: Setting, o: BenchOptions, scratchDir: string, hdrDest: string, progress: Progress, hint_ops_per_s?: number): Promise<SettingResult> {
  const dir = join(scratchDir, setting.id);
  mkdirSync(dir, { recursive: true });
  const errors: string[] = [];
  const bed = new Testbed(setting, o, dir);
  const result: SettingResult = {
    setting,
    started_at: new Date().toISOString(),
    memory_how: '',
    load: { seconds: 0, ops_per_s: 0, ok: false },
    saturation_ops_per_s: 0,
    search: { best: null, ceiling_reached: false, stopped_by: null },
    best: null,
    floor: null,
    stopped_by: null,
    probes: [],
    nodes: [],
    loadgen_cores: null,
    leader_changes: [],
    restarts: 0,
    slo_ms: o.slo_ms,
    errors,
  };
  try {
    progress('starting cluster');
    await bed.start();
    result.memory_how = bed.memoryHow;
    result.load = await loadRecords(bed, progress);
    if (!result.load.ok) errors.push(`load phase did not insert every record (see ${join(dir, 'load-0-2.log')})`);
    let index = 0;
    const ensureHealthy = async () => {
      if (bed.healthy()) return;
      errors.push(`restarted the cluster after a node exited (OOM kills ${bed.oomKills().join('/')})`);
      await bed.stopCluster();
      bed.restarts++;
      await bed.start();
      const reload = await loadRecords(bed, progress);
      if (!reload.ok) errors.push('reload after restart incomplete');
    };
    if (o.slo_auto) {
      // §5.1: the paper's 20 ms is 10 × the average latency it saw under low GC pressure (Fig 3).
      // The same rule on this machine: 10 × the mean intended latency at the minimum rate.
      progress(`SLO: measuring the mean latency at ${o.min_rate} ops/s`);
      const cal = await probe(bed, 'slo-calibration', o.min_rate, index++, progress);
      result.probes.push(cal);
      if (cal.intended.count === 0) throw new Error('no operation completed while measuring the SLO');
      o.slo_ms = (Math.round(cal.intended.mean_us / 100) / 10) * 10; // 10 × the mean rounded to 0.1 ms
      o.slo_auto = false;
      result.slo_derived = { mean_ms: cal.intended.mean_us / 1000, slo_ms: o.slo_ms };
      progress(`SLO set to ${o.slo_ms} ms (10 × mean ${(cal.intended.mean_us / 1000).toFixed(2)} ms)`);
    }
    progress('saturation probe (closed loop)');
    const sat = await probe(bed, 'saturation', undefined, index++, progress);
    result.probes.push(sat);
    result.saturation_ops_per_s = sat.achieved_ops_per_s;
    const max = o.max_rate || Math.max(o.min_rate * 2, Math.ceil(sat.achieved_ops_per_s * 1.1));
    const search = await searchMaxRate(async (rate) => {
      await ensureHealthy();
      progress(`probe ${index}: target ${rate} ops/s`);
      const p = await probe(bed, 'search', rate, index++, progress);
      result.probes.push(p);
      progress(`probe ${index - 1}: target ${rate} ops/s → p99 ${p.p99_ms === null ? '∞' : p.p99_ms.toFixed(1)} ms, ${p.achieved_ops_per_s} ops/s ${p.met ? 'MET' : 'missed'}${p.reason ? ` (${p.reason})` : ''}${p.disturbed ? ` DISTURBED: ${p.interference ? describeInterference(p.interference) : ''}` : ''}`);
      return p;
    }, { min_ops_per_s: o.min_rate, max_ops_per_s: max, tolerance: o.tolerance, max_probes: o.max_probes, ...(hint_ops_per_s ? { hint_ops_per_s } : {}) });
    result.search = { best: search.best, ceiling_reached: search.ceiling_reached, stopped_by: search.stopped_by, ...(hint_ops_per_s ? { hint_ops_per_s } : {}) };
    result.slo_ms = o.slo_ms;
    const searchProbes = result.probes.filter((p) => p.kind === 'search');
    result.best = search.best ? searchProbes.find((p) => p === search.best) ?? null : null;
    result.floor = search.best ? null : searchProbes.find((p) => p.target_ops_per_s === o.min_rate) ?? null;
    result.stopped_by = search.stopped_by ? searchProbes.find((p) => p === search.stopped_by) ?? null : null;
    const shown = result.best ?? result.floor;
    result.nodes = nodeReports(bed, shown);
    result.loadgen_cores = shown?.usage?.cores[o.nodes] ?? null;
    if (shown) keepHistograms(shown, join(hdrDest, setting.id));
  } catch (err) {
    errors.push(String(err instanceof Error ? err.message : err));
  } finally {
    result.leader_changes = bed.leaderChanges.map((c) => ({ ...c, t_s: Number(c.t_s.toFixed(3)) }));
    result.restarts = bed.restarts;
    await bed.close().catch((e) => errors.push(`clean-up: ${String(e)}`));
  }
  return result;
}

export interface FixedRateMeasurement {
  achieved_ops_per_s: number;
  background_cores: number;
  p99_ms: number | null;
  leader_us_per_op: number;
  follower_us_per_op: number;
}

/** One open-loop run at a fixed rate, for calibration: CPU per operation on leader and followers. */
export async function measureFixedRate(setting: Setting, o: BenchOptions, rate: number, scratchDir: string): Promise<FixedRateMeasurement | null> {
  const dir = join(scratchDir, setting.id);
  mkdirSync(dir, { recursive: true });
  const bed = new Testbed(setting, o, dir);
  try {
    await bed.start();
    const load = await loadRecords(bed, () => {});
    if (!load.ok) return null;
    const p = await probe(bed, 'search', rate, 0);
    const leader = p.leader;
    if (!p.usage || leader === null || p.achieved_ops_per_s <= 0) return null;
    const perOp = (cores: number) => (cores * 1e6) / p.achieved_ops_per_s;
    const followers = p.usage.cores.slice(0, o.nodes).filter((_, id) => id !== leader);
    return {
      achieved_ops_per_s: p.achieved_ops_per_s,
      background_cores: Number((p.usage.other_cores_busy).toFixed(2)),
      p99_ms: p.p99_ms,
      leader_us_per_op: perOp(p.usage.cores[leader]!),
      follower_us_per_op: perOp(followers.reduce((a, b) => a + b, 0) / followers.length),
    };
  } finally {
    await bed.close();
  }
}

export interface Footprint {
  bytes: number;
  per_node_bytes: number[];
  how: string;
  /** The closed-loop rate the footprint was held at (YCSB overall): what is in flight, and the
   * log not yet trimmed, grow with the rate, so a footprint is only true at its rate. */
  saturation_ops_per_s: number;
  /** Per node, where its memory was over the footprint run (usage, rss, kmem, cache, threads). */
  memory: MemoryWatchSummary[];
  /** Per node, the most log entries it held untrimmed (untrimmedLogMax). */
  untrimmed_log_max: (number | null)[];
  /** Each run a footprint was combined from (combineFootprints): its bytes and closed-loop rate. */
  runs: { bytes: number; saturation_ops_per_s: number }[];
  /** The follower stopped while the probe ran (followerToStop), null when none was. */
  stopped_follower?: number | null;
}

export interface Survival {
  limit_bytes: number;
  load_ok: boolean;
  /** Every node alive after the load and a closed-loop probe, and the OOM kills per node. */
  alive: boolean;
  oom_kills: number[];
  memory_peak_bytes: number[];
  /** Per node, where its memory was (usage, rss, kmem, cache, threads), sampled every 100 ms. */
  memory: MemoryWatchSummary[];
  /** YCSB's throughput over the whole closed-loop run (warm-up included). */
  saturation_ops_per_s: number;
  /** Per node, what its own log says about limits (`limit:` lines) and its last status line. */
  node_evidence: string[];
  /** Per node, the most log entries it held untrimmed (untrimmedLogMax). */
  untrimmed_log_max: (number | null)[];
}

/** The lines of a node log that explain its memory: every `limit:` line (a server turned work
 * away or dropped peer messages) and the last `stats` line (log sizes, executed, trimmed). */
export function nodeEvidence(log: string): string {
  const lines = log.split('\n');
  const limits = lines.filter((l) => l.includes('limit:'));
  const stats = lines.filter((l) => /\bstats\b/.test(l));
  const shown = [...limits.slice(-3), ...stats.slice(-1)].map((l) => l.slice(0, 300));
  const more = limits.length > 3 ? [`(${limits.length} limit lines in all)`] : [];
  return [...more, ...shown].join(' / ') || '(nothing logged about limits)';
}

/**
 * The most log entries a node held above its global last executed (the part not yet trimmed),
 * from its once-a-second `status` lines: the log between two trims grows with the rate ×
 * the commit interval and with how far the slowest follower lags, so it is the part of a
 * node's memory that a footprint measured at one rate does not carry to another. null: no
 * status line with both fields.
 */
export function untrimmedLogMax(log: string): number | null {
  let max: number | null = null;
  for (const line of log.split('\n')) {
    const at = line.indexOf('status {');
    if (at < 0) continue;
    try {
      const st = JSON.parse(line.slice(at + 'status '.length)) as { last_index?: unknown; global_last_executed?: unknown };
      if (typeof st.last_index !== 'number' || typeof st.global_last_executed !== 'number') continue;
      max = Math.max(max ?? 0, st.last_index - st.global_last_executed);
    } catch {
      // a line cut short by a kill: not evidence
    }
  }
  return max;
}

function untrimmedPerNode(bed: Testbed): (number | null)[] {
  return bed.groups.map((_, id) => {
    try {
      return untrimmedLogMax(readFileSync(bed.system!.logPath(id), 'utf8'));
    } catch {
      return null;
    }
  });
}

/**
 * Does a cluster live within its limit? Start it at the setting's memory limit, load the records
 * and drive it closed-loop, or at `target_ops_per_s` (the rate its footprint was measured at, so
 * the part of a footprint that grows with the rate is the part that was measured), then report.
 * Every follower runs: its footprint runs held the log at its bound with a follower stopped and
 * every entry a full update, so whether a follower falls behind here is within what was measured.
 */
export async function measureSurvival(setting: Setting, o: BenchOptions, scratchDir: string, target_ops_per_s?: number): Promise<Survival> {
  const dir = join(scratchDir, setting.id);
  mkdirSync(dir, { recursive: true });
  const bed = new Testbed(setting, o, dir);
  try {
    await bed.start();
    const watch = new MemoryWatch(bed.groups, (id) => bed.system?.pid(id) ?? null);
    watch.start();
    let load: Awaited<ReturnType<typeof loadRecords>>;
    let p: Awaited<ReturnType<typeof probeOnce>>;
    let memory: MemoryWatchSummary[];
    try {
      load = await loadRecords(bed, () => {});
      p = await probeOnce(bed, target_ops_per_s === undefined ? 'saturation' : 'search', target_ops_per_s, 0);
    } finally {
      memory = watch.stop();
    }
    const peaks = bed.groups.map((g) => {
      try {
        return g.memoryPeakBytes();
      } catch {
        return 0;
      }
    });
    const evidence = bed.groups.map((_, id) => {
      try {
        return nodeEvidence(readFileSync(bed.system!.logPath(id), 'utf8'));
      } catch (err) {
        return `(no node log: ${(err as Error).message})`;
      }
    });
    return { limit_bytes: setting.memory_bytes, load_ok: load.ok, alive: bed.healthy(), oom_kills: bed.oomKills(), memory_peak_bytes: peaks, memory, saturation_ops_per_s: p.ycsb_overall_ops_per_s, node_evidence: evidence, untrimmed_log_max: untrimmedPerNode(bed) };
  } finally {
    await bed.close();
  }
}

/**
 * The log bound every Replicant server runs with (SERVER_LOG_BOUND in each engine's core config,
 * docs/protocol.md "Log bound"): the leader raises the global last executed to at least
 * last_executed − bound without waiting for a follower that lags, so no node holds more than
 * the bound plus one commit interval of entries untrimmed.
 */
export const SERVER_LOG_BOUND_ENTRIES = 16_384;

/**
 * The follower a footprint run stops (SIGSTOP) so the others hold the log at its bound: never
 * the leader, and a different follower on each run, so every follower's place is measured.
 * null when there is no follower to stop (one node, or no leader known).
 */
export function followerToStop(leader: number | null, nodes: number, run: number): number | null {
  if (leader === null || nodes < 2) return null;
  const followers = Array.from({ length: nodes }, (_, id) => id).filter((id) => id !== leader);
  return followers[(Math.max(1, run) - 1) % followers.length]!;
}

/**
 * Whether a footprint run held the log at its bound: the most entries any node held untrimmed
 * (untrimmedLogMax) reached the bound. A run that did not (a machine so loaded that the probe
 * wrote fewer entries than the bound) measured less than a node can hold, and is refused.
 */
export function heldLogAtBound(untrimmed: (number | null)[], bound = SERVER_LOG_BOUND_ENTRIES): boolean {
  return untrimmed.some((n) => typeof n === 'number' && n >= bound);
}

/**
 * Stops one follower (SIGSTOP, followerToStop) until the returned function resumes it, and has
 * every later YCSB process ask the leader first (a new one asks node 0 first; were that the
 * stopped node, every thread would wait out its reply timeout, 5 s, before moving on). etcd
 * has no log bound of ours to hold: nothing is stopped there. Returns the stopped node or null.
 */
async function stopOneFollower(bed: Testbed, run: number): Promise<{ stopped: number | null; resume: () => void }> {
  if (bed.setting.system === 'etcd') return { stopped: null, resume: () => {} };
  const leader = await bed.system!.leader();
  const stopped = followerToStop(leader, bed.o.nodes, run);
  const pid = stopped === null ? null : bed.system!.pid(stopped);
  if (leader !== null) bed.ycsbExtra = { 'replicant.first_node': String(leader) };
  if (!pid) return { stopped: null, resume: () => {} };
  process.kill(pid, 'SIGSTOP');
  let resumed = false;
  return {
    stopped,
    resume: () => {
      if (resumed) return;
      resumed = true;
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone already: nothing to resume
      }
    },
  };
}

/**
 * A system's fixed memory footprint: what each node holds with YCSB's clients connected and
 * served closed-loop with almost no data (1,000 records), measured the way its limit is enforced — the Go heap (GC'd
 * live heap, which counts buffers the OS has not yet paged in) or RSS for Go and etcd, the heap
 * after a full GC for Java, the cgroup's usage for C++ and Rust. At the paper's 4 GB of data this
 * is noise; at a scaled-down data set it would otherwise eat the whole memory:data headroom.
 *
 * The probe runs with one follower stopped (SIGSTOP, `followerToStop`): the leader and the other
 * follower then hold the log at its bound and the leader's queue to the stopped node full — the
 * most a node holds besides its data, whatever the machine does. Left to chance (every follower
 * running), whether one follower fell behind and the log reached its bound was a coin toss per
 * run (Rust: 9–10 MiB without, 23 MiB with), and a limit from the largest of three such draws
 * was below a fourth draw about once in four (docs/benchmarks.md, "Memory at ratio 1.25").
 */
export async function measureFootprint(setting: Setting, o: BenchOptions, scratchDir: string, run = 1): Promise<Footprint> {
  const s: Setting = { ...setting, id: `${setting.system}-footprint-${run}`, records: 1000, memory_bytes: 0, baseline_bytes: 0, cpu_quota_cores: null, workload: 'custom', workload_file: FOOTPRINT_WORKLOAD_FILE };
  const dir = join(scratchDir, s.id);
  mkdirSync(dir, { recursive: true });
  const bed = new Testbed(s, o, dir);
  try {
    await bed.start();
    const watch = new MemoryWatch(bed.groups, (id) => bed.system?.pid(id) ?? null);
    watch.start();
    let memory: MemoryWatchSummary[];
    let sat: ProbeDetail;
    let stopped: number | null = null;
    try {
      const load = await loadRecords(bed, () => {});
      if (!load.ok) throw new Error(`${s.system}: footprint load failed (see ${dir})`);
      // Every client connected and served as fast as the cluster goes (closed loop), every
      // operation an update, one follower stopped: the buffers, the queue to the stopped node and
      // the log held at its bound with a full value in every entry are the most a node holds
      // besides its data.
      const held = await stopOneFollower(bed, run);
      stopped = held.stopped;
      try {
        sat = await probeOnce(bed, 'saturation', undefined, 0);
      } finally {
        held.resume();
      }
    } finally {
      memory = watch.stop();
    }
    const untrimmed = untrimmedPerNode(bed);
    if (stopped !== null && !heldLogAtBound(untrimmed))
      throw new Error(`${s.system}: footprint run ${run} did not hold the log at its bound (${SERVER_LOG_BOUND_ENTRIES} entries) with n${stopped} stopped: most untrimmed per node ${untrimmed.join('/')} (see ${dir})`);
    const sys = bed.system!;
    const perNode: number[] = [];
    let how: string;
    if (s.system === 'java') {
      for (let id = 0; id < o.nodes; id++) {
        const pid = sys.pid(id);
        if (pid) execFileSync('jcmd', [String(pid), 'GC.run'], { stdio: 'ignore', timeout: 20_000 });
      }
      await sleep(1000);
      for (let id = 0; id < o.nodes; id++) {
        const events = parseJvmGcLog(readGcLog(sys, id)).filter((e) => e.heap_after_mib !== undefined);
        const full = events.filter((e) => e.kind === 'full');
        // Under full-speed load the heap after a collection also holds every connection's
        // in-flight buffers (two threads and their buffers per client): that is footprint too.
        const underLoad = Math.max(0, ...events.map((e) => e.heap_after_mib!));
        perNode.push(Math.max(full[full.length - 1]?.heap_after_mib ?? 0, underLoad) * 2 ** 20);
      }
      how = 'Java heap after a collection: the largest under closed-loop load, or after a full GC (jcmd GC.run)';
    } else if (s.system === 'go' || s.system === 'etcd') {
      for (let id = 0; id < o.nodes; id++) {
        const events = parseGoGctrace(readGcLog(sys, id));
        const live = Math.max(0, ...events.slice(-3).map((e) => e.heap_live_mib ?? 0)) * 2 ** 20;
        perNode.push(Math.max(live, rssBytes(sys.pid(id)) ?? 0));
      }
      how = 'max of the Go live heap (gctrace) and RSS';
    } else {
      for (const g of bed.groups) perNode.push(g.memoryPeakBytes());
      how = 'cgroup memory.max_usage_in_bytes';
    }
    if (stopped !== null) how += `, updates only with one follower stopped so the log is held at its bound (${SERVER_LOG_BOUND_ENTRIES} entries)`;
    const bytes = Math.ceil(Math.max(...perNode) / 2 ** 20) * 2 ** 20;
    const rate = sat.ycsb_overall_ops_per_s;
    return { bytes, per_node_bytes: perNode, how, saturation_ops_per_s: rate, memory, untrimmed_log_max: untrimmed, stopped_follower: stopped, runs: [{ bytes, saturation_ops_per_s: rate }] };
  } finally {
    await bed.close();
  }
}

/**
 * The footprint, tried up to `attempts` times: on a busy machine a footprint run can fail for
 * reasons that have nothing to do with memory (a load whose inserts time out while the cluster
 * elects a leader), and a limit without the footprint would starve the node.
 */
export async function measureFootprintRetrying(setting: Setting, o: BenchOptions, scratchDir: string, attempts = 3, onFailure?: (attempt: number, err: Error) => void, run = 1): Promise<Footprint> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measureFootprint(setting, o, scratchDir, run);
    } catch (err) {
      onFailure?.(attempt, err as Error);
      if (attempt >= attempts) throw err;
    }
  }
}

/** How many runs a footprint is the largest of (combineFootprints). */
export const FOOTPRINT_RUNS = 3;

/**
 * Footprints of several runs as one: the largest bytes (per node too), held at the lowest
 * closed-loop rate of the runs. What a node holds besides its data is not one number: the log
 * not yet trimmed is the rate × the commit interval × how far the slowest follower lags, and
 * the lag depends on what else the machine does, so one run's peak is one draw (this machine:
 * 10–16 MiB for Rust over four runs). The largest of several draws is the footprint; a run
 * driven at no more than the lowest rate they were measured at stays within what was measured.
 */
export function combineFootprints(runs: Footprint[]): Footprint {
  if (runs.length === 0) throw new Error('combineFootprints: no footprint runs');
  const largest = runs.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const nodes = Math.max(...runs.map((r) => r.per_node_bytes.length));
  const per_node_bytes = Array.from({ length: nodes }, (_, id) => Math.max(...runs.map((r) => r.per_node_bytes[id] ?? 0)));
  const untrimmed_log_max = Array.from({ length: nodes }, (_, id) => {
    const seen = runs.map((r) => r.untrimmed_log_max[id]).filter((v): v is number => typeof v === 'number');
    return seen.length ? Math.max(...seen) : null;
  });
  return {
    ...largest,
    per_node_bytes,
    untrimmed_log_max,
    how: runs.length > 1 ? `${largest.how}, the largest of ${runs.length} runs` : largest.how,
    saturation_ops_per_s: Math.min(...runs.map((r) => r.saturation_ops_per_s)),
    runs: runs.flatMap((r) => r.runs),
  };
}

/**
 * The footprint from each run's outcome (its footprint, or the error of its last attempt): the
 * runs that succeeded, combined, with the failed ones named in `how`. A run that failed every
 * attempt measured nothing, so it cannot lower what the others measured; on a busy machine a
 * JVM can fall short of the log bound in a short probe three times running, and throwing the
 * good runs away left the limit at ratio × data, where the Java nodes died of OutOfMemoryError
 * (data/native/2026-11-27-blade). Only when no run succeeded is there no footprint.
 */
export function footprintFromRuns(outcomes: (Footprint | Error)[]): Footprint {
  const done = outcomes.filter((r): r is Footprint => !(r instanceof Error));
  const failed = outcomes.flatMap((r, i) => (r instanceof Error ? [i + 1] : []));
  if (done.length === 0) throw outcomes[outcomes.length - 1] ?? new Error('footprintFromRuns: no footprint runs');
  const f = combineFootprints(done);
  if (failed.length === 0) return f;
  const which = failed.length > 1 ? `runs ${failed.join(', ')} of ${outcomes.length} failed every attempt and are` : `run ${failed[0]} of ${outcomes.length} failed every attempt and is`;
  return { ...f, how: `${f.how} (${which} left out)` };
}

/** The footprint over `runs` separate runs (each retried up to `attempts` times), combined. */
export async function measureFootprintOverRuns(setting: Setting, o: BenchOptions, scratchDir: string, runs = FOOTPRINT_RUNS, attempts = 3, onFailure?: (run: number, attempt: number, err: Error) => void): Promise<Footprint> {
  const outcomes: (Footprint | Error)[] = [];
  for (let run = 1; run <= runs; run++) {
    try {
      outcomes.push(await measureFootprintRetrying(setting, o, scratchDir, attempts, (attempt, err) => onFailure?.(run, attempt, err), run));
    } catch (err) {
      outcomes.push(err as Error);
    }
  }
  return footprintFromRuns(outcomes);
}
