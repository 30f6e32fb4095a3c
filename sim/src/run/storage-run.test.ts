// Durability end to end: the real engines in durability log (exact) with their persists completed
// by the storage model, and the fast model in both placements.
import { describe, expect, it } from 'vitest';
import type { RunResult, RunSpec, StorageSpec } from '../api.ts';
import { provider } from '../cli/engines.ts';
import { simulate } from './simulate.ts';
import { SpecError } from './spec.ts';

const spec = (storage: StorageSpec | undefined, over: Partial<RunSpec> = {}): RunSpec => ({
  cluster: { engines: ['rust', 'rust', 'rust'], seed: 3 },
  workload: { name: 'A', read_proportion: 0.5, record_count: 100_000, engine_record_count: 50 },
  resources: { vcpus: 8, memory_gib: 32 },
  load: { mode: 'open', target_ops_per_s: 2000, client_threads: 64, duration_s: 1.5, warmup_s: 0.5 },
  fidelity: 'fast',
  ...(storage ? { storage } : {}),
  ...over,
});

const strip = (r: RunResult) => JSON.stringify({ ...r, wall_ms: undefined });

describe('durability in the fast model', () => {
  const none = simulate(spec(undefined), null);
  const ordered = simulate(spec({ durability: 'ordered', device: 'cloud_block' }), null);
  const scattered = simulate(spec({ durability: 'scattered', device: 'cloud_block' }), null);

  it('none persists nothing and reports no storage; both placements report their model and flushes', () => {
    expect(none.storage).toBeUndefined();
    for (const r of [ordered, scattered]) {
      expect(r.storage!.model_version).toBe('1.0.0');
      expect(r.storage!.device).toBe('cloud_block');
      expect(r.storage!.persists).toBeGreaterThan(3 * 2000);
      expect(r.storage!.flush_mean_us).toBeGreaterThan(1000);
      expect(r.achieved_ops_per_s).toBeGreaterThan(1900);
    }
    expect(ordered.storage!.durability).toBe('ordered');
    expect(scattered.storage!.durability).toBe('scattered');
  });

  it('an ordered log costs several flushes per operation in a row; scattered entries about one, in parallel', () => {
    const flush = ordered.storage!.flush_mean_us;
    const extraOrdered = ordered.latency.all.p50_us - none.latency.all.p50_us;
    const extraScattered = scattered.latency.all.p50_us - none.latency.all.p50_us;
    expect(extraScattered).toBeGreaterThan(0.8 * flush);
    expect(extraScattered).toBeLessThan(2.5 * flush);
    expect(extraOrdered).toBeGreaterThan(2.5 * extraScattered);
    // the ordered log writes commit marks too, and groups what waits behind a flush
    expect(ordered.storage!.persists_per_flush).toBeGreaterThan(1);
  });

  it('a faster device shrinks what durability adds', () => {
    const nvme = simulate(spec({ durability: 'ordered', device: 'local_nvme' }), null);
    expect(nvme.latency.all.p50_us - none.latency.all.p50_us).toBeLessThan((ordered.latency.all.p50_us - none.latency.all.p50_us) / 5);
  });

  it('the modelled recovery times are there: a log replay for both, the gathered tail only for scattered', () => {
    expect(ordered.storage!.recovery.log_replay_ms).toBeGreaterThan(0);
    expect(ordered.storage!.recovery.scattered_tail_ms).toBe(0);
    expect(scattered.storage!.recovery.scattered_tail_ms).toBeGreaterThan(0);
    expect(ordered.storage!.recovery.snapshot_transfer_ms).toBeGreaterThan(0);
  });

  it('the same seed gives the same run, byte for byte', () => {
    expect(strip(simulate(spec({ durability: 'scattered', device: 'cloud_block' }), null))).toBe(strip(scattered));
    expect(strip(simulate(spec({ durability: 'ordered', device: 'cloud_block' }), null))).toBe(strip(ordered));
  });
});

describe('durability with the real engines (exact)', () => {
  it('the engines persist in durability log, their persists complete after the modelled flush, and the fast model agrees', async () => {
    const p = await provider(['rust']);
    const exactNone = simulate(spec(undefined, { fidelity: 'exact' }), p);
    const exact = simulate(spec({ durability: 'ordered', device: 'cloud_block' }, { fidelity: 'exact' }), p);
    expect(exact.storage!.persists).toBeGreaterThan(3 * 2000);
    expect(exact.achieved_ops_per_s).toBeGreaterThan(1900);
    const fastOrdered = simulate(spec({ durability: 'ordered', device: 'cloud_block' }), null);
    expect(exact.latency.all.p50_us).toBeGreaterThan(exactNone.latency.all.p50_us + 2 * exact.storage!.flush_mean_us);
    expect(Math.abs(exact.latency.all.p50_us - fastOrdered.latency.all.p50_us)).toBeLessThan(0.25 * exact.latency.all.p50_us);
    // determinism with the engines in the loop
    expect(strip(simulate(spec({ durability: 'ordered', device: 'cloud_block' }, { fidelity: 'exact' }), p))).toBe(strip(exact));
  }, 120_000);

  it('scattered needs the fast model; a bad field is an error naming it', () => {
    expect(() => simulate(spec({ durability: 'scattered' }, { fidelity: 'exact' }), null)).toThrow(SpecError);
    expect(() => simulate(spec({ durability: 'scattered' }, { fidelity: 'exact' }), null)).toThrow(/scattered" needs fidelity "fast"/);
    expect(() => simulate(spec({ durability: 'fsync' as 'ordered' }), null)).toThrow(/storage\.durability must be one of none, ordered, scattered/);
    expect(() => simulate(spec({ durability: 'ordered', device: 'tape' as 'local_nvme' }), null)).toThrow(/storage\.device must be one of cloud_block, local_nvme/);
  });
});
