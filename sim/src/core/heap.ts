// The event queue: a binary min-heap ordered by (time, sequence number). The sequence number
// is assigned on push, so events at the same virtual time run in the order they were
// scheduled — the tie-break that makes a run reproducible.

export interface Scheduled<T> {
  time_us: number;
  seq: number;
  item: T;
}

export class EventQueue<T> {
  private heap: Scheduled<T>[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(time_us: number, item: T): Scheduled<T> {
    if (!Number.isFinite(time_us)) throw new RangeError(`event time must be finite: ${time_us}`);
    const e = { time_us, seq: this.nextSeq++, item };
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(e, h[p]!)) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = e;
    return e;
  }

  peek(): Scheduled<T> | undefined {
    return this.heap[0];
  }

  pop(): Scheduled<T> | undefined {
    const h = this.heap;
    const top = h[0];
    if (top === undefined) return undefined;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      const n = h.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && before(h[r]!, h[l]!) ? r : l;
        if (!before(h[c]!, last)) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

function before<T>(a: Scheduled<T>, b: Scheduled<T>): boolean {
  return a.time_us < b.time_us || (a.time_us === b.time_us && a.seq < b.seq);
}
