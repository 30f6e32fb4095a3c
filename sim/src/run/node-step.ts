// One node of a load run and the step it takes when an event reaches it: the runtime model
// brought up to now, the host's (engine's or fast model's) core step, and the event's CPU placed
// on the node's cores and Log mutex. What the effects do next (messages, replies, timers,
// persists) is the run's business (simulate.ts): a step only says when they leave.
import type { EngineName } from '../api.ts';
import type { ResolvedSpec } from './spec.ts';
import type { TimerName } from '../core/effects.ts';
import { opBytes, type AllocCosts, type Role } from '../models/alloc.ts';
import type { CpuPool } from '../models/cpu.ts';
import { cpuCosts, type CpuCosts, type NodeRuntimeSettings } from '../models/node-model.ts';
import { DEFAULT_CARD } from '../models/card.ts';
import type { RuntimeModel } from '../models/runtime.ts';
import { writeCpu_us, type DiskQueue, type StorageCosts } from '../models/storage.ts';
import type { Host, NodeEvent, NodeOutput, OpKind } from './hosts.ts';

export interface SimNode {
  id: number;
  engine: EngineName;
  host: Host | null;
  /** incarnation: raised by every crash and boot (an event for an older one is lost) */
  inc: number;
  pool: CpuPool;
  runtime: RuntimeModel;
  cpu: CpuCosts;
  alloc: AllocCosts;
  opsEntered: number;
  /** Fast mode: the time of the last step taken ahead of the queue (simulate.ts, stepAhead). */
  steppedTo_us: number;
  /** Fast mode: this node is stepped ahead of the queue (simulate.ts, stepAhead). */
  ahead: boolean;
  /** Fast mode, while not stepped ahead: its arrivals waiting in the run's queue, [time, event] pairs. */
  queued: unknown[];
  allocatedBytes: number;
  timerGen: Record<TimerName, number>;
  crashed_at_us: number | null;
  /** the runtime's heap at the last step of each timeline bucket */
  heapSamples: number[];
  /** BLADE: where this node's next collection stands. */
  blade: 'idle' | 'handoff' | 'asked' | 'granted' | 'collecting';
  /** BLADE: an old leader waits until then before it asks to collect (its clients are told of
   * the new leader; requests already on their way reach it while it still runs). */
  blade_drain_until_us: number;
  /** BLADE (fast model 1.2.0): an old leader answers client requests `retry` until its
   * successor's prepare would reach it (the cores' handing-off leader does; 0: not handing off).
   * Optional so that a node built without it starts at 0. */
  blade_retry_until_us?: number;
  /** durability: the node's device (null: durability none) */
  disk: DiskQueue | null;
}

/**
 * A node's runtime model settings in a run (one definition: the run and the probe cache). The
 * log holds about two commit intervals of instances at the rate the node serves: the offered
 * rate, but never more than the node can serve by its CPU costs (servableOpsPerS). A closed loop
 * "offers" the search's ceiling (200,000 ops/s); sized at that, a node's log was 60,064
 * instances, 54 MB on this machine's card, above the whole limit at ratio 2, so the simulated
 * C++ and Rust nodes were killed at start (docs/fidelity-native.md). The costs are the run's
 * card's (the spec's own, else the Lab's).
 */
export function runtimeSettings(spec: ResolvedSpec, engine: EngineName): NodeRuntimeSettings {
  const cpu = cpuCosts(spec.original.model_card ?? DEFAULT_CARD, engine);
  const log_instances = Math.ceil(servableOpsPerS(spec, cpu) * 2 * (spec.commit_interval_us / 1e6)) + 64;
  return { engine, memory_bytes: spec.memory_bytes, vcpus: spec.vcpus, records: spec.record_count, log_instances };
}

/** The offered rate, capped at the most a node could serve: each operation costs it at least a
 * receive, a core step and a reply on its vCPUs, and its steps are serialized under the Log
 * mutex. Generous on purpose, so a rate a node can serve is never cut. */
export function servableOpsPerS(spec: Pick<ResolvedSpec, 'target_ops_per_s' | 'vcpus'>, cpu: CpuCosts): number {
  const perOp_us = cpu.in_us + cpu.step_us + cpu.out_us;
  const byCores = perOp_us > 0 ? (spec.vcpus * 1e6) / perOp_us : Infinity;
  const byLogMutex = cpu.step_us > 0 ? 1e6 / cpu.step_us : Infinity;
  return Math.min(spec.target_ops_per_s, byCores, byLogMutex);
}

/** Where a step's effects go out: the serialized section (the core step under the Log mutex)
 * and the moment its sends leave. One object per run, refilled by every step. */
export interface StepTiming {
  ser_start_us: number;
  ser_end_us: number;
  send_at_us: number;
}

/** Durability's CPU side: null when the run persists nothing. */
export interface StepStorage {
  ordered: boolean;
  costs: StorageCosts;
}

/**
 * The event `ev` reaches node `n` at `now_us`. Returns the core step's effects and fills
 * `timing`, or returns null when the runtime model finds the process killed for memory (the
 * caller crashes the node; the event is lost with it).
 *
 * The core step belongs where the Log mutex is granted. The mutex is granted in arrival order,
 * so each node's steps happen in the order its events arrive: the step is taken now and its
 * effects leave at the times the models give. Nothing observes a core in between.
 */
export function stepNode(n: SimNode, ev: NodeEvent, now_us: number, loading: boolean, store: StepStorage | null, bucket_us: number, timing: StepTiming): NodeOutput[] | null {
  n.runtime.advance(now_us);
  if (n.runtime.oom_at_us !== null) return null;
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
      const w = writeCpu_us(store!.costs, o.bytes);
      if (store!.ordered) serialWrite += w;
      else post += w;
    }
  }
  placeStep(n, now_us, pre, post, serialWrite, loading ? null : opEntering(ev, out), isUpdate(ev), bucket_us, timing);
  return out;
}

/**
 * Fast mode: a follower's step for its leader's accept request, whose one effect (the accept
 * response of `response_bytes`, FastHost.acceptResponseBytes) is known without the host: the
 * same models and the same arithmetic as stepNode, without an event or an output array (two
 * such steps per operation). Returns false when the runtime finds the process killed.
 */
export function stepAcceptRequest(n: SimNode, request_bytes: number, update: boolean, response_bytes: number, now_us: number, loading: boolean, bucket_us: number, timing: StepTiming): boolean {
  n.runtime.advance(now_us);
  if (n.runtime.oom_at_us !== null) return false;
  const c = n.cpu;
  const pre = c.in_us + (c.per_kib_us * request_bytes) / 1024;
  const post = c.out_us + (c.per_kib_us * response_bytes) / 1024;
  placeStep(n, now_us, pre, post, 0, loading ? null : update ? FOLLOWER_UPDATE : FOLLOWER_READ, update, bucket_us, timing);
  return true;
}

/**
 * Fast mode: the leader's step for an accept response that changes nothing in its host
 * (FastHost.voteChangesNothing; with three nodes, each operation's second vote): the same models
 * and the same arithmetic as stepNode for an event with no effects, without the host or an
 * output array. Returns false when the runtime finds the process killed.
 */
export function stepQuietVote(n: SimNode, bytes: number, update: boolean, now_us: number, bucket_us: number, timing: StepTiming): boolean {
  n.runtime.advance(now_us);
  if (n.runtime.oom_at_us !== null) return false;
  const c = n.cpu;
  placeStep(n, now_us, c.in_us + (c.per_kib_us * bytes) / 1024, 0, 0, null, update, bucket_us, timing);
  return true;
}

/** The step's allocation, runtime charge and CPU: its parallel work (`pre` before the core
 * step, `post` after it) on a core, the core step (and an ordered log's `serialWrite`) on the
 * Log mutex; fills `timing` and the node's heap sample. */
function placeStep(n: SimNode, now_us: number, pre: number, post: number, serialWrite: number, entering: { readonly role: Role; readonly op: OpKind } | null, update: boolean, bucket_us: number, timing: StepTiming): void {
  const c = n.cpu;
  // Allocation: a node allocates an operation's bytes (card: per role and kind, measured on
  // the native engines, everything the operation costs that node included) once, where the
  // operation enters its log; every event pays the allocator per allocation. The runtime may
  // answer with extra CPU for this event (Go assists, allocator work) and may start a collection.
  // The exact mode's load phase only gives the engines their scaled-down keys; the memory
  // model already holds every modelled record, so loading allocates nothing here.
  const allocated = entering ? opBytes(n.alloc, entering.role, entering.op) : 0;
  if (entering) n.opsEntered++;
  n.allocatedBytes += allocated;
  post += n.runtime.charge(now_us, allocated, n.alloc.allocs_per_event);
  if (update && n.runtime.onUpdate) n.runtime.onUpdate();
  // The event's work is one piece on a core (a thread waiting for the mutex gives its core
  // back, so the wait is not on the core); the serialized part waits for the mutex; the
  // effects leave when both the work and the serialized section are done, and not before a
  // goroutine parked on Go's assist queue is woken (it holds neither a core nor the mutex).
  const pool = n.pool;
  const placed = pool.placed;
  pool.place(now_us, pre + c.step_us + serialWrite + post);
  const coreEnd_us = placed[1]!;
  pool.placeSerial(placed[0]! + pre, c.step_us + serialWrite);
  const serStart_us = placed[0]!;
  const serEnd_us = placed[1]!;
  timing.ser_start_us = serStart_us;
  timing.ser_end_us = serEnd_us;
  timing.send_at_us = Math.max(coreEnd_us, serEnd_us + post, n.runtime.assistParkedUntil_us?.() ?? 0);
  n.heapSamples[Math.floor(serStart_us / bucket_us)] = n.runtime.heapBytes();
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

/** The event replaces a value in the map (a client's put at the leader, its accept at a follower). */
export function isUpdate(ev: NodeEvent): boolean {
  return (ev.kind === 'client' && ev.op === 'update') || (ev.kind === 'message' && ev.update);
}
