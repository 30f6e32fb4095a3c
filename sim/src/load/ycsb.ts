// YCSB core-workload semantics (brianfrankcooper/YCSB, CoreWorkload and its generators),
// re-implemented from their documented behaviour: FNV-1a-64 hashing of key numbers, keys
// "user" + decimal hash, the Gray et al. zipfian generator, the scrambled zipfian (zipfian over
// 10^16 items with YCSB's precomputed zeta, hashed and folded onto the key space), uniform, and
// skewed-latest. All arithmetic that decides a draw is exact integer or plain IEEE arithmetic.
import { dpow } from '../core/detmath.ts';
import type { Prng } from '../core/prng.ts';

export const ZIPFIAN_CONSTANT = 0.99;
/** The item count and zeta YCSB's ScrambledZipfianGenerator uses for constant 0.99. */
export const SCRAMBLED_ITEM_COUNT = 1e16;
export const SCRAMBLED_ZETAN = 26.46902820178302;
const TWO32 = 4294967296;

/** YCSB Utils.fnvhash64: FNV-1a over the 8 little-endian bytes of a non-negative long, then
 * the absolute value of the signed result. `val` must be an integer-valued double < 2^63.
 * Returns the 63-bit result as [hi, lo] 32-bit halves. */
export function fnvhash64Parts(val: number): [number, number] {
  if (!(val >= 0) || !Number.isInteger(val)) throw new RangeError(`fnvhash64 needs a non-negative integer: ${val}`);
  let vhi = Math.floor(val / TWO32);
  let vlo = val - vhi * TWO32;
  // Hash state as four 16-bit limbs (little-endian) so products stay exact.
  let h0 = 0x2325, h1 = 0x8422, h2 = 0x9ce4, h3 = 0xcbf2; // 0xcbf29ce484222325
  for (let i = 0; i < 8; i++) {
    const octet = vlo & 0xff;
    vlo = (vlo >>> 8) | ((vhi & 0xff) << 24);
    vlo >>>= 0;
    vhi >>>= 8;
    h0 ^= octet;
    // h *= 0x100000001b3  ==  h*0x1b3 + (h << 40)
    const p0 = h0 * 0x1b3, p1 = h1 * 0x1b3, p2 = h2 * 0x1b3, p3 = h3 * 0x1b3;
    let c = p0;
    const n0 = c & 0xffff; c = Math.floor(c / 65536) + p1;
    const n1 = c & 0xffff; c = Math.floor(c / 65536) + p2;
    const n2 = c & 0xffff; c = Math.floor(c / 65536) + p3;
    let n3 = c & 0xffff;
    // << 40: limb k moves to limb k + 2.5 — i.e. bits shift by 8 within limb 2 and 3.
    const s2 = (h0 << 8) & 0xffff;
    const s3 = ((h0 >>> 8) | (h1 << 8)) & 0xffff;
    let t2 = n2 + s2;
    n3 = (n3 + s3 + (t2 >>> 16)) & 0xffff;
    t2 &= 0xffff;
    h0 = n0; h1 = n1; h2 = t2; h3 = n3;
  }
  let hi = ((h3 << 16) | h2) >>> 0;
  let lo = ((h1 << 16) | h0) >>> 0;
  if (hi >= 0x80000000) {
    // Math.abs of a negative long: two's complement negation (Long.MIN_VALUE stays negative in
    // Java; it is 2^-64 likely and we map it to itself as unsigned).
    lo = (~lo + 1) >>> 0;
    hi = (~hi + (lo === 0 ? 1 : 0)) >>> 0;
  }
  return [hi, lo];
}

/** fnvhash64(val) mod n, exactly (n ≤ 2^36). */
export function fnvhashMod(val: number, n: number): number {
  const [hi, lo] = fnvhash64Parts(val);
  let r = hi % n;
  r = (r * 65536) % n;
  r = (r * 65536 + lo) % n;
  return r;
}

/** YCSB's key for a key number: "user" + Long.toString(fnvhash64(keynum)) (hashed inserts,
 * zero padding 1). BigInt only for the decimal text: keys are built once per engine key. */
export function ycsbKey(keynum: number): string {
  const [hi, lo] = fnvhash64Parts(keynum);
  return 'user' + ((BigInt(hi) << 32n) | BigInt(lo)).toString();
}

export function zetaStatic(n: number, theta: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += 1 / dpow(i + 1, theta);
  return sum;
}

/** Gray et al.'s zipfian over items [0, items): item 0 the most popular. */
export class Zipfian {
  readonly items: number;
  readonly zetan: number;
  private readonly alpha: number;
  private readonly eta: number;
  private readonly half_pow_theta: number;

  constructor(items: number, theta = ZIPFIAN_CONSTANT, zetan?: number) {
    if (!(items >= 1)) throw new RangeError(`zipfian needs at least one item: ${items}`);
    this.items = items;
    this.zetan = zetan ?? zetaStatic(items, theta);
    const zeta2theta = zetaStatic(2, theta);
    this.alpha = 1 / (1 - theta);
    this.eta = (1 - dpow(2 / items, 1 - theta)) / (1 - zeta2theta / this.zetan);
    this.half_pow_theta = dpow(0.5, theta);
  }

  next(rng: Prng): number {
    const u = rng.nextDouble();
    const uz = u * this.zetan;
    if (uz < 1) return 0;
    if (uz < 1 + this.half_pow_theta) return 1;
    return Math.floor(this.items * dpow(this.eta * u - this.eta + 1, this.alpha));
  }
}

/** YCSB's ScrambledZipfianGenerator(min = 0, max): popular items scattered by hashing. */
export class ScrambledZipfian {
  private readonly gen = new Zipfian(SCRAMBLED_ITEM_COUNT + 1, ZIPFIAN_CONSTANT, SCRAMBLED_ZETAN);
  readonly itemcount: number;

  constructor(max: number) {
    this.itemcount = max + 1;
  }

  next(rng: Prng): number {
    return fnvhashMod(this.gen.next(rng), this.itemcount);
  }
}

export type KeyChooser = { next(rng: Prng): number };

/** The key chooser CoreWorkload builds for a request distribution, with its nextKeynum rule
 * (draws above the last inserted key are thrown away and redrawn). */
export function keyChooser(distribution: 'zipfian' | 'uniform' | 'latest', recordCount: number): KeyChooser {
  const last = recordCount - 1;
  switch (distribution) {
    case 'zipfian': {
      // The key space is recordcount + expected inserts (0 for A/B) + 1 (YCSB's inclusive max).
      const gen = new ScrambledZipfian(recordCount);
      return { next: (rng) => { for (;;) { const k = gen.next(rng); if (k <= last) return k; } } };
    }
    case 'uniform':
      return { next: (rng) => Math.floor(rng.nextDouble() * recordCount) };
    case 'latest': {
      // SkewedLatestGenerator: the newest key minus a zipfian offset over (newest) items.
      const z = new Zipfian(Math.max(1, last));
      return { next: (rng) => { for (;;) { const k = last - z.next(rng); if (k >= 0 && k <= last) return k; } } };
    }
  }
}

/** YCSB ClientThread throttle: thread t's k-th operation (k ≥ 0) is intended at
 * start_t + k·tick, tick = floor(10^6 / target-per-thread-per-ms) ns; each thread starts after a
 * random delay in [0, tick) when its per-thread target is ≤ 1 op/ms. Times here in µs. */
export function throttleTickUs(targetOpsPerS: number, threads: number): number {
  const perThreadPerMs = targetOpsPerS / threads / 1000;
  return Math.floor(1_000_000 / perThreadPerMs) / 1000;
}
