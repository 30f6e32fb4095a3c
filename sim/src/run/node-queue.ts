// Exact mode's batch step (docs/protocol.md, "Batch step"): a per-node view of the run's
// queue, so that a node's next events can be stepped in one call to its engine.
//
// Why a batch is exact: every event that reaches a node is queued at least `window_us` after
// the moment it is queued (a message or client request crosses the network, at least its
// one-way latency; a timer is at least one commit interval), and the queue orders by (time,
// sequence). So when a node's event is taken from the queue at time t, the node's events
// already queued up to t + window_us are the next ones it will be given, in this order,
// whatever happens in between: anything queued later for it comes after them. Their effects
// are still routed one event at a time, at each event's own turn (EngineHost keeps them), so
// the run is the one-by-one run byte for byte. A push that breaks the window throws.
import { EV, type Ev } from './events.ts';

/** One node's arrivals and timers in queue order: (time, push order), as the heap pops them. */
class NodeLine {
  times: number[] = [];
  events: Ev[] = [];
  head = 0;
  /** The time of the last event stepped ahead in a batch; a push before it breaks the window. */
  horizon_us = -Infinity;

  add(time_us: number, ev: Ev): void {
    const times = this.times;
    let i = times.length;
    while (i > this.head && times[i - 1]! > time_us) i--;
    if (i === times.length) {
      times.push(time_us);
      this.events.push(ev);
    } else {
      times.splice(i, 0, time_us);
      this.events.splice(i, 0, ev);
    }
  }

  /** Drops the head, which must be `ev` (the queue pops a node's events in this order). */
  take(ev: Ev): void {
    if (this.head >= this.events.length || this.events[this.head] !== ev) throw new Error('batch step: the queue popped a node event out of its per-node order');
    this.events[this.head] = undefined as unknown as Ev; // held by nobody once stepped
    this.head++;
    if (this.head > 256 && this.head * 2 > this.events.length) {
      this.times = this.times.slice(this.head);
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }
}

export class NodeQueues {
  private readonly lines: NodeLine[];
  /** followers()' answer, one array reused (the caller copies what it keeps) */
  private readonly next: Ev[] = [];

  constructor(
    nodes: number,
    /** the shortest time between queueing an event for a node and its arrival */
    readonly window_us: number,
  ) {
    this.lines = Array.from({ length: nodes }, () => new NodeLine());
  }

  /** Called for every event pushed to the run's queue. */
  add(time_us: number, ev: Ev): void {
    if (ev.k !== EV.arrival && ev.k !== EV.timer) return;
    const line = this.lines[ev.node]!;
    if (time_us < line.horizon_us) throw new Error(`batch step: an event for n${ev.node} at ${time_us} µs was queued after n${ev.node} had stepped to ${line.horizon_us} µs (the batch window of ${this.window_us} µs does not hold)`);
    line.add(time_us, ev);
  }

  /** Called for every event popped from the run's queue, before it is handled. */
  take(ev: Ev): void {
    if (ev.k !== EV.arrival && ev.k !== EV.timer) return;
    this.lines[ev.node]!.take(ev);
  }

  /** The node's queued client requests and messages (incarnation `inc`) that follow the event
   * just taken at `now_us` with nothing else for the node in between, up to now + window: the
   * events a batch may step with it. Stops at anything else (a timer's generation may change,
   * an old incarnation's arrival is dropped). The answer is valid until the next call. */
  followers(node: number, inc: number, now_us: number): readonly Ev[] {
    const next = this.next;
    next.length = 0;
    const line = this.lines[node]!;
    const end_us = now_us + this.window_us;
    for (let i = line.head; i < line.events.length && line.times[i]! <= end_us; i++) {
      const e = line.events[i]!;
      if (e.k !== EV.arrival || (e.kind !== 'client' && e.kind !== 'message') || e.inc !== inc) break;
      next.push(e);
    }
    if (next.length > 0) line.horizon_us = line.times[line.head + next.length - 1]!;
    return next;
  }

  /** The node crashed: what it stepped ahead is gone with it. */
  forget(node: number): void {
    this.lines[node]!.horizon_us = -Infinity;
  }
}
