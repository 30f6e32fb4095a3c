// The load run's queue: the event heap (core/heap.ts) plus one FIFO lane per node-to-node link
// for the messages that reach the leader while fast mode steps its followers ahead (the
// followers' accept and commit responses: two of an operation's three queue events).
//
// Why a lane is exact: the network keeps each link FIFO (a message never arrives before one
// sent earlier on the same link, net/network.ts), and a message is queued right after its
// arrival time is drawn, so the messages a link queues come in (time, sequence) order. Each
// lane entry takes its sequence number from the heap's own counter, and a pop takes the least
// (time, sequence) among the heap's top and the lanes' heads: the same total order one heap
// gives, without a heap push and pop, and without an event object, per lane entry.
import { EventQueue } from '../core/heap.ts';
import { EV, type Arrival, type Ev } from './events.ts';

type MessagePayload = Extract<Arrival, { kind: 'message' }>['payload'];
type MessageArrival = Arrival & { kind: 'message' };

/** One link's queued messages: a ring of their fields (struct of arrays). */
class Lane {
  times = new Float64Array(64);
  seqs = new Float64Array(64);
  incs = new Int32Array(64);
  bytes = new Float64Array(64);
  updates = new Uint8Array(64);
  types: string[] = new Array<string>(64).fill('');
  payloads: (MessagePayload | undefined)[] = new Array<MessagePayload | undefined>(64).fill(undefined);
  head = 0;
  count = 0;

  constructor(
    readonly from: number,
    readonly to: number,
  ) {}

  /** The last queued entry's time (−Infinity when empty): a later entry may not come before it. */
  lastTime(): number {
    return this.count > 0 ? this.times[(this.head + this.count - 1) & (this.times.length - 1)]! : -Infinity;
  }

  push(time_us: number, seq: number, inc: number, type: string, payload: MessagePayload, bytes: number, update: boolean): void {
    if (this.count === this.times.length) this.grow();
    const i = (this.head + this.count++) & (this.times.length - 1);
    this.times[i] = time_us;
    this.seqs[i] = seq;
    this.incs[i] = inc;
    this.types[i] = type;
    this.payloads[i] = payload;
    this.bytes[i] = bytes;
    this.updates[i] = update ? 1 : 0;
  }

  /** Moves the head entry into `ev` and drops it. */
  shiftInto(ev: MessageArrival): void {
    const i = this.head;
    ev.node = this.to;
    ev.from = this.from;
    ev.inc = this.incs[i]!;
    ev.type = this.types[i]!;
    ev.payload = this.payloads[i]!;
    ev.bytes = this.bytes[i]!;
    ev.update = this.updates[i] === 1;
    this.payloads[i] = undefined; // the lane holds no reference to a finished message
    this.head = (i + 1) & (this.times.length - 1);
    this.count--;
  }

  private grow(): void {
    const cap = this.times.length * 2;
    const order = (k: number) => (this.head + k) & (this.times.length - 1);
    const times = new Float64Array(cap);
    const seqs = new Float64Array(cap);
    const incs = new Int32Array(cap);
    const bytes = new Float64Array(cap);
    const updates = new Uint8Array(cap);
    const types = new Array<string>(cap).fill('');
    const payloads = new Array<MessagePayload | undefined>(cap).fill(undefined);
    for (let k = 0; k < this.count; k++) {
      const i = order(k);
      times[k] = this.times[i]!;
      seqs[k] = this.seqs[i]!;
      incs[k] = this.incs[i]!;
      bytes[k] = this.bytes[i]!;
      updates[k] = this.updates[i]!;
      types[k] = this.types[i]!;
      payloads[k] = this.payloads[i];
    }
    this.times = times;
    this.seqs = seqs;
    this.incs = incs;
    this.bytes = bytes;
    this.updates = updates;
    this.types = types;
    this.payloads = payloads;
    this.head = 0;
  }
}

export class RunQueue {
  private readonly heap = new EventQueue<Ev>();
  /** lanes by from · nodes + to, made on first use */
  private readonly lanes: (Lane | undefined)[];
  /** the lanes made so far, the ones a pop looks at */
  private readonly used: Lane[] = [];
  private laneEntries = 0;
  /** firstLane()'s answer since the last push or pop (undefined: not looked yet), so the run
   * loop's peek and pop look once per event. */
  private first: Lane | null | undefined = undefined;
  /** What a pop from a lane returns: one object, refilled by each such pop. The run is done
   * with an event before it pops the next, and a host only reads the events it steps. */
  private readonly fromLane: MessageArrival = { k: EV.arrival, node: 0, inc: 0, kind: 'message', from: 0, type: '', payload: '', bytes: 0, update: false };

  constructor(private readonly nodes: number) {
    this.lanes = new Array<Lane | undefined>(nodes * nodes).fill(undefined);
  }

  get size(): number {
    return this.heap.size + this.laneEntries;
  }

  push(time_us: number, ev: Ev): void {
    this.first = undefined;
    this.heap.push(time_us, ev);
  }

  /** A message from node `from` to node `to`, in its link's lane. Returns false, queueing
   * nothing, when it would arrive before the lane's last message (the caller queues it as an
   * event instead; a FIFO link never does that). */
  pushMessage(time_us: number, from: number, to: number, inc: number, type: string, payload: MessagePayload, bytes: number, update: boolean): boolean {
    if (!Number.isFinite(time_us)) throw new RangeError(`event time must be finite: ${time_us}`);
    const key = from * this.nodes + to;
    let lane = this.lanes[key];
    if (!lane) {
      lane = new Lane(from, to);
      this.lanes[key] = lane;
      this.used.push(lane);
    }
    if (time_us < lane.lastTime()) return false;
    this.first = undefined;
    lane.push(time_us, this.heap.takeSeq(), inc, type, payload, bytes, update);
    this.laneEntries++;
    return true;
  }

  /** The earliest entry's lane, or null when the heap's top comes first (or all is empty). */
  private firstLane(): Lane | null {
    if (this.first !== undefined) return this.first;
    this.first = this.earliestLane();
    return this.first;
  }

  private earliestLane(): Lane | null {
    if (this.laneEntries === 0) return null;
    let best: Lane | null = null;
    let t = this.heap.peekTime();
    let s = this.heap.peekSeq();
    for (let i = 0; i < this.used.length; i++) {
      const lane = this.used[i]!;
      if (lane.count === 0) continue;
      const lt = lane.times[lane.head]!;
      if (lt < t || (lt === t && lane.seqs[lane.head]! < s)) {
        best = lane;
        t = lt;
        s = lane.seqs[lane.head]!;
      }
    }
    return best;
  }

  /** The time of the earliest event; Infinity when nothing is queued. */
  peekTime(): number {
    const lane = this.firstLane();
    return lane ? lane.times[lane.head]! : this.heap.peekTime();
  }

  /** The earliest event (its time is peekTime() before the pop). A lane's message comes back in
   * one shared object, valid until the next pop. */
  pop(): Ev | undefined {
    const lane = this.firstLane();
    this.first = undefined;
    if (!lane) return this.heap.pop();
    lane.shiftInto(this.fromLane);
    this.laneEntries--;
    return this.fromLane;
  }
}
