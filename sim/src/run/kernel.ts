// The kernel of a load run: one event queue ordered by (time, sequence), the loop that drains
// it, and the routing of what each step produces — sends through the network (or stepped ahead
// at a follower in fast mode), replies to the clients, timers, disk writes. The mitigation
// sandbox (mitigation-sandbox.ts) and the result (run-result.ts) are their own modules;
// simulate.ts composes them.
import type { EngineProvider, ModelCard, RunResult } from '../api.ts';
import { NodeSet } from '../core/nodes.ts';
import { Prng } from '../core/prng.ts';
import { runtimeStartPhases } from '../models/start-phases.ts';
import { STREAM_NETWORK, STREAM_STORAGE, STREAM_THROTTLE, STREAM_WORKLOAD } from '../core/streams.ts';
import { CLIENT_ENDPOINT_BASE, Network } from '../net/network.ts';
import { param } from '../models/card.ts';
import { CpuPool } from '../models/cpu.ts';
import { allocCosts } from '../models/alloc.ts';
import { cpuCosts, makeRuntime } from '../models/node-model.ts';
import { acceptResponseBytes, EngineHost, FastHost, newFastCluster, type FastCluster, type FastMsg, type NodeEvent, type NodeOutput } from './hosts.ts';
import { BLADE_ELECTION_BATCH, BLADE_REPAIR_BATCH, bladeOn } from '../models/mitigation.ts';
import { MitigationSandbox } from './mitigation-sandbox.ts';
import { wireSizes, type WireSizes } from './sizes.ts';
import { DiskQueue, deviceModel, storageCosts, type DeviceModel, type Flush, type StorageCosts } from '../models/storage.ts';
import { DurableHost } from './durable-host.ts';
import { Clients, threadOfClient } from '../load/clients.ts';
import { EV, type Arrival, type Ev } from './events.ts';
import { runtimeSettings, stepAcceptRequest, stepNode, stepQuietVote, type SimNode, type StepTiming } from './node-step.ts';
import type { ResolvedSpec } from './spec.ts';
import { round6 } from '../results/timelines.ts';
import { recordBytes, runResult } from './run-result.ts';
import { CancelledError, type RunHooks } from './hooks.ts';
import { RunQueue } from './run-queue.ts';
import { NodeQueues } from './node-queue.ts';
import { OpLog } from '../load/op-log.ts';
import { APPROX_MIN_QUIET_US, APPROX_MIN_SAMPLE_US, APPROX_SETTLED_LAG_US, repeatStretch_us, steadyHeap, steadyLatencies } from './cycle-repeat.ts';

const MAX_EVENTS = 2_000_000_000;
type SendPayload = Extract<NodeOutput, { kind: 'send' }>['payload'];
// Timer events carry nothing but their name: one object each, shared (hosts only read events).
const COMMIT_TIMER: NodeEvent = { kind: 'timer', timer: 'commit' };
const ELECTION_TIMER: NodeEvent = { kind: 'timer', timer: 'election' };

export class Simulation {
  private readonly q: RunQueue;
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
  private readonly ahead: { on: boolean; busy: boolean; lanes: boolean; timing: StepTiming; ev: NodeEvent & { kind: 'message' } };
  // The mitigation sandbox: null when the spec asks for none (nothing below runs then).
  private readonly mit: MitigationSandbox | null;
  private readonly fastCluster: FastCluster;
  // Durability (models/storage.ts): null when the spec asks for none (nothing below runs then).
  private readonly store: { ordered: boolean; dev: DeviceModel; costs: StorageCosts } | null;
  /** Exact mode's batch step: each node's view of the queue (null: no node batches). Not with
   * the mitigation sandbox or durability, whose events reach a node without crossing the
   * network (node-queue.ts). */
  private batches: NodeQueues | null;
  /** The approximate fast mode (cycle-repeat.ts): null when off; once the sample ends, each
   * node's stretch that repeats (µs) and the window's planned end. */
  private approx: { stretches_us: number[] | null; plannedTo_us: number } | null = null;

  constructor(
    private readonly spec: ResolvedSpec,
    private readonly card: ModelCard,
    provide: EngineProvider | null,
    private readonly hooks: RunHooks,
  ) {
    const seed = spec.seed;
    this.q = new RunQueue(spec.engines.length);
    this.net = new Network(spec.network, new Prng(seed, STREAM_NETWORK));
    this.sizes = wireSizes(spec.key_bytes, spec.value_bytes);
    this.request_timeout_us = param(card, 'clients.request_timeout_us');
    this.bucket_us = spec.timeline_bucket_us;
    const exact = spec.fidelity === 'exact';
    const durable = spec.storage.durability !== 'none';
    // Exact mode's BLADE is the cores' own (docs/protocol.md, "GC mitigation"); MITMEM's busy
    // rule stays the simulator's (MitigationSandbox.busy), in both modes.
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
    // (G1's young collections too, card 1.8.1 on; start-phases.ts.)
    const startPhases = runtimeStartPhases(card, seed, spec.engines.length);
    spec.engines.forEach((engine, id) => {
      const pool = new CpuPool(spec.vcpus, this.bucket_us);
      this.nodes.push({
        id,
        engine,
        host: null,
        inc: 0,
        pool,
        runtime: makeRuntime(card, { ...runtimeSettings(spec, engine), ...(phases ? { g1_state: phases[Math.min(id, phases.length - 1)]! } : {}), ...(startPhases ? { go_start_phase: startPhases[id]!, g1_start_phase: startPhases[id]! } : {}) }, pool),
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
    this.fastCluster = newFastCluster();
    this.mit = MitigationSandbox.wanted(m)
      ? new MitigationSandbox(m, seed, spec.engines.length, {
          nodes: this.nodes,
          net: this.net,
          clients: () => this.clients,
          fastCluster: this.fastCluster,
          exact,
          one_way_latency_us: spec.network.one_way_latency_us,
          now: () => this.now,
          push: (t, ev) => this.push(t, ev),
        })
      : null;
    // Without the mitigation sandbox (BLADE moves the leader, MITMEM answers from a paused node)
    // and durability (a node's flushes are events of its own), a fast-mode follower hears only
    // its leader, over one FIFO link, once no client sends to it.
    this.ahead = {
      on: !exact && !durable && this.mit === null && hooks.step_ahead !== false,
      busy: false,
      lanes: hooks.link_lanes !== false,
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
    this.batches = exact && !durable && this.mit === null && hooks.batch_steps === true ? new NodeQueues(this.nodes.length, Math.min(spec.network.one_way_latency_us, spec.commit_interval_us)) : null;
    // Only where the window's operations are issued ahead (open loop, no sandbox, no durability:
    // Clients.settled) and no caller ends the window itself (the searches' samples).
    if (spec.approximate && this.ahead.on && spec.mode === 'open' && !hooks.end_when_settled) {
      this.approx = { stretches_us: null, plannedTo_us: Infinity };
      this.clients.opLog = new OpLog();
    }
    if (this.mit?.blade) for (const n of this.nodes) n.runtime.setGate?.((t, pending) => this.mit!.gate(n, t, pending));
    if (m.collector === 'off') for (const n of this.nodes) n.runtime.disableCollector?.();
  }

  /** Every event goes into the queue here: it counts the arrivals waiting for each node. */
  private push(t_us: number, ev: Ev): void {
    if (this.batches) this.batches.add(t_us, ev);
    if (ev.k === EV.arrival && this.ahead.on) {
      const n = this.nodes[ev.node]!;
      if (!n.ahead && n.id !== this.fastCluster.leader) n.queued.push(t_us, ev);
    }
    this.q.push(t_us, ev);
  }

  run(): RunResult {
    const s = this.spec;
    for (const n of this.nodes) this.boot(n);
    // no engine with the batch step: nothing to keep a view for
    if (!this.nodes.some((n) => n.host instanceof EngineHost && n.host.canBatch())) this.batches = null;
    if (s.fidelity === 'fast') this.setLeader(0, 0);
    this.clients.begin();
    this.push(this.request_timeout_us / 4, { k: EV.timeout_sweep });

    const c = this.clients;
    let events = 0;
    let nextCheck = 0;
    // Nothing left to happen before the hard stop (e.g. every node died): the clock runs on to it.
    let quietToHardStop = false;
    // The steady-state shortcut's runs may end their window once settled (RunHooks.end_when_settled),
    // looked at every SETTLE_CHECK_EVENTS events from `after_s` into the window.
    const settle = this.hooks.end_when_settled;
    const settleFrom_us = settle && Number.isFinite(c.measureFrom_us) ? c.measureFrom_us + settle.after_s * 1e6 : Infinity;
    let nextSettleCheck = settle ? 0 : Infinity;
    const plannedTo_us = c.measureTo_us;
    const approx = this.approx;
    let nextApproxCheck = approx ? 0 : Infinity;
    for (;;) {
      const time_us = this.q.peekTime();
      if (time_us === Infinity || time_us > c.hardStop_us) {
        quietToHardStop = Number.isFinite(c.hardStop_us);
        break;
      }
      const item = this.q.pop()!;
      this.now = time_us;
      if (this.batches) this.batches.take(item);
      this.handle(item);
      if (++events >= nextCheck) {
        // about every 3,300 operations either way (stepping ahead halves the events per operation)
        nextCheck = events + (this.ahead.on ? 10_000 : 20_000);
        if (events > MAX_EVENTS) throw new Error('run exceeded its event budget');
        if (this.hooks.cancelled?.()) throw new CancelledError();
        if (this.hooks.progress && Number.isFinite(c.measureTo_us)) this.hooks.progress(Math.min(1, this.now / c.measureTo_us));
        c.checkDecided();
      }
      if (events >= nextSettleCheck) {
        nextSettleCheck = events + SETTLE_CHECK_EVENTS;
        if (this.now >= settleFrom_us && this.now < c.measureTo_us && (!settle!.after_collections || this.collectionsSeen(c.measureFrom_us, plannedTo_us, settle!.after_collections)) && c.settled(settle!.lag_ms * 1000, settle!.calm_ms === undefined ? undefined : settle!.calm_ms * 1000)) {
          c.endWindowAt(this.now);
          nextSettleCheck = Infinity;
        }
      }
      if (events >= nextApproxCheck) {
        nextApproxCheck = events + SETTLE_CHECK_EVENTS;
        if (this.now >= c.measureFrom_us + APPROX_MIN_SAMPLE_US && this.now < c.measureTo_us && !c.stoppedEarly) {
          const stretches = this.repeatStretches(c.measureFrom_us, c.measureTo_us);
          if (stretches && c.settled(APPROX_SETTLED_LAG_US)) {
            // (Answered operations only: those intended in the last lag may still be in flight.)
            const answeredTo_us = this.now - APPROX_SETTLED_LAG_US;
            if (steadyLatencies(c.opLog!, c.measureFrom_us, answeredTo_us, Math.abs(stretches[0]!))) {
              approx!.stretches_us = stretches;
              approx!.plannedTo_us = c.measureTo_us;
              c.endWindowAt(this.now);
              nextApproxCheck = Infinity;
            } else nextApproxCheck = events + APPROX_STEADY_RECHECK_EVENTS;
          }
        }
      }
      if (c.windowDone(this.now) || c.stoppedEarly) break;
    }
    // Censoring at the last event instead would give the window's later operations, never
    // answered, a latency of zero (a dead cluster then "met" any SLO).
    this.clients.censorUnfinished(quietToHardStop ? c.hardStop_us : Math.min(this.now, c.hardStop_us));
    this.nodeSet?.close();
    this.hooks.window_latencies?.(this.clients.allLatencies());
    return this.result();
  }

  /** Every node's collector cycles that fall in the window are behind it: each node has had
   * `count` collections (Go's cycles, G1's pauses) that began at or after `from_us`, or is not
   * collecting and, by its pacer or eden (the bytes left to its next collection's trigger at its
   * allocation rate so far, taken PACER_RATE_MARGIN faster), starts none before the window's
   * planned end `to_us`. A runtime with no collector has none to wait for. */
  private collectionsSeen(from_us: number, to_us: number, count: number): boolean {
    for (const n of this.nodes) {
      if (collectionsSince(n.runtime.events, from_us) >= count) continue;
      if (!n.host || !n.runtime.pending) return false;
      const next = n.runtime.pending(this.now);
      if (next === null) continue;
      if ((n.runtime.collectingUntil_us?.() ?? 0) > this.now) return false;
      const bytesPerUs = (n.allocatedBytes / Math.max(this.now, 1)) * PACER_RATE_MARGIN;
      if (this.now + next.bytes_to_collection / Math.max(bytesPerUs, 1e-9) <= to_us) return false;
    }
    return true;
  }

  /** Each node's stretch ending now that repeats over the rest of the window (cycle-repeat.ts),
   * or null while some node has none yet, or the leader has changed. A node with no collection
   * due before the window's end (collectionsSeen's projection) repeats its quiet stretch
   * (negated: repeatStretch_us). */
  private repeatStretches(from_us: number, to_us: number): number[] | null {
    if (this.leaderChanges.length !== 1 || this.leader !== 0) return null;
    const out: number[] = [];
    for (const n of this.nodes) {
      if (!n.host) return null;
      if ((n.runtime.collectingUntil_us?.() ?? 0) > this.now) return null;
      const next = n.runtime.pending?.(this.now) ?? null;
      const bytesPerUs = (n.allocatedBytes / Math.max(this.now, 1)) * PACER_RATE_MARGIN;
      const quietRest = next === null || this.now + next.bytes_to_collection / Math.max(bytesPerUs, 1e-9) > to_us;
      const r = repeatStretch_us(n.runtime.events, from_us, this.now, quietRest, APPROX_MIN_QUIET_US + 2 * this.bucket_us);
      // A periodic stretch must leave the heap where it found it (G1's young periods repeat while
      // the old generation fills); a quiet one grows towards a collection the projection puts
      // past the window's end, and a young pause is what promotes, so none fills the old one.
      if (r === null || (r > 0 && !steadyHeap(n.heapSamples, this.bucket_us, from_us, this.now, r, to_us, this.spec.memory_bytes))) return null;
      out.push(r);
    }
    return out;
  }

  // --- nodes ---

  private boot(n: SimNode): void {
    if (this.nodeSet) {
      const node = this.nodeSet.boot(n.id);
      n.host = new EngineHost(node);
    } else {
      const host = new FastHost(n.id, this.nodes.length, this.spec.commit_interval_us, this.sizes, this.fastCluster);
      n.host = this.store ? new DurableHost(host, this.store.ordered ? 'ordered' : 'scattered', recordBytes(this.store.costs, this.spec.key_bytes, this.spec.value_bytes)) : host;
    }
    n.inc++;
    this.push(this.now, { k: EV.arrival, node: n.id, inc: n.inc, kind: 'start' });
  }

  /** The node is gone (an OOM kill): its instance is destroyed, its timers die with it. */
  private crash(n: SimNode): void {
    if (!n.host) return;
    if (this.nodeSet) this.nodeSet.crash(n.id);
    this.batches?.forget(n.id);
    n.host = null;
    n.inc++;
    n.crashed_at_us = this.now;
    n.timerGen.election++;
    n.timerGen.commit++;
    if (this.leader === n.id) this.leader = null;
    if (this.mit?.blade) this.mit.done(n);
  }

  /** An event reaches a node at time t: its parallel work is placed on a core, its core step
   * on the Log mutex; the step itself runs when the serialized section starts. */
  private onArrive(n: SimNode, ev: NodeEvent): void {
    // A node stepped ahead has taken its steps up to steppedTo_us: an event that reaches it
    // through the queue after all (a client that timed out over to it) is taken after them.
    const t_us = Math.max(this.now, n.steppedTo_us);
    const b = this.batches;
    if (b && n.host instanceof EngineHost && n.host.canBatch()) {
      const next = b.followers(n.id, n.inc, this.now);
      if (next.length > 0) n.host.stepNextTogether(next as readonly NodeEvent[]);
    }
    this.stepAt(n, ev, t_us, this.timing);
  }

  private stepAt(n: SimNode, ev: NodeEvent, t_us: number, tm: StepTiming): void {
    // A vote after the majority's (fast mode): the step's CPU and runtime, nothing else.
    if (ev.kind === 'message' && ev.type === 'accept_response' && n.host instanceof FastHost && n.host.voteChangesNothing(ev.payload as FastMsg)) {
      if (!stepQuietVote(n, ev.bytes, ev.update, t_us, this.bucket_us, tm)) this.crash(n);
      return;
    }
    const out = stepNode(n, ev, t_us, this.clients.loading, this.store, this.bucket_us, tm);
    if (out === null) {
      this.crash(n);
      return;
    }
    if (this.nodeSet && this.mit?.blade) this.mit.coreOutputs(n, out);
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

  private stepAhead(to: SimNode, from: number, o: { type: string; payload: SendPayload; bytes: number; update: boolean }, at_us: number): void {
    const a = this.ahead;
    const now = this.now;
    a.busy = true;
    this.now = at_us; // a crash (an OOM kill) is dated by it
    to.steppedTo_us = at_us;
    if (o.type === 'accept_request' && to.host instanceof FastHost) this.acceptAhead(to, from, o.payload, o.bytes, o.update, at_us);
    else {
      const ev = a.ev;
      ev.from = from;
      ev.type = o.type;
      ev.payload = o.payload;
      ev.bytes = o.bytes;
      ev.update = o.update;
      this.stepAt(to, ev, at_us, a.timing);
    }
    this.now = now;
    a.busy = false;
  }

  /** The follower's step for an accept request, its answer known (acceptResponseBytes): what
   * stepAt would do with the host's one send, without the host. */
  private acceptAhead(to: SimNode, from: number, payload: SendPayload, bytes: number, update: boolean, at_us: number): void {
    const tm = this.ahead.timing;
    const response_bytes = acceptResponseBytes(this.sizes);
    if (!stepAcceptRequest(to, bytes, update, response_bytes, at_us, this.clients.loading, this.bucket_us, tm)) {
      this.crash(to);
      return;
    }
    if (this.net.isCut(to.id, from)) return;
    const at = this.net.arrival(to.id, from, response_bytes, tm.send_at_us);
    this.pushMessage(at, to.id, from, 'accept_response', payload, response_bytes, false);
  }

  /** A message between nodes, sent now, reaches node `to` at `at`: in its link's FIFO lane when
   * the leader receives it while its followers are stepped ahead (run-queue.ts), else as an
   * event of its own. */
  private pushMessage(at: number, from: number, to: number, type: string, payload: SendPayload, bytes: number, update: boolean): void {
    const inc = this.nodes[to]!.inc;
    if (this.ahead.on && this.ahead.lanes && to === this.fastCluster.leader && this.q.pushMessage(at, from, to, inc, type, payload, bytes, update)) return;
    this.push(at, { k: EV.arrival, node: to, inc, kind: 'message', from, type, payload, bytes, update });
  }

  private emit(n: SimNode, o: NodeOutput, ser_start_us: number, ser_end_us: number, send_at_us: number): void {
    switch (o.kind) {
      case 'send': {
        if (this.net.isCut(n.id, o.to)) return;
        const at = this.net.arrival(n.id, o.to, o.bytes, send_at_us);
        const a = this.ahead;
        if (a.on && !a.busy && n.id === this.fastCluster.leader && o.to !== this.fastCluster.leader && at <= this.clients.hardStop_us) {
          const to = this.nodes[o.to]!;
          if (this.clients.targetingNode(to.id) !== 0) to.ahead = false;
          else if (to.ahead || this.takeAhead(to, n.id)) {
            if (to.host) this.stepAhead(to, n.id, o, at);
            return;
          }
        }
        this.pushMessage(at, n.id, o.to, o.type, o.payload, o.bytes, o.update);
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
        if (this.mit?.mitmem && e.kind === 'client' && this.mit.busy(n, e.client_id, e.request_id)) return;
        if (this.mit && e.kind === 'client' && this.mit.retries(n)) return this.mit.retry(n, e.client_id, e.request_id);
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
        return this.mit!.handoffArrives(e.from, e.to, e.executed);
      case EV.blade_request:
        return this.mit!.requestArrives(e.node);
      case EV.blade_permission:
        return this.mit!.permissionArrives(this.nodes[e.node]!);
      case EV.blade_check_done:
        return this.mit!.checkDone(this.nodes[e.node]!);
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

  // --- results ---

  private result(): RunResult {
    return runResult({
      spec: this.spec,
      card: this.card,
      clients: this.clients,
      nodes: this.nodes,
      bucket_us: this.bucket_us,
      now_us: this.now,
      leader_changes: this.leaderChanges,
      leader: this.leader,
      mitigation: this.mit ? this.mit.result() : null,
      store: this.store,
      count_over_us: this.hooks.count_over_us,
      approx: this.approx?.stretches_us ? { stretches_us: this.approx.stretches_us, planned_to_us: this.approx.plannedTo_us, leader: 0 } : null,
    });
  }
}

/** Collections (a Go cycle, a G1 pause; not G1's concurrent marking, which follows a pause) that
 * began at or after `from_us`. */
function collectionsSince(events: readonly { t_s: number; kind: string }[], from_us: number): number {
  let seen = 0;
  for (let i = events.length - 1; i >= 0 && events[i]!.t_s * 1e6 >= from_us; i--) if (events[i]!.kind !== 'g1_concurrent_mark') seen++;
  return seen;
}

/** A node's allocation may run this much faster than its average so far before its projected
 * next collection (RunHooks.end_when_settled.after_collections) is trusted to fall past the
 * window. */
const PACER_RATE_MARGIN = 1.25;

/** After a stretch whose latencies were not yet steady (cycle-repeat.ts steadyLatencies, a sort
 * of the window's operations so far), the approximate mode looks again this many events later. */
const APPROX_STEADY_RECHECK_EVENTS = 50_000;

/** How often (in queue events, a few hundred operations) a run asked to end once settled looks. */
const SETTLE_CHECK_EVENTS = 1000;

/** Takes an arrival off a node's list of queued ones ([time, event] pairs, in push order). */
function dropQueued(q: unknown[], e: Ev): void {
  for (let i = 1; i < q.length; i += 2) {
    if (q[i] === e) {
      q.splice(i - 1, 2);
      return;
    }
  }
}
