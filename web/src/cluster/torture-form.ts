// The Cluster view's torture control as plain data: the student's choice (engine, seed,
// durability) read into the line that names a run (sim/src/torture/replay-spec.ts, the same
// line `npm run torture` prints in its lab address), or a sentence saying what is wrong; and a
// run's line read back into the control. Pure: no DOM, no worker.
import { formatReplaySpec, MAX_SEED, parseReplaySpec, type ReplaySpec } from '@replicant/sim/torture/replay-spec';

/** none: a crashed node restarts empty (the paper's design); log: it restarts from its disk;
 * kept: it comes back with its memory (an idealised node, the command line's default). */
export type TortureDurability = 'none' | 'log' | 'kept';

export interface TortureChoice {
  engine: ReplaySpec['engine'];
  /** as typed: only a whole number in [0, MAX_SEED] starts a run */
  seed_text: string;
  durability: TortureDurability;
}

/** The seed the tests and docs/reliability.md use to show a caught violation: `npm run torture
 * -- --engine rust --replay 275 --durability none` fails Porcupine (a node restarted empty), and
 * the same seed in durability log passes. */
export const KNOWN_VIOLATION: TortureChoice = { engine: 'rust', seed_text: '275', durability: 'none' };

export const DURABILITY_CHOICES: readonly { value: TortureDurability; label: string }[] = [
  { value: 'none', label: 'none (restarts empty)' },
  { value: 'log', label: 'log (restarts from disk)' },
  { value: 'kept', label: 'kept (idealised)' },
];

export function durabilityOf(r: ReplaySpec): TortureDurability {
  return r.durability ?? (r.amnesia ? 'none' : 'kept');
}

/** The control's fields for the run a line names. */
export function choiceOf(spec: string): TortureChoice {
  const r = parseReplaySpec(spec);
  return { engine: r.engine, seed_text: String(r.seed), durability: durabilityOf(r) };
}

/** The seed as typed, or the sentence that says why it is not one. */
export function readSeed(text: string): { seed: number } | { error: string } {
  const t = text.trim();
  if (/^\d{1,15}$/.test(t) && Number(t) <= MAX_SEED) return { seed: Number(t) };
  const shown = t === '' ? 'an empty field' : `"${t.length > 40 ? t.slice(0, 40) + '…' : t}"`;
  return { error: `The seed must be a whole number from 0 to ${MAX_SEED}; ${shown} is not one. No run was started.` };
}

/**
 * The line for the chosen run. `current` is the run on screen ('' for none): when the engine and
 * the seed stay the same, its other parts (kept faults, operation limit, the cores' options)
 * stay too, so switching durability on a shrunk run replays that shrunk run; a new seed or engine
 * starts the whole seed with the cores' defaults.
 */
export function specFor(choice: TortureChoice, current: string): { spec: string } | { error: string } {
  const seed = readSeed(choice.seed_text);
  if ('error' in seed) return seed;
  let base: ReplaySpec | null = null;
  try {
    base = current === '' ? null : parseReplaySpec(current);
  } catch {
    base = null; // the run on screen is not one: start fresh
  }
  const same = base !== null && base.engine === choice.engine && base.seed === seed.seed;
  const r: ReplaySpec = same
    ? { ...base! }
    : { engine: choice.engine, seed: seed.seed, keep_faults: null, ops: null, amnesia: false, durability: null, check_quorum: false, repair: 0, election: 0 };
  r.amnesia = false;
  r.durability = choice.durability === 'kept' ? null : choice.durability;
  // The cores checkpoint only with a disk to compact (torture --checkpoints needs durability log).
  if (r.durability !== 'log') delete r.checkpoints;
  return { spec: formatReplaySpec(r) };
}
