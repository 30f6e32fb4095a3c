// Latency histograms: hdr-histogram-js (its pure JavaScript implementation — the WebAssembly one
// would add a second module to load in the worker and nothing to determinism), summarised for
// the UI and encoded in HdrHistogram's portable compressed V2 format. The encoder is ours and
// uses pako on every platform: hdr-histogram-js would deflate with Node's zlib in Node and with
// pako in a browser, and their bytes differ.
/// <reference path="../types/pako.d.ts" />
import * as hdr from 'hdr-histogram-js';
import pako from 'pako';
import type { LatencySummary } from '../api.ts';
import { pow2 } from '../core/detmath.ts';

export const HIGHEST_TRACKABLE_US = 3_600_000_000; // one hour
const V2_COOKIE = 0x1c849303 | 0x10;
const V2_COMPRESSED_COOKIE = 0x1c849304 | 0x10;

type JsHist = hdr.Histogram & {
  countsArrayIndex(v: number): number;
  incrementCountAtIndex(i: number): void;
  updateMinAndMax(v: number): void;
  incrementTotalCount(): void;
  getCountAtIndex(i: number): number;
  maxValue: number;
};

/** Latencies below this many µs (65 ms: nearly every one) find their counts index in a table. */
const INDEX_TABLE_VALUES = 65_536;
/** Every histogram here has the same layout, so one table, built by the library's own
 * countsArrayIndex on first use. */
let COUNTS_INDEX: Int32Array | null = null;

function countsIndexTable(h: JsHist): Int32Array {
  const t = new Int32Array(INDEX_TABLE_VALUES);
  for (let v = 0; v < INDEX_TABLE_VALUES; v++) t[v] = h.countsArrayIndex(v);
  COUNTS_INDEX = t;
  return t;
}

export class LatencyHistogram {
  readonly h: JsHist;
  private sum_us = 0;

  constructor() {
    this.h = hdr.build({
      useWebAssembly: false,
      bitBucketSize: 32,
      numberOfSignificantValueDigits: 3,
      lowestDiscernibleValue: 1,
      highestTrackableValue: HIGHEST_TRACKABLE_US,
      autoResize: false,
    }) as JsHist;
  }

  /** Records a latency in µs (rounded up to a whole µs, clamped to the trackable range). */
  record(latency_us: number): void {
    const v = Math.min(HIGHEST_TRACKABLE_US, Math.max(1, Math.ceil(latency_us)));
    const h = this.h;
    if (v < INDEX_TABLE_VALUES) {
      // recordValue's own steps, with its counts index (two logarithms and a power) looked up
      h.incrementCountAtIndex((COUNTS_INDEX ?? countsIndexTable(h))[v]!);
      h.updateMinAndMax(v);
      h.incrementTotalCount();
    } else h.recordValue(v);
    this.sum_us += v;
    this.cumulative = null;
  }

  add(other: LatencyHistogram): void {
    this.h.add(other.h);
    this.sum_us += other.sum_us;
    this.cumulative = null;
  }

  /** Counts up to each bucket, built on first use after the last change. */
  private cumulative: Float64Array | null = null;

  /** How many recorded latencies lie in buckets above the one holding `v_us`. */
  countAbove(v_us: number): number {
    const h = this.h;
    if (h.totalCount === 0 || v_us >= h.maxValue) return 0;
    if (!this.cumulative) {
      const n = h.countsArrayIndex(h.maxValue) + 1;
      const cum = new Float64Array(n);
      let sum = 0;
      for (let i = 0; i < n; i++) cum[i] = sum += h.getCountAtIndex(i);
      this.cumulative = cum;
    }
    const i = h.countsArrayIndex(Math.max(0, Math.floor(v_us)));
    return h.totalCount - this.cumulative[Math.min(i, this.cumulative.length - 1)]!;
  }

  get count(): number {
    return this.h.totalCount;
  }

  percentile_us(p: number): number {
    return this.count === 0 ? 0 : this.h.getValueAtPercentile(p);
  }

  summary(): LatencySummary {
    const n = this.count;
    return {
      count: n,
      mean_us: n === 0 ? 0 : round3(this.sum_us / n),
      max_us: n === 0 ? 0 : this.h.maxValue,
      spectrum: this.spectrum(),
      p50_us: this.percentile_us(50),
      p99_us: this.percentile_us(99),
      p999_us: this.percentile_us(99.9),
      hdr_base64: this.encodeCompressedBase64(),
    };
  }

  /** The percentile spectrum for a log 1/(1−p) axis: 0, 50, 75, 87.5 … (halving the distance
   * to 100 each time, 4 points per halving) up to the last recorded value. */
  spectrum(): [number, number][] {
    const out: [number, number][] = [];
    if (this.count === 0) return out;
    const limit = 100 - 100 / this.count;
    out.push([0, this.h.getValueAtPercentile(0)]);
    for (let halvings = 0; halvings < 24; halvings++) {
      const gap = 100 * pow2(-halvings);
      for (let k = 0; k < 4; k++) {
        const p = 100 - gap + (gap / 2) * (k / 4);
        if (p > limit) break;
        if (p > 0) out.push([round6(p), this.h.getValueAtPercentile(p)]);
      }
    }
    out.push([100, this.h.maxValue]);
    return out;
  }

  /** HdrHistogram V2 compressed encoding, base64 (decodable by every HdrHistogram port). */
  encodeCompressedBase64(): string {
    const payload = this.encodeV2();
    const deflated = pako.deflate(payload);
    const out = new Uint8Array(8 + deflated.length);
    const dv = new DataView(out.buffer);
    dv.setInt32(0, V2_COMPRESSED_COOKIE);
    dv.setInt32(4, deflated.length);
    out.set(deflated, 8);
    return toBase64(out);
  }

  private encodeV2(): Uint8Array {
    const body: number[] = [];
    const h = this.h;
    const limit = h.totalCount === 0 ? 0 : h.countsArrayIndex(h.maxValue) + 1;
    let i = 0;
    while (i < limit) {
      const count = h.getCountAtIndex(i++);
      if (count === 0) {
        let zeros = 1;
        while (i < limit && h.getCountAtIndex(i) === 0) { zeros++; i++; }
        zigzag(body, zeros > 1 ? -zeros : 0);
      } else zigzag(body, count);
    }
    const out = new Uint8Array(40 + body.length);
    const dv = new DataView(out.buffer);
    dv.setInt32(0, V2_COOKIE);
    dv.setInt32(4, body.length);
    dv.setInt32(8, 0); // normalizing index offset
    dv.setInt32(12, 3); // significant digits
    dv.setBigInt64(16, 1n); // lowest discernible value
    dv.setBigInt64(24, BigInt(HIGHEST_TRACKABLE_US));
    dv.setFloat64(32, 1); // integer-to-double conversion ratio
    out.set(body, 40);
    return out;
  }
}

function zigzag(out: number[], v: number): void {
  // ZigZag then LEB128 (values here fit in 53 bits).
  let z = v >= 0 ? v * 2 : -v * 2 - 1;
  while (z >= 128) {
    out.push((z % 128) | 128);
    z = Math.floor(z / 128);
  }
  out.push(z);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!, b = bytes[i + 1] ?? 0, c = bytes[i + 2] ?? 0;
    const n = (a << 16) | (b << 8) | c;
    s += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    s += i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '=';
    s += i + 2 < bytes.length ? B64[n & 63]! : '=';
  }
  return s;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
