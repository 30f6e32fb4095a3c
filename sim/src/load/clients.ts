// The YCSB client threads of a load run: each issues its operations (open loop: on YCSB's
// throttle schedule; closed: back to back), follows redirects, retries and timeouts, and records
// every operation of the measured window with its latency from the intended start. The run's
// kernel owns the clock and the queue; the clients reach them through ClientRuntime.
import type { MitigationStats } from '../models/mitigation.ts';
import { LatencyHistogram } from '../metrics/histogram.ts';
import { Prng } from '../core/prng.ts';
import { CLIENT_ENDPOINT_BASE } from '../net/network.ts';
import { EV, type Ev } from '../run/events.ts';
import type { OpKind } from '../run/hosts.ts';
import type { WireSizes } from '../run/sizes.ts';
import { keyChooser, throttleTickUs, ycsbKey, type KeyChooser } from './ycsb.ts';
import type { OpLog } from './op-log.ts';

/** The engines see a client by an id of its own, kept clear of the node ids (0..n-1) so that a
 * trace never mistakes one for the other. */
export const CLIENT_ID_BASE = 1000;

export function clientIdOf(thread: number): number {
  return CLIENT_ID_BASE + thread;
}

/** The thread behind a client id, or null when no thread of `threads` has it. */
export function threadOfClient(client_id: number, threads: number): number | null {
  const t = client_id - CLIENT_ID_BASE;
  return t >= 0 && t < threads ? t : null;
}

export interface ClientThread {
  id: number;
  client_id: number;
  /** the node its requests go to */
  target: number;
  request_id: number;
  // the operation in progress
  busy: boolean;
  op: OpKind;
  key: string;
  intended_us: number;
  start_us: number;
  sent_us: number;
  measured: boolean;
  // throttle
  schedule_start_us: number;
  ops_done: number;
  // load phase: keys still to insert
  load_keys: number[];
  /** MITMEM: the node that last answered this operation `busy` (null: none). */
  busy_from: number | null;
}

export function newClientThread(id: number, target: number): ClientThread {
  return { id, client_id: clientIdOf(id), target, request_id: 0, busy: false, op: 'read', key: '', intended_us: 0, start_us: 0, sent_us: 0, measured: false, schedule_start_us: 0, ops_done: 0, load_keys: [], busy_from: null };
}

/** What the clients need from the run: its clock, its queue, the network, the nodes. */
export interface ClientRuntime {
  now(): number;
  push(time_us: number, ev: Ev): void;
  /** When `bytes` sent now from one endpoint reach another (network.ts). */
  arrival(from: number, to: number, bytes: number, at_us: number): number;
  /** The node's incarnation (an arrival for an older one is lost). */
  incarnation(node: number): number;
  readonly node_count: number;
}

export interface ClientSettings {
  exact: boolean;
  mode: 'open' | 'closed';
  threads: number;
  target_ops_per_s: number;
  read_proportion: number;
  distribution: Parameters<typeof keyChooser>[0];
  record_count: number;
  engine_records: number;
  key_bytes: number;
  value_bytes: number;
  warmup_s: number;
  duration_s: number;
  drain_s: number;
  retry_backoff_us: number;
  request_timeout_us: number;
  /** Open loop, fast mode, no mitigation: a thread's next operation is issued when the last one
   * is answered, dated at its start (startOp), instead of through an op_start event. */
  issue_ahead?: boolean;
}

export class Clients {
  readonly threads: ClientThread[] = [];
  readonly hist = { read: new LatencyHistogram(), update: new LatencyHistogram() };
  readonly histService = new LatencyHistogram();
  private readonly chooser: KeyChooser | null;
  private readonly engineKeys: string[] = [];
  private readonly value: string;
  readonly tick_us: number;
  private loadRemaining = 0;
  private loadEnd_us = 0;
  workloadStart_us = Infinity;
  measureFrom_us = Infinity;
  measureTo_us = Infinity;
  hardStop_us = Infinity;
  completedInWindow = 0;
  private slowInWindow = 0;
  overCount = 0;
  stoppedEarly = false;
  /** The slowest window operation answered so far (µs). */
  slowestInWindow_us = 0;
  /** Where the window was ended early, settled (endWindowAt); null: it runs to its end. */
  settledAt_us: number | null = null;
  /** Operations answered since the load began (warm-up included). */
  servedOps = 0;
  outstandingMeasured = 0;
  /** Window operations whose start is scheduled (a thread behind its schedule starts them late). */
  scheduledMeasured = 0;
  /** How many threads send to each node now (the run steps a node ahead only while none do). */
  private readonly targeting: Int32Array;
  /** The approximate fast mode's record of each window operation (null: not kept). */
  opLog: OpLog | null = null;

  constructor(
    private readonly s: ClientSettings,
    private readonly sizes: WireSizes,
    private readonly rt: ClientRuntime,
    private readonly rngWork: Prng,
    private readonly rngThrottle: Prng,
    /** SLO search: stop once the p99 can no longer meet this (RunHooks.stop_when_p99_exceeds_us). */
    private readonly stopOver_us: number | undefined,
    /** Count the window's operations slower than this (RunHooks.count_over_us). */
    private readonly countOver_us: number | undefined,
    /** The mitigation sandbox's counters (null: none). */
    private readonly mitStats: MitigationStats | null,
    /** SLO search: how many of the window's operations may be slower than stopOver_us before
     * the run stops (RunHooks.stop_when_over_count_exceeds); by default what a p99 allows, 1 %
     * of the window's expected operations (+ 1). */
    private readonly stopBudget?: number,
  ) {
    this.value = 'v'.repeat(s.value_bytes);
    this.tick_us = s.mode === 'open' ? throttleTickUs(s.target_ops_per_s, s.threads) : 0;
    this.chooser = s.exact ? keyChooser(s.distribution, s.record_count) : null;
    if (s.exact) for (let i = 0; i < s.engine_records; i++) this.engineKeys.push(engineKey(ycsbKey(i), s.key_bytes));
    this.targeting = new Int32Array(rt.node_count);
    for (let i = 0; i < s.threads; i++) {
      this.threads.push(newClientThread(i, i % rt.node_count));
      this.targeting[i % rt.node_count]!++;
    }
  }

  /** Thread t sends to `node` from now on. */
  retarget(t: ClientThread, node: number): void {
    this.targeting[t.target]!--;
    this.targeting[node]!++;
    t.target = node;
  }

  /** The number of threads whose requests go to `node`. */
  targetingNode(node: number): number {
    return this.targeting[node] ?? 0;
  }

  /** The load phase first (exact mode: the engines' scaled-down records), then the workload
   * with YCSB's throttle. */
  begin(): void {
    const s = this.s;
    if (s.exact && s.engine_records > 0) {
      for (let k = 0; k < s.engine_records; k++) this.threads[k % s.threads]!.load_keys.push(k);
      this.loadRemaining = s.engine_records;
      for (const t of this.threads) if (t.load_keys.length > 0) this.rt.push(0, { k: EV.op_start, thread: t.id });
    } else this.startWorkload(0);
  }

  get loading(): boolean {
    return this.workloadStart_us === Infinity;
  }

  private startWorkload(t0: number): void {
    const s = this.s;
    this.workloadStart_us = t0;
    this.measureFrom_us = t0 + s.warmup_s * 1e6;
    this.measureTo_us = this.measureFrom_us + s.duration_s * 1e6;
    this.hardStop_us = this.measureTo_us + s.drain_s * 1e6;
    for (const t of this.threads) {
      t.ops_done = 0;
      // YCSB spreads the threads over the first tick when the per-thread target is ≤ 1 op/ms.
      const offset = s.mode === 'open' && this.tick_us >= 1000 ? this.rngThrottle.nextInt(Math.max(1, Math.floor(this.tick_us))) : 0;
      t.schedule_start_us = t0 + offset;
      this.scheduleOp(t, s.mode === 'open' ? t.schedule_start_us : t0, t.schedule_start_us);
    }
  }

  startOp(t: ClientThread, now: number = this.rt.now()): void {
    if (t.busy) return;
    const loading = t.load_keys.length > 0;
    if (loading) {
      const k = t.load_keys.shift()!;
      t.op = 'update';
      t.key = this.engineKeys[k]!;
      t.intended_us = now;
      t.measured = false;
    } else {
      const s = this.s;
      t.op = this.rngWork.nextDouble() < s.read_proportion ? 'read' : 'update';
      if (this.chooser) t.key = this.engineKeys[this.chooser.next(this.rngWork) % s.engine_records]!;
      t.intended_us = s.mode === 'open' ? t.schedule_start_us + t.ops_done * this.tick_us : now;
      t.measured = t.intended_us >= this.measureFrom_us && t.intended_us < this.measureTo_us;
      if (t.measured) {
        this.outstandingMeasured++;
        this.scheduledMeasured--;
      }
    }
    t.busy = true;
    t.start_us = now;
    this.send(t, now);
  }

  send(t: ClientThread, now: number = this.rt.now()): void {
    t.request_id++;
    // The command line is the engines' input: fast mode has no engine and only its size.
    const exact = this.s.exact;
    const line = !exact ? '' : t.op === 'read' ? `get ${t.key}` : `put ${t.key} ${this.value}`;
    const bytes = exact ? line.length + 1 : t.op === 'read' ? this.sizes.read.request_line : this.sizes.update.request_line;
    const at = this.rt.arrival(CLIENT_ENDPOINT_BASE + t.id, t.target, bytes, now);
    this.rt.push(at, { k: EV.arrival, node: t.target, inc: this.rt.incarnation(t.target), kind: 'client', client_id: t.client_id, request_id: t.request_id, op: t.op, line, bytes });
    t.sent_us = now;
  }

  onReply(t: ClientThread, request_id: number, result: string, leader: number | undefined): void {
    if (!t.busy || request_id !== t.request_id) return; // a late answer to an abandoned attempt
    if (result === 'busy') {
      // MITMEM: retry at once at another replica.
      this.retarget(t, (t.target + 1) % this.rt.node_count);
      this.send(t);
      return;
    }
    if (result === 'leader_is' && leader !== undefined) {
      if (this.mitStats && t.busy_from !== null && leader === t.busy_from) this.mitStats.busy_retries_redirected_back++;
      this.retarget(t, leader);
      this.send(t);
      return;
    }
    if (result === 'retry') {
      // The same operation again after a back-off; its intended start (and so its latency
      // clock) stays, as in YCSB where the retry happens inside the measured call.
      this.rt.push(this.rt.now() + this.s.retry_backoff_us, { k: EV.resend, thread: t.id, request_id: t.request_id });
      return;
    }
    // ok / not_found / bad_command: the operation is over.
    this.finish(t, this.rt.now());
  }

  /** A resend after `retry`, unless the operation has moved on. */
  resend(t: ClientThread, request_id: number): void {
    if (t.busy && t.request_id === request_id) this.send(t);
  }

  /** No answer for a request timeout: the node may be down or cut off. Try the next one. */
  timeoutSweep(): void {
    const now = this.rt.now();
    for (const t of this.threads) {
      if (t.busy && now - t.sent_us >= this.s.request_timeout_us) {
        this.retarget(t, (t.target + 1) % this.rt.node_count);
        this.send(t);
      }
    }
  }

  /** The operation of thread t ends at `at` (its answer's arrival). */
  finish(t: ClientThread, at: number): void {
    t.busy_from = null;
    if (t.measured) this.record(t, at, false);
    t.busy = false;
    if (this.workloadStart_us === Infinity) {
      // load phase
      this.loadRemaining--;
      this.loadEnd_us = Math.max(this.loadEnd_us, at);
      if (t.load_keys.length > 0) this.rt.push(at, { k: EV.op_start, thread: t.id });
      if (this.loadRemaining === 0) this.startWorkload(this.loadEnd_us);
      return;
    }
    t.ops_done++;
    this.servedOps++;
    // The next operation is issued however late it starts, if it was meant for the window.
    const intended = this.s.mode === 'open' ? t.schedule_start_us + t.ops_done * this.tick_us : at;
    if (intended >= this.measureTo_us) return;
    if (this.s.issue_ahead) {
      // The thread's request goes out on its own link (no other sender on it), so it can be
      // issued now, dated at its start: one queue event fewer per operation.
      if (intended >= this.measureFrom_us) this.scheduledMeasured++;
      this.startOp(t, Math.max(at, intended));
    } else this.scheduleOp(t, intended, Math.max(at, intended));
  }

  private scheduleOp(t: ClientThread, intended: number, start: number): void {
    if (intended >= this.measureFrom_us && intended < this.measureTo_us) this.scheduledMeasured++;
    this.rt.push(start, { k: EV.op_start, thread: t.id });
  }

  private record(t: ClientThread, end_us: number, censored: boolean): void {
    const lat = end_us - t.intended_us;
    (t.op === 'read' ? this.hist.read : this.hist.update).record(lat);
    if (this.countOver_us !== undefined && lat > this.countOver_us) this.overCount++;
    if (lat > this.slowestInWindow_us) this.slowestInWindow_us = lat;
    this.histService.record(end_us - t.start_us);
    this.opLog?.add(t.intended_us, lat, end_us - t.start_us, t.op === 'update', censored);
    this.outstandingMeasured--;
    const limit = this.stopOver_us;
    if (limit !== undefined && lat > limit && ++this.slowInWindow > this.slowAllowed()) this.stoppedEarly = true;
    if (!censored) this.completedInWindow++;
    t.measured = false;
  }

  /** Every operation of the window is answered (or was never meant to be issued). */
  windowDone(now: number): boolean {
    return now >= this.measureTo_us && this.outstandingMeasured === 0 && this.scheduledMeasured === 0;
  }

  /** Open loop, operations issued ahead: no window operation is more than `lag_us` past its
   * intended start unanswered (no backlog), and, with `calm_us`, none answered took longer. */
  settled(lag_us: number, calm_us?: number): boolean {
    if (!this.s.issue_ahead || this.settledAt_us !== null) return false;
    if (calm_us !== undefined && this.slowestInWindow_us > calm_us) return false;
    return this.overdueInWindow(lag_us) === 0;
  }

  /** The window ends now instead of at its planned end: operations intended from now on are
   * not measured, those already issued are answered and measured as usual. Only with
   * operations issued ahead, where no start of a window operation waits in the queue. */
  endWindowAt(now: number): void {
    this.settledAt_us = now;
    this.measureTo_us = Math.min(this.measureTo_us, now);
    this.hardStop_us = Math.min(this.hardStop_us, this.measureTo_us + this.s.drain_s * 1e6);
  }

  /** SLO search: the p99 can no longer meet the limit, counting the overdue backlog too. */
  checkDecided(): void {
    const limit = this.stopOver_us;
    if (limit !== undefined && this.slowInWindow + this.overdueInWindow(limit) > this.slowAllowed()) this.stoppedEarly = true;
  }

  /** Operations of the window still unanswered when the run stops count with the latency they
   * had reached (they are at least that slow), and so do the window's operations a thread
   * behind its schedule never got to start: an overloaded or stalled system cannot hide its
   * backlog (YCSB issues every operation of the run, however late, and measures it from its
   * intended start). */
  censorUnfinished(stop: number): void {
    for (const t of this.threads) {
      // An operation issued ahead (issue_ahead) whose start is after the stop was never started.
      const started = t.busy && t.start_us <= stop;
      if (t.busy && t.measured) {
        if (started) this.record(t, Math.max(stop, t.intended_us), true);
        else this.recordUnstarted(t, stop);
      }
      if (this.s.mode !== 'open' || !Number.isFinite(this.measureTo_us)) continue;
      for (let k = t.busy ? t.ops_done + 1 : t.ops_done; ; k++) {
        const intended = t.schedule_start_us + k * this.tick_us;
        if (intended >= this.measureTo_us) break;
        if (intended < this.measureFrom_us) continue;
        const op: OpKind = this.rngWork.nextDouble() < this.s.read_proportion ? 'read' : 'update';
        const lat = Math.max(stop, intended) - intended;
        (op === 'read' ? this.hist.read : this.hist.update).record(lat);
        if (this.countOver_us !== undefined && lat > this.countOver_us) this.overCount++;
        this.opLog?.add(intended, lat, NaN, op === 'update', true);
      }
    }
  }

  /** A window operation issued ahead but not started by the stop: as one the thread never got
   * to (censorUnfinished's loop), with the operation kind it already drew. */
  private recordUnstarted(t: ClientThread, stop: number): void {
    const lat = Math.max(stop, t.intended_us) - t.intended_us;
    (t.op === 'read' ? this.hist.read : this.hist.update).record(lat);
    if (this.countOver_us !== undefined && lat > this.countOver_us) this.overCount++;
    this.opLog?.add(t.intended_us, lat, NaN, t.op === 'update', true);
    this.outstandingMeasured--;
    t.measured = false;
  }

  /** Open loop: the window's operations not finished yet whose intended start is more than
   * `limit` ago. Each will be slower than `limit` however it ends (a thread finishes its
   * operations in order, and an answered one is recorded at once), so an overloaded probe is
   * decided by its backlog as soon as it forms, not when the slow answers finally arrive. */
  private overdueInWindow(limit: number): number {
    if (this.s.mode !== 'open' || !Number.isFinite(this.measureTo_us)) return 0;
    return overdueOps(this.threads, this.tick_us, this.measureFrom_us, Math.min(this.measureTo_us, this.rt.now() - limit));
  }

  /** Reads and updates together (recorded once each, merged at the end). */
  allLatencies(): LatencyHistogram {
    const all = new LatencyHistogram();
    all.add(this.hist.read);
    all.add(this.hist.update);
    return all;
  }

  private slowAllowed(): number {
    return this.stopBudget ?? 0.01 * this.expectedOps() + 1;
  }

  private expectedOps(): number {
    return this.s.mode === 'open' ? this.s.target_ops_per_s * this.s.duration_s : Infinity;
  }
}

/** Open loop: how many of the threads' window operations (intended in [from_us, bound_us)) are
 * not finished yet. A thread's operation k is intended at schedule_start_us + k · tick_us and
 * its first ops_done operations are finished. */
export function overdueOps(threads: readonly ClientThread[], tick: number, from_us: number, bound: number): number {
  if (bound <= from_us) return 0;
  let overdue = 0;
  for (const t of threads) {
    const s0 = t.schedule_start_us;
    // The first unfinished window operation and the first one not overdue, checked with the
    // same expression as their intended starts (no rounding may add one).
    let lo = Math.max(t.ops_done, Math.ceil((from_us - s0) / tick));
    while (lo > t.ops_done && s0 + (lo - 1) * tick >= from_us) lo--;
    while (s0 + lo * tick < from_us) lo++;
    let hi = Math.max(lo, Math.ceil((bound - s0) / tick));
    while (hi > lo && s0 + (hi - 1) * tick >= bound) hi--;
    while (s0 + hi * tick < bound) hi++;
    overdue += hi - lo;
  }
  return overdue;
}

/** The engines' keys: YCSB's key text, cut or padded to the workload's key size. */
export function engineKey(ycsb: string, bytes: number): string {
  return ycsb.length >= bytes ? ycsb.slice(0, bytes) : ycsb + '0'.repeat(bytes - ycsb.length);
}
