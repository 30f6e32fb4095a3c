// The virtual network: per-link one-way latency plus jitter, a serialization delay from the
// link's bandwidth, FIFO per link (as TCP: a message never overtakes an earlier one on the same
// link), and cut links (one-way or both ways). Endpoints are numbers: nodes are 0..n-1, client
// connections are given ids from CLIENT_ENDPOINT_BASE upwards.
import { dlog } from '../core/detmath.ts';
import { Prng } from '../core/prng.ts';

export interface NetworkParams {
  one_way_latency_us: number;
  /** Mean of the exponential jitter added to each message's latency. */
  jitter_us: number;
  /** Per-link (per TCP flow) bandwidth. */
  bandwidth_gbps: number;
  /** Mean of the exponential hand-off delay at the receiver: the thread that reads the message
   * (a thread per client, a peer's reader, a goroutine, a Tokio task) is woken and scheduled and
   * the RPC stack hands it the bytes. Latency, not CPU work. Load runs take it from the model
   * card (cpu.handoff_mean_us); 0 or absent: none. */
  handoff_mean_us?: number;
}

export const CLIENT_ENDPOINT_BASE = 1000;

// Exponential jitter by inverse transform, −ln(1 − u), from a table of 4096 quantiles with
// linear interpolation (the last bin, the tail, is computed exactly). Built with the
// deterministic logarithm, so every engine holds the same table.
const JITTER_BINS = 4096;
const NEG_LOG_1MU = new Float64Array(JITTER_BINS + 1);
for (let i = 0; i <= JITTER_BINS; i++) NEG_LOG_1MU[i] = i === JITTER_BINS ? Infinity : -dlog(1 - i / JITTER_BINS);

/** A unit-mean exponential variate from a uniform u in [0, 1). */
export function unitExponential(u: number): number {
  const x = u * JITTER_BINS;
  const i = Math.floor(x);
  if (i >= JITTER_BINS - 1) return -dlog(1 - u);
  const f = x - i;
  return NEG_LOG_1MU[i]! + f * (NEG_LOG_1MU[i + 1]! - NEG_LOG_1MU[i]!);
}

interface LinkState {
  busy_until_us: number;
  last_arrival_us: number;
}

export class Network {
  /** Link state by sender, then receiver, each endpoint at its dense slot (endpointSlot): two
   * array reads per message instead of a hash lookup (the network is on every message's path). */
  private readonly links: (LinkState | undefined)[][] = [];
  private readonly cut = new Set<number>();
  private readonly bytes_per_us: number;
  private readonly handoff_us: number;

  constructor(
    readonly params: NetworkParams,
    private readonly rng: Prng,
  ) {
    validateNetwork(params);
    this.bytes_per_us = params.bandwidth_gbps * 125; // 1 Gbit/s = 125 bytes/µs
    this.handoff_us = params.handoff_mean_us ?? 0;
  }

  /** When a message of `bytes` sent now from `from` to `to` arrives. Advances the link's state. */
  arrival(from: number, to: number, bytes: number, now_us: number): number {
    const f = endpointSlot(from);
    const t = endpointSlot(to);
    const row = this.links[f] ?? this.newRow(f);
    let link = row[t];
    if (!link) {
      link = { busy_until_us: 0, last_arrival_us: 0 };
      row[t] = link;
    }
    const tx_start = Math.max(now_us, link.busy_until_us);
    const tx_end = tx_start + bytes / this.bytes_per_us;
    link.busy_until_us = tx_end;
    const jitter = this.params.jitter_us > 0 ? this.params.jitter_us * unitExponential(this.rng.nextDouble()) : 0;
    // The hand-off comes before the link's FIFO: a reader takes a stream's messages in order.
    const handoff = this.handoff_us > 0 ? this.handoff_us * unitExponential(this.rng.nextDouble()) : 0;
    const arrival = Math.max(tx_end + this.params.one_way_latency_us + jitter + handoff, link.last_arrival_us);
    link.last_arrival_us = arrival;
    return arrival;
  }

  private newRow(f: number): (LinkState | undefined)[] {
    while (this.links.length <= f) this.links.push([]);
    return this.links[f]!;
  }

  isCut(from: number, to: number): boolean {
    if (this.cut.size === 0) return false;
    return this.cut.has(linkKey(from, to));
  }

  cutLink(from: number, to: number): void {
    this.cut.add(linkKey(from, to));
  }

  heal(): void {
    this.cut.clear();
  }

  cutLinks(): [number, number][] {
    return [...this.cut].sort((a, b) => a - b).map((k) => [Math.floor(k / 65536), k % 65536]);
  }
}

/** Nodes and client connections interleaved (nodes even, clients odd), so both stay dense. */
function endpointSlot(e: number): number {
  if (!Number.isInteger(e) || e < 0) throw new RangeError(`network endpoint must be a non-negative integer: ${e}`);
  return e >= CLIENT_ENDPOINT_BASE ? 2 * (e - CLIENT_ENDPOINT_BASE) + 1 : 2 * e;
}

function linkKey(from: number, to: number): number {
  return from * 65536 + to;
}

export function validateNetwork(p: NetworkParams): void {
  const check = (name: string, v: number, min: number, max: number) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
      throw new RangeError(`network ${name} must be a number in [${min}, ${max}]: ${v}`);
  };
  check('one_way_latency_us', p.one_way_latency_us, 0, 10_000_000);
  check('jitter_us', p.jitter_us, 0, 10_000_000);
  check('bandwidth_gbps', p.bandwidth_gbps, 0.001, 10_000);
  if (p.handoff_mean_us !== undefined) check('handoff_mean_us', p.handoff_mean_us, 0, 10_000_000);
}
