import { describe, expect, it } from 'vitest';
import { Prng } from '../core/prng.ts';
import { fnvhash64Parts, keyChooser, ScrambledZipfian, throttleTickUs, ycsbKey, Zipfian, zetaStatic } from './ycsb.ts';

// An independent reference for YCSB's Utils.fnvhash64, on BigInt.
function fnvRef(val: bigint): bigint {
  const M = (1n << 64n) - 1n;
  let h = 0xcbf29ce484222325n;
  let v = val;
  for (let i = 0; i < 8; i++) {
    h ^= v & 0xffn;
    v >>= 8n;
    h = (h * 1099511628211n) & M;
  }
  const signed = h >= 1n << 63n ? h - (1n << 64n) : h;
  return signed < 0n ? -signed : signed;
}

describe('YCSB generators', () => {
  it('fnvhash64 matches a BigInt reference, including values above 2^53', () => {
    const rng = new Prng(1, 9);
    const samples = [0, 1, 255, 256, 7_499_999, 2 ** 32, 2 ** 53 - 1, 1e16, 9.999999999999998e15];
    for (let i = 0; i < 2000; i++) samples.push(Math.floor(rng.nextDouble() * 1e16));
    for (const s of samples) {
      const [hi, lo] = fnvhash64Parts(s);
      expect((BigInt(hi) << 32n) | BigInt(lo)).toBe(fnvRef(BigInt(s)));
    }
  });

  it('keys are "user" + the decimal hash; 23 bytes for most of the paper\'s 7.5 M records', () => {
    expect(ycsbKey(0)).toBe(`user${fnvRef(0n)}`);
    // The paper's 23-byte keys: "user" + a 19-digit hash. Shorter hashes exist (below 10^18).
    const rng = new Prng(3, 9);
    let n23 = 0;
    const N = 20_000;
    for (let i = 0; i < N; i++) {
      const k = ycsbKey(Math.floor(rng.nextDouble() * 7_500_000));
      expect(k).toMatch(/^user[0-9]{1,19}$/);
      if (k.length === 23) n23++;
    }
    // fnv values are ~uniform on [0, 2^63): P(19 digits) = (2^63 − 10^18)/2^63 ≈ 0.8916.
    expect(n23 / N).toBeGreaterThan(0.88);
    expect(n23 / N).toBeLessThan(0.90);
  });

  it('zipfian: the most popular items match the closed form 1/zeta(n) and 0.5^θ/zeta(n)', () => {
    const n = 1000;
    const z = new Zipfian(n);
    const zeta = zetaStatic(n, 0.99);
    const rng = new Prng(11, 9);
    const counts = new Map<number, number>();
    const N = 200_000;
    for (let i = 0; i < N; i++) {
      const k = z.next(rng);
      expect(k).toBeGreaterThanOrEqual(0);
      expect(k).toBeLessThan(n);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const p0 = 1 / zeta;
    const p1 = 0.99 ** 0 * Math.pow(0.5, 0.99) / zeta;
    const tol = (p: number) => 4 * Math.sqrt((p * (1 - p)) / N);
    expect(Math.abs(counts.get(0)! / N - p0)).toBeLessThan(tol(p0));
    expect(Math.abs(counts.get(1)! / N - p1)).toBeLessThan(tol(p1));
    // Item 9 (rank 10) falls roughly as 1/10^0.99 of item 0 (the generator is approximate past rank 2).
    expect(counts.get(9)! / counts.get(0)!).toBeGreaterThan(0.05);
    expect(counts.get(9)! / counts.get(0)!).toBeLessThan(0.2);
  });

  it('scrambled zipfian spreads the hot keys: the hottest key is fnvhash64(0) mod itemcount', () => {
    const records = 10_000;
    const gen = new ScrambledZipfian(records);
    const rng = new Prng(5, 9);
    const counts = new Map<number, number>();
    for (let i = 0; i < 100_000; i++) {
      const k = gen.next(rng);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const hottest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    expect(BigInt(hottest)).toBe(fnvRef(0n) % BigInt(records + 1));
    // P(item 0 of the 10^16-item zipfian) = 1/ZETAN ≈ 3.8 %.
    expect(counts.get(hottest)! / 100_000).toBeCloseTo(1 / 26.46902820178302, 2);
  });

  it('the key chooser never returns a key beyond the loaded records', () => {
    for (const d of ['zipfian', 'uniform', 'latest'] as const) {
      const c = keyChooser(d, 100);
      const rng = new Prng(8, 9);
      for (let i = 0; i < 5000; i++) {
        const k = c.next(rng);
        expect(k).toBeGreaterThanOrEqual(0);
        expect(k).toBeLessThan(100);
      }
    }
    // latest favours the newest records
    const c = keyChooser('latest', 1000);
    const rng = new Prng(8, 9);
    let newest = 0;
    for (let i = 0; i < 10_000; i++) if (c.next(rng) >= 990) newest++;
    expect(newest / 10_000).toBeGreaterThan(0.3);
  });

  it('the throttle tick is floor(10^6 / per-thread ops per ms) ns, as YCSB computes it', () => {
    // 20 000 ops/s over 64 threads: 0.3125 op/ms per thread → 3 200 000 ns
    expect(throttleTickUs(20_000, 64)).toBe(3200);
    // 28 700 ops/s: 0.4484375 op/ms → floor(2229965.156…) ns
    expect(throttleTickUs(28_700, 64)).toBe(2229.965);
  });
});
