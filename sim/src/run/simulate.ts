// A load run: a cluster (real engines in exact mode, the protocol model in fast mode) under
// YCSB-style load, in virtual time, with the network, CPU and runtime (GC / allocator) models.
// One event queue ordered by (time, sequence) drives everything; every random draw comes from
// a seeded stream; nothing reads the wall clock.
import type { EngineProvider, ModelCard, RunResult, RunSpec } from '../api.ts';
import { EventQueue } from '../core/heap.ts';
import { NodeSet } from '../core/nodes.ts';
import { Prng } from '../core/prng.ts';
import { STREAM_MITIGATION, STREAM_RUNTIME, STREAM_NETWORK, STREAM_STORAGE, STREAM_THROTTLE, STREAM_WORKLOAD } from '../core/streams.ts';
import { CLIENT_ENDPOINT_BASE, Network } from '../net/network.ts';
import { DEFAULT_CARD, param, validateCard } from '../models/card.ts';
import { CpuPool } from '../models/cpu.ts';
import { allocCosts } from '../models/alloc.ts';
import { cpuCosts, GIB, makeRuntime } from '../models/node-model.ts';
import type { G1State } from '../models/g1.ts';
import { EngineHost, FastHost, newFastCluster, type FastCluster, type FastMsg, type NodeEvent, type NodeOutput } from './hosts.ts';
import type { GcPending } from '../models/runtime.ts';
import { BLADE_ELECTION_BATCH, BLADE_REPAIR_BATCH, bladeOn, emptyStats, handoffTarget, mitmemOn, mitmemRejects, PermissionBoard, predictPause_ms, type MitigationStats } from '../models/mitigation.ts';
import { wireSizes, type WireSizes } from './sizes.ts';
import { DiskQueue, deviceModel, recoveryEstimate, storageCosts, summarise, type DeviceModel, type Flush, type StorageCosts, type StorageStats } from '../models/storage.ts';
import { DurableHost } from './durable-host.ts';
import { Clients, threadOfClient } from '../load/clients.ts';
import { EV, type Arrival, type Ev } from './events.ts';
import { runtimeSettings, stepNode, type SimNode, type StepTiming } from './node-step.ts';
import { resolveSpec, type ResolvedSpec } from './spec.ts';
import { nodeTimelines, round3, round4, round6, type RunWindow } from '../results/timelines.ts';

export type { EngineProvider };

export interface RunHooks {
  /** Called now and then with the share of virtual time done (0..1). */
  progress?: (fraction: number) => void;
  /** Polled now and then; returning true stops the run with a CancelledError. */
  cancelled?: () => boolean;
  /** SLO search: stop as soon as more than 1 % of the window's expected operations are slower
   * than this (the p99 can no longer meet it). The result says stopped_early. */
  stop_when_p99_exceeds_us?: number;
  /** With stop_when_p99_exceeds_us: stop once more than this many operations are slower (by
   * default 1 % of the window's expected operations, + 1). A run that is one part of a probe
   * (slo.ts, the steady-state shortcut) gets what the probe's verdict has left. */
  stop_when_over_count_exceeds?: number;
  /** Count the window's operations slower than this (RunResult.ops_over). */
  count_over_us?: number;
  /** Fast mode, the steady-state shortcut: G1 collectors start in these phases, [leader,
   * follower] (node 0 leads in fast mode; the other nodes take the follower's). */
  g1_states?: G1State[];
  /** Fast mode: false takes every follower step from the queue (the plain run that stepping
   * ahead is checked against); default true. */
  step_ahead?: boolean;
}

export class CancelledError extends Error {
  constructor() {
    super('run cancelled');
    this.name = 'CancelledError';
  }
}

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
  private readonly sizes: WireSizes;
  private leader: number | null = null;
  private readonly leaderChanges: { t_s: number; leader: number }[] = [];
  private readonly request_timeout_us: number;
  private readonly clients: Clients;
  private readonly bucket_us: number;
  private readonly timing: StepTiming = { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 };
  /** Fast mode, a follower's steps taken when the leader sends (stepAhead): on, and in one now. */
  private readonly ahead: { on: boolean; busy: boolean; timing: StepTiming; ev: NodeEvent & { kind: 'message' } };
  // The mitigation sandbox: null when the spec asks for none (nothing below runs then).
  private readonly mit: { stats: MitigationStats; blade: boolean; mitmem: boolean; deadline_us: number; rng: Prng; board: PermissionBoard; lastCollected: number[]; granted: number } | null;
  private readonly fastCluster: FastCluster = newFastCluster();
  // Durability (models/storage.ts): null when the spec asks for none (nothing below runs then).
  private readonly store: { ordered: boolean; dev: DeviceModel; costs: StorageCosts } | null;

  constructor(
    private readonly spec: ResolvedSpec,
    private readonly card: ModelCard,
    provide: EngineProvider | null,
    private readonly hooks: RunHooks,
  ) {
    const seed = spec.seed;
    this.net = new Network(spec.network, new Prng(seed, STREAM_NETWORK));
    this.sizes = wireSizes(spec.key_bytes, spec.value_bytes);
    this.request_timeout_us = param(card, 'clients.request_timeout_us');
    this.bucket_us = spec.timeline_bucket_us;
    const exact = spec.fidelity === 'exact';
    const durable = spec.storage.durability !== 'none';
    // Exact mode's BLADE is the cores' own (docs/protocol.md, "GC mitigation"); MITMEM's busy
    // rule stays the run loop's (mitmemBusy), in both modes.
    const coreBlade = exact && bladeOn(spec.mitigation.mode);
    this.nodeSet = exact
      ? new NodeSet(spec.engines.map((e) => provide!(e)), { seed, commit_interval_us: spec.commit_interval_us, trace: false, ...(durable ? { durability: 'log' as const } : {}), ...(coreBlade ? { mitigation: 'blade' as const, election_batch: BLADE_ELECTION_BATCH, repair_batch: BLADE_REPAIR_BATCH } : {}) })
      : null;
    this.store = durable ? { ordered: spec.storage.durability === 'ordered', dev: deviceModel(card, spec.storage.device), costs: storageCosts(card) } : null;
    const storageRng = durable ? new Prng(seed, STREAM_STORAGE) : null;
    // The steady-state shortcut (fast mode): node 0 leads, the others start in the follower's phase.
    const phases = spec.fidelity === 'fast' ? hooks.g1_states : undefined;
    // Each process's collector at its own point of its cycle sequence (card 1.6.0 on): the
    // paper's processes were started and loaded separately, so their cycles are not in step.
    const runtimeRng = (card.parameters['go.independent_phases']?.value ?? 0) > 0 ? new Prng(seed, STREAM_RUNTIME) : null;
    spec.engines.forEach((engine, id) => {
      const pool = new CpuPool(spec.vcpus, this.bucket_us);
      this.nodes.push({
        id,
        engine,
        host: null,
        inc: 0,
        pool,
        runtime: makeRuntime(card, { ...runtimeSettings(spec, engine), ...(phases ? { g1_state: id === 0 ? phases[0]! : (phases[1] ?? phases[0]!) } : {}), ...(runtimeRng ? { go_start_phase: runtimeRng.nextDouble() } : {}) }, pool),
        cpu: cpuCosts(card, engine),
        alloc: allocCosts(card, engine),
        opsEntered: 0,
        steppedTo_us: 0,
        ahead: false,
        queued: [],
        allocatedBytes: 0,
        timerGen: { election: 0, commit: 0 },
        crashed_at_us: null,
        heapSamples: [],
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
    // Without the mitigation sandbox (BLADE moves the leader, MITMEM answers from a paused node)
    // and durability (a node's flushes are events of its own), a fast-mode follower hears only
    // its leader, over one FIFO link, once no client sends to it.
    this.ahead = {
      on: !exact && !durable && this.mit === null && hooks.step_ahead !== false,
      busy: false,
      timing: { ser_start_us: 0, ser_end_us: 0, send_at_us: 0 },
      ev: { kind: 'message', from: 0, type: '', payload: '', bytes: 0, update: false },
    };
    this.clients = new Clients(
      {
        exact,
        mode: spec.mode,
        threads: spec.threads,
        target_ops_per_s: spec.target_ops_per_s,
        read_proportion: spec.read_proportion,
        distribution: spec.distribution,
        record_count: spec.record_count,
        engine_records: spec.engine_records,
        key_bytes: spec.key_bytes,
        value_bytes: spec.value_bytes,
        warmup_s: spec.warmup_s,
        duration_s: spec.duration_s,
        drain_s: spec.drain_s,
        retry_backoff_us: param(card, 'clients.retry_backoff_us'),
        request_timeout_us: this.request_timeout_us,
        issue_ahead: this.ahead.on && spec.mode === 'open',
      },
      this.sizes,
      { now: () => this.now, push: (t, ev) => this.push(t, ev), arrival: (from, to, bytes, at) => this.net.arrival(from, to, bytes, at), incarnation: (node) => this.nodes[node]!.inc, node_count: this.nodes.length },
      new Prng(seed, STREAM_WORKLOAD),
      new Prng(seed, STREAM_THROTTLE),
      hooks.stop_when_p99_exceeds_us,
      hooks.count_over_us,
      this.mit?.stats ?? null,
      hooks.stop_when_over_count_exceeds,
    );
    if (this.mit?.blade) for (const n of this.nodes) n.runtime.setGate?.((t, pending) => this.bladeGate(n, t, pending));
    if (m.collector === 'off') for (const n of this.nodes) n.runtime.disableCollector?.();
  }

  /** Every event goes into the queue here: it counts the arrivals waiting for each node. */
  private push(t_us: number, ev: Ev): void {
    if (ev.k === EV.arrival && this.ahead.on) {
      const n = this.nodes[ev.node]!;
      if (!n.ahead && n.id !== this.fastCluster.leader) n.queued.push(t_us, ev);
    }
    this.q.push(t_us, ev);
  }

  run(): RunResult {
    const s = this.spec;
    for (const n of this.nodes) this.boot(n);
    if (s.fidelity === 'fast') this.setLeader(0, 0);
    this.clients.begin();
    this.push(this.request_timeout_us / 4, { k: EV.timeout_sweep });

    const c = this.clients;
    let events = 0;
    let nextCheck = 0;
    // Nothing left to happen before the hard stop (e.g. every node died): the clock runs on to it.
    let quietToHardStop = false;
    for (;;) {
      const time_us = this.q.peekTime();
      if (time_us === Infinity || time_us > c.hardStop_us) {
        quietToHardStop = Number.isFinite(c.hardStop_us);
        break;
      }
      const item = this.q.pop()!;
      this.now = time_us;
      this.handle(item);
      if (++events >= nextCheck) {
        // about every 3,300 operations either way (stepping ahead halves the events per operation)
        nextCheck = events + (this.ahead.on ? 10_000 : 20_000);
        if (events > MAX_EVENTS) throw new Error('run exceeded its event budget');
        if (this.hooks.cancelled?.()) throw new CancelledError();
        if (this.hooks.progress && Number.isFinite(c.measureTo_us)) this.hooks.progress(Math.min(1, this.now / c.measureTo_us));
        c.checkDecided();
      }
      if (c.windowDone(this.now) || c.stoppedEarly) break;
    }
    // Censoring at the last event instead would give the window's later operations, never
    // answered, a latency of zero (a dead cluster then "met" any SLO).
    this.clients.censorUnfinished(quietToHardStop ? c.hardStop_us : Math.min(this.now, c.hardStop_us));
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
    this.push(this.now, { k: EV.arrival, node: n.id, inc: n.inc, kind: 'start' });
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
    // A node stepped ahead has taken its steps up to steppedTo_us: an event that reaches it
    // through the queue after all (a client that timed out over to it) is taken after them.
    const t_us = Math.max(this.now, n.steppedTo_us);
    this.stepAt(n, ev, t_us, this.timing);
  }

  private stepAt(n: SimNode, ev: NodeEvent, t_us: number, tm: StepTiming): void {
    const out = stepNode(n, ev, t_us, this.clients.loading, this.store, this.bucket_us, tm);
    if (out === null) {
      this.crash(n);
      return;
    }
    if (this.nodeSet && this.mit?.blade) this.bladeCoreOutputs(n, out);
    for (const o of out) this.emit(n, o, tm.ser_start_us, tm.ser_end_us, tm.send_at_us);
  }

  /**
   * Fast mode: the leader's message to a follower no client sends to is stepped at once, at its
   * arrival time, instead of waiting in the queue for it (two queue events fewer per operation).
   * Such a follower's events all come from the leader over one FIFO link, so it takes them in
   * the order they arrive either way, and nothing else reads its state in between; its answer
   * goes back through the queue. What moves: the network's jitter stream is drawn in another
   * order, and a follower may have stepped up to one network delay past the run's last event.
   */
  /** The follower starts being stepped ahead: what waits for it in the queue (sent by the
   * leader, in order, over their one link) is stepped now and skipped when it comes out.
   * Refused while anything else waits for it (a request from a client that timed out over to it). */
  private takeAhead(to: SimNode, leader: number): boolean {
    const q = to.queued;
    for (let i = 1; i < q.length; i += 2) {
      const e = q[i] as Ev;
      if (e.k !== EV.arrival || e.kind !== 'message' || e.from !== leader) return false;
    }
    to.ahead = true;
    to.queued = [];
    for (let i = 0; i < q.length; i += 2) {
      const e = q[i + 1] as Arrival & { kind: 'message' };
      e.taken = true;
      if (to.host && to.inc === e.inc) this.stepAhead(to, e.from, e, q[i] as number);
    }
    return true;
  }

  private stepAhead(to: SimNode, from: number, o: { type: string; payload: string | FastMsg; bytes: number; update: boolean }, at_us: number): void {
    const a = this.ahead;
    const ev = a.ev;
    ev.from = from;
    ev.type = o.type;
    ev.payload = o.payload;
    ev.bytes = o.bytes;
    ev.update = o.update;
    const now = this.now;
    a.busy = true;
    this.now = at_us; // a crash (an OOM kill) is dated by it
    to.steppedTo_us = at_us;
    this.stepAt(to, ev, at_us, a.timing);
    this.now = now;
    a.busy = false;
  }

  private emit(n: SimNode, o: NodeOutput, ser_start_us: number, ser_end_us: number, send_at_us: number): void {
    switch (o.kind) {
      case 'send': {
        if (this.net.isCut(n.id, o.to)) return;
        const at = this.net.arrival(n.id, o.to, o.bytes, send_at_us);
        const a = this.ahead;
        if (a.on && !a.busy && o.to !== this.fastCluster.leader && at <= this.clients.hardStop_us ) {
          const to = this.nodes[o.to]!;
          if (this.clients.targetingNode(to.id) !== 0) to.ahead = false;
          else if (to.ahead || this.takeAhead(to, n.id)) {
            if (to.host) this.stepAhead(to, n.id, o, at);
            return;
          }
        }
        this.push(at, { k: EV.arrival, node: o.to, inc: this.nodes[o.to]!.inc, kind: 'message', from: n.id, type: o.type, payload: o.payload, bytes: o.bytes, update: o.update });
        return;
      }
      case 'reply': {
        const thread = threadOfClient(o.client_id, this.clients.threads.length);
        if (thread === null) return;
        const at = this.net.arrival(n.id, CLIENT_ENDPOINT_BASE + thread, o.bytes, send_at_us);
        const t = this.clients.threads[thread]!;
        if (o.result !== 'leader_is' && o.result !== 'retry' && t.busy && o.request_id === t.request_id) {
          if (t.busy_from !== null && this.mit) {
            if (n.id !== t.busy_from) this.mit.stats.busy_retries_served_elsewhere++;
            t.busy_from = null;
          }
          // A final answer: nothing can happen to this thread before it arrives, so the
          // operation is completed now, at its arrival time (one event fewer per operation).
          this.clients.finish(t, at);
          return;
        }
        this.push(at, { k: EV.reply, thread, request_id: o.request_id, result: o.result, leader: o.leader });
        return;
      }
      case 'set_timer': {
        const gen = ++n.timerGen[o.timer];
        this.push(ser_end_us + o.delay_us, { k: EV.timer, node: n.id, gen, timer: o.timer });
        // Only a leader arms the commit timer: that is how the simulator sees who leads.
        if (o.timer === 'commit' && this.leader !== n.id) this.setLeader(n.id, ser_start_us);
        return;
      }
      case 'cancel_timer':
        n.timerGen[o.timer]++;
        if (o.timer === 'commit' && this.leader === n.id) this.leader = null;
        return;
      case 'collect': // handled where the step ran (bladeCoreOutputs)
        return;
      case 'persist':
        // An ordered log's records leave the serialized section for the disk; a scattered
        // entry leaves when the step's work is done.
        for (const f of n.disk!.submit(this.store!.ordered ? ser_end_us : send_at_us, o.persist_id, o.bytes)) this.push(f.done_us, { k: EV.flush_done, node: n.id, inc: n.inc, flush: f });
        return;
    }
  }

  /** A flush is done: the device starts what waited, and the node hears which persists are durable. */
  private flushDone(n: SimNode, inc: number, f: Flush): void {
    if (!n.host || n.inc !== inc) return; // the node died: what it had not written is lost
    for (const next of n.disk!.complete(this.now, f)) this.push(next.done_us, { k: EV.flush_done, node: n.id, inc, flush: next });
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

  private setLeader(id: number, t_us: number): void {
    this.leader = id;
    this.leaderChanges.push({ t_s: round6(t_us / 1e6), leader: id });
  }

  private handle(e: Ev): void {
    switch (e.k) {
      case EV.arrival: {
        const n = this.nodes[e.node]!;
        if (e.taken) return; // stepped ahead already (takeAhead)
        if (this.ahead.on && !n.ahead && n.id !== this.fastCluster.leader) dropQueued(n.queued, e);
        if (!n.host || n.inc !== e.inc) return; // lost: the node is down or restarted
        if (this.mit?.mitmem && e.kind === 'client' && this.mitmemBusy(n, e.client_id, e.request_id)) return;
        if (this.mit?.blade && !this.nodeSet && e.kind === 'client' && (n.blade === 'handoff' || this.now < (n.blade_retry_until_us ?? 0))) {
          return this.bladeRetry(n, e.client_id, e.request_id);
        }
        this.onArrive(n, e);
        return;
      }
      case EV.timer: {
        const n = this.nodes[e.node]!;
        if (!n.host || n.timerGen[e.timer] !== e.gen) return; // replaced or cancelled
        this.onArrive(n, e.timer === 'commit' ? COMMIT_TIMER : ELECTION_TIMER);
        return;
      }
      case EV.op_start:
        return this.clients.startOp(this.clients.threads[e.thread]!);
      case EV.reply:
        return this.clients.onReply(this.clients.threads[e.thread]!, e.request_id, e.result, e.leader);
      case EV.timeout_sweep: {
        this.clients.timeoutSweep();
        if (this.q.size > 0) this.push(this.now + this.request_timeout_us / 4, { k: EV.timeout_sweep });
        return;
      }
      case EV.resend: {
        this.clients.resend(this.clients.threads[e.thread]!, e.request_id);
        return;
      }
      case EV.blade_handoff:
        return this.bladeHandoffArrives(e.from, e.to, e.executed);
      case EV.blade_request:
        return this.bladeRequestArrives(e.node);
      case EV.blade_permission: {
        const n = this.nodes[e.node]!;
        if (n.host && n.blade === 'asked') n.blade = 'granted';
        return;
      }
      case EV.blade_check_done:
        return this.bladeCheckDone(this.nodes[e.node]!);
      case EV.blade_new_leader: {
        // Later requests go to the new leader; one already sent is answered by the old one.
        const t = this.clients.threads[e.thread]!;
        if (t.target === e.from) this.clients.retarget(t, e.to);
        return;
      }
      case EV.flush_done:
        return this.flushDone(this.nodes[e.node]!, e.inc, e.flush);
    }
  }

  // --- the mitigation sandbox (models/mitigation.ts) ---

  /** BLADE's upcall: the runtime is about to collect. A leader hands off first; a follower
   * asks the leader for permission; the collection waits until it is granted. */
  private bladeGate(n: SimNode, _t: number, pending: GcPending): boolean {
    const m = this.mit!;
    if (this.nodeSet) return this.bladeCoreGate(n, pending);
    switch (n.blade) {
      case 'granted':
        n.blade = 'collecting';
        m.granted++;
        this.push(this.now, { k: EV.blade_check_done, node: n.id });
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
      const executed = n.host instanceof FastHost ? n.host.executedIndex() : this.fastCluster.nextIndex - 1;
      this.push(this.net.arrival(n.id, to, 64, this.now), { k: EV.blade_handoff, from: n.id, to, executed });
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
    this.push(this.net.arrival(n.id, leader, 64, this.now), { k: EV.blade_request, node: n.id });
    return false;
  }

  /** Exact mode: the engine decides. The runtime's announcement becomes a `gc_pending` event
   * to the node's core (queued, so it is stepped like any event); the collection waits for the
   * core's `collect` (at once, after its leader's grant, or after its handoff); `gc_done`
   * follows when the collection ends. */
  private bladeCoreGate(n: SimNode, pending: GcPending): boolean {
    const m = this.mit!;
    switch (n.blade) {
      case 'granted':
        n.blade = 'collecting';
        m.granted++;
        m.stats.max_collecting_at_once = Math.max(m.stats.max_collecting_at_once, this.nodes.filter((x) => x.blade === 'collecting').length);
        this.push(this.now, { k: 10, node: n.id });
        return true;
      case 'collecting':
        return true;
      case 'asked':
      case 'handoff':
        return false;
      case 'idle':
        break;
    }
    if (!n.host) return true;
    m.stats.gc_pending++;
    m.stats.held_collections++;
    n.blade = 'asked';
    const pause_us = Math.max(1, Math.round(predictPause_ms(pending.predicted_pause_ms, m.rng) * 1000));
    this.push(this.now, { k: 0, node: n.id, inc: n.inc, kind: 'gc_pending', pause_us });
    return false;
  }

  /** Exact mode: what a core step says about BLADE — a `collect` lets the held collection run
   * at the runtime's next allocation; a `handoff` broadcast is one handoff. */
  private bladeCoreOutputs(n: SimNode, out: NodeOutput[]): void {
    for (const o of out) {
      if (o.kind === 'collect' && n.blade === 'asked') n.blade = 'granted';
    }
    const firstPeer = n.id === 0 ? 1 : 0;
    if (out.some((o) => o.kind === 'send' && o.type === 'handoff' && o.to === firstPeer)) this.mit!.stats.handoffs++;
  }

  private bladeHandoffArrives(from: number, to: number, commitPoint: number): void {
    const old = this.nodes[from]!;
    const next = this.nodes[to]!;
    if (old.blade === 'handoff') old.blade = 'idle';
    if (!next.host || !(next.host instanceof FastHost)) return;
    next.host.takeOver(BLADE_ELECTION_BATCH, commitPoint);
    // the cores' old leader stays handing off (answering retry) until the successor's prepare
    // reaches it
    old.blade_retry_until_us = this.net.arrival(to, from, 64, this.now);
    this.mit!.stats.handoffs++;
    this.push(this.now, { k: EV.arrival, node: to, inc: next.inc, kind: 'start' }); // it starts its commit timer as leader
    // The old leader tells its clients (a small, known set here) who leads now, and waits a round
    // trip for the requests already on their way before it collects.
    let last = this.now;
    for (const t of this.clients.threads) {
      if (t.target !== from) continue;
      const at = this.net.arrival(from, CLIENT_ENDPOINT_BASE + t.id, 12, this.now);
      last = Math.max(last, at);
      this.push(at, { k: EV.blade_new_leader, thread: t.id, from, to });
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
    this.push(this.net.arrival(this.fastCluster.leader, node, 64, this.now), { k: EV.blade_permission, node });
  }

  private bladeCheckDone(n: SimNode): void {
    if (n.blade !== 'collecting') return;
    const until = n.runtime.collectingUntil_us?.() ?? 0;
    if (until > this.now) {
      this.push(until, { k: EV.blade_check_done, node: n.id });
      return;
    }
    this.bladeDone(n);
  }

  /** The node's collection is over (or the node died): the next waiting node may collect. */
  private bladeDone(n: SimNode): void {
    const m = this.mit!;
    if (this.nodeSet) {
      // exact mode: the core hears the end (a crashed node's core is gone)
      const wasCollecting = n.blade === 'collecting';
      n.blade = 'idle';
      if (wasCollecting && n.host) this.push(this.now, { k: 0, node: n.id, inc: n.inc, kind: 'gc_done' });
      return;
    }
    if (n.blade === 'collecting') m.lastCollected.push(n.id);
    n.blade = 'idle';
    const next = m.board.done(n.id);
    if (next !== null) this.bladeGrant(next);
  }

  /** BLADE (fast model 1.2.0): a client request that reaches a leader handing off is answered
   * `retry`, as the cores answer it (docs/protocol.md, "GC mitigation"): its successor is about
   * to take over. The client resends after its back-off, by then to whoever it was told leads. */
  private bladeRetry(n: SimNode, client_id: number, request_id: number): void {
    const thread = threadOfClient(client_id, this.clients.threads.length);
    if (thread === null) return;
    const at = this.net.arrival(n.id, CLIENT_ENDPOINT_BASE + thread, 12, this.now);
    this.push(at, { k: EV.reply, thread, request_id, result: 'retry', leader: undefined });
  }

  /** MITMEM: a client request reaches a node in a stop-the-world pause. Its runtime thread,
   * not stopped, answers `busy` when the predicted rest of the pause is longer than what is
   * left of the request's deadline; a request already past its deadline waits as before. */
  private mitmemBusy(n: SimNode, client_id: number, request_id: number): boolean {
    const m = this.mit!;
    // Go's cycles slow a node rather than stop it: only G1's pauses hold requests.
    const stopUntil = n.runtime.stoppedUntil_us?.() ?? 0;
    if (stopUntil <= this.now) return false;
    const thread = threadOfClient(client_id, this.clients.threads.length);
    if (thread === null) return false;
    const t = this.clients.threads[thread]!;
    if (!t.busy || t.request_id !== request_id) return false;
    const left_ms = (m.deadline_us - (this.now - t.intended_us)) / 1000;
    if (left_ms <= 0) return false;
    const predicted = predictPause_ms((stopUntil - this.now) / 1000, m.rng);
    if (!mitmemRejects(predicted, left_ms)) return false;
    m.stats.busy_replies++;
    t.busy_from = n.id;
    const at = this.net.arrival(n.id, CLIENT_ENDPOINT_BASE + thread, 12, this.now);
    this.push(at, { k: EV.reply, thread, request_id, result: 'busy', leader: undefined });
    return true;
  }

  // --- results ---

  private mitigationStats(): MitigationStats {
    const m = this.mit!;
    // Collections that ran without a permission: the runtime could not wait (memory exhausted).
    const started = this.nodes.reduce((a, n) => a + n.runtime.events.filter((g) => g.kind === 'g1_young' || g.kind === 'g1_mixed' || g.kind === 'g1_mixed_dense' || g.kind === 'g1_full' || g.kind === 'go_cycle').length, 0);
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
    const c = this.clients;
    const from = c.measureFrom_us;
    const to = c.measureTo_us;
    const w: RunWindow = { workload_start_us: c.workloadStart_us, from_us: from, to_us: to, bucket_us: this.bucket_us };
    const nodes = this.nodes.map((n) =>
      nodeTimelines({ id: n.id, engine: n.engine, usage: n.pool.usage, gc_events: n.runtime.events, heap_bytes_now: n.runtime.heapBytes(), heap_samples: n.heapSamples, ops_entered: n.opsEntered, allocated_bytes: n.allocatedBytes, crashed_at_us: n.crashed_at_us }, w),
    );
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
      achieved_ops_per_s: Number.isFinite(from) ? round3(c.completedInWindow / s.duration_s) : 0,
      latency: { all: c.allLatencies().summary(), read: c.hist.read.summary(), update: c.hist.update.summary() },
      latency_uncorrected: { all: c.histService.summary() },
      leader_changes: this.leaderChanges,
      leader_at_end: this.leader,
      nodes,
      stopped_early: c.stoppedEarly,
      ...(c.stoppedEarly && this.now > c.workloadStart_us ? { served_ops_per_s: round3(c.servedOps / ((this.now - c.workloadStart_us) / 1e6)) } : {}),
      ...(this.mit ? { mitigation: this.mitigationStats() } : {}),
      ...(this.store ? { storage: this.storageStats(Number.isFinite(from) ? c.completedInWindow / s.duration_s : 0) } : {}),
      ...(this.hooks.count_over_us !== undefined ? { ops_over: { threshold_us: this.hooks.count_over_us, count: c.overCount } } : {}),
    };
  }
}

/** Takes an arrival off a node's list of queued ones ([time, event] pairs, in push order). */
function dropQueued(q: unknown[], e: Ev): void {
  for (let i = 1; i < q.length; i += 2) {
    if (q[i] === e) {
      q.splice(i - 1, 2);
      return;
    }
  }
}
