// The mitigation sandbox in a load run (models/mitigation.ts, docs/mitigation.md): BLADE's
// collection gate (a leader hands off before it collects, a follower waits for the leader's
// permission) and MITMEM's `busy` answers from a paused node. The run loop (kernel.ts) owns the
// queue and the nodes; this keeps the sandbox's state and decides what its events do.
import type { GcPending } from '../models/runtime.ts';
import { BLADE_ELECTION_BATCH, bladeOn, emptyStats, handoffTarget, mitmemOn, mitmemRejects, PermissionBoard, predictPause_ms, type MitigationStats } from '../models/mitigation.ts';
import { Prng } from '../core/prng.ts';
import { STREAM_MITIGATION } from '../core/streams.ts';
import { CLIENT_ENDPOINT_BASE, type Network } from '../net/network.ts';
import { threadOfClient, type Clients } from '../load/clients.ts';
import { FastHost, type FastCluster, type NodeOutput } from './hosts.ts';
import { EV, type Ev } from './events.ts';
import type { SimNode } from './node-step.ts';
import type { ResolvedSpec } from './spec.ts';

/** What the sandbox reads and schedules through: the run's nodes, network, clients and queue. */
export interface SandboxHost {
  readonly nodes: readonly SimNode[];
  readonly net: Network;
  /** (a function: the run builds its clients after the sandbox, whose counters they share) */
  clients(): Clients;
  readonly fastCluster: FastCluster;
  /** Exact mode: the cores run BLADE themselves (the engines decide; see coreGate). */
  readonly exact: boolean;
  readonly one_way_latency_us: number;
  now(): number;
  push(t_us: number, ev: Ev): void;
}

export class MitigationSandbox {
  readonly stats: MitigationStats;
  readonly blade: boolean;
  readonly mitmem: boolean;
  private readonly deadline_us: number;
  private readonly rng: Prng;
  private readonly board: PermissionBoard;
  private readonly lastCollected: number[] = [];
  private granted = 0;

  constructor(
    m: ResolvedSpec['mitigation'],
    seed: number,
    node_count: number,
    private readonly host: SandboxHost,
  ) {
    this.stats = emptyStats(m.mode, m.collector);
    this.blade = bladeOn(m.mode);
    this.mitmem = mitmemOn(m.mode);
    this.deadline_us = m.deadline_ms * 1000;
    this.rng = new Prng(seed, STREAM_MITIGATION);
    this.board = new PermissionBoard(Math.floor((node_count - 1) / 2));
  }

  /** None unless the spec asks for a mitigation or turns the collector off. */
  static wanted(m: ResolvedSpec['mitigation']): boolean {
    return !(m.mode === 'none' && m.collector === 'on');
  }

  /** BLADE's upcall: the runtime is about to collect. A leader hands off first; a follower
   * asks the leader for permission; the collection waits until it is granted. */
  gate(n: SimNode, _t: number, pending: GcPending): boolean {
    const h = this.host;
    if (h.exact) return this.coreGate(n, pending);
    switch (n.blade) {
      case 'granted':
        n.blade = 'collecting';
        this.granted++;
        h.push(h.now(), { k: EV.blade_check_done, node: n.id });
        return true;
      case 'collecting':
        return true;
      case 'handoff':
      case 'asked':
        return false;
      case 'idle':
        break;
    }
    this.stats.gc_pending++;
    this.stats.held_collections++;
    if (!n.host) return true;
    if (h.fastCluster.leader === n.id) {
      const to = handoffTarget(n.id, h.nodes.length, this.lastCollected, (id) => !!h.nodes[id]!.host && h.nodes[id]!.blade === 'idle');
      if (to === null) return true; // no peer can lead: collect as without BLADE
      n.blade = 'handoff';
      const executed = n.host instanceof FastHost ? n.host.executedIndex() : h.fastCluster.nextIndex - 1;
      h.push(h.net.arrival(n.id, to, 64, h.now()), { k: EV.blade_handoff, from: n.id, to, executed });
      return false;
    }
    // The old leader first finishes what it proposed (it answers its own clients) and lets the
    // requests already sent to it arrive (BLADE's T_proxy).
    if ((n.host instanceof FastHost && n.host.inFlight() > 0) || h.now() < n.blade_drain_until_us) {
      this.stats.held_collections--;
      this.stats.gc_pending--;
      return false;
    }
    n.blade = 'asked';
    const leader = h.fastCluster.leader;
    h.push(h.net.arrival(n.id, leader, 64, h.now()), { k: EV.blade_request, node: n.id });
    return false;
  }

  /** Exact mode: the engine decides. The runtime's announcement becomes a `gc_pending` event
   * to the node's core (queued, so it is stepped like any event); the collection waits for the
   * core's `collect` (at once, after its leader's grant, or after its handoff); `gc_done`
   * follows when the collection ends. */
  private coreGate(n: SimNode, pending: GcPending): boolean {
    const h = this.host;
    switch (n.blade) {
      case 'granted':
        n.blade = 'collecting';
        this.granted++;
        this.stats.max_collecting_at_once = Math.max(this.stats.max_collecting_at_once, h.nodes.filter((x) => x.blade === 'collecting').length);
        h.push(h.now(), { k: 10, node: n.id });
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
    this.stats.gc_pending++;
    this.stats.held_collections++;
    n.blade = 'asked';
    const pause_us = Math.max(1, Math.round(predictPause_ms(pending.predicted_pause_ms, this.rng) * 1000));
    h.push(h.now(), { k: 0, node: n.id, inc: n.inc, kind: 'gc_pending', pause_us });
    return false;
  }

  /** Exact mode: what a core step says about BLADE — a `collect` lets the held collection run
   * at the runtime's next allocation; a `handoff` broadcast is one handoff. */
  coreOutputs(n: SimNode, out: NodeOutput[]): void {
    for (const o of out) {
      if (o.kind === 'collect' && n.blade === 'asked') n.blade = 'granted';
    }
    const firstPeer = n.id === 0 ? 1 : 0;
    if (out.some((o) => o.kind === 'send' && o.type === 'handoff' && o.to === firstPeer)) this.stats.handoffs++;
  }

  handoffArrives(from: number, to: number, commitPoint: number): void {
    const h = this.host;
    const old = h.nodes[from]!;
    const next = h.nodes[to]!;
    if (old.blade === 'handoff') old.blade = 'idle';
    if (!next.host || !(next.host instanceof FastHost)) return;
    next.host.takeOver(BLADE_ELECTION_BATCH, commitPoint);
    // the cores' old leader stays handing off (answering retry) until the successor's prepare
    // reaches it
    old.blade_retry_until_us = h.net.arrival(to, from, 64, h.now());
    this.stats.handoffs++;
    h.push(h.now(), { k: EV.arrival, node: to, inc: next.inc, kind: 'start' }); // it starts its commit timer as leader
    // The old leader tells its clients (a small, known set here) who leads now, and waits a round
    // trip for the requests already on their way before it collects.
    let last = h.now();
    for (const t of h.clients().threads) {
      if (t.target !== from) continue;
      const at = h.net.arrival(from, CLIENT_ENDPOINT_BASE + t.id, 12, h.now());
      last = Math.max(last, at);
      h.push(at, { k: EV.blade_new_leader, thread: t.id, from, to });
    }
    old.blade_drain_until_us = last + 2 * h.one_way_latency_us;
  }

  requestArrives(node: number): void {
    if (this.board.request(node)) this.grant(node);
  }

  /** The leader's permission reaches the node. */
  permissionArrives(n: SimNode): void {
    if (n.host && n.blade === 'asked') n.blade = 'granted';
  }

  private grant(node: number): void {
    const h = this.host;
    this.stats.max_collecting_at_once = Math.max(this.stats.max_collecting_at_once, this.board.count);
    h.push(h.net.arrival(h.fastCluster.leader, node, 64, h.now()), { k: EV.blade_permission, node });
  }

  checkDone(n: SimNode): void {
    if (n.blade !== 'collecting') return;
    const until = n.runtime.collectingUntil_us?.() ?? 0;
    if (until > this.host.now()) {
      this.host.push(until, { k: EV.blade_check_done, node: n.id });
      return;
    }
    this.done(n);
  }

  /** The node's collection is over (or the node died): the next waiting node may collect. */
  done(n: SimNode): void {
    const h = this.host;
    if (h.exact) {
      // exact mode: the core hears the end (a crashed node's core is gone)
      const wasCollecting = n.blade === 'collecting';
      n.blade = 'idle';
      if (wasCollecting && n.host) h.push(h.now(), { k: 0, node: n.id, inc: n.inc, kind: 'gc_done' });
      return;
    }
    if (n.blade === 'collecting') this.lastCollected.push(n.id);
    n.blade = 'idle';
    const next = this.board.done(n.id);
    if (next !== null) this.grant(next);
  }

  /** BLADE (fast model 1.2.0): is a client request reaching this node answered `retry`? A
   * leader handing off answers so, as the cores do (docs/protocol.md, "GC mitigation"). */
  retries(n: SimNode): boolean {
    return this.blade && !this.host.exact && (n.blade === 'handoff' || this.host.now() < (n.blade_retry_until_us ?? 0));
  }

  /** BLADE (fast model 1.2.0): a client request that reaches a leader handing off is answered
   * `retry`, as the cores answer it (docs/protocol.md, "GC mitigation"): its successor is about
   * to take over. The client resends after its back-off, by then to whoever it was told leads. */
  retry(n: SimNode, client_id: number, request_id: number): void {
    const h = this.host;
    const thread = threadOfClient(client_id, h.clients().threads.length);
    if (thread === null) return;
    const at = h.net.arrival(n.id, CLIENT_ENDPOINT_BASE + thread, 12, h.now());
    h.push(at, { k: EV.reply, thread, request_id, result: 'retry', leader: undefined });
  }

  /** MITMEM: a client request reaches a node in a stop-the-world pause. Its runtime thread,
   * not stopped, answers `busy` when the predicted rest of the pause is longer than what is
   * left of the request's deadline; a request already past its deadline waits as before. */
  busy(n: SimNode, client_id: number, request_id: number): boolean {
    const h = this.host;
    const now = h.now();
    // Go's cycles slow a node rather than stop it: only G1's pauses hold requests.
    const stopUntil = n.runtime.stoppedUntil_us?.() ?? 0;
    if (stopUntil <= now) return false;
    const thread = threadOfClient(client_id, h.clients().threads.length);
    if (thread === null) return false;
    const t = h.clients().threads[thread]!;
    if (!t.busy || t.request_id !== request_id) return false;
    const left_ms = (this.deadline_us - (now - t.intended_us)) / 1000;
    if (left_ms <= 0) return false;
    const predicted = predictPause_ms((stopUntil - now) / 1000, this.rng);
    if (!mitmemRejects(predicted, left_ms)) return false;
    this.stats.busy_replies++;
    t.busy_from = n.id;
    const at = h.net.arrival(n.id, CLIENT_ENDPOINT_BASE + thread, 12, now);
    h.push(at, { k: EV.reply, thread, request_id, result: 'busy', leader: undefined });
    return true;
  }

  /** The run's counters, with the collections that ran without a permission (the runtime
   * could not wait: memory exhausted). */
  result(): MitigationStats {
    const started = this.host.nodes.reduce((a, n) => a + n.runtime.events.filter((g) => g.kind === 'g1_young' || g.kind === 'g1_mixed' || g.kind === 'g1_mixed_dense' || g.kind === 'g1_full' || g.kind === 'go_cycle').length, 0);
    return { ...this.stats, forced_collections: this.blade ? Math.max(0, started - this.granted) : 0 };
  }
}
