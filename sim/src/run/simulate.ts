// A load run: a cluster (real engines in exact mode, the protocol model in fast mode) under
// YCSB-style load, in virtual time, with the network, CPU and runtime (GC / allocator) models.
// One event queue ordered by (time, sequence) drives everything; every random draw comes from
// a seeded stream; nothing reads the wall clock.
import type { EngineName, EngineProvider, ModelCard, NodeTimelines, RunResult, RunSpec, TimelinePoint } from '../api.ts';
import { EventQueue } from '../core/heap.ts';
import { NodeSet } from '../core/nodes.ts';
import { Prng } from '../core/prng.ts';
import { STREAM_MITIGATION, STREAM_NETWORK, STREAM_STORAGE, STREAM_THROTTLE, STREAM_WORKLOAD } from '../core/streams.ts';
import type { TimerName } from '../core/effects.ts';
import { keyChooser, throttleTickUs, ycsbKey, type KeyChooser } from '../load/ycsb.ts';
import { LatencyHistogram } from '../metrics/histogram.ts';
import { CLIENT_ENDPOINT_BASE, Network } from '../net/network.ts';
import { DEFAULT_CARD, param, validateCard } from '../models/card.ts';
import { CpuPool } from '../models/cpu.ts';
import { allocCosts, opBytes, type AllocCosts, type Role } from '../models/alloc.ts';
import { cpuCosts, GIB, makeRuntime, type CpuCosts } from '../models/node-model.ts';
import type { RuntimeModel } from '../models/runtime.ts';
import { G1Runtime, type G1State } from '../models/g1.ts';
import { EngineHost, FastHost, type FastCluster, type Host, type NodeEvent, type NodeOutput, type OpKind } from './hosts.ts';
import type { GcPending } from '../models/runtime.ts';
import { bladeOn, emptyStats, handoffTarget, mitmemOn, mitmemRejects, PermissionBoard, predictPause_ms, type MitigationStats } from '../models/mitigation.ts';
import { wireSizes, type WireSizes } from './sizes.ts';
import { DiskQueue, deviceModel, recoveryEstimate, storageCosts, summarise, writeCpu_us, type DeviceModel, type Flush, type StorageCosts, type StorageStats } from '../models/storage.ts';
import { DurableHost } from './durable-host.ts';
import { resolveSpec, type ResolvedSpec } from './spec.ts';

export type { EngineProvider };

export interface RunHooks {
  /** Called now and then with the share of virtual time done (0..1). */
  progress?: (fraction: number) => void;
  /** Polled now and then; returning true stops the run with a CancelledError. */
  cancelled?: () => boolean;
  /** SLO search: stop as soon as more than 1 % of the window's expected operations are slower
   * than this (the p99 can no longer meet it). The result says stopped_early. */
  stop_when_p99_exceeds_us?: number;
  /** Count the window's operations slower than this (RunResult.ops_over). */
  count_over_us?: number;
  /** Fast mode, the steady-state shortcut: G1 collectors start in these phases, [leader,
   * follower] (node 0 leads in fast mode; the other nodes take the follower's). */
  g1_states?: G1State[];
}

export class CancelledError extends Error {
  constructor() {
    super('run cancelled');
    this.name = 'CancelledError';
  }
}

type Ev =
  | Arrival // an event arriving at a node
  | { k: 2; node: number; gen: number; timer: TimerName } // timer due
  | { k: 3; thread: number } // a client thread starts its next operation
  | { k: 4; thread: number; request_id: number; result: string; leader: number | undefined } // reply reaches a client
  | { k: 5 } // periodic sweep for client requests that timed out
  | { k: 6; thread: number; request_id: number } // client resends after a `retry`
  // the mitigation sandbox (models/mitigation.ts)
  | { k: 7; from: number; to: number } // BLADE: the handoff reaches the new leader
  | { k: 8; node: number } // BLADE: a permission request reaches the leader
  | { k: 9; node: number } // BLADE: a permission reaches the node
  | { k: 10; node: number } // BLADE: is the node's collection over?
  | { k: 11; thread: number; from: number; to: number } // BLADE: the old leader tells a client who leads now
  | { k: 12; node: number; inc: number; flush: Flush }; // durability: a flush of the node's device is done

interface ClientThread {
  id: number;
  client_id: number;
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

interface SimNode {
  id: number;
  engine: EngineName;
  host: Host | null;
  inc: number;
  pool: CpuPool;
  runtime: RuntimeModel;
  cpu: CpuCosts;
  alloc: AllocCosts;
  opsEntered: number;
  allocatedBytes: number;
  timerGen: Record<TimerName, number>;
  crashed_at_us: number | null;
  heapSamples: number[];
  isG1: boolean;
  /** BLADE: where this node's next collection stands. */
  blade: 'idle' | 'handoff' | 'asked' | 'granted' | 'collecting';
  /** BLADE: an old leader waits until then before it asks to collect (its clients are told of
   * the new leader; requests already on their way reach it while it still runs). */
  blade_drain_until_us: number;
  /** durability: the node's device (null: durability none) */
  disk: DiskQueue | null;
}

/** An event on its way to a node: the event itself, addressed (one object per arrival). */
type Arrival = NodeEvent & { k: 0; node: number; inc: number };

const MAX_EVENTS = 2_000_000_000;
// Timer events carry nothing but their name: one object each, shared (hosts only read events).
const COMMIT_TIMER: NodeEvent = { kind: 'timer', timer: 'commit' };
const ELECTION_TIMER: NodeEvent = { kind: 'timer', timer: 'election' };

export function simulate(specIn: RunSpec, provide: EngineProvider | null, hooks: RunHooks = {}): RunResult {
  const card = validateCard(specIn.model_card ?? DEFAULT_CARD);
  const spec = resolveSpec(specIn, card);
  if (spec.fidelity === 'exact' && !provide) throw new Error('exact fidelity needs engines (an engine provider)');
  return new Simulation(spec, card, provide, hooks).run();
}

class Simulation {
  private readonly q = new EventQueue<Ev>();
  private now = 0;
  private readonly nodes: SimNode[] = [];
  private readonly nodeSet: NodeSet | null;
  private readonly net: Network;
  private readonly threads: ClientThread[] = [];
  private readonly rngWork: Prng;
  private readonly rngThrottle: Prng;
  private readonly chooser: KeyChooser | null;
  private readonly engineKeys: string[] = [];
  private readonly sizes: WireSizes;
  private readonly value: string;
  private readonly hist = { read: new LatencyHistogram(), update: new LatencyHistogram() };
  private readonly histService = new LatencyHistogram();
  private leader: number | null = null;
  private readonly leaderChanges: { t_s: number; leader: number }[] = [];
  private loadRemaining = 0;
  private loadEnd_us = 0;
  private workloadStart_us = Infinity;
  private measureFrom_us = Infinity;
  private measureTo_us = Infinity;
  private hardStop_us = Infinity;
  private completedInWindow = 0;
  private slowInWindow = 0;
  private overCount = 0;
  private stoppedEarly = false;
  /** Operations answered since the load began (warm-up included). */
  private servedOps = 0;
  private outstandingMeasured = 0;
  /** Window operations whose start is scheduled (a thread behind its schedule starts them late). */
  private scheduledMeasured = 0;
  private readonly tick_us: number;
  private readonly retry_backoff_us: number;
  private readonly request_timeout_us: number;
  private readonly bucket_us: number;
  // The mitigation sandbox: null when the spec asks for none (nothing below runs then).
  private readonly mit: { stats: MitigationStats; blade: boolean; mitmem: boolean; deadline_us: number; rng: Prng; board: PermissionBoard; lastCollected: number[]; granted: number } | null;
  private readonly fastCluster: FastCluster = { leader: 0, nextIndex: 1 };
  // Durability (models/storage.ts): null when the spec asks for none (nothing below runs then).
  private readonly store: { ordered: boolean; dev: DeviceModel; costs: StorageCosts } | null;

  constructor(
    private readonly spec: ResolvedSpec,
    private readonly card: ModelCard,
    provide: EngineProvider | null,
    private readonly hooks: RunHooks,
  ) {
    const seed = spec.seed;
    this.rngWork = new Prng(seed, STREAM_WORKLOAD);
    this.rngThrottle = new Prng(seed, STREAM_THROTTLE);
    this.net = new Network(spec.network, new Prng(seed, STREAM_NETWORK));
    this.sizes = wireSizes(spec.key_bytes, spec.value_bytes);
    this.value = 'v'.repeat(spec.value_bytes);
    this.tick_us = spec.mode === 'open' ? throttleTickUs(spec.target_ops_per_s, spec.threads) : 0;
    this.retry_backoff_us = param(card, 'clients.retry_backoff_us');
    this.request_timeout_us = param(card, 'clients.request_timeout_us');
    this.bucket_us = spec.timeline_bucket_us;
    const exact = spec.fidelity === 'exact';
    this.chooser = exact ? keyChooser(spec.distribution, spec.record_count) : null;
    if (exact) for (let i = 0; i < spec.engine_records; i++) this.engineKeys.push(engineKey(ycsbKey(i), spec.key_bytes));
    const durable = spec.storage.durability !== 'none';
    this.nodeSet = exact ? new NodeSet(spec.engines.map((e) => provide!(e)), { seed, commit_interval_us: spec.commit_interval_us, trace: false, ...(durable ? { durability: 'log' as const } : {}) }) : null;
    this.store = durable ? { ordered: spec.storage.durability === 'ordered', dev: deviceModel(card, spec.storage.device), costs: storageCosts(card) } : null;
    const storageRng = durable ? new Prng(seed, STREAM_STORAGE) : null;
    const logInstances = Math.ceil(spec.target_ops_per_s * 2 * (spec.commit_interval_us / 1e6)) + 64;
    spec.engines.forEach((engine, id) => {
      const pool = new CpuPool(spec.vcpus, this.bucket_us);
      this.nodes.push({
        id,
        engine,
        host: null,
        inc: 0,
        pool,
        runtime: makeRuntime(card, { engine, memory_bytes: spec.memory_bytes, vcpus: spec.vcpus, records: spec.record_count, log_instances: logInstances }, pool),
        cpu: cpuCosts(card, engine),
        alloc: allocCosts(card, engine),
        opsEntered: 0,
        allocatedBytes: 0,
        timerGen: { election: 0, commit: 0 },
        crashed_at_us: null,
        heapSamples: [],
        isG1: engine === 'java',
        blade: 'idle',
        blade_drain_until_us: 0,
        disk: this.store ? new DiskQueue(this.store.dev, this.store.ordered ? 1 : this.store.dev.queue_depth, storageRng!) : null,
      });
    });
    const m = spec.mitigation;
    this.mit =
      m.mode === 'none' && m.collector === 'on'
        ? null
        : {
            stats: emptyStats(m.mode, m.collector),
            blade: bladeOn(m.mode),
            mitmem: mitmemOn(m.mode),
            deadline_us: m.deadline_ms * 1000,
            rng: new Prng(seed, STREAM_MITIGATION),
            board: new PermissionBoard(Math.floor((spec.engines.length - 1) / 2)),
            lastCollected: [],
            granted: 0,
          };
    if (this.mit?.blade) for (const n of this.nodes) n.runtime.setGate?.((t, pending) => this.bladeGate(n, t, pending));
    if (m.collector === 'off') for (const n of this.nodes) n.runtime.disableCollector?.();
  }

  run(): RunResult {
    const s = this.spec;
    for (const n of this.nodes) this.boot(n);
    const phases = this.hooks.g1_states;
    if (phases && s.fidelity === 'fast') for (const n of this.nodes) if (n.isG1) (n.runtime as G1Runtime).setState(n.id === 0 ? phases[0]! : (phases[1] ?? phases[0]!));
    if (s.fidelity === 'fast') this.setLeader(0, 0);
    // Client threads: the load phase first (exact mode: the engines' scaled-down records), then
    // the workload with YCSB's throttle.
    for (let i = 0; i < s.threads; i++) {
      const t: ClientThread = {
        id: i,
        client_id: 1000 + i,
        target: i % s.engines.length,
        request_id: 0,
        busy: false,
        op: 'read',
        key: '',
        intended_us: 0,
        start_us: 0,
        sent_us: 0,
        measured: false,
        schedule_start_us: 0,
        ops_done: 0,
        load_keys: [],
        busy_from: null,
      };
      this.threads.push(t);
    }
    if (s.fidelity === 'exact' && s.engine_records > 0) {
      for (let k = 0; k < s.engine_records; k++) this.threads[k % s.threads]!.load_keys.push(k);
      this.loadRemaining = s.engine_records;
      for (const t of this.threads) if (t.load_keys.length > 0) this.q.push(0, { k: 3, thread: t.id });
    } else this.startWorkload(0);
    this.q.push(this.request_timeout_us / 4, { k: 5 });

    let events = 0;
    let nextCheck = 0;
    for (;;) {
      const time_us = this.q.peekTime();
      if (time_us === Infinity || time_us > this.hardStop_us) break;
      const item = this.q.pop()!;
      this.now = time_us;
      this.handle(item);
      if (++events >= nextCheck) {
        nextCheck = events + 20_000;
        if (events > MAX_EVENTS) throw new Error('run exceeded its event budget');
        if (this.hooks.cancelled?.()) throw new CancelledError();
        if (this.hooks.progress && Number.isFinite(this.measureTo_us)) this.hooks.progress(Math.min(1, this.now / this.measureTo_us));
        const limit = this.hooks.stop_when_p99_exceeds_us;
        if (limit !== undefined && this.slowInWindow + this.overdueInWindow(limit) > 0.01 * this.expectedOps() + 1) this.stoppedEarly = true;
      }
      if (this.now >= this.measureTo_us && this.outstandingMeasured === 0 && this.scheduledMeasured === 0) break;
      if (this.stoppedEarly) break;
    }
    // Operations of the window still unanswered when the run stops count with the latency they
    // had reached (they are at least that slow), and so do the window's operations a thread
    // behind its schedule never got to start: an overloaded or stalled system cannot hide its
    // backlog (YCSB issues every operation of the run, however late, and measures it from its
    // intended start).
    const stop = Math.min(this.now, this.hardStop_us);
    for (const t of this.threads) {
      if (t.busy && t.measured) this.record(t, Math.max(stop, t.intended_us), true);
      if (this.spec.mode !== 'open' || !Number.isFinite(this.measureTo_us)) continue;
      for (let k = t.busy ? t.ops_done + 1 : t.ops_done; ; k++) {
        const intended = t.schedule_start_us + k * this.tick_us;
        if (intended >= this.measureTo_us) break;
        if (intended < this.measureFrom_us) continue;
        const op: OpKind = this.rngWork.nextDouble() < this.spec.read_proportion ? 'read' : 'update';
        const lat = Math.max(stop, intended) - intended;
        (op === 'read' ? this.hist.read : this.hist.update).record(lat);
        if (this.hooks.count_over_us !== undefined && lat > this.hooks.count_over_us) this.overCount++;
      }
    }
    this.nodeSet?.close();
    return this.result();
  }

  // --- nodes ---

  private boot(n: SimNode): void {
    if (this.nodeSet) {
      const node = this.nodeSet.boot(n.id);
      n.host = new EngineHost(node);
    } else {
      const host = new FastHost(n.id, this.nodes.length, this.spec.commit_interval_us, this.sizes, this.fastCluster);
      n.host = this.store ? new DurableHost(host, this.store.ordered ? 'ordered' : 'scattered', this.recordBytes()) : host;
    }
    n.inc++;
    this.q.push(this.now, { k: 0, node: n.id, inc: n.inc, kind: 'start' });
  }

  /** The node is gone (an OOM kill): its instance is destroyed, its timers die with it. */
  private crash(n: SimNode): void {
    if (!n.host) return;
    if (this.nodeSet) this.nodeSet.crash(n.id);
    n.host = null;
    n.inc++;
    n.crashed_at_us = this.now;
    n.timerGen.election++;
    n.timerGen.commit++;
    if (this.leader === n.id) this.leader = null;
    if (this.mit?.blade) this.bladeDone(n);
  }

  /** An event reaches a node at time t: its parallel work is placed on a core, its core step
   * on the Log mutex; the step itself runs when the serialized section starts. */
  private onArrive(n: SimNode, ev: NodeEvent): void {
    n.runtime.advance(this.now);
    if (n.runtime.oom_at_us !== null) {
      this.crash(n);
      return;
    }
    // The core step belongs where the Log mutex is granted. The mutex is granted in arrival
    // order, so each node's steps happen in the order its events arrive: the step is taken now
    // and its effects leave at the times the models give. Nothing observes a core in between.
    const out = n.host!.step(ev);
    const c = n.cpu;
    const bytesIn = ev.kind === 'client' || ev.kind === 'message' ? ev.bytes : 0;
    const pre = (ev.kind === 'client' || ev.kind === 'message' ? c.in_us : c.timer_us) + (c.per_kib_us * bytesIn) / 1024;
    let post = 0;
    // Handing a persist to the disk: inside the serialized section for an ordered log (its
    // records go down in log order under the Log mutex); on any core for scattered entries.
    let serialWrite = 0;
    for (const o of out) {
      if (o.kind === 'send' || o.kind === 'reply') {
        post += c.out_us + (c.per_kib_us * o.bytes) / 1024;
      } else if (o.kind === 'persist') {
        const w = writeCpu_us(this.store!.costs, o.bytes);
        if (this.store!.ordered) serialWrite += w;
        else post += w;
      }
    }
    // Allocation: a node allocates an operation's bytes (card: per role and kind, measured on
    // the native engines, everything the operation costs that node included) once, where the
    // operation enters its log; every event pays the allocator per allocation. The runtime may
    // answer with extra CPU for this event (Go assists, allocator work) and may start a collection.
    // The exact mode's load phase only gives the engines their scaled-down keys; the memory
    // model already holds every modelled record, so loading allocates nothing here.
    const entering = this.workloadStart_us === Infinity ? null : opEntering(ev, out);
    const allocated = entering ? opBytes(n.alloc, entering.role, entering.op) : 0;
    if (entering) n.opsEntered++;
    n.allocatedBytes += allocated;
    post += n.runtime.charge(this.now, allocated, n.alloc.allocs_per_event);
    if (n.isG1 && isUpdate(ev)) (n.runtime as G1Runtime).onUpdate();
    // The event's work is one piece on a core (a thread waiting for the mutex gives its core
    // back, so the wait is not on the core); the serialized part waits for the mutex; the
    // effects leave when both the work and the serialized section are done, and not before a
    // goroutine parked on Go's assist queue is woken (it holds neither a core nor the mutex).
    const core = n.pool.run(this.now, pre + c.step_us + serialWrite + post);
    const ser = n.pool.serial(core.start_us + pre, c.step_us + serialWrite);
    const sendAt = Math.max(core.end_us, ser.end_us + post, n.runtime.assistParkedUntil_us?.() ?? 0);
    n.heapSamples[Math.floor(ser.start_us / this.bucket_us)] = n.runtime.heapBytes();
    for (const o of out) this.emit(n, o, ser.start_us, ser.end_us, sendAt);
  }

  private emit(n: SimNode, o: NodeOutput, serStart: number, serEnd: number, sendAt: number): void {
    switch (o.kind) {
      case 'send': {
        if (this.net.isCut(n.id, o.to)) return;
        const at = this.net.arrival(n.id, o.to, o.bytes, sendAt);
        this.q.push(at, { k: 0, node: o.to, inc: this.nodes[o.to]!.inc, kind: 'message', from: n.id, type: o.type, payload: o.payload, bytes: o.bytes, update: o.update });
        return;
      }
      case 'reply': {
        const thread = o.client_id - 1000;
        if (thread < 0 || thread >= this.threads.length) return;
        const at = this.net.arrival(n.id, CLIENT_ENDPOINT_BASE + thread, o.bytes, sendAt);
        const t = this.threads[thread]!;
        if (o.result !== 'leader_is' && o.result !== 'retry' && t.busy && o.request_id === t.request_id) {
          if (t.busy_from !== null && this.mit) {
            if (n.id !== t.busy_from) this.mit.stats.busy_retries_served_elsewhere++;
            t.busy_from = null;
          }
          // A final answer: nothing can happen to this thread before it arrives, so the
          // operation is completed now, at its arrival time (one event fewer per operation).
          this.finish(t, at);
          return;
        }
        this.q.push(at, { k: 4, thread, request_id: o.request_id, result: o.result, leader: o.leader });
        return;
      }
      case 'set_timer': {
        const gen = ++n.timerGen[o.timer];
        this.q.push(serEnd + o.delay_us, { k: 2, node: n.id, gen, timer: o.timer });
        // Only a leader arms the commit timer: that is how the simulator sees who leads.
        if (o.timer === 'commit' && this.leader !== n.id) this.setLeader(n.id, serStart);
        return;
      }
      case 'cancel_timer':
        n.timerGen[o.timer]++;
        if (o.timer === 'commit' && this.leader === n.id) this.leader = null;
        return;
      case 'persist':
        // An ordered log's records leave the serialized section for the disk; a scattered
        // entry leaves when the step's work is done.
        for (const f of n.disk!.submit(this.store!.ordered ? serEnd : sendAt, o.persist_id, o.bytes)) this.q.push(f.done_us, { k: 12, node: n.id, inc: n.inc, flush: f });
        return;
    }
  }

  /** A flush is done: the device starts what waited, and the node hears which persists are durable. */
  private flushDone(n: SimNode, inc: number, f: Flush): void {
    if (!n.host || n.inc !== inc) return; // the node died: what it had not written is lost
    for (const next of n.disk!.complete(this.now, f)) this.q.push(next.done_us, { k: 12, node: n.id, inc, flush: next });
    this.onArrive(n, { kind: 'persisted', ids: f.ids });
  }

  /** Bytes of the fast mode's records: an instance holds its command (key, and the value of a put). */
  private recordBytes() {
    const c = this.store!.costs;
    return {
      read: c.record_overhead_bytes + this.spec.key_bytes,
      update: c.record_overhead_bytes + this.spec.key_bytes + this.spec.value_bytes,
      commit_mark: c.small_record_bytes,
    };
  }

  private setLeader(id: number, t: number): void {
    this.leader = id;
    this.leaderChanges.push({ t_s: round6(t / 1e6), leader: id });
  }

  private handle(e: Ev): void {
    switch (e.k) {
      case 0: {
        const n = this.nodes[e.node]!;
        if (!n.host || n.inc !== e.inc) return; // lost: the node is down or restarted
        if (this.mit?.mitmem && e.kind === 'client' && this.mitmemBusy(n, e.client_id, e.request_id)) return;
        this.onArrive(n, e);
        return;
      }
      case 2: {
        const n = this.nodes[e.node]!;
        if (!n.host || n.timerGen[e.timer] !== e.gen) return; // replaced or cancelled
        this.onArrive(n, e.timer === 'commit' ? COMMIT_TIMER : ELECTION_TIMER);
        return;
      }
      case 3:
        return this.startOp(this.threads[e.thread]!);
      case 4:
        return this.onReply(this.threads[e.thread]!, e.request_id, e.result, e.leader);
      case 5: {
        // No answer for a request timeout: the node may be down or cut off. Try the next one.
        for (const t of this.threads) {
          if (t.busy && this.now - t.sent_us >= this.request_timeout_us) {
            t.target = (t.target + 1) % this.nodes.length;
            this.send(t);
          }
        }
        if (this.q.size > 0) this.q.push(this.now + this.request_timeout_us / 4, { k: 5 });
        return;
      }
      case 6: {
        const t = this.threads[e.thread]!;
        if (t.busy && t.request_id === e.request_id) this.send(t);
        return;
      }
      case 7:
        return this.bladeHandoffArrives(e.from, e.to);
      case 8:
        return this.bladeRequestArrives(e.node);
      case 9: {
        const n = this.nodes[e.node]!;
        if (n.host && n.blade === 'asked') n.blade = 'granted';
        return;
      }
      case 10:
        return this.bladeCheckDone(this.nodes[e.node]!);
      case 11: {
        // Later requests go to the new leader; one already sent is answered by the old one.
        const t = this.threads[e.thread]!;
        if (t.target === e.from) t.target = e.to;
        return;
      }
      case 12:
        return this.flushDone(this.nodes[e.node]!, e.inc, e.flush);
    }
  }

  // --- the mitigation sandbox (models/mitigation.ts) ---

  /** BLADE's upcall: the runtime is about to collect. A leader hands off first; a follower
   * asks the leader for permission; the collection waits until it is granted. */
  private bladeGate(n: SimNode, _t: number, _pending: GcPending): boolean {
    const m = this.mit!;
    switch (n.blade) {
      case 'granted':
        n.blade = 'collecting';
        m.granted++;
        this.q.push(this.now, { k: 10, node: n.id });
        return true;
      case 'collecting':
        return true;
      case 'handoff':
      case 'asked':
        return false;
      case 'idle':
        break;
    }
    m.stats.gc_pending++;
    m.stats.held_collections++;
    if (!n.host) return true;
    if (this.fastCluster.leader === n.id) {
      const to = handoffTarget(n.id, this.nodes.length, m.lastCollected, (id) => !!this.nodes[id]!.host && this.nodes[id]!.blade === 'idle');
      if (to === null) return true; // no peer can lead: collect as without BLADE
      n.blade = 'handoff';
      this.q.push(this.net.arrival(n.id, to, 64, this.now), { k: 7, from: n.id, to });
      return false;
    }
    // The old leader first finishes what it proposed (it answers its own clients) and lets the
    // requests already sent to it arrive (BLADE's T_proxy).
    if ((n.host instanceof FastHost && n.host.inFlight() > 0) || this.now < n.blade_drain_until_us) {
      m.stats.held_collections--;
      m.stats.gc_pending--;
      return false;
    }
    n.blade = 'asked';
    const leader = this.fastCluster.leader;
    this.q.push(this.net.arrival(n.id, leader, 64, this.now), { k: 8, node: n.id });
    return false;
  }

  private bladeHandoffArrives(from: number, to: number): void {
    const old = this.nodes[from]!;
    const next = this.nodes[to]!;
    if (old.blade === 'handoff') old.blade = 'idle';
    if (!next.host || !(next.host instanceof FastHost)) return;
    next.host.takeOver();
    this.mit!.stats.handoffs++;
    this.q.push(this.now, { k: 0, node: to, inc: next.inc, kind: 'start' }); // it starts its commit timer as leader
    // The old leader tells its clients (a small, known set here) who leads now, and waits a round
    // trip for the requests already on their way before it collects.
    let last = this.now;
    for (const t of this.threads) {
      if (t.target !== from) continue;
      const at = this.net.arrival(from, CLIENT_ENDPOINT_BASE + t.id, 12, this.now);
      last = Math.max(last, at);
      this.q.push(at, { k: 11, thread: t.id, from, to });
    }
    old.blade_drain_until_us = last + 2 * this.spec.network.one_way_latency_us;
  }

  private bladeRequestArrives(node: number): void {
    const m = this.mit!;
    if (m.board.request(node)) this.bladeGrant(node);
  }

  private bladeGrant(node: number): void {
    const m = this.mit!;
    m.stats.max_collecting_at_once = Math.max(m.stats.max_collecting_at_once, m.board.count);
    this.q.push(this.net.arrival(this.fastCluster.leader, node, 64, this.now), { k: 9, node });
  }

  private bladeCheckDone(n: SimNode): void {
    if (n.blade !== 'collecting') return;
    const until = n.runtime.collectingUntil_us?.() ?? 0;
    if (until > this.now) {
      this.q.push(until, { k: 10, node: n.id });
      return;
    }
    this.bladeDone(n);
  }

  /** The node's collection is over (or the node died): the next waiting node may collect. */
  private bladeDone(n: SimNode): void {
    const m = this.mit!;
    if (n.blade === 'collecting') m.lastCollected.push(n.id);
    n.blade = 'idle';
    const next = m.board.done(n.id);
    if (next !== null) this.bladeGrant(next);
  }

  /** MITMEM: a client request reaches a node in a stop-the-world pause. Its runtime thread,
   * not stopped, answers `busy` when the predicted rest of the pause is longer than what is
   * left of the request's deadline; a request already past its deadline waits as before. */
  private mitmemBusy(n: SimNode, client_id: number, request_id: number): boolean {
    const m = this.mit!;
    // Go's cycles slow a node rather than stop it: only G1's pauses hold requests.
    const stopUntil = n.isG1 ? (n.runtime.collectingUntil_us?.() ?? 0) : 0;
    if (stopUntil <= this.now) return false;
    const thread = client_id - 1000;
    const t = this.threads[thread];
    if (!t || !t.busy || t.request_id !== request_id) return false;
    const left_ms = (m.deadline_us - (this.now - t.intended_us)) / 1000;
    if (left_ms <= 0) return false;
    const predicted = predictPause_ms((stopUntil - this.now) / 1000, m.rng);
    if (!mitmemRejects(predicted, left_ms)) return false;
    m.stats.busy_replies++;
    t.busy_from = n.id;
    const at = this.net.arrival(n.id, CLIENT_ENDPOINT_BASE + thread, 12, this.now);
    this.q.push(at, { k: 4, thread, request_id, result: 'busy', leader: undefined });
    return true;
  }

  // --- clients ---

  private startWorkload(t0: number): void {
    const s = this.spec;
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

  private startOp(t: ClientThread): void {
    if (t.busy) return;
    const loading = t.load_keys.length > 0;
    if (loading) {
      const k = t.load_keys.shift()!;
      t.op = 'update';
      t.key = this.engineKeys[k]!;
      t.intended_us = this.now;
      t.measured = false;
    } else {
      const s = this.spec;
      t.op = this.rngWork.nextDouble() < s.read_proportion ? 'read' : 'update';
      if (this.chooser) t.key = this.engineKeys[this.chooser.next(this.rngWork) % s.engine_records]!;
      t.intended_us = s.mode === 'open' ? t.schedule_start_us + t.ops_done * this.tick_us : this.now;
      t.measured = t.intended_us >= this.measureFrom_us && t.intended_us < this.measureTo_us;
      if (t.measured) {
        this.outstandingMeasured++;
        this.scheduledMeasured--;
      }
    }
    t.busy = true;
    t.start_us = this.now;
    this.send(t);
  }

  private send(t: ClientThread): void {
    t.request_id++;
    // The command line is the engines' input: fast mode has no engine and only its size.
    const exact = this.spec.fidelity === 'exact';
    const line = !exact ? '' : t.op === 'read' ? `get ${t.key}` : `put ${t.key} ${this.value}`;
    const bytes = exact ? line.length + 1 : t.op === 'read' ? this.sizes.read.request_line : this.sizes.update.request_line;
    const at = this.net.arrival(CLIENT_ENDPOINT_BASE + t.id, t.target, bytes, this.now);
    this.q.push(at, { k: 0, node: t.target, inc: this.nodes[t.target]!.inc, kind: 'client', client_id: t.client_id, request_id: t.request_id, op: t.op, line, bytes });
    t.sent_us = this.now;
  }

  private onReply(t: ClientThread, request_id: number, result: string, leader: number | undefined): void {
    if (!t.busy || request_id !== t.request_id) return; // a late answer to an abandoned attempt
    if (result === 'busy') {
      // MITMEM: retry at once at another replica.
      t.target = (t.target + 1) % this.nodes.length;
      this.send(t);
      return;
    }
    if (result === 'leader_is' && leader !== undefined) {
      if (this.mit && t.busy_from !== null && leader === t.busy_from) this.mit.stats.busy_retries_redirected_back++;
      t.target = leader;
      this.send(t);
      return;
    }
    if (result === 'retry') {
      // The same operation again after a back-off; its intended start (and so its latency
      // clock) stays, as in YCSB where the retry happens inside the measured call.
      this.q.push(this.now + this.retry_backoff_us, { k: 6, thread: t.id, request_id: t.request_id });
      return;
    }
    // ok / not_found / bad_command: the operation is over.
    this.finish(t, this.now);
  }

  /** The operation of thread t ends at `at` (its answer's arrival). */
  private finish(t: ClientThread, at: number): void {
    t.busy_from = null;
    if (t.measured) this.record(t, at, false);
    t.busy = false;
    if (this.workloadStart_us === Infinity) {
      // load phase
      this.loadRemaining--;
      this.loadEnd_us = Math.max(this.loadEnd_us, at);
      if (t.load_keys.length > 0) this.q.push(at, { k: 3, thread: t.id });
      if (this.loadRemaining === 0) this.startWorkload(this.loadEnd_us);
      return;
    }
    t.ops_done++;
    this.servedOps++;
    // The next operation is issued however late it starts, if it was meant for the window.
    const intended = this.spec.mode === 'open' ? t.schedule_start_us + t.ops_done * this.tick_us : at;
    if (intended < this.measureTo_us) this.scheduleOp(t, intended, Math.max(at, intended));
  }

  private scheduleOp(t: ClientThread, intended: number, start: number): void {
    if (intended >= this.measureFrom_us && intended < this.measureTo_us) this.scheduledMeasured++;
    this.q.push(start, { k: 3, thread: t.id });
  }

  private record(t: ClientThread, end_us: number, censored: boolean): void {
    const lat = end_us - t.intended_us;
    (t.op === 'read' ? this.hist.read : this.hist.update).record(lat);
    if (this.hooks.count_over_us !== undefined && lat > this.hooks.count_over_us) this.overCount++;
    this.histService.record(end_us - t.start_us);
    this.outstandingMeasured--;
    const limit = this.hooks.stop_when_p99_exceeds_us;
    if (limit !== undefined && lat > limit && ++this.slowInWindow > 0.01 * this.expectedOps() + 1) this.stoppedEarly = true;
    if (!censored) this.completedInWindow++;
    t.measured = false;
  }

  /** Open loop: the window's operations not finished yet whose intended start is more than
   * `limit` ago. Each will be slower than `limit` however it ends (a thread finishes its
   * operations in order, and an answered one is recorded at once), so an overloaded probe is
   * decided by its backlog as soon as it forms, not when the slow answers finally arrive. */
  private overdueInWindow(limit: number): number {
    if (this.spec.mode !== 'open' || !Number.isFinite(this.measureTo_us)) return 0;
    const bound = Math.min(this.measureTo_us, this.now - limit);
    if (bound <= this.measureFrom_us) return 0;
    const tick = this.tick_us;
    let overdue = 0;
    for (const t of this.threads) {
      const s0 = t.schedule_start_us;
      // The first unfinished window operation and the first one not overdue, checked with the
      // same expression as their intended starts (no rounding may add one).
      let lo = Math.max(t.ops_done, Math.ceil((this.measureFrom_us - s0) / tick));
      while (lo > t.ops_done && s0 + (lo - 1) * tick >= this.measureFrom_us) lo--;
      while (s0 + lo * tick < this.measureFrom_us) lo++;
      let hi = Math.max(lo, Math.ceil((bound - s0) / tick));
      while (hi > lo && s0 + (hi - 1) * tick >= bound) hi--;
      while (s0 + hi * tick < bound) hi++;
      overdue += hi - lo;
    }
    return overdue;
  }

  /** Reads and updates together (recorded once each, merged at the end). */
  private allLatencies(): LatencyHistogram {
    const all = new LatencyHistogram();
    all.add(this.hist.read);
    all.add(this.hist.update);
    return all;
  }

  private expectedOps(): number {
    return this.spec.mode === 'open' ? this.spec.target_ops_per_s * this.spec.duration_s : Infinity;
  }

  // --- results ---

  private mitigationStats(): MitigationStats {
    const m = this.mit!;
    // Collections that ran without a permission: the runtime could not wait (memory exhausted).
    const started = this.nodes.reduce((a, n) => a + n.runtime.events.filter((g) => g.kind === 'g1_young' || g.kind === 'g1_mixed' || g.kind === 'g1_full' || g.kind === 'go_cycle').length, 0);
    return { ...m.stats, forced_collections: m.blade ? Math.max(0, started - m.granted) : 0 };
  }

  /** The run's disks, and how long a node would take to come back at the end of it: restarted
   * from its disk, it replays a log holding the load and the run (nothing compacts it); wiped, it
   * receives the modelled dataset by state transfer. */
  private storageStats(opsPerS: number): StorageStats {
    const s = this.spec;
    const st = this.store!;
    const disks = this.nodes.map((n) => n.disk!.stats);
    const rb = this.recordBytes();
    const meanRecord = s.read_proportion * rb.read + (1 - s.read_proportion) * rb.update;
    const biggest = disks.reduce((a, d) => Math.max(a, d.bytes), 0);
    const loaded = s.record_count * rb.update;
    const recovery = recoveryEstimate(st.dev, st.costs, {
      durability: s.storage.durability,
      log_records: s.record_count + Math.round(biggest / meanRecord),
      log_bytes: loaded + biggest,
      write_rate_per_s: opsPerS,
      snapshot_bytes: s.record_count * (s.key_bytes + s.value_bytes + 16),
      snapshot_records: s.record_count,
      network_bytes_per_us: (s.network.bandwidth_gbps * 1e9) / 8 / 1e6,
      network_rtt_us: 2 * s.network.one_way_latency_us,
    });
    return summarise(s.storage, disks, recovery);
  }

  private result(): RunResult {
    const s = this.spec;
    const from = this.measureFrom_us;
    const to = this.measureTo_us;
    const nodes: NodeTimelines[] = this.nodes.map((n) => {
      const cpu: TimelinePoint[] = [];
      const gc: TimelinePoint[] = [];
      const heap: TimelinePoint[] = [];
      const u = n.pool.usage;
      const b0 = Number.isFinite(this.workloadStart_us) ? Math.floor(this.workloadStart_us / this.bucket_us) : 0;
      const b1 = Number.isFinite(to) ? Math.ceil(to / this.bucket_us) : u.busy.length;
      let lastHeap = n.runtime.heapBytes();
      for (let b = b0; b < b1; b++) {
        const t_s = round6(((b + 1) * this.bucket_us) / 1e6);
        const cap = this.bucket_us * u.cores;
        cpu.push({ t_s, value: round4(Math.min(1, (u.busy[b] ?? 0) / cap)) });
        gc.push({ t_s, value: round4(Math.min(1, (u.gc[b] ?? 0) / cap)) });
        lastHeap = n.heapSamples[b] ?? lastHeap;
        heap.push({ t_s, value: round4(lastHeap / GIB) });
      }
      const out: NodeTimelines = {
        node: n.id,
        engine: n.engine,
        cpu_utilization: cpu,
        gc_cpu_share: gc,
        gc_events: n.runtime.events.map((g) => ({ t_s: round6(g.t_s), kind: g.kind, pause_ms: round4(g.pause_ms), cpu_ms: round4(g.cpu_ms), ...(g.duration_ms !== undefined ? { duration_ms: round4(g.duration_ms) } : {}) })),
        heap_gib: heap,
        mean_cpu_utilization: Number.isFinite(from) ? round4(u.utilization(from, to).total) : 0,
        mean_gc_cpu_share: Number.isFinite(from) ? round4(u.utilization(from, to).gc) : 0,
        ops_entered: n.opsEntered,
        allocated_bytes_per_op: n.opsEntered > 0 ? round4(n.allocatedBytes / n.opsEntered) : 0,
      };
      if (n.crashed_at_us !== null) out.crashed_at_s = round6(n.crashed_at_us / 1e6);
      return out;
    });
    return {
      simulated: true,
      model_card_version: this.card.version,
      fidelity: s.fidelity,
      spec: s.original,
      dataset: {
        modelled_records: s.record_count,
        engine_records: s.fidelity === 'exact' ? s.engine_records : 0,
        memory_gib: round4(s.memory_bytes / GIB),
        raw_data_gib: round4((s.record_count * (s.key_bytes + s.value_bytes)) / GIB),
      },
      achieved_ops_per_s: Number.isFinite(from) ? round3(this.completedInWindow / s.duration_s) : 0,
      latency: { all: this.allLatencies().summary(), read: this.hist.read.summary(), update: this.hist.update.summary() },
      latency_uncorrected: { all: this.histService.summary() },
      leader_changes: this.leaderChanges,
      leader_at_end: this.leader,
      nodes,
      stopped_early: this.stoppedEarly,
      ...(this.stoppedEarly && this.now > this.workloadStart_us ? { served_ops_per_s: round3(this.servedOps / ((this.now - this.workloadStart_us) / 1e6)) } : {}),
      ...(this.mit ? { mitigation: this.mitigationStats() } : {}),
      ...(this.store ? { storage: this.storageStats(Number.isFinite(from) ? this.completedInWindow / s.duration_s : 0) } : {}),
      ...(this.hooks.count_over_us !== undefined ? { ops_over: { threshold_us: this.hooks.count_over_us, count: this.overCount } } : {}),
    };
  }
}

/** The operation this event brings into the node's log, if any: a client command the node
 * takes as leader (it proposes it, or commits it at once when it is alone), or a follower's
 * accept request. Redirects, retries, votes and timers bring none. */
export function opEntering(ev: NodeEvent, out: readonly NodeOutput[]): { readonly role: Role; readonly op: OpKind } | null {
  if (ev.kind === 'client') {
    // durable: a proposal's accept requests may be held behind its persist; the persist shows it was taken
    for (let i = 0; i < out.length; i++) {
      const o = out[i]!;
      if ((o.kind === 'send' && o.type === 'accept_request') || o.kind === 'persist' || (o.kind === 'reply' && o.result !== 'leader_is' && o.result !== 'retry')) return ev.op === 'read' ? LEADER_READ : LEADER_UPDATE;
    }
    return null;
  }
  if (ev.kind === 'message' && ev.type === 'accept_request') return ev.update ? FOLLOWER_UPDATE : FOLLOWER_READ;
  return null;
}

// The four answers of opEntering, shared (callers only read them): no object per event.
const LEADER_READ = { role: 'leader', op: 'read' } as const;
const LEADER_UPDATE = { role: 'leader', op: 'update' } as const;
const FOLLOWER_READ = { role: 'follower', op: 'read' } as const;
const FOLLOWER_UPDATE = { role: 'follower', op: 'update' } as const;

function isUpdate(ev: NodeEvent): boolean {
  return (ev.kind === 'client' && ev.op === 'update') || (ev.kind === 'message' && ev.update);
}

/** The engines' keys: YCSB's key text, cut or padded to the workload's key size. */
function engineKey(ycsb: string, bytes: number): string {
  return ycsb.length >= bytes ? ycsb.slice(0, bytes) : ycsb + '0'.repeat(bytes - ycsb.length);
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
