// The model card: every parameter of the simulator's models, with its unit and where it comes
// from (measured / derived from a stated paper figure / assumed). The default card is the
// newest file in data/models/; a run may pass its own card (RunSpec.model_card).
import type { CardParameter, EngineName, ModelCard } from '../api.ts';
import defaultCardJson from '@replicant/data/models/1.7.1.json' with { type: 'json' };

export const DEFAULT_CARD: ModelCard = defaultCardJson as ModelCard;

export class CardError extends Error {}

/** The value of a card parameter; a missing or non-numeric one is an error naming the key. */
export function param(card: ModelCard, key: string): number {
  const p: CardParameter | undefined = card.parameters[key];
  if (!p) throw new CardError(`model card ${card.version} has no parameter "${key}"`);
  if (typeof p.value !== 'number' || !Number.isFinite(p.value)) throw new CardError(`model card parameter "${key}" is not a finite number`);
  return p.value;
}

/** A per-engine parameter: "<group>.<engine>.<name>". */
export function langParam(card: ModelCard, group: string, engine: EngineName, name: string): number {
  return param(card, `${group}.${engine}.${name}`);
}

export function validateCard(card: unknown): ModelCard {
  const c = card as ModelCard;
  if (!c || typeof c !== 'object') throw new CardError('a model card is an object');
  // data/schema/model-card.schema.json's pattern: a derived card carries a pre-release tag
  // (0.2.0-machine.20261127, data/models/machine/)
  if (typeof c.version !== 'string' || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(c.version)) throw new CardError('model card version must be like 1.2.3 or 1.2.3-tag');
  if (!c.parameters || typeof c.parameters !== 'object') throw new CardError('model card has no parameters');
  for (const [k, p] of Object.entries(c.parameters)) {
    if (!p || typeof p.value !== 'number' || !Number.isFinite(p.value)) throw new CardError(`parameter ${k}: value must be a finite number`);
    if (!['measured', 'derived', 'assumed'].includes(p.source)) throw new CardError(`parameter ${k}: source must be measured, derived or assumed`);
    if (typeof p.unit !== 'string' || typeof p.note !== 'string') throw new CardError(`parameter ${k}: unit and note are strings`);
  }
  return c;
}

export function defaultNetwork(card: ModelCard = DEFAULT_CARD) {
  return {
    one_way_latency_us: param(card, 'network.one_way_latency_us'),
    jitter_us: param(card, 'network.jitter_mean_us'),
    bandwidth_gbps: param(card, 'network.bandwidth_gbps'),
  };
}
