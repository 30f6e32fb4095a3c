// "Price this": a result (a Lab sweep point, the Race's lanes, a native results file) as the
// Cost view's settings: the capacity per language at the result's memory and vCPUs, in ops/s
// per cluster (results are in Kops/s), each with where it came from. Pure.
import { ENGINE_NAMES, engineOfLanguage, type EngineName } from '@replicant/engines/loader/catalogue';
import type { SweepResult } from '@replicant/sim/api';
import { COST_FIELDS, type CostState } from './cost-fields.ts';
import type { CapacitySource } from './capacity-source.ts';
import { formatNumber } from '../state/fields.ts';
import type { LabState } from '../lab/lab-fields.ts';
import type { ResultsFile } from '../paper/results.ts';
import { PAPER_DATASET_GIB } from '@replicant/data/memory-ratio';

/** One result at one setting: max throughput at the SLO per engine, in Kops/s (null: not met). */
export interface PricePoint {
  workload: string;
  memory_data_ratio: number;
  vcpus: number;
  kops: Partial<Record<EngineName, number | null>>;
  source: CapacitySource;
}

export type Priced = { ok: true; cost: CostState; notPriced: EngineName[] } | { ok: false; reason: string };

function choices(key: 'ratio' | 'vcpus' | 'wl'): string[] {
  const c = COST_FIELDS[key].control;
  return c.kind === 'select' ? c.options.map((o) => o.value) : [];
}

/**
 * The Cost state that prices a point: its workload, memory and vCPUs, and for each engine with
 * a value its capacity and source. An engine without one goes back to the paper's value.
 */
export function priceThis(cost: CostState, p: PricePoint): Priced {
  const ratio = formatNumber(p.memory_data_ratio);
  const vcpus = formatNumber(p.vcpus);
  if (!choices('wl').includes(p.workload)) return { ok: false, reason: `the Cost view prices workloads ${choices('wl').join(' and ')}, not ${p.workload}` };
  if (!choices('ratio').includes(ratio)) return { ok: false, reason: `the Cost view prices memory:data ratios ${choices('ratio').join(', ')}, not ${ratio}` };
  if (!choices('vcpus').includes(vcpus)) return { ok: false, reason: `the Cost view prices ${choices('vcpus').join(', ')} vCPUs, not ${vcpus}` };
  const next: CostState = { ...cost, wl: p.workload as CostState['wl'], ratio: ratio as CostState['ratio'], vcpus: vcpus as CostState['vcpus'], at: { workload: p.workload, ratio, vcpus } };
  const notPriced: EngineName[] = [];
  for (const e of ENGINE_NAMES) {
    const kops = p.kops[e];
    const ops = kops === undefined || kops === null ? null : Math.round(kops * 1000);
    const usable = ops !== null && ops >= 1;
    next[`cap${e}`] = usable ? ops : null;
    next[`src${e}`] = usable ? p.source : null;
    if (!usable) notPriced.push(e);
  }
  if (notPriced.length === ENGINE_NAMES.length) return { ok: false, reason: 'no engine met the SLO at this setting' };
  return { ok: true, cost: next, notPriced };
}

/**
 * Tight vs ample from a Lab memory sweep: the Cost state with the sweep's largest ratio as the
 * form's (its capacities) and its smallest as the compared ratio (its capacities), both
 * simulated. Refused when the sweep is not over memory or either end cannot be priced.
 */
export function priceTightVsAmple(cost: CostState, sweep: SweepResult, lab: LabState): Priced {
  if (lab.sweep !== 'memory') return { ok: false, reason: 'tight vs ample needs a sweep over memory' };
  const count = lab.memunit === 'gib' ? lab.gibs.length : lab.ratios.length;
  const ratios = Array.from({ length: count }, (_, i) => labPointSetting(lab, i).memory_data_ratio);
  if (new Set(ratios).size < 2) return { ok: false, reason: 'tight vs ample needs at least two memory settings in the sweep' };
  const ample = ratios.indexOf(Math.max(...ratios));
  const tight = ratios.indexOf(Math.min(...ratios));
  const a = priceThis(cost, labSweepPoint(sweep, lab, ample));
  if (!a.ok) return { ok: false, reason: `its ample end: ${a.reason}` };
  const tp = labSweepPoint(sweep, lab, tight);
  const t = priceThis(cost, tp);
  if (!t.ok) return { ok: false, reason: `its tight end: ${t.reason}` };
  const next: CostState = { ...a.cost, vs: t.cost.ratio, vsat: t.cost.at };
  for (const e of ENGINE_NAMES) {
    next[`vscap${e}`] = t.cost[`cap${e}`];
    next[`vssrc${e}`] = t.cost[`src${e}`];
  }
  const notPriced = ENGINE_NAMES.filter((e) => a.notPriced.includes(e) || t.notPriced.includes(e));
  return { ok: true, cost: next, notPriced };
}

/** The Lab's setting at one point of its sweep: the memory:data ratio and vCPUs. */
export function labPointSetting(lab: LabState, index: number): { memory_data_ratio: number; vcpus: number } {
  const ratioOf = (gib: number) => gib / PAPER_DATASET_GIB;
  const here = lab.memunit === 'gib' ? ratioOf(lab.gib) : lab.ratio;
  if (lab.sweep === 'vcpus') return { memory_data_ratio: here, vcpus: lab.vcpulist[index]! };
  return { memory_data_ratio: lab.memunit === 'gib' ? ratioOf(lab.gibs[index]!) : lab.ratios[index]!, vcpus: lab.vcpus };
}

/** A Lab sweep's point (by its position on the axis) as a price point; points are engine-major. */
export function labSweepPoint(sweep: SweepResult, lab: LabState, index: number): PricePoint {
  const kops: PricePoint['kops'] = {};
  for (const e of lab.engines) {
    const p = sweep.points.filter((q) => q.engine === e)[index];
    if (p) kops[e] = p.result.max_ops_per_s_at_slo === null ? null : p.result.max_ops_per_s_at_slo / 1000;
  }
  return { workload: lab.wl, ...labPointSetting(lab, index), kops, source: { kind: 'simulated', model: sweep.model_card_version } };
}

/** The Race's finished lanes at one squeeze step (the paper's 8 vCPUs) as a price point. */
export function racePoint(lanes: { engine: EngineName; max_kops: number | null }[], memory_data_ratio: number, workload: string, model: string): PricePoint {
  const kops: PricePoint['kops'] = {};
  for (const l of lanes) kops[l.engine] = l.max_kops;
  return { workload, memory_data_ratio, vcpus: 8, kops, source: { kind: 'simulated', model } };
}

/** The settings a native results file measured max throughput at, in file order, no repeats. */
export function nativeSettings(f: ResultsFile): { workload: string; memory_data_ratio: number; vcpus: number }[] {
  const out: { workload: string; memory_data_ratio: number; vcpus: number }[] = [];
  for (const r of f.rows) {
    // Rows of systems that are not this lab's engines (etcd) have nothing to price.
    if (r.metric !== 'max_throughput_slo' || !engineOfLanguage(r.language) || !r.workload || r.memory_data_ratio == null || r.vcpus == null) continue;
    if (!out.some((o) => o.workload === r.workload && o.memory_data_ratio === r.memory_data_ratio && o.vcpus === r.vcpus)) {
      out.push({ workload: r.workload, memory_data_ratio: r.memory_data_ratio, vcpus: r.vcpus });
    }
  }
  return out;
}

/**
 * A native file's max throughput at one setting. Repetitions give their median. A bound ("not
 * even 100 ops/s met the SLO") is not a capacity: that engine is left unpriced.
 */
export function nativePoint(f: ResultsFile, setting: { workload: string; memory_data_ratio: number; vcpus: number }): PricePoint {
  const kops: PricePoint['kops'] = {};
  for (const e of ENGINE_NAMES) {
    const rows = f.rows.filter(
      (r) =>
        r.metric === 'max_throughput_slo' &&
        engineOfLanguage(r.language) === e &&
        r.workload === setting.workload &&
        r.memory_data_ratio === setting.memory_data_ratio &&
        r.vcpus === setting.vcpus &&
        typeof r.value === 'number' &&
        r.unit === 'Kops/s',
    );
    if (rows.length === 0) continue;
    const values = rows.filter((r) => r.qualifier === 'exact' || r.qualifier === 'approx').map((r) => r.value as number).sort((a, b) => a - b);
    kops[e] = values.length === 0 ? null : median(values);
  }
  return { ...setting, kops, source: { kind: 'native', date: f.metadata.date, machine: f.metadata.machine.description } };
}

function median(sorted: number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Why a single Lab run (one offered rate) is not priced, per engine. A capacity is the highest
 * rate that still meets the SLO; one run shows at most that the capacity is no lower than the
 * rate it met, and nothing when it missed. Pricing that bound would overstate the instances
 * needed, so the Lab explains instead and points to the sweep.
 */
export function singleRunWords(results: { engine: EngineName; p99_us: number; achieved_ops_per_s: number }[], offered_ops_per_s: number, slo_ms: number, language: (e: EngineName) => string): string[] {
  const rate = Math.round(offered_ops_per_s).toLocaleString('en-US');
  return results.map((r) => {
    const p99 = Number((r.p99_us / 1000).toPrecision(3));
    if (!Number.isFinite(r.p99_us)) return `${language(r.engine)}: no p99 was measured, so nothing can be said about its capacity.`;
    if (r.p99_us <= slo_ms * 1000) return `${language(r.engine)} met the SLO at ${rate} ops/s (p99 ${p99} ms ≤ ${slo_ms} ms): its capacity is at least that, how much more is unknown.`;
    return `${language(r.engine)} missed the SLO at ${rate} ops/s (p99 ${p99} ms > ${slo_ms} ms): its capacity is lower, by how much is unknown.`;
  });
}
