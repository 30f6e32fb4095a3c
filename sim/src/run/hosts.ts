// What runs inside a node during a load run. The exact host feeds the real engine (canonical
// JSON in, effects out); the fast host is a model of the same MultiPaxos steady state — the
// same messages, with the same sizes, between the same nodes — without an engine, for sweeps.
import type { SyncNode } from '@replicant/engines/loader/engine';
import { clientEvent, messageEvent, parseEffect, routeOf, splitLines, START_EVENT, timerEvent, type TimerName } from '../core/effects.ts';
import type { WireSizes } from './sizes.ts';

export type OpKind = 'read' | 'update';

/** An event arriving at a node. `payload` is the canonical message (exact) or a model record (fast). */
export type NodeEvent =
  | { kind: 'start' }
  | { kind: 'timer'; timer: TimerName }
  | { kind: 'client'; client_id: number; request_id: number; op: OpKind; line: string; bytes: number }
  | { kind: 'message'; from: number; type: string; payload: string | FastMsg; bytes: number; update: boolean };

export type NodeOutput =
  | { kind: 'send'; to: number; type: string; payload: string | FastMsg; bytes: number; update: boolean }
  | { kind: 'reply'; client_id: number; request_id: number; result: string; leader?: number; bytes: number }
  | { kind: 'set_timer'; timer: TimerName; delay_us: number }
  | { kind: 'cancel_timer'; timer: TimerName };

export interface Host {
  step(ev: NodeEvent): NodeOutput[];
  destroy(): void;
}

// --- exact: the real engine ---

export class EngineHost implements Host {
  constructor(private readonly node: SyncNode) {}

  step(ev: NodeEvent): NodeOutput[] {
    let json: string;
    switch (ev.kind) {
      case 'start': json = START_EVENT; break;
      case 'timer': json = timerEvent(ev.timer); break;
      case 'client': json = clientEvent(ev.client_id, ev.request_id, ev.line); break;
      case 'message': json = messageEvent(ev.payload as string); break;
    }
    const out: NodeOutput[] = [];
    for (const line of splitLines(this.node.step(json))) {
      const e = parseEffect(line);
      switch (e.kind) {
        case 'send':
          out.push({ kind: 'send', to: e.to, type: e.type, payload: e.json, bytes: e.json.length + 1, update: e.type === 'accept_request' && e.json.includes('"command":{"type":"put"') });
          break;
        case 'reply': {
          const r: NodeOutput = { kind: 'reply', client_id: e.client_id, request_id: e.request_id, result: e.result, bytes: replyBytes(e.result, e.value) };
          if (e.leader !== undefined) r.leader = e.leader;
          out.push(r);
          break;
        }
        case 'set_timer': out.push({ kind: 'set_timer', timer: e.timer, delay_us: e.delay_us }); break;
        case 'cancel_timer': out.push({ kind: 'cancel_timer', timer: e.timer }); break;
        case 'error': throw new Error(`engine refused an event the simulator built: ${e.line}`);
        case 'trace': break;
      }
    }
    return out;
  }

  destroy(): void {
    this.node.destroy();
  }
}

function replyBytes(result: string, value: string | undefined): number {
  switch (result) {
    case 'ok': return (value?.length ?? 0) + 1;
    case 'not_found': return 14;
    case 'retry': return 6;
    case 'leader_is': return 12;
    default: return 12;
  }
}

export { routeOf };

// --- fast: the steady-state protocol without an engine ---

export interface FastMsg {
  index: number;
  op: OpKind;
}

/** Who leads a fast-mode cluster and the next log index, shared by its nodes: node 0 leads from
 * the start; BLADE's handoff (the mitigation model) is the only thing that moves it. */
export interface FastCluster {
  leader: number;
  nextIndex: number;
}

/** Node 0 leads from the start; followers accept; the leader commits on a majority and replies
 * in log order; heartbeats (commit requests) every commit interval. No elections, no faults. */
export class FastHost implements Host {
  private executed = 0;
  private votes = new Map<number, number>();
  private committed = new Set<number>();
  private waiting = new Map<number, { client_id: number; request_id: number; op: OpKind }>();
  private readonly majority: number;

  constructor(
    private readonly id: number,
    private readonly n: number,
    private readonly commit_interval_us: number,
    private readonly sizes: WireSizes,
    private readonly cluster: FastCluster = { leader: 0, nextIndex: 1 },
  ) {
    this.majority = Math.floor(n / 2) + 1;
  }

  private get leader(): boolean {
    return this.id === this.cluster.leader;
  }

  /** The other nodes, in id order (the leader's peers). */
  private peers(): number[] {
    const out: number[] = [];
    for (let p = 0; p < this.n; p++) if (p !== this.id) out.push(p);
    return out;
  }

  /** This node becomes the leader (BLADE's handoff): the entries before the shared next index
   * are the old leader's, which it finishes itself (it proxies its own clients' answers). */
  takeOver(): void {
    this.cluster.leader = this.id;
    this.executed = this.cluster.nextIndex - 1;
    this.committed.clear();
  }

  /** Client operations proposed here and not yet answered. */
  inFlight(): number {
    return this.waiting.size;
  }

  step(ev: NodeEvent): NodeOutput[] {
    const s = this.sizes;
    switch (ev.kind) {
      case 'start':
        return this.leader ? [{ kind: 'set_timer', timer: 'commit', delay_us: this.commit_interval_us }] : [];
      case 'timer': {
        if (!this.leader || ev.timer !== 'commit') return [];
        const out: NodeOutput[] = [];
        for (const p of this.peers()) out.push({ kind: 'send', to: p, type: 'commit_request', payload: { index: this.executed, op: 'read' }, bytes: s.commit_request, update: false });
        out.push({ kind: 'set_timer', timer: 'commit', delay_us: this.commit_interval_us });
        return out;
      }
      case 'client': {
        if (!this.leader) return [{ kind: 'reply', client_id: ev.client_id, request_id: ev.request_id, result: 'leader_is', leader: this.cluster.leader, bytes: 12 }];
        const index = this.cluster.nextIndex++;
        this.waiting.set(index, { client_id: ev.client_id, request_id: ev.request_id, op: ev.op });
        this.votes.set(index, 1);
        const out: NodeOutput[] = [];
        const size = ev.op === 'read' ? s.read.accept_request : s.update.accept_request;
        for (const p of this.peers()) out.push({ kind: 'send', to: p, type: 'accept_request', payload: { index, op: ev.op }, bytes: size, update: ev.op === 'update' });
        if (this.majority === 1) return [...out, ...this.commit(index)];
        return out;
      }
      case 'message': {
        const m = ev.payload as FastMsg;
        switch (ev.type) {
          case 'accept_request':
            return [{ kind: 'send', to: ev.from, type: 'accept_response', payload: m, bytes: s.read.accept_response, update: false }];
          case 'commit_request':
            return [{ kind: 'send', to: ev.from, type: 'commit_response', payload: m, bytes: s.commit_response, update: false }];
          case 'accept_response': {
            const v = this.votes.get(m.index);
            if (v === undefined) return []; // already committed: a late vote
            if (v + 1 < this.majority) {
              this.votes.set(m.index, v + 1);
              return [];
            }
            this.votes.delete(m.index);
            return this.commit(m.index);
          }
          default:
            return [];
        }
      }
    }
  }

  private commit(index: number): NodeOutput[] {
    this.committed.add(index);
    const out: NodeOutput[] = [];
    while (this.committed.has(this.executed + 1)) {
      this.executed++;
      this.committed.delete(this.executed);
      const w = this.waiting.get(this.executed);
      if (w) {
        this.waiting.delete(this.executed);
        out.push({ kind: 'reply', client_id: w.client_id, request_id: w.request_id, result: 'ok', bytes: w.op === 'read' ? this.sizes.read.reply_line : this.sizes.update.reply_line });
      }
    }
    return out;
  }

  destroy(): void {}
}
