// Probes that need not run twice. A sweep (or the Race) probes the same engine at the same rate
// at several memory sizes; where the memory limit changes nothing the models do (C++ and Rust
// have no collector: while their resident set fits, the limit never enters the run), the probe
// at the next size is the same run as the one already made, apart from the two fields that
// name the memory. Its result is that run's, with those fields rewritten — byte for byte what
// running it again gives (search/probe-cache.test.ts), so nothing here is an estimate.
import type { RunResult, RunSpec, SloSearchSpec } from '../api.ts';
import { DEFAULT_CARD, validateCard } from '../models/card.ts';
import { CpuPool } from '../models/cpu.ts';
import { GIB, makeRuntime } from '../models/node-model.ts';
import { runtimeSettings } from '../run/node-step.ts';
import { resolveSpec } from '../run/spec.ts';
import { round4 } from '../results/timelines.ts';

/** Enough for a Race (four engines) stepping through a sweep's rates; results are ~10 kB. */
const CAPACITY = 64;

/** The run's identity without its memory, when the memory changes nothing in it; null when it
 * may (a collector, an OOM kill, exact mode's engines). `stop_us` is the early-stop limit the
 * run is made with (it changes where a run stops). */
export function memoryFreeKey(spec: RunSpec, stop_us: number | undefined, count_over_us: number | undefined): string | null {
  if (spec.fidelity !== 'fast') return null;
  const card = validateCard(spec.model_card ?? DEFAULT_CARD);
  const s = resolveSpec(spec, card);
  for (const engine of new Set(s.engines)) {
    const rt = makeRuntime(card, runtimeSettings(s, engine), new CpuPool(s.vcpus, s.timeline_bucket_us));
    if (!rt.limitChangesNothing?.()) return null;
  }
  const { memory_gib, memory_to_data_ratio, ...resources } = spec.resources;
  void memory_gib;
  void memory_to_data_ratio;
  return JSON.stringify([{ ...spec, resources }, stop_us ?? null, count_over_us ?? null]);
}

export class ProbeCache {
  private readonly runs = new Map<string, RunResult>();

  /** The cached run for this key, as the run of `spec` (its memory fields rewritten). */
  get(key: string, spec: RunSpec): RunResult | null {
    const r = this.runs.get(key);
    if (!r) return null;
    // most recently used last
    this.runs.delete(key);
    this.runs.set(key, r);
    const s = resolveSpec(spec, validateCard(spec.model_card ?? DEFAULT_CARD));
    return { ...r, spec, dataset: { ...r.dataset, memory_gib: round4(s.memory_bytes / GIB) } };
  }

  clear(): void {
    this.runs.clear();
  }

  set(key: string, r: RunResult): void {
    this.runs.set(key, r);
    if (this.runs.size > CAPACITY) this.runs.delete(this.runs.keys().next().value!);
  }
}

/** A probe's identity: the search's settings that decide a probe (not its hint, which only
 * chooses the rates), the rate and the early-stop limit. */
export function probeKey(spec: SloSearchSpec, target: number, stop_us: number | undefined): string {
  const { hint, min_ops_per_s, max_ops_per_s, tolerance, ...decides } = spec;
  void hint;
  void min_ops_per_s;
  void max_ops_per_s;
  void tolerance;
  return JSON.stringify([decides, target, stop_us ?? null]);
}

/** The last CAPACITY values by key, least recently used out first. */
export class RunMemo<T> {
  private readonly values = new Map<string, T>();

  get(key: string): T | undefined {
    const v = this.values.get(key);
    if (v === undefined) return undefined;
    this.values.delete(key);
    this.values.set(key, v);
    return v;
  }

  clear(): void {
    this.values.clear();
  }

  set(key: string, v: T): void {
    this.values.set(key, v);
    if (this.values.size > CAPACITY) this.values.delete(this.values.keys().next().value!);
  }
}
