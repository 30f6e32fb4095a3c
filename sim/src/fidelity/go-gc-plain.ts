// The plain 120 s Go runs behind Fig 12 (at 32, 8 and 6 GiB, near each memory's answer), their
// figures kept as test data: go-gc.test.ts holds the sampled run (go-gc.ts) to them without
// paying ≈ 50 CPU-s for the plain runs each time. The record names the model card by a
// fingerprint of its values (search/cold-answer.ts): read under another card, the check fails and
// names the command that writes the record again. Node only (node:crypto, through cardFingerprint).
import type { ModelCard } from '../api.ts';
import { DEFAULT_CARD } from '../models/card.ts';
import { simulate } from '../run/simulate.ts';
import { cardFingerprint } from '../search/cold-answer.ts';
import { GO_GC_RUN_S, goGcRunSpec, plainGoGcFigures, type GoGcFigures } from './go-gc.ts';

/** Fig 12's runs: the rates near the table's answers with card 1.7.1 (32 and 8 GiB 49.6 Kops/s,
 * 6 GiB 41.08). */
export const GO_GC_POINTS: readonly { gib: number; ops_per_s: number }[] = [
  { gib: 32, ops_per_s: 49_600 },
  { gib: 8, ops_per_s: 49_600 },
  { gib: 6, ops_per_s: 41_080 },
];

export interface GoGcPlainRecord {
  model_card_version: string;
  model_card_fingerprint: string;
  run_s: number;
  points: { gib: number; ops_per_s: number; figures: GoGcFigures }[];
  regenerate: string;
}

export const GO_GC_PLAIN_COMMAND = 'npm --workspace @replicant/sim run go-gc-plain -- --out src/fidelity/testdata/go-gc-plain.json';

export function computeGoGcPlain(onPoint: (gib: number, cpu_s: number) => void = () => {}): GoGcPlainRecord {
  const points = GO_GC_POINTS.map(({ gib, ops_per_s }) => {
    const c0 = process.cpuUsage();
    const figures = plainGoGcFigures(simulate(goGcRunSpec('A', gib, 8, ops_per_s), null));
    const c = process.cpuUsage(c0);
    onPoint(gib, (c.user + c.system) / 1e6);
    return { gib, ops_per_s, figures };
  });
  return { model_card_version: DEFAULT_CARD.version, model_card_fingerprint: cardFingerprint(DEFAULT_CARD), run_s: GO_GC_RUN_S, points, regenerate: GO_GC_PLAIN_COMMAND };
}

/** A record read back: its shape checked and its card the default, else an error naming the
 * command that writes it again. */
export function checkGoGcPlain(raw: unknown, card: ModelCard = DEFAULT_CARD): GoGcPlainRecord {
  const r = raw as GoGcPlainRecord;
  if (!r || typeof r !== 'object' || !Array.isArray(r.points) || typeof r.regenerate !== 'string') throw new Error('not a go-gc-plain record (fidelity/go-gc-plain.ts)');
  for (const p of r.points) {
    const f = p?.figures;
    if (!f || ![p.gib, p.ops_per_s, f.runtime_share_pct, f.instantaneous_pct, f.cycles_per_s].every((x) => typeof x === 'number' && Number.isFinite(x))) throw new Error('go-gc-plain record: each point needs gib, ops_per_s and three finite figures');
  }
  const fp = cardFingerprint(card);
  if (r.model_card_fingerprint !== fp) throw new Error(`go-gc-plain record made with card ${r.model_card_version} (${r.model_card_fingerprint}), the default card is ${card.version} (${fp}): regenerate it with \`${r.regenerate}\``);
  return r;
}
