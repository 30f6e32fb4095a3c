// Durability around the fast mode's protocol model (FastHost), in one of the storage model's two
// placements (models/storage.ts). The wrapped model runs unchanged; this decides which records
// each step writes and which of the step's messages and replies wait for which persist.
//
// - ordered: the engines' rule (docs/protocol.md, Durability) — a leader's instance and each
//   follower's acceptance are written before anything leaves, the commit marks before the
//   replies, and while any persist is outstanding every message and reply waits behind the
//   newest one, in order.
// - scattered (FLEET): the leader sends its accept requests at once and writes its own copy in
//   parallel; a follower's vote waits for its own entry only; a reply waits for the leader's copy
//   of that entry (so f + 1 copies are on disk when it leaves); commit marks go to the
//   asynchronous ordered log, off the critical path, and nothing else waits.
import type { DurabilityPlacement } from '../models/storage.ts';
import type { FastMsg, Host, NodeEvent, NodeOutput } from './hosts.ts';

export interface RecordBytes {
  read: number;
  update: number;
  /** a commit mark (ordered only) */
  commit_mark: number;
}

type Held = { id: number; o: NodeOutput };

export class DurableHost implements Host {
  private nextId = 1;
  /** highest persist id reported durable (ordered: they complete in order) */
  private doneUpTo = 0;
  private readonly held: Held[] = [];
  // scattered: persists not durable yet, what waits for each, and the leader's own copy of an
  // operation's entry (client_id * 2^30 + request_id → persist id)
  private readonly notDone = new Set<number>();
  private readonly waiting = new Map<number, NodeOutput[]>();
  private readonly ownCopy = new Map<number, number>();

  constructor(
    private readonly inner: Host,
    private readonly placement: Exclude<DurabilityPlacement, 'none'>,
    private readonly records: RecordBytes,
  ) {}

  step(ev: NodeEvent): NodeOutput[] {
    if (ev.kind === 'persisted') return this.placement === 'ordered' ? this.releaseOrdered(ev.ids) : this.releaseScattered(ev.ids);
    const out = this.inner.step(ev);
    return this.placement === 'ordered' ? this.ordered(ev, out) : this.scattered(ev, out);
  }

  destroy(): void {
    this.inner.destroy();
  }

  /** Bytes of the instance record this event stores, 0 if none: a proposal the leader takes, or
   * an accept request at a follower. */
  private entryBytes(ev: NodeEvent, out: NodeOutput[]): number {
    if (ev.kind === 'client') return out.some((o) => o.kind === 'send' && o.type === 'accept_request') || out.some(finalReply) ? this.records[ev.op] : 0;
    if (ev.kind === 'message' && ev.type === 'accept_request') return this.records[(ev.payload as FastMsg).op];
    return 0;
  }

  private ordered(ev: NodeEvent, out: NodeOutput[]): NodeOutput[] {
    let bytes = this.entryBytes(ev, out);
    for (const o of out) if (finalReply(o)) bytes += this.records.commit_mark;
    const id = bytes > 0 ? this.nextId++ : 0;
    const newest = this.nextId - 1;
    if (newest <= this.doneUpTo) return out; // nothing outstanding: nothing waits
    const result: NodeOutput[] = [];
    for (const o of out) {
      if (o.kind === 'send' || o.kind === 'reply') this.held.push({ id: newest, o: { ...o } }); // the inner host reuses its records
      else result.push(o);
    }
    if (id) result.push({ kind: 'persist', persist_id: id, bytes });
    return result;
  }

  private releaseOrdered(ids: number[]): NodeOutput[] {
    this.doneUpTo = Math.max(this.doneUpTo, ...ids);
    let k = 0;
    while (k < this.held.length && this.held[k]!.id <= this.doneUpTo) k++;
    return this.held.splice(0, k).map((h) => h.o);
  }

  private scattered(ev: NodeEvent, out: NodeOutput[]): NodeOutput[] {
    const bytes = this.entryBytes(ev, out);
    const id = bytes > 0 ? this.nextId++ : 0;
    if (id) this.notDone.add(id);
    const result: NodeOutput[] = [];
    let repliedNow = false;
    for (const o of out) {
      if (o.kind === 'send' && o.type === 'accept_response' && id) this.wait(id, o);
      else if (o.kind === 'reply' && finalReply(o)) {
        const key = o.client_id * 2 ** 30 + o.request_id;
        const thisOp = ev.kind === 'client' && o.client_id === ev.client_id && o.request_id === ev.request_id;
        if (thisOp) repliedNow = true;
        const own = thisOp && id ? id : this.ownCopy.get(key);
        this.ownCopy.delete(key);
        if (own !== undefined && this.notDone.has(own)) this.wait(own, o);
        else result.push(o);
      } else result.push(o);
    }
    if (id && ev.kind === 'client' && !repliedNow) this.ownCopy.set(ev.client_id * 2 ** 30 + ev.request_id, id);
    if (id) result.push({ kind: 'persist', persist_id: id, bytes });
    return result;
  }

  private wait(id: number, held: NodeOutput): void {
    const o = { ...held }; // the inner host reuses its records
    const list = this.waiting.get(id);
    if (list) list.push(o);
    else this.waiting.set(id, [o]);
  }

  private releaseScattered(ids: number[]): NodeOutput[] {
    const result: NodeOutput[] = [];
    for (const id of ids) {
      this.notDone.delete(id);
      const list = this.waiting.get(id);
      if (list) {
        this.waiting.delete(id);
        result.push(...list);
      }
    }
    return result;
  }
}

function finalReply(o: NodeOutput): boolean {
  return o.kind === 'reply' && o.result !== 'leader_is' && o.result !== 'retry';
}
