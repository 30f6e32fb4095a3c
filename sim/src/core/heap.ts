// The event queue: a min-heap ordered by (time, sequence number). The sequence number is
// assigned on push, so events at the same virtual time run in the order they were scheduled —
// the tie-break that makes a run reproducible. Keys are unique, so any correct heap pops the
// same order.
//
// The hot path of every run: the keys and each entry's item slot live in typed arrays
// (structure of arrays), so a push or a pop allocates nothing, compares plain numbers and moves
// no object references (the items stay in their slots); four children per entry halve the
// heap's depth, which a pop pays for.

const ARITY = 4;

export class EventQueue<T> {
  private times = new Float64Array(256);
  private seqs = new Float64Array(256);
  /** each heap entry's slot in `items` */
  private slots = new Int32Array(256);
  private items: (T | undefined)[] = new Array<T | undefined>(256).fill(undefined);
  /** slots of `items` free for reuse (a stack) */
  private freeSlots = new Int32Array(256);
  private nFree = 0;
  /** slots of `items` ever used: the next fresh one */
  private nSlots = 0;
  private n = 0;
  private nextSeq = 0;

  get size(): number {
    return this.n;
  }

  /** The sequence number the next push would take, taken now: an event kept outside the heap
   * (run/run-queue.ts, a FIFO lane) still orders among the heap's events by (time, sequence). */
  takeSeq(): number {
    return this.nextSeq++;
  }

  push(time_us: number, item: T): void {
    if (!Number.isFinite(time_us)) throw new RangeError(`event time must be finite: ${time_us}`);
    if (this.n === this.times.length) this.grow();
    const slot = this.nFree > 0 ? this.freeSlots[--this.nFree]! : this.nSlots++;
    this.items[slot] = item;
    const times = this.times;
    const seqs = this.seqs;
    const slots = this.slots;
    const seq = this.nextSeq++;
    let i = this.n++;
    while (i > 0) {
      const p = ((i - 1) / ARITY) | 0;
      const tp = times[p]!;
      if (tp < time_us || (tp === time_us && seqs[p]! < seq)) break;
      times[i] = tp;
      seqs[i] = seqs[p]!;
      slots[i] = slots[p]!;
      i = p;
    }
    times[i] = time_us;
    seqs[i] = seq;
    slots[i] = slot;
  }

  /** The time of the earliest event; Infinity when the queue is empty. */
  peekTime(): number {
    return this.n > 0 ? this.times[0]! : Infinity;
  }

  /** The earliest event's sequence number; Infinity when the queue is empty. */
  peekSeq(): number {
    return this.n > 0 ? this.seqs[0]! : Infinity;
  }

  /** The earliest event's item (its time is peekTime() before the pop). */
  pop(): T | undefined {
    if (this.n === 0) return undefined;
    const times = this.times;
    const seqs = this.seqs;
    const slots = this.slots;
    const topSlot = slots[0]!;
    const top = this.items[topSlot];
    this.items[topSlot] = undefined; // the queue holds no reference to a finished event
    this.freeSlots[this.nFree++] = topSlot;
    const n = --this.n;
    if (n > 0) {
      const lt = times[n]!;
      const ls = seqs[n]!;
      const lslot = slots[n]!;
      let i = 0;
      for (;;) {
        const first = ARITY * i + 1;
        if (first >= n) break;
        // the least of i's children
        let c = first;
        let tc = times[first]!;
        let sc = seqs[first]!;
        const end = Math.min(first + ARITY, n);
        for (let j = first + 1; j < end; j++) {
          const tj = times[j]!;
          if (tj < tc || (tj === tc && seqs[j]! < sc)) {
            c = j;
            tc = tj;
            sc = seqs[j]!;
          }
        }
        if (tc > lt || (tc === lt && sc > ls)) break;
        times[i] = tc;
        seqs[i] = sc;
        slots[i] = slots[c]!;
        i = c;
      }
      times[i] = lt;
      seqs[i] = ls;
      slots[i] = lslot;
    }
    return top;
  }

  private grow(): void {
    const cap = this.times.length * 2;
    const times = new Float64Array(cap);
    times.set(this.times);
    const seqs = new Float64Array(cap);
    seqs.set(this.seqs);
    const slots = new Int32Array(cap);
    slots.set(this.slots);
    const freeSlots = new Int32Array(cap);
    freeSlots.set(this.freeSlots);
    this.times = times;
    this.seqs = seqs;
    this.slots = slots;
    this.freeSlots = freeSlots;
    while (this.items.length < cap) this.items.push(undefined);
  }
}
