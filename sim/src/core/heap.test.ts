import { describe, expect, it } from 'vitest';
import { EventQueue } from './heap.ts';
import { Prng } from './prng.ts';

describe('EventQueue', () => {
  it('pops in (time, push order) order, interleaving pushes and pops, across growth', () => {
    const rng = new Prng(7, 99);
    const q = new EventQueue<number>();
    const ref: { t: number; seq: number }[] = [];
    const popped: number[] = [];
    const expected: number[] = [];
    let seq = 0;
    const popBoth = () => {
      ref.sort((a, b) => a.t - b.t || a.seq - b.seq);
      const r = ref.shift()!;
      expected.push(r.seq);
      expect(q.peekTime()).toBe(r.t);
      popped.push(q.pop()!);
    };
    for (let i = 0; i < 5000; i++) {
      // few distinct times, so ties are common
      const t = rng.nextInt(50) * 0.5;
      q.push(t, seq);
      ref.push({ t, seq });
      seq++;
      if (rng.nextInt(3) === 0) popBoth();
    }
    while (ref.length > 0) popBoth();
    expect(popped).toEqual(expected);
    expect(q.size).toBe(0);
    expect(q.peekTime()).toBe(Infinity);
    expect(q.pop()).toBeUndefined();
  });

  it('refuses a time that is not finite', () => {
    const q = new EventQueue<number>();
    expect(() => q.push(NaN, 1)).toThrow(RangeError);
    expect(() => q.push(Infinity, 1)).toThrow(RangeError);
    expect(q.size).toBe(0);
  });
});
