// The simulator's only source of randomness: xoshiro128** (Blackman & Vigna), 32-bit state
// words, seeded through SplitMix64. Integer arithmetic only (Math.imul, shifts), so every
// JavaScript engine produces the same stream for the same seed. Independent streams
// (network jitter, workload, each client thread…) are derived from the cluster seed and a
// stream number, never shared, so changing one part of a run does not reshuffle the others.

const MASK64 = (1n << 64n) - 1n;

/** SplitMix64 step on BigInt state (used only when seeding; not on hot paths). */
export function splitmix64(state: bigint): { state: bigint; value: bigint } {
  const s = (state + 0x9e3779b97f4a7c15n) & MASK64;
  let z = s;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return { state: s, value: z ^ (z >> 31n) };
}

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /**
   * @param seed the cluster seed (integer, 0 ≤ seed < 2^53)
   * @param stream which independent stream (0, 1, 2 …)
   */
  constructor(seed: number, stream = 0) {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`seed must be an integer in [0, 2^53): ${seed}`);
    if (!Number.isSafeInteger(stream) || stream < 0) throw new RangeError(`stream must be a non-negative integer: ${stream}`);
    // The SplitMix64 state starts at seed XOR (stream · golden gamma); two outputs give four words.
    let st = (BigInt(seed) ^ ((BigInt(stream) * 0x9e3779b97f4a7c15n) & MASK64)) & MASK64;
    const r1 = splitmix64(st);
    st = r1.state;
    const r2 = splitmix64(st);
    this.a = Number(r1.value & 0xffffffffn) | 0;
    this.b = Number(r1.value >> 32n) | 0;
    this.c = Number(r2.value & 0xffffffffn) | 0;
    this.d = Number(r2.value >> 32n) | 0;
    if ((this.a | this.b | this.c | this.d) === 0) this.d = 1; // the all-zero state is a fixed point
  }

  /** Next 32 random bits as an unsigned integer. */
  nextU32(): number {
    return this.nextBits(0);
  }

  /** The next output's top 32 − `drop` bits (0 ≤ drop ≤ 31). With drop ≥ 2 the answer fits
   * V8's small integers, so a call that is not inlined returns it without a heap number (an
   * unsigned 32-bit word above 2^30 is boxed: a fast run draws 24 per operation). */
  private nextBits(drop: number): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9);
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result >>> drop;
  }

  /** Uniform double in [0, 1) with 53 random bits. */
  nextDouble(): number {
    const hi = this.nextBits(5); // 27 bits
    const lo = this.nextBits(6); // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [0, n) for 1 ≤ n ≤ 2^32, without modulo bias (rejection). */
  nextInt(n: number): number {
    if (!(n >= 1 && n <= 4294967296) || !Number.isInteger(n)) throw new RangeError(`nextInt bound out of range: ${n}`);
    const limit = 4294967296 - (4294967296 % n);
    for (;;) {
      const x = this.nextU32();
      if (x < limit) return x % n;
    }
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
