// Listening ports for native clusters.
//
// Ports are taken from below the kernel's ephemeral range. A port the OS hands
// out for `listen(0)` comes from that range, and once we release it to give it
// to a server, the same number can be picked as the *source* port of any
// outgoing connection — including a node reconnecting to a killed peer, which
// then connects to itself (TCP simultaneous open) and keeps the port. The
// restarted peer cannot bind and the test fails now and then. Ports outside the
// ephemeral range are never handed out as source ports, so that cannot happen.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Lowest port we use; below it live well-known and registered services. */
const LOWEST_PORT = 10_000;
/** Ephemeral range assumed when the kernel does not say (Linux's default). */
const DEFAULT_EPHEMERAL: readonly [number, number] = [32_768, 60_999];

/** The kernel's ephemeral port range, from /proc on Linux. */
export function ephemeralRange(procText?: string): [number, number] {
  let text = procText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
    } catch {
      return [...DEFAULT_EPHEMERAL];
    }
  }
  const [lo, hi] = text.trim().split(/\s+/).map(Number);
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo! < 1 || hi! > 65_535 || lo! > hi!) return [...DEFAULT_EPHEMERAL];
  return [lo!, hi!];
}

/**
 * The span of ports to choose from: below the ephemeral range if there is room
 * for `n`, otherwise above it.
 */
export function portSpan(n: number, ephemeral: [number, number] = ephemeralRange()): [number, number] {
  const [lo, hi] = ephemeral;
  if (lo - 1 - LOWEST_PORT >= n) return [LOWEST_PORT, lo - 1];
  if (65_535 - (hi + 1) >= n) return [hi + 1, 65_535];
  throw new Error(`no room for ${n} ports outside the ephemeral range ${lo}-${hi}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen({ port, host: '127.0.0.1', exclusive: true }, () => s.close(() => resolve(true)));
  });
}

/**
 * The first `n` ports, walking from `first + start` through the span
 * `first`-`last` and wrapping round, that can be listened on now.
 */
export async function freePortsIn(n: number, [first, last]: [number, number], start: number): Promise<number[]> {
  const width = last - first + 1;
  const ports: number[] = [];
  for (let i = 0; ports.length < n; i++) {
    if (i >= width) throw new Error(`found only ${ports.length} of ${n} free ports in ${first}-${last}`);
    const port = first + ((start + i) % width);
    if (await canListen(port)) ports.push(port);
  }
  return ports;
}

let cursor = -1;

/**
 * `n` distinct loopback ports that are free now and outside the ephemeral range.
 * Successive calls in one process walk forward through the span, and separate
 * processes start at different places (by pid), so concurrent test files rarely
 * even try the same number; a port in use is simply skipped.
 */
export async function freePorts(n: number): Promise<number[]> {
  const span = portSpan(n);
  const width = span[1] - span[0] + 1;
  if (cursor < 0) cursor = (process.pid * 7919) % width;
  const ports = await freePortsIn(n, span, cursor);
  cursor = (ports[ports.length - 1]! - span[0] + 1) % width;
  return ports;
}
