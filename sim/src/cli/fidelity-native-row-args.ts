// The options of `npm --workspace @replicant/sim run native-row` (fidelity-native-row-cli.ts),
// checked before anything runs: a typo in a setting or a card key must stop with a message, never
// simulate another setting or the unchanged card.
import { parseCardSetting } from './one-search-args.ts';

export const NATIVE_ROW_USAGE = `npm --workspace @replicant/sim run native-row -- [options]
  --native FILE        a native results file (required)
  --setting PREFIX     the setting, by the start of its key as the report prints it
                       (java-a-100000rec-r8; required, must name exactly one)
  --card FILE          the model card (required: a machine card for this machine's rows)
  --set KEY=VALUE      change one parameter of the card (repeatable; the version gets "-set")
  --probe RATE,…       also run these offered rates as plain probes (whole window, no shortcut)
One native setting given to the simulator as npm run fidelity -- --native gives it (the same
SLO search spec): the search's answer and probes, and for each --probe rate its p99, the share
of operations over the SLO and every node's collector pauses. Prints JSON lines.`;

export interface NativeRowArgs {
  native: string;
  setting: string;
  card: string;
  set: [string, number][];
  probes: number[];
}

/** The parsed options; throws with a message naming the bad option. 'help' when asked for. */
export function parseNativeRowArgs(args: string[]): NativeRowArgs | 'help' {
  if (args.includes('--help') || args.includes('-h')) return 'help';
  const out: Partial<NativeRowArgs> & { set: [string, number][]; probes: number[] } = { set: [], probes: [] };
  for (let i = 0; i < args.length; i += 2) {
    const k = args[i]!;
    const v = args[i + 1];
    if (!k.startsWith('--')) throw new Error(`unexpected argument ${JSON.stringify(k)} (--help lists the options)`);
    if (v === undefined || v.startsWith('--')) throw new Error(`${k} needs a value`);
    switch (k) {
      case '--native':
        out.native = v;
        break;
      case '--setting':
        out.setting = v;
        break;
      case '--card':
        out.card = v;
        break;
      case '--set':
        out.set.push(parseCardSetting(v));
        break;
      case '--probe':
        for (const r of v.split(',')) {
          const n = Number(r);
          if (!(Number.isFinite(n) && n > 0)) throw new Error(`--probe takes positive rates in ops/s, not ${JSON.stringify(r)}`);
          out.probes.push(n);
        }
        break;
      default:
        throw new Error(`unknown option ${k} (--help lists the options)`);
    }
  }
  for (const need of ['native', 'setting', 'card'] as const) if (out[need] === undefined) throw new Error(`--${need} is needed`);
  return out as NativeRowArgs;
}
