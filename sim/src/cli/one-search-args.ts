// The options of `npm --workspace @replicant/sim run one-search` (one-search-cli.ts), checked
// before anything runs: a search takes seconds to minutes, and a typo in a card key must stop it
// with a message, never run the unchanged card under a changed name.
import type { EngineName, ModelCard } from '../api.ts';

export const ONE_SEARCH_USAGE = `npm --workspace @replicant/sim run one-search -- [options]
  --engine cpp|java|go|rust   the engine (required)
  --gib G                     memory as the paper states it (its ratio of the 4 GiB dataset; required)
  --vcpus N                   vCPUs (default 8)
  --workload A|B              YCSB workload (default A)
  --card FILE                 a model card file (default: the Lab's default card)
  --set KEY=VALUE             change one parameter of the card for this search (repeatable);
                              the card's version gets the tag "-set" so no result is taken for the card's own
  --client-threads N          YCSB client threads (default: the paper's method, 64)
One cold SLO search with the spec the fidelity runner builds for a paper point
(sim/src/fidelity/specs.ts); prints one JSON line.`;

const ENGINES: EngineName[] = ['cpp', 'java', 'go', 'rust'];

export interface OneSearchArgs {
  engine: EngineName;
  gib: number;
  vcpus: number;
  workload: 'A' | 'B';
  card_file: string | null;
  set: [string, number][];
  client_threads: number | null;
}

function positive(name: string, v: string, integer: boolean): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'}, not ${JSON.stringify(v)}`);
  return n;
}

/** The parsed options; throws with a message naming the bad option. 'help' when asked for. */
export function parseOneSearchArgs(args: string[]): OneSearchArgs | 'help' {
  if (args.includes('--help') || args.includes('-h')) return 'help';
  const out: OneSearchArgs = { engine: 'java', gib: NaN, vcpus: 8, workload: 'A', card_file: null, set: [], client_threads: null };
  let engineSeen = false;
  for (let i = 0; i < args.length; i += 2) {
    const k = args[i]!;
    const v = args[i + 1];
    if (!k.startsWith('--')) throw new Error(`unexpected argument ${JSON.stringify(k)} (--help lists the options)`);
    if (v === undefined || v.startsWith('--')) throw new Error(`${k} needs a value`);
    switch (k) {
      case '--engine':
        if (!ENGINES.includes(v as EngineName)) throw new Error(`--engine must be one of ${ENGINES.join(', ')}, not ${JSON.stringify(v)}`);
        out.engine = v as EngineName;
        engineSeen = true;
        break;
      case '--gib':
        out.gib = positive('--gib', v, false);
        break;
      case '--vcpus':
        out.vcpus = positive('--vcpus', v, true);
        break;
      case '--workload':
        if (v !== 'A' && v !== 'B') throw new Error(`--workload must be A or B, not ${JSON.stringify(v)}`);
        out.workload = v;
        break;
      case '--card':
        out.card_file = v;
        break;
      case '--set':
        out.set.push(parseCardSetting(v));
        break;
      case '--client-threads':
        out.client_threads = positive('--client-threads', v, true);
        break;
      default:
        throw new Error(`unknown option ${k} (--help lists the options)`);
    }
  }
  if (!engineSeen) throw new Error('--engine is needed');
  if (Number.isNaN(out.gib)) throw new Error('--gib is needed');
  return out;
}

/** The card with each --set value in place; a key the card does not have is an error, so a typo
 * cannot leave the card unchanged. The version is tagged "-set" when anything changed. */
/** `--set KEY=NUMBER`: a card parameter by its dotted path and its value (cardWithSettings). */
export function parseCardSetting(v: string): [string, number] {
  const m = /^([A-Za-z0-9_.]+)=(.+)$/.exec(v);
  const value = m ? Number(m[2]) : NaN;
  if (!m || !Number.isFinite(value)) throw new Error(`--set takes KEY=NUMBER, not ${JSON.stringify(v)}`);
  return [m[1]!, value];
}

export function cardWithSettings(card: ModelCard, set: [string, number][]): ModelCard {
  if (set.length === 0) return card;
  const parameters = { ...card.parameters };
  for (const [key, value] of set) {
    const p = parameters[key];
    if (!p) throw new Error(`model card ${card.version} has no parameter "${key}"`);
    parameters[key] = { ...p, value };
  }
  return { ...card, version: `${card.version.split('-')[0]}-set`, parameters };
}
