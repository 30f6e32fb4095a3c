// A cold SLO search's answer kept as test data, so a test can compare a warm-started search with
// it without paying for the cold search each run (Java's at 6 GiB costs ~30 s). The record names
// the model card it was computed with by a fingerprint of the card's values: a test that reads it
// under another card fails and says how to regenerate it, rather than comparing with a stale
// number. Node only (node:crypto); the simulator proper never imports this.
import { createHash } from 'node:crypto';
import type { EngineName, ModelCard } from '../api.ts';
import { DEFAULT_CARD } from '../models/card.ts';
import { measurementSearchSpec, type MeasurementKnobs } from '../run/measurement.ts';
import { searchSlo } from './slo.ts';

export interface ColdAnswer {
  engine: EngineName;
  knobs: MeasurementKnobs;
  model_card_version: string;
  /** cardFingerprint of the card the search ran with */
  model_card_fingerprint: string;
  max_ops_per_s_at_slo: number | null;
  /** every probe of the search, in order: [target ops/s, met the SLO] */
  probes: [number, boolean][];
  /** the command that writes this record again */
  regenerate: string;
}

/** SHA-256 (first 16 hex digits) of the card's version and every parameter's value, keys sorted:
 * what the simulator reads from a card; notes and sources do not count. */
export function cardFingerprint(card: ModelCard): string {
  const values = Object.keys(card.parameters).sort().map((k) => [k, card.parameters[k]!.value]);
  return createHash('sha256').update(JSON.stringify([card.version, values])).digest('hex').slice(0, 16);
}

export function coldAnswerCommand(engine: EngineName, gib: number, out: string): string {
  return `npm --workspace @replicant/sim run cold-answer -- --engine ${engine} --gib ${gib} --out ${out}`;
}

/** The cold search (no hint) with the Lab's defaults at `gib` GiB, workload A, 8 vCPUs. */
export function computeColdAnswer(engine: EngineName, gib: number, out: string): ColdAnswer {
  const knobs: MeasurementKnobs = { workload: 'A', memory: { gib }, vcpus: 8 };
  const r = searchSlo(measurementSearchSpec(knobs, engine), null);
  return {
    engine,
    knobs,
    model_card_version: DEFAULT_CARD.version,
    model_card_fingerprint: cardFingerprint(DEFAULT_CARD),
    max_ops_per_s_at_slo: r.max_ops_per_s_at_slo,
    probes: r.probes.map((p) => [p.target_ops_per_s, p.met]),
    regenerate: coldAnswerCommand(engine, gib, out),
  };
}

/** A record read back: its shape checked, and its card the default card, else an error that says
 * how to regenerate it. */
export function checkColdAnswer(raw: unknown, card: ModelCard = DEFAULT_CARD): ColdAnswer {
  const a = raw as ColdAnswer;
  if (!a || typeof a !== 'object' || typeof a.regenerate !== 'string' || !Array.isArray(a.probes)) throw new Error('not a cold-answer record (cold-answer.ts)');
  if (a.max_ops_per_s_at_slo !== null && !(typeof a.max_ops_per_s_at_slo === 'number' && a.max_ops_per_s_at_slo > 0)) throw new Error('cold-answer record: max_ops_per_s_at_slo must be a positive number or null');
  for (const p of a.probes) if (!Array.isArray(p) || typeof p[0] !== 'number' || typeof p[1] !== 'boolean') throw new Error('cold-answer record: each probe is [ops/s, met]');
  const fp = cardFingerprint(card);
  if (a.model_card_fingerprint !== fp) {
    throw new Error(`cold-answer record made with card ${a.model_card_version} (${a.model_card_fingerprint}), the default card is ${card.version} (${fp}): regenerate it with \`${a.regenerate}\``);
  }
  return a;
}
