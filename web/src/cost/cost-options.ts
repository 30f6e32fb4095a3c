// What the cost model's memory and instances commands print (JSON), and the sentences the Cost
// view shows from them: tight vs ample memory per language, and each catalogue instance with
// its price per vCPU and per GiB. Pure: no DOM.
import { countText, usd } from './cost-output.ts';

/** One language at one setting (cost-model/src/replicant_cost/options.py, language_at). */
export interface LanguageAt {
  known: boolean;
  feasible: boolean;
  reason?: string;
  capacity_from?: string;
  capacity_rows?: string[];
  capacity_ops_per_s_per_cluster?: number;
  instances_now?: number;
  cloud_usd_per_year_now?: number;
}

export interface InstancePrice {
  name: string;
  vcpus: number;
  memory_gib: number;
  usd_per_hour: number;
  usd_per_vcpu_hour: number;
  usd_per_gib_hour: number;
  price_file: string;
  retrieved_on: string;
  source_note: string;
}

export interface MemorySetting {
  memory_gib: number;
  memory_to_data_ratio: number;
  workload: string;
  vcpus: number;
}

export interface MemoryOutput {
  command: 'memory';
  demand_ops_per_s_now: number;
  settings: { ample: MemorySetting; tight: MemorySetting };
  instance: InstancePrice;
  languages: Record<string, { ample: LanguageAt; tight: LanguageAt; extra_instances_now?: number; extra_cloud_usd_per_year_now?: number }>;
  rule: string;
}

export interface InstancesOutput {
  command: 'instances';
  demand_ops_per_s_now: number;
  workload: string;
  dataset_gib: number;
  instances: (InstancePrice & { memory_to_data_ratio: number; languages: Record<string, LanguageAt> })[];
  rule: string;
}

const ratioText = (r: number) => String(Number(r.toPrecision(6)));

/** "$0.048", "$4.608": a price per hour keeps four significant figures (the catalogue gives at most four). */
export function unitPrice(v: number): string {
  if (!Number.isFinite(v) || v < 0) return 'not a price';
  if (v >= 1000) return usd(v);
  // Below a hundredth of a cent String() would switch to exponent form ("$1e-9").
  if (v > 0 && v < 0.0001) return 'under $0.0001';
  return `$${Number(v.toPrecision(4)).toString()}`;
}

/** The answer for one language, e.g. "At ratio 1.25 Java needs 165 more instances than at ratio 8: +$555.0 k a year." */
export function memorySentence(out: MemoryOutput, language: string): string {
  const row = out.languages[language];
  const tight = ratioText(out.settings.tight.memory_to_data_ratio);
  const ample = ratioText(out.settings.ample.memory_to_data_ratio);
  if (!row) return `${language}: not in the model’s answer.`;
  const side = (name: 'tight' | 'ample', at: LanguageAt) => {
    const r = name === 'tight' ? tight : ample;
    if (!at.known) return `${language} has no known capacity at ratio ${r}, so the two cannot be compared`;
    if (!at.feasible) return `${language} cannot meet the SLO at ratio ${r}: no number of instances serves the demand`;
    return null;
  };
  const why = side('tight', row.tight) ?? side('ample', row.ample);
  if (why !== null || row.extra_instances_now === undefined || row.extra_cloud_usd_per_year_now === undefined) return `${why ?? `${language}: no comparison`}.`;
  const n = row.extra_instances_now;
  const dollars = row.extra_cloud_usd_per_year_now;
  if (n === 0) return `At ratio ${tight} ${language} needs as many instances as at ratio ${ample} (${countText(row.tight.instances_now!)}): memory costs it nothing extra.`;
  const more = n > 0 ? `${countText(n)} more` : `${countText(-n)} fewer`;
  const sign = dollars >= 0 ? '+' : '−';
  return `At ratio ${tight} ${language} needs ${more} instances than at ratio ${ample}: ${sign}${usd(Math.abs(dollars))} a year.`;
}

/** "18,000 ops/s per cluster → 36 instances, $121.1 k a year" or why there is none. */
export function languageAtWords(at: LanguageAt, setting: { vcpus: number; memory_gib: number }): string {
  if (!at.known) return `no capacity known at ${setting.vcpus} vCPUs, ${setting.memory_gib} GiB`;
  if (!at.feasible) return 'cannot meet the SLO here';
  return `${countText(at.capacity_ops_per_s_per_cluster!)} ops/s per cluster → ${countText(at.instances_now!)} instances, ${usd(at.cloud_usd_per_year_now!)} a year`;
}

/** The cheapest instance (per year, at today's demand) for a language, among those with a known capacity. */
export function cheapestInstance(out: InstancesOutput, language: string): { name: string; usd_per_year: number; instances: number } | null {
  let best: { name: string; usd_per_year: number; instances: number } | null = null;
  for (const i of out.instances) {
    const at = i.languages[language];
    if (!at || at.cloud_usd_per_year_now === undefined || at.instances_now === undefined) continue;
    if (best === null || at.cloud_usd_per_year_now < best.usd_per_year) best = { name: i.name, usd_per_year: at.cloud_usd_per_year_now, instances: at.instances_now };
  }
  return best;
}

/** The sentence over the instance table for one language. */
export function tradeoffSentence(out: InstancesOutput, language: string): string {
  const known = out.instances.filter((i) => i.languages[language]?.instances_now !== undefined);
  if (known.length === 0) return `${language}: no instance in the catalogue has a known capacity at its whole vCPUs and memory; price a Lab run at that setting to fill one in.`;
  const best = cheapestInstance(out, language)!;
  if (known.length === 1) return `${language}: only ${best.name} has a known capacity used whole (${countText(best.instances)} instances, ${usd(best.usd_per_year)} a year); the others are not measured, so no trade-off can be read yet.`;
  const others = known.filter((i) => i.name !== best.name).map((i) => `${i.name} ${usd(i.languages[language]!.cloud_usd_per_year_now!)}`);
  return `${language}: cheapest is ${best.name} (${countText(best.instances)} instances, ${usd(best.usd_per_year)} a year), against ${others.join(', ')}.`;
}
