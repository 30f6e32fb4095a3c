// What runs inside a node during a load run. The exact host feeds the real engine (canonical
// JSON in, effects out); the fast host is a model of the same MultiPaxos steady state — the
// same messages, with the same sizes, between the same nodes — without an engine, for sweeps.
import type { SyncNode } from '@replicant/engines/loader/engine';
import type { RunResult } from '../api.ts';
import { clientEvent, messageEvent, parseEffect, routeOf, splitLines, START_EVENT, timerEvent, type TimerName } from '../core/effects.ts';
import type { WireSizes } from './sizes.ts';
import {
  BINARY_MESSAGES, BinaryCodecError, ByteReader, ByteWriter, EFFECT_JSON, EFFECT_REPLY, EFFECT_SEND, EVENT_MESSAGE, messageEventJson,
  readReplyFacts, readSendFacts, RESULTS, writeClientEvent, writeJsonEvent, type ReplyFacts, type SendFacts,
} from '@replicant/engines/loader/binary-codec';

export type OpKind = 'read' | 'update';

/** An event arriving at a node. `payload` is the canonical message or its binary event (exact)
 * or a model record (fast). */
export type NodeEvent =
  | { kind: 'start' }
  | { kind: 'timer'; timer: TimerName }
  | { kind: 'client'; client_id: number; request_id: number; op: OpKind; line: string; bytes: number }
  | { kind: 'message'; from: number; type: string; payload: string | BinaryMessage | FastMsg; bytes: number; update: boolean }
  /** durability: the device has made these persists durable (ids in the order issued) */
  | { kind: 'persisted'; ids: number[] }
  /** GC mitigation (exact mode): the runtime announces a collection / the collection ended */
  | { kind: 'gc_pending'; pause_us: number }
  | { kind: 'gc_done' };

export type NodeOutput =
  | { kind: 'send'; to: number; type: string; payload: string | BinaryMessage | FastMsg; bytes: number; update: boolean }
  | { kind: 'reply'; client_id: number; request_id: number; result: string; leader?: number; bytes: number }
  | { kind: 'set_timer'; timer: TimerName; delay_us: number }
  | { kind: 'cancel_timer'; timer: TimerName }
  /** durability: write this persist (`bytes` of records) and report it with a `persisted` event */
  | { kind: 'persist'; persist_id: number; bytes: number }
  /** GC mitigation (exact mode): the core lets the runtime collect now */
  | { kind: 'collect' };

type SendOutput = Extract<NodeOutput, { kind: 'send' }>;
type ReplyOutput = Extract<NodeOutput, { kind: 'reply' }>;

export interface Host {
  /** The step's effects. The array and its records may be the host's own, reused by its next
   * step: read them before stepping the same host again, and copy a record to keep it. */
  step(ev: NodeEvent): NodeOutput[];
  destroy(): void;
}

// --- exact: the real engine ---

/** A message from an engine with the binary step: the whole binary event (tag 0x02 first,
 * docs/protocol.md "Binary step"), handed to the receiver as it came. */
export type BinaryMessage = Uint8Array;

/** Steps an engine; through its binary step when it has one (the per-operation events and
 * effects then never become JSON text), else on canonical JSON. Both give the same outputs.
 * With the batch step (docs/protocol.md, "Batch step"), the events the run names with
 * `stepNextTogether` are stepped in the same call as the next one; their effects wait here
 * until each is stepped in its turn. */
export class EngineHost implements Host {
  private readonly writer = new ByteWriter();
  /** a batch's events that are not binary messages already, written one after the other */
  private readonly batchWriter = new ByteWriter();
  private readonly batchEvents: Uint8Array[] = [];
  private readonly batchEnds: number[] = [];
  private readonly reader = new ByteReader();
  private readonly sendReader = new ByteReader();
  private readonly frameReader = new ByteReader();
  private readonly send: SendFacts = { type: 0, to: 0, jsonLength: 0, put: false };
  private readonly reply: ReplyFacts = { client_id: 0, request_id: 0, result: 0, valueLength: 0, leader: 0, pause_us: 0 };

  /** the node's binary step, bound once (null: it steps on JSON) */
  private readonly binaryStep: ((event: Uint8Array) => Uint8Array) | null;
  /** the node's batch step, bound once (null: one event a call) */
  private readonly batchStep: ((events: readonly Uint8Array[]) => Uint8Array) | null;
  /** The events to step with the next one (stepNextTogether), then, once stepped, the ones
   * whose effects wait in `frameReader`'s frames; `stepped` of them are taken. */
  private batched: NodeEvent[] = [];
  private planned = false;
  private stepped = 0;
  /** a batch is planned or its effects are waiting (the one test on the ordinary path) */
  private inBatch = false;

  constructor(private readonly node: SyncNode) {
    this.binaryStep = node.stepBinary ? node.stepBinary.bind(node) : null;
    this.batchStep = this.binaryStep && node.stepEvents ? node.stepEvents.bind(node) : null;
  }

  /** The engine has the batch step, and no stepped-ahead effects are waiting. */
  canBatch(): boolean {
    return this.batchStep !== null && !this.inBatch;
  }

  /** The node's next `events` (nothing else reaches it before them: run/node-queue.ts) are
   * stepped in the same call as its next step; each then gets its effects from its own step. */
  stepNextTogether(events: readonly NodeEvent[]): void {
    if (!this.canBatch()) throw new Error('batch step: effects of an earlier batch are still waiting');
    this.batched.length = 0;
    for (let i = 0; i < events.length; i++) this.batched.push(events[i]!);
    this.stepped = 0;
    this.planned = true;
    this.inBatch = true;
  }

  step(ev: NodeEvent): NodeOutput[] {
    if (this.inBatch) return this.stepInBatch(ev);
    return this.binaryStep ? this.decodeEffects(this.binaryStep(this.encodeEvent(ev, this.writer))) : this.stepJson(ev);
  }

  /** A step while a batch is planned (stepNextTogether) or its effects are waiting. */
  private stepInBatch(ev: NodeEvent): NodeOutput[] {
    if (this.planned) return this.stepBatch(ev, this.batchStep!);
    if (ev !== this.batched[this.stepped]) throw new Error(`batch step: the node's next event is not the one stepped ahead (${ev.kind} instead of ${this.batched[this.stepped]!.kind}): the batch window did not hold`);
    this.stepped++;
    const out = this.nextFrame();
    if (this.stepped === this.batched.length) {
      this.inBatch = false;
      if (!this.frameReader.done()) throw new BinaryCodecError('batch step: more effect frames than events');
    }
    return out;
  }

  private stepJson(ev: NodeEvent): NodeOutput[] {
    const out: NodeOutput[] = [];
    for (const line of splitLines(this.node.step(eventJson(ev)))) pushJsonEffect(out, line);
    return out;
  }

  /** `ev` and the planned events, in frames (docs/protocol.md, "Batch step"), in one call;
   * returns ev's effects. */
  private stepBatch(ev: NodeEvent, stepEvents: (events: readonly Uint8Array[]) => Uint8Array): NodeOutput[] {
    this.planned = false;
    const w = this.batchWriter.clear();
    const events = this.batchEvents;
    const ends = this.batchEnds;
    events.length = 0;
    ends.length = 0;
    this.addToBatch(ev, w);
    for (let i = 0; i < this.batched.length; i++) this.addToBatch(this.batched[i]!, w);
    // the written events' views, now that the writer has stopped growing
    let start = 0;
    for (let i = 0; i < events.length; i++) {
      const end = ends[i]!;
      if (end >= 0) {
        events[i] = w.bytes.subarray(start, end);
        start = end;
      }
    }
    // a view of the module's output buffer: untouched until this node's next call, which
    // comes after every waiting frame is read
    this.frameReader.reset(stepEvents(events));
    const out = this.nextFrame();
    if (this.batched.length === 0) {
      this.inBatch = false;
      if (!this.frameReader.done()) throw new BinaryCodecError('batch step: more effect frames than events');
    }
    return out;
  }

  /** A binary message goes into the batch as it came; anything else is written after the
   * batch writer's earlier events (its end noted; −1 for a message). */
  private addToBatch(ev: NodeEvent, w: ByteWriter): void {
    if (ev.kind === 'message' && ev.payload instanceof Uint8Array) {
      this.batchEvents.push(ev.payload);
      this.batchEnds.push(-1);
      return;
    }
    if (ev.kind === 'client') writeClientEvent(w, ev.client_id, ev.request_id, ev.line);
    else writeJsonEvent(w, eventJson(ev));
    this.batchEvents.push(EMPTY);
    this.batchEnds.push(w.length);
  }

  /** The next frame of the last batch's effects, decoded. */
  private nextFrame(): NodeOutput[] {
    const r = this.frameReader;
    const length = r.stringLength();
    return this.decodeEffects(r.bytes.subarray(r.stringAt, r.stringAt + length));
  }

  /** The event in the binary encoding: a binary message as it came, else written into `w`. */
  private encodeEvent(ev: NodeEvent, w: ByteWriter): Uint8Array {
    if (ev.kind === 'message' && ev.payload instanceof Uint8Array) return ev.payload;
    w.clear();
    if (ev.kind === 'client') writeClientEvent(w, ev.client_id, ev.request_id, ev.line);
    else writeJsonEvent(w, eventJson(ev));
    return w.view();
  }

  private decodeEffects(effects: Uint8Array): NodeOutput[] {
    const out: NodeOutput[] = [];
    const r = this.reader.reset(effects);
    while (!r.done()) {
      const tag = r.byte();
      if (tag === EFFECT_SEND) {
        const length = r.uint();
        const at = r.pos;
        const f = readSendFacts(this.sendReader.reset(effects, at, at + length), this.send);
        // copied out (the module's output buffer is rewritten by the node's next step) into
        // a shared slab: a view per send, not a buffer per send
        const payload = sendSlab.take(length + 1);
        payload[0] = EVENT_MESSAGE;
        payload.set(effects.subarray(at, at + length), 1);
        r.pos = at + length;
        out.push({ kind: 'send', to: f.to, type: BINARY_MESSAGES[f.type]!, payload, bytes: f.jsonLength + 1, update: f.put });
      } else if (tag === EFFECT_REPLY) {
        const f = readReplyFacts(r, this.reply);
        const result = RESULTS[f.result]!;
        const o: NodeOutput = { kind: 'reply', client_id: f.client_id, request_id: f.request_id, result, bytes: replyBytes(result, f.valueLength) };
        if (result === 'leader_is') o.leader = f.leader;
        out.push(o);
      } else if (tag === EFFECT_JSON) {
        const length = r.stringLength();
        pushJsonEffect(out, textDecoder.decode(effects.subarray(r.stringAt, r.stringAt + length)));
      } else throw new BinaryCodecError(`unknown effect tag ${tag}`);
    }
    return out;
  }

  destroy(): void {
    this.node.destroy();
  }
}

const textDecoder = new TextDecoder();
const EMPTY = new Uint8Array(0);

/** Bytes for the binary messages in flight, handed out as views of one slab at a time: a
 * fresh ArrayBuffer per send cost more than its copy. A slab is never written again once
 * full; it is collected when the last message viewing it is. */
class Slab {
  private bytes = new Uint8Array(0);
  private used = 0;

  constructor(private readonly size: number) {}

  take(length: number): Uint8Array {
    if (this.used + length > this.bytes.length) {
      this.bytes = new Uint8Array(Math.max(this.size, length));
      this.used = 0;
    }
    const view = this.bytes.subarray(this.used, this.used + length);
    this.used += length;
    return view;
  }
}

const sendSlab = new Slab(64 * 1024);

/** The canonical JSON of an event. */
function eventJson(ev: NodeEvent): string {
  switch (ev.kind) {
    case 'start': return START_EVENT;
    case 'timer': return timerEvent(ev.timer);
    case 'client': return clientEvent(ev.client_id, ev.request_id, ev.line);
    case 'message': return ev.payload instanceof Uint8Array ? messageEventJson(ev.payload) : messageEvent(ev.payload as string);
    // batches are written in order, so the newest id reports every one before it
    case 'persisted': return `{"type":"persisted","persist_id":${Math.max(...ev.ids)}}`;
    case 'gc_pending': return `{"type":"gc_pending","pause_us":${ev.pause_us}}`;
    case 'gc_done': return '{"type":"gc_done"}';
  }
}

/** One effect line of canonical JSON as the simulator's output. */
function pushJsonEffect(out: NodeOutput[], line: string): void {
  const e = parseEffect(line);
  switch (e.kind) {
    case 'send':
      out.push({ kind: 'send', to: e.to, type: e.type, payload: e.json, bytes: e.json.length + 1, update: e.type === 'accept_request' && e.json.includes('"command":{"type":"put"') });
      break;
    case 'reply': {
      const r: NodeOutput = { kind: 'reply', client_id: e.client_id, request_id: e.request_id, result: e.result, bytes: replyBytes(e.result, e.value?.length ?? 0) };
      if (e.leader !== undefined) r.leader = e.leader;
      out.push(r);
      break;
    }
    case 'set_timer': out.push({ kind: 'set_timer', timer: e.timer, delay_us: e.delay_us }); break;
    case 'cancel_timer': out.push({ kind: 'cancel_timer', timer: e.timer }); break;
    case 'persist': out.push({ kind: 'persist', persist_id: e.persist_id, bytes: e.bytes }); break;
    case 'collect': out.push({ kind: 'collect' }); break;
    case 'error': throw new Error(`engine refused an event the simulator built: ${e.line}`);
    case 'trace': break;
  }
}

/** A reply's wire size; `valueLength` is an `ok` reply's value length. */
function replyBytes(result: string, valueLength: number): number {
  switch (result) {
    case 'ok': return valueLength + 1;
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
  /** The global last executed the leader's last heartbeat carried (the executed index at the
   * heartbeat before it), and the executed index at its last heartbeat: a successor replays
   * every instance above the former, as the cores' election does. */
  gle: number;
  executedAtHeartbeat: number;
}

export function newFastCluster(): FastCluster {
  return { leader: 0, nextIndex: 1, gle: 0, executedAtHeartbeat: 0 };
}

/** A fast-mode node's whole answer to an accept request: an accept response of this size to
 * its sender, and no change to its own state (the kernel's stepAhead relies on both). */
export function acceptResponseBytes(s: WireSizes): number {
  return s.read.accept_response;
}

/** Node 0 leads from the start; followers accept; the leader commits on a majority and replies
 * in log order; heartbeats (commit requests) every commit interval. No elections, no faults.
 *
 * The hot path of a sweep: the instances in flight (executed, nextIndex) live in a ring of
 * typed arrays indexed by log index. (A fresh output array per step: emptying a reused one by
 * setting its length is a slow path in V8.) */
export class FastHost implements Host {
  private nextIndex = 1;
  private executed = 0;
  private mask = 255;
  /** votes so far per instance in flight; 0 once it is committed (a later vote is late) */
  private votes = new Int32Array(256);
  private clientOf = new Int32Array(256);
  private requestOf = new Float64Array(256);
  /** 1 read, 2 update; 0 no client waiting */
  private opOf = new Uint8Array(256);
  private readonly out: NodeOutput[] = [];
  /** The output records of accept requests and replies, reused step after step (the first
   * `sendsUsed` / `repliesUsed` are this step's): an operation's two proposals and its reply
   * allocate nothing. Whoever keeps one past the step copies it (run/durable-host.ts). */
  private readonly sends: SendOutput[] = [];
  private sendsUsed = 0;
  private readonly replies: ReplyOutput[] = [];
  private repliesUsed = 0;
  private readonly majority: number;
  /** A successor's replay (takeOver): the next index to send and the end of the range. */
  private replaySent = 0;
  private replayEnd = 0;
  private replayBatch = 1;

  constructor(
    private readonly id: number,
    private readonly n: number,
    private readonly commit_interval_us: number,
    private readonly sizes: WireSizes,
    private readonly cluster: FastCluster = newFastCluster(),
  ) {
    this.majority = Math.floor(n / 2) + 1;
  }

  private get leader(): boolean {
    return this.id === this.cluster.leader;
  }

  /** This node becomes the leader (BLADE's handoff). The instances before the cluster's next
   * index are the old leader's, which it finishes itself (it answers its own clients); this
   * node's own range starts there. Like the cores' successor (mitigation model 1.2.0) it first
   * replays every instance above the handoff's commit point (`commitPoint`: the old leader's
   * executed index as it sent the handoff; the successor executed up to it from the handoff),
   * `batch` in flight at once (bounded elections): they take the next indexes, so its own
   * clients' commands execute after them. The replay starts at the node's `start` step.
   * (Model 1.1.0 replayed everything above the gle of the last heartbeat, as the cores did
   * before the handoff carried its commit point.) */
  takeOver(batch: number, commitPoint: number): void {
    const replay = Math.max(0, this.cluster.nextIndex - 1 - Math.max(commitPoint, this.cluster.gle));
    this.cluster.leader = this.id;
    this.executed = this.cluster.nextIndex - 1;
    this.nextIndex = this.cluster.nextIndex;
    while (replay >= this.mask) this.grow();
    for (let i = 0; i < replay; i++) {
      const slot = (this.nextIndex + i) & this.mask;
      this.votes[slot] = 1;
      this.opOf[slot] = 0;
    }
    this.replaySent = this.nextIndex;
    this.replayEnd = this.nextIndex + replay;
    this.replayBatch = Math.max(1, batch);
    this.nextIndex += replay;
    this.cluster.nextIndex = this.nextIndex;
    this.cluster.gle = this.cluster.executedAtHeartbeat = this.executed;
  }

  /** An accept response this node's step answers with nothing and changes nothing for: its
   * instance is executed or committed already (a late vote: the majority voted before it), or
   * is not one this node proposed. The run steps such a vote without the host (stepQuietVote). */
  voteChangesNothing(m: FastMsg): boolean {
    const index = m.index;
    return index <= this.executed || index >= this.nextIndex || this.votes[index & this.mask] === 0;
  }

  /** The last index this node executed. */
  executedIndex(): number {
    return this.executed;
  }

  /** Instances this node proposed and has not executed yet. */
  inFlight(): number {
    return this.nextIndex - 1 - this.executed;
  }

  step(ev: NodeEvent): NodeOutput[] {
    const s = this.sizes;
    // The host's one output array, emptied by pop (which keeps its storage; `length = 0` would
    // drop it and the next push allocate anew): two steps an operation allocate no array.
    const out = this.out;
    while (out.length > 0) out.pop();
    this.sendsUsed = 0;
    this.repliesUsed = 0;
    switch (ev.kind) {
      case 'start':
        if (this.leader) out.push({ kind: 'set_timer', timer: 'commit', delay_us: this.commit_interval_us });
        for (let k = 0; k < this.replayBatch && this.replaySent < this.replayEnd; k++) this.sendReplay();
        return out;
      case 'timer': {
        if (!this.leader || ev.timer !== 'commit') return out;
        this.sendCommitRound();
        out.push({ kind: 'set_timer', timer: 'commit', delay_us: this.commit_interval_us });
        return out;
      }
      case 'client': {
        if (!this.leader) {
          out.push({ kind: 'reply', client_id: ev.client_id, request_id: ev.request_id, result: 'leader_is', leader: this.cluster.leader, bytes: 12 });
          return out;
        }
        if (this.nextIndex - this.executed > this.mask) this.grow();
        const index = this.nextIndex++;
        this.cluster.nextIndex = this.nextIndex; // only the leader proposes: the two agree while it leads
        const slot = index & this.mask;
        this.clientOf[slot] = ev.client_id;
        this.requestOf[slot] = ev.request_id;
        this.opOf[slot] = ev.op === 'read' ? 1 : 2;
        this.votes[slot] = 1;
        const size = ev.op === 'read' ? s.read.accept_request : s.update.accept_request;
        const payload: FastMsg = { index, op: ev.op };
        for (let p = 0; p < this.n; p++) if (p !== this.id) this.pushSend(p, 'accept_request', payload, size, ev.op === 'update');
        if (this.majority === 1) this.commit(index);
        return out;
      }
      case 'message': {
        const m = ev.payload as FastMsg;
        switch (ev.type) {
          case 'accept_request':
            out.push({ kind: 'send', to: ev.from, type: 'accept_response', payload: m, bytes: acceptResponseBytes(s), update: false });
            return out;
          case 'commit_request':
            out.push({ kind: 'send', to: ev.from, type: 'commit_response', payload: m, bytes: s.commit_response, update: false });
            return out;
          case 'accept_response': {
            if (this.voteChangesNothing(m)) return out;
            const index = m.index;
            const slot = index & this.mask;
            const v = this.votes[slot]!;
            if (v + 1 < this.majority) {
              this.votes[slot] = v + 1;
              return out;
            }
            this.commit(index);
            return out;
          }
          default:
            return out;
        }
      }
      case 'persisted': // the durable wrapper's (run/durable-host.ts); this model persists nothing
      case 'gc_pending': // the fast mode's BLADE lives in the mitigation sandbox (run/mitigation-sandbox.ts)
      case 'gc_done':
        return out;
    }
  }

  /** A commit round to every peer (the heartbeat). */
  private sendCommitRound(): void {
    this.cluster.gle = this.cluster.executedAtHeartbeat;
    this.cluster.executedAtHeartbeat = this.executed;
    const payload: FastMsg = { index: this.executed, op: 'read' };
    for (let p = 0; p < this.n; p++) if (p !== this.id) this.out.push({ kind: 'send', to: p, type: 'commit_request', payload, bytes: this.sizes.commit_request, update: false });
  }

  /** Re-proposes the next replay entry (sized as an update: the replayed command is not known here). */
  private sendReplay(): void {
    const payload: FastMsg = { index: this.replaySent++, op: 'update' };
    for (let p = 0; p < this.n; p++) if (p !== this.id) this.pushSend(p, 'accept_request', payload, this.sizes.update.accept_request, true);
  }

  /** Marks the instance committed and replies, in log order, for every instance now executable. */
  private commit(index: number): void {
    this.votes[index & this.mask] = 0;
    if (index < this.replayEnd && this.replaySent < this.replayEnd) this.sendReplay();
    for (;;) {
      const next = this.executed + 1;
      if (next >= this.nextIndex) break;
      const slot = next & this.mask;
      if (this.votes[slot] !== 0) break; // not committed yet
      this.executed = next;
      const op = this.opOf[slot]!;
      if (op !== 0) {
        this.opOf[slot] = 0;
        this.pushReply(this.clientOf[slot]!, this.requestOf[slot]!, op === 1 ? this.sizes.read.reply_line : this.sizes.update.reply_line);
      }
    }
  }

  /** An accept request to `to` in this step's output, in a reused record. */
  private pushSend(to: number, type: string, payload: FastMsg, bytes: number, update: boolean): void {
    let o = this.sends[this.sendsUsed];
    if (o === undefined) {
      o = { kind: 'send', to, type, payload, bytes, update };
      this.sends.push(o);
    } else {
      o.to = to;
      o.type = type;
      o.payload = payload;
      o.bytes = bytes;
      o.update = update;
    }
    this.sendsUsed++;
    this.out.push(o);
  }

  /** A command's `ok` reply in this step's output, in a reused record. */
  private pushReply(client_id: number, request_id: number, bytes: number): void {
    let o = this.replies[this.repliesUsed];
    if (o === undefined) {
      o = { kind: 'reply', client_id, request_id, result: 'ok', bytes };
      this.replies.push(o);
    } else {
      o.client_id = client_id;
      o.request_id = request_id;
      o.bytes = bytes;
    }
    this.repliesUsed++;
    this.out.push(o);
  }

  /** Doubles the ring, keeping the instances in flight at their new slots. */
  private grow(): void {
    const cap = (this.mask + 1) * 2;
    const mask = cap - 1;
    const votes = new Int32Array(cap);
    const clientOf = new Int32Array(cap);
    const requestOf = new Float64Array(cap);
    const opOf = new Uint8Array(cap);
    for (let i = this.executed + 1; i < this.nextIndex; i++) {
      const a = i & this.mask;
      const b = i & mask;
      votes[b] = this.votes[a]!;
      clientOf[b] = this.clientOf[a]!;
      requestOf[b] = this.requestOf[a]!;
      opOf[b] = this.opOf[a]!;
    }
    this.mask = mask;
    this.votes = votes;
    this.clientOf = clientOf;
    this.requestOf = requestOf;
    this.opOf = opOf;
  }

  destroy(): void {}
}
