// Logarithm, exponential and power computed with + − × ÷ only. Math.log / Math.exp / Math.pow
// are not required to be correctly rounded, and JavaScript engines (Node's V8 and a newer
// Chromium's) may disagree in the last bit — enough to change a zipfian draw and so a whole
// trace. These are accurate to a few ulp and, being plain IEEE arithmetic, identical everywhere.

const LN2_HI = 0.6931471803691238; // high part of ln 2 (exactly representable product with k)
const LN2_LO = 1.9082149292705877e-10;
const SQRT2 = 1.4142135623730951;

// Powers of two built by repeated exact doubling/halving (no reliance on Math.pow).
const POW2_POS: number[] = [1];
for (let i = 1; i <= 1023; i++) POW2_POS.push(POW2_POS[i - 1]! * 2);
const POW2_NEG: number[] = [1];
for (let i = 1; i <= 1074; i++) POW2_NEG.push(POW2_NEG[i - 1]! / 2);

/** 2^k for integer k, exact. */
export function pow2(k: number): number {
  if (k >= 0) return k <= 1023 ? POW2_POS[k]! : Infinity;
  return -k <= 1074 ? POW2_NEG[-k]! : 0;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // index of the high word

/** Natural logarithm for x > 0. */
export function dlog(x: number): number {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  if (x === Infinity) return Infinity;
  // x = m · 2^k with m in [1, 2), read from the IEEE bits (exact), then moved to
  // [sqrt(1/2), sqrt(2)) so the series below converges fast.
  let k = 0;
  if (x < 2.2250738585072014e-308) { x *= POW2_POS[54]!; k = -54; } // subnormal: scale up exactly
  F64[0] = x;
  const hi = U32[HI]!;
  k += ((hi >>> 20) & 0x7ff) - 1023;
  U32[HI] = (hi & 0x800fffff) | 0x3ff00000;
  let m = F64[0]!;
  if (m >= SQRT2) { m /= 2; k++; }
  // ln m = 2·atanh(s), s = (m−1)/(m+1), |s| ≤ 0.1716: a dozen terms reach full precision.
  const s = (m - 1) / (m + 1);
  const s2 = s * s;
  let term = s;
  let sum = 0;
  for (let i = 1; i < 60; i += 2) {
    const add = term / i;
    sum += add;
    if (Math.abs(add) < 1e-18 * Math.abs(sum)) break;
    term *= s2;
  }
  return k * LN2_HI + (2 * sum + k * LN2_LO);
}

/** e^x. */
export function dexp(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x > 709.78) return Infinity;
  if (x < -745.2) return 0;
  // x = k·ln2 + r, |r| ≤ ln2/2; e^r by its Taylor series, then exact scaling by 2^k.
  const k = Math.round(x / (LN2_HI + LN2_LO));
  const r = x - k * LN2_HI - k * LN2_LO;
  let term = 1;
  let sum = 1;
  for (let i = 1; i < 40; i++) {
    term = (term * r) / i;
    sum += term;
    if (Math.abs(term) < 1e-18 * sum) break;
  }
  return scale2(sum, k);
}

/** base^exponent for base > 0 (and 0^positive = 0). */
export function dpow(base: number, exponent: number): number {
  if (exponent === 0) return 1;
  if (base === 0) return exponent > 0 ? 0 : Infinity;
  if (base < 0) return NaN;
  if (base === 1) return 1;
  return dexp(exponent * dlog(base));
}

function scale2(v: number, k: number): number {
  // Multiply by 2^k in steps that stay within range; each step is exact.
  while (k > 1000) { v *= POW2_POS[1000]!; k -= 1000; }
  while (k < -1000) { v *= POW2_NEG[1000]!; k += 1000; }
  return v * pow2(k);
}
