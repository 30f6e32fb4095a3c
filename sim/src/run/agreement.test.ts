import { describe, expect, it } from 'vitest';
import { availableEngines, provider } from '../cli/engines.ts';
import { checkAgreement, P99_TOLERANCE, THROUGHPUT_TOLERANCE } from './agreement.ts';

describe('fast mode agrees with exact mode', async () => {
  const engines = await availableEngines();
  const provide = await provider(engines);
  for (const engine of engines) {
    it(`${engine}: throughput within ${THROUGHPUT_TOLERANCE * 100} %, p99 within ${P99_TOLERANCE * 100} %`, () => {
      const points = checkAgreement(engine, provide, (p) =>
        console.log(`${p.engine} ${p.label}: exact ${p.exact.ops_per_s} ops/s p99 ${p.exact.p99_us} µs (${p.gc_events_exact} GC events); fast ${p.fast.ops_per_s} ops/s p99 ${p.fast.p99_us} µs`),
      );
      // The tight-memory point must really exercise the collector of a GC'd runtime.
      if (engine === 'go' || engine === 'java') expect(points.at(-1)!.gc_events_exact).toBeGreaterThan(0);
      for (const p of points) {
        expect(p.throughput_error, p.label).toBeLessThanOrEqual(THROUGHPUT_TOLERANCE);
        expect(p.p99_error, p.label).toBeLessThanOrEqual(P99_TOLERANCE);
      }
    }, 1_800_000); // exact Java is the slowest engine; on a shared, loaded machine it took 334 s
  }
});
