// --status-interval-ms (docs/protocol.md, "Native servers"): every server logs its status line
// at the period it is given, which the reset tests set to 100 ms to time a catch-up finer than a
// second (catch-up-timing.ts). REPLICANT_CLUSTER_ENGINES picks the mix (default go,go,go).
import { describe, expect, it } from 'vitest';
import type { EngineName } from '../loader/engine.ts';
import { waitUntil } from './client.ts';
import { FINE_STATUS_INTERVAL_MS } from './catch-up-timing.ts';
import { NativeCluster } from './launcher.ts';
import { StatusReader } from './node-status.ts';

const mixes = (process.env.REPLICANT_CLUSTER_ENGINES ?? 'go,go,go').split(';').map((m) => m.split(',') as EngineName[]);
const LINES = 8;

for (const engines of mixes) {
  describe(`status interval ${engines.join(',')}`, () => {
    it(`logs the status line every ${FINE_STATUS_INTERVAL_MS} ms when told to`, async () => {
      const cluster = await NativeCluster.start({ engines, statusIntervalMs: FINE_STATUS_INTERVAL_MS });
      try {
        const readers = engines.map((_, id) => new StatusReader(cluster.logPath(id)));
        // (a JVM on two loaded cores can take a while to log its first line)
        expect(await waitUntil(() => readers.every((r) => r.stamped().length >= LINES), 60_000), `${LINES} status lines from every node`).toBe(true);
        for (const [id, r] of readers.entries()) {
          const at = r.stamped().map((x) => x.atMs);
          const gaps = at.slice(1).map((t, k) => t - at[k]!).sort((a, b) => a - b);
          const median = gaps[Math.floor(gaps.length / 2)]!;
          // at the default period the gap is 1,000 ms; a late timer on a loaded machine stretches some gaps, not the median
          expect(median, `n${id} (${engines[id]}): median ms between status lines, ${gaps.join(', ')}`).toBeGreaterThanOrEqual(FINE_STATUS_INTERVAL_MS * 0.5);
          expect(median, `n${id} (${engines[id]}): median ms between status lines, ${gaps.join(', ')}`).toBeLessThan(FINE_STATUS_INTERVAL_MS * 3);
        }
      } finally {
        await cluster.stop();
      }
    }, 90_000);
  });
}
