import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { ephemeralRange, freePorts, freePortsIn, portSpan } from './ports.ts';

describe('cluster ports', () => {
  it('reads the kernel range and falls back on nonsense', () => {
    expect(ephemeralRange('32768\t60999\n')).toEqual([32768, 60999]);
    expect(ephemeralRange('1024 65535')).toEqual([1024, 65535]);
    expect(ephemeralRange('garbage')).toEqual([32768, 60999]);
    expect(ephemeralRange('5000 4000')).toEqual([32768, 60999]);
  });

  it('chooses below the ephemeral range, or above it when there is no room below', () => {
    expect(portSpan(6, [32768, 60999])).toEqual([10000, 32767]);
    expect(portSpan(6, [10002, 60000])).toEqual([60001, 65535]);
    expect(() => portSpan(6, [10002, 65533])).toThrow(/no room/);
  });

  it('hands out distinct free ports none of which the kernel would use as a source port', async () => {
    const [lo, hi] = ephemeralRange();
    const ports = [...(await freePorts(10)), ...(await freePorts(10))];
    expect(new Set(ports).size).toBe(20);
    for (const p of ports) expect(p < lo || p > hi).toBe(true);
  });

  it('skips a port someone already listens on, and says so when too few are left', async () => {
    const [taken] = await freePorts(1);
    const s = createServer();
    await new Promise<void>((r) => s.listen(taken, '127.0.0.1', () => r()));
    try {
      const span: [number, number] = [taken!, taken! + 2];
      const got = await freePortsIn(2, span, 0);
      expect(got).not.toContain(taken);
      expect(got).toHaveLength(2);
      await expect(freePortsIn(3, span, 0)).rejects.toThrow(/found only 2 of 3/);
    } finally {
      await new Promise((r) => s.close(r));
    }
  });
});
