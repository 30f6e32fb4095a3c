// The event queue: a binary min-heap ordered by (time, sequence number). The sequence number
// is assigned on push, so events at the same virtual time run in the order they were
// scheduled — the tie-break that makes a run reproducible.
//
// The hot path of every run: the keys live in typed arrays beside the items (structure of
// arrays), so a push or a pop allocates nothing and compares plain numbers.

export class EventQueue<T> {
  private times = new Float64Array(256);
  private seqs = new Float64Array(256);
  private items: (T | undefined)[] = new Array(256);
  private n = 0;
  private nextSeq = 0;

  get size(): number {
    return this.n;
  }

  push(time_us: number, item: T): void {
    if (!Number.isFinite(time_us)) throw new RangeError(`event time must be finite: ${time_us}`);
    if (this.n === this.times.length) this.grow();
    const times = this.times;
    const seqs = this.seqs;
    const items = this.items;
    const seq = this.nextSeq++;
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const tp = times[p]!;
      if (tp < time_us || (tp === time_us && seqs[p]! < seq)) break;
      times[i] = tp;
      seqs[i] = seqs[p]!;
      items[i] = items[p];
      i = p;
    }
    times[i] = time_us;
    seqs[i] = seq;
    items[i] = item;
  }

  /** The time of the earliest event; Infinity when the queue is empty. */
  peekTime(): number {
    return this.n > 0 ? this.times[0]! : Infinity;
  }

  /** The earliest event's item (its time is peekTime() before the pop). */
  pop(): T | undefined {
    if (this.n === 0) return undefined;
    const times = this.times;
    const seqs = this.seqs;
    const items = this.items;
    const top = items[0];
    const n = --this.n;
    const lt = times[n]!;
    const ls = seqs[n]!;
    const li = items[n];
    items[n] = undefined; // the queue holds no reference to a finished event
    if (n > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        const r = c + 1;
        if (r < n && (times[r]! < times[c]! || (times[r] === times[c] && seqs[r]! < seqs[c]!))) c = r;
        const tc = times[c]!;
        if (tc > lt || (tc === lt && seqs[c]! > ls)) break;
        times[i] = tc;
        seqs[i] = seqs[c]!;
        items[i] = items[c];
        i = c;
      }
      times[i] = lt;
      seqs[i] = ls;
      items[i] = li;
    }
    return top;
  }

  private grow(): void {
    const cap = this.times.length * 2;
    const times = new Float64Array(cap);
    times.set(this.times);
    const seqs = new Float64Array(cap);
    seqs.set(this.seqs);
    this.times = times;
    this.seqs = seqs;
    this.items.length = cap;
  }
}
